import { describe, expect, it } from 'vitest';
import type { CrystalliaMove, CrystalliaState } from '../../src/games/crystallia/engine/index.ts';
import { crystallia } from '../../src/games/crystallia/engine/index.ts';
import { getInventory } from '../../src/services/inventory.ts';
import { inTransaction, playMove, resign, startGame } from '../../src/services/games.ts';
import { standings } from '../../src/services/leaderboard.ts';
import { testContext, withServiceDb } from '../helpers/context.ts';

/**
 * Leaderboards count games of three or more: every seat its own result (each winner of a tie a
 * win), its own points, and a rating from a match against every other seat by places.
 */
const GUILD = '720000000000000001';
const p = (n: number, name: string) => ({ id: `72100000000000000${n}`, name });
const [ann, ben, cat, dan] = [p(1, 'Ann'), p(2, 'Ben'), p(3, 'Cat'), p(4, 'Dan')];
const nobody = { manageGuild: false, roleIds: [] };

const db = withServiceDb();

async function cycle(): Promise<number> {
  await db.prisma.guild.upsert({ where: { id: GUILD }, create: { id: GUILD }, update: {} });
  const season = await db.prisma.season.create({ data: { guildId: GUILD, name: 'S' } });
  return (await db.prisma.cycle.create({ data: { guildId: GUILD, seasonId: season.id, name: `C${season.id}` } })).id;
}

describe('leaderboards with more than two players', () => {
  it('a three-player Crystallia game of a cycle: every seat counted, the forfeit last, the winner rewarded', async () => {
    const ctx = testContext(db);
    const cycleId = await cycle();
    const game = await inTransaction(ctx, (tx) => startGame(tx, ctx, { guildId: GUILD, channelId: '1', kind: 'crystallia', players: [ann, ben, cat], seed: '5'.repeat(64), cycleId }));
    let forfeited = false;
    for (let k = 0; k < 400; k++) {
      const row = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      if (row.status !== 'active') break;
      const s = row.state as unknown as CrystalliaState;
      const player = crystallia.awaiting(s)[0]!;
      if (!forfeited && k === 6) {
        // Cat gives up early (whoever is to move); the autopilot plays her seat from then on.
        await resign(ctx, { gameId: game.id, userId: cat.id, guildId: GUILD });
        forfeited = true;
        continue;
      }
      const move = crystallia.legalMoves(s, player)[0] as CrystalliaMove;
      await playMove(ctx, { gameId: game.id, userId: player, guildId: GUILD, move });
    }
    const final = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id }, include: { seats: true } });
    expect(final.status).toBe('finished');
    const outcome = final.outcome as { winners: string[]; scores: Record<string, number>; places: Record<string, number> };
    const rows = await standings(ctx, { cycleId, kind: 'crystallia' });
    expect(rows).toHaveLength(3);
    const by = Object.fromEntries(rows.map((r) => [r.playerId, r]));
    for (const player of [ann, ben, cat]) {
      const r = by[player.id]!;
      expect(r.games).toBe(1);
      expect(r.points).toBe(outcome.scores[player.id]);
      const result = final.seats.find((s) => s.playerId === player.id)!.result;
      expect([r.wins, r.draws, r.losses, r.forfeits]).toEqual([result === 'win' ? 1 : 0, result === 'draw' ? 1 : 0, result === 'loss' ? 1 : 0, result === 'forfeit' ? 1 : 0]);
    }
    expect(by[cat.id]!.forfeits).toBe(1);
    expect(outcome.places[cat.id]).toBe(3);
    expect(rows.at(-1)!.playerId).toBe(cat.id);
    expect(by[cat.id]!.rating).toBeLessThan(1500);
    for (const w of outcome.winners) {
      expect(by[w]!.rating).toBeGreaterThan(1500);
      const inv = await getInventory(ctx, { guildId: GUILD, viewerId: w, member: nobody, playerId: w });
      expect(inv.items).toEqual(expect.arrayContaining([{ item: 'handy-pack', count: 1 }, { item: 'chip', count: 1 }]));
    }
  });

  it('a tie for the best score: each winner counts a win, and they rate alike', async () => {
    const ctx = testContext(db);
    const cycleId = await cycle();
    const at = new Date('2030-01-01T00:00:00Z');
    await db.prisma.player.createMany({ data: [ann, ben, cat, dan], skipDuplicates: true });
    await db.prisma.game.create({
      data: {
        guildId: GUILD,
        channelId: '1',
        kind: 'crystallia',
        state: {},
        seed: '0',
        seedCommitment: '0',
        status: 'finished',
        finishedAt: at,
        cycleId,
        outcome: { winners: [ann.id, ben.id], reason: 'pyramid-empty', scores: { [ann.id]: 20, [ben.id]: 20, [cat.id]: 15, [dan.id]: 9 }, places: { [ann.id]: 1, [ben.id]: 1, [cat.id]: 3, [dan.id]: 4 } },
        seats: {
          create: [
            { seat: 0, playerId: ann.id, result: 'win' },
            { seat: 1, playerId: ben.id, result: 'win' },
            { seat: 2, playerId: cat.id, result: 'loss' },
            { seat: 3, playerId: dan.id, result: 'loss' },
          ],
        },
      },
    });
    const rows = await standings(ctx, { cycleId, kind: 'crystallia' });
    expect(rows.map((r) => [r.playerId, r.wins, r.losses, r.points])).toEqual([
      [ann.id, 1, 0, 20],
      [ben.id, 1, 0, 20],
      [cat.id, 0, 1, 15],
      [dan.id, 0, 1, 9],
    ]);
    expect(rows[0]!.rating).toBeCloseTo(rows[1]!.rating, 6);
    expect(rows[1]!.rating).toBeGreaterThan(rows[2]!.rating);
    expect(rows[2]!.rating).toBeGreaterThan(rows[3]!.rating);
  });
});
