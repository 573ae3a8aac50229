import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { keystone, type KeystoneState } from '../../../src/games/keystone/engine/index.ts';
import { openPhase, startCycle, startSeason } from '../../../src/services/cycles.ts';
import { playMove, resign } from '../../../src/services/games.ts';
import { stateIntent } from '../../../src/services/intents.ts';
import { getInventory } from '../../../src/services/inventory.ts';
import { standings } from '../../../src/services/leaderboard.ts';
import { testContext, withServiceDb } from '../../helpers/context.ts';

/**
 * Keystone in a cycle, on real Postgres: three players' intents for the same table match, the
 * Battle Phase starts their match, one of them gives up halfway (the autopilot plays on for them),
 * and at the end every winner gains the cycle's reward, the quitter nothing, and the leaderboard
 * counts it all.
 */
const GUILD = '740000000000000001';
const COMMENCE = '740000000000000002';
const mod = { manageGuild: true, roleIds: [] };
const nobody = { manageGuild: false, roleIds: [] };
const p = (n: number, name: string) => ({ id: `74100000000000000${n}`, name, bot: false });
const [ann, ben, cat] = [p(1, 'Ann'), p(2, 'Ben'), p(3, 'Cat')] as const;

const db = withServiceDb();

describe('Keystone in a cycle', () => {
  it('intents for one table match, the Battle Phase starts the match, winners are rewarded and ranked', { timeout: 120_000 }, async () => {
    const ctx = testContext(db);
    await startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 1' });
    await startCycle(ctx, { guildId: GUILD, member: mod, name: 'Cycle 1', defaults: { commencementChannelId: COMMENCE, announcementChannelId: COMMENCE, leaderboardChannelId: COMMENCE } });
    const intent = (from: typeof ann, opponents: Array<typeof ann>) => stateIntent(ctx, { guildId: GUILD, channelId: COMMENCE, channelName: null, kind: 'keystone', from, opponents, mode: null });
    expect((await intent(ann, [ben, cat])).matched).toEqual([]);
    expect((await intent(ben, [cat, ann])).matched).toEqual([]);
    const last = await intent(cat, [ann, ben]);
    expect(last.mode).toBe('together');
    expect(last.matched).toHaveLength(1);
    const phase = await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod, seed: () => '3'.repeat(64) });
    expect(phase.changed && phase.games).toHaveLength(1);
    const game = await db.prisma.game.findFirstOrThrow({ where: { kind: 'keystone' } });
    expect(game.cycleId).not.toBeNull();

    // Everyone plays the autopilot's choice; Ben gives up in game 2.
    for (let guard = 0; ; guard++) {
      expect(guard).toBeLessThan(500);
      const row = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      if (row.status !== 'active') break;
      const s = row.state as unknown as KeystoneState;
      const actor = s.players[s.turn]!;
      if (s.game === 2 && s.trick === 3 && actor === ben.id && !s.out.includes(ben.id)) {
        const r = await resign(ctx, { gameId: game.id, userId: ben.id, guildId: GUILD });
        expect(r.outcome).toBeNull();
        continue;
      }
      await playMove(ctx, { gameId: game.id, userId: actor, guildId: GUILD, move: keystone.autopilot!(s, actor, s.rng) });
    }
    const final = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id }, include: { seats: true } });
    const outcome = final.outcome as { winners: string[]; scores: Record<string, number>; places: Record<string, number>; forfeits: string[] };
    expect(outcome.forfeits).toEqual([ben.id]);
    expect(outcome.places[ben.id]).toBe(3);
    expect(outcome.winners.length).toBeGreaterThanOrEqual(1);
    expect(outcome.winners).not.toContain(ben.id);
    for (const player of [ann, ben, cat]) {
      const items = (await getInventory(ctx, { guildId: GUILD, viewerId: player.id, member: nobody, playerId: player.id })).items;
      expect(items, player.name).toEqual(outcome.winners.includes(player.id) ? [{ item: 'handy-pack', count: 1 }, { item: 'chip', count: 1 }] : []);
    }
    const cycle = await db.prisma.cycle.findFirstOrThrow();
    const rows = await standings(ctx, { cycleId: cycle.id, kind: 'keystone' });
    expect(Object.fromEntries(rows.map((r) => [r.playerId, [r.wins, r.forfeits, r.points]]))).toEqual(
      Object.fromEntries([ann, ben, cat].map((x) => [x.id, [outcome.winners.includes(x.id) ? 1 : 0, x.id === ben.id ? 1 : 0, outcome.scores[x.id]]])),
    );
    expect(rows.at(-1)!.playerId).toBe(ben.id);

    // `npm run replay` checks the revealed seed against the commitment, prints both deals, and
    // replays every move to the stored state.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', String(game.id)], {
      env: { ...process.env, DATABASE_URL: db.url },
    });
    expect(stdout).toMatch(/commitment sha256\(seed\) = [0-9a-f]{64}: matches/);
    const first = keystone.setup({ seed: '3'.repeat(64), players: final.seats.sort((x, y) => x.seat - y.seat).map((x) => x.playerId), options: {} });
    expect(stdout).toContain(`  seat 1 ${first.players[0]}: ${first.hands[0]!.join(' ')}`);
    expect(stdout).toMatch(/game 2: all 53 cards shuffled .* first leader, the winner of game 1's last trick: seat \d/);
    expect(stdout).toMatch(/replayed \d+ move\(s\): final state matches the stored one/);
  });
});
