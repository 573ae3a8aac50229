import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { Scheduler } from '../../../src/scheduler/index.ts';
import { openPhase, startCycle, startSeason } from '../../../src/services/cycles.ts';
import { playMove } from '../../../src/services/games.ts';
import { stateIntent } from '../../../src/services/intents.ts';
import { refused, testContext, withServiceDb } from '../../helpers/context.ts';
import { giveStones } from './owned.ts';

/**
 * Krellstones through a cycle on real Postgres: intents like every game (a table of three, stated
 * `together`), refused when a player lacks stones or when the first to state (who would host)
 * has no mat; the Battle Phase seats the first to state as host on their mat, draws each player's
 * stones from their collection and locks them; the game runs on its timers to the end, the locks
 * are released, and `npm run replay` re-derives it from the revealed seed.
 */
const GUILD = '750000000000000001';
const COMMENCE = '750000000000000002';
const mod = { manageGuild: true, roleIds: [] };
const p = (n: number, name: string) => ({ id: `75100000000000000${n}`, name, bot: false });
const [ann, ben, cat, dan] = [p(1, 'Ann'), p(2, 'Ben'), p(3, 'Cat'), p(4, 'Dan')] as const;

const db = withServiceDb();

describe('Krellstones in a cycle', () => {
  it('intents need stones and a host with a mat; the Battle Phase hosts the first to state on their mat', { timeout: 180_000 }, async () => {
    const ctx = testContext(db);
    await startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 1' });
    await startCycle(ctx, { guildId: GUILD, member: mod, name: 'Cycle 1', defaults: { commencementChannelId: COMMENCE, announcementChannelId: COMMENCE, leaderboardChannelId: COMMENCE } });
    await giveStones(ctx, { guildId: GUILD, player: ann, seed: 'ann' });
    await giveStones(ctx, { guildId: GUILD, player: ben, seed: 'ben', mat: true });
    await giveStones(ctx, { guildId: GUILD, player: cat, seed: 'cat' });
    const intent = (from: typeof ann, opponents: Array<typeof ann>) => stateIntent(ctx, { guildId: GUILD, channelId: COMMENCE, channelName: null, kind: 'krellstones', from, opponents, mode: 'together' });

    const noStones = await refused(() => intent(dan, [ann, ben]));
    expect(noStones.code).toBe('krellstones/missing-stones');
    // Ann would be the first to state, so the host, and she has no mat: said at once.
    const noMat = await refused(() => intent(ann, [ben, cat]));
    expect(noMat.code).toBe('krellstones/no-mat');
    expect(noMat.message).toMatch(/you would host the game, and a host needs a Modern Krellstones mat/);
    expect(await db.prisma.intent.count()).toBe(0);
    expect((await intent(ben, [ann, cat])).matched).toEqual([]);
    // Ann is no longer the first: Ben named her.
    expect((await intent(ann, [ben, cat])).matched).toEqual([]);
    expect((await intent(cat, [ann, ben])).matched).toHaveLength(1);

    const phase = await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod, seed: () => '5'.repeat(64) });
    expect(phase.changed && phase.games).toHaveLength(1);
    const game = await db.prisma.game.findFirstOrThrow({ where: { kind: 'krellstones' }, include: { seats: { orderBy: { seat: 'asc' } } } });
    expect(game.seats[0]!.playerId).toBe(ben.id);
    const s0 = game.state as unknown as KrellstonesState;
    expect(s0.host).toBe(ben.id);
    expect(s0.pace).toBe('SLOW');
    for (const x of [ann, ben, cat]) expect(s0.seats[x.id]!.active.map((st) => st.type)).toEqual(['pawn', 'dancer', 'krell', 'krell', 'krell', 'master']);
    const mat = await db.prisma.asset.findFirstOrThrow({ where: { playerId: ben.id, type: 'mat' } });
    expect(mat.lockedByGameId).toBe(game.id);
    expect(await db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(3 * 6 + 1);

    // Play: everyone readies at once; the game's own steps fire on the clock.
    const scheduler = new Scheduler(ctx);
    for (let guard = 0; guard < 500; guard++) {
      const row = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      if (row.status !== 'active') break;
      const s = row.state as unknown as KrellstonesState;
      const waiting = [ann, ben, cat].find((x) => s.seats[x.id]!.choice === 'pending');
      if (waiting) {
        await playMove(ctx, { gameId: game.id, userId: waiting.id, guildId: GUILD, move: { type: 'ready' } });
        continue;
      }
      await ctx.clock.advance(10 * 60_000);
      await scheduler.sweep();
    }
    const final = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect(final.status).toBe('finished');
    expect((final.state as unknown as KrellstonesState).history).toHaveLength(5);
    expect(await db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(0);

    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', String(game.id)], { env: { ...process.env, DATABASE_URL: db.url } });
    expect(stdout).toMatch(/commitment sha256\(seed\) = [0-9a-f]{64}: matches/);
    expect(stdout).toMatch(/replayed \d+ move\(s\): final state matches the stored one/);
    // Every roll, re-derived: each stone's side and value, and each round's sums.
    expect(stdout).toMatch(new RegExp(`round 1: ${s0.order[0]} rolls pawn #\\d+ side \\d = \\d+, dancer #\\d+ side \\d = \\d+`));
    expect(stdout.match(/round \d scored: /g)).toHaveLength(5);

    // A new Rest Phase: Ann and Ben match again, but Ben's Master is gone by the Battle Phase (trashed):
    // their game does not start, both are told why, and nothing is locked.
    await openPhase(ctx, { guildId: GUILD, kind: 'rest', member: mod });
    expect((await intent(ben, [ann])).matched).toEqual([]);
    expect((await intent(ann, [ben])).matched).toHaveLength(1);
    await db.prisma.asset.deleteMany({ where: { playerId: ben.id, data: { path: ['type'], equals: 'master' } } });
    const before = await db.prisma.outbox.count({ where: { kind: 'text-dm' } });
    const second = await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod });
    expect(second.changed && second.games).toEqual([]);
    const dms = await db.prisma.outbox.findMany({ where: { kind: 'text-dm' }, orderBy: { id: 'asc' }, skip: before });
    const told = dms.filter((d) => (d.payload as { content: string }).content.includes('game could not start'));
    expect(told.map((d) => (d.payload as { userId: string }).userId).sort()).toEqual([ann.id, ben.id].sort());
    expect((told[0]!.payload as { content: string }).content).toMatch(new RegExp(`<@${ben.id}> has not enough free stones`));
    expect(await db.prisma.asset.count({ where: { lockedByGameId: { not: null } } })).toBe(0);
  });
});
