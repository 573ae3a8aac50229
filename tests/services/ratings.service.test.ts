import { describe, expect, it } from 'vitest';
import { resign, startPractice } from '../../src/services/games.ts';
import { rateGame, START_RATING } from '../../src/services/leaderboard.ts';
import { playerProfile, rebuildRatings } from '../../src/services/ratings.ts';
import { alice, bob, CHANNEL, GUILD, testContext, twoPlayerGame, withServiceDb } from '../helpers/context.ts';

/**
 * Issue 13, feature 5: every finished game that is not practice moves its players' all-time
 * Glicko-2 rating, in the transaction that ends it, exactly as the cycle leaderboards rate a game.
 */
const OTHER_GUILD = '100000000000000009';

const db = withServiceDb();

async function play(ctx: ReturnType<typeof testContext>, guildId: string, loser: typeof alice) {
  const game = await twoPlayerGame(ctx, 'knucklebones', { guildId });
  await resign(ctx, { gameId: game.id, userId: loser.id, guildId });
  return game.id;
}

const rating = (guildId: string, playerId: string) =>
  db.prisma.rating.findUnique({ where: { guildId_kind_playerId: { guildId, kind: 'knucklebones', playerId } } });

describe('all-time ratings', () => {
  it('a casual game rates both players as the leaderboards would; practice counts nowhere; each server has its own', async () => {
    const ctx = testContext(db);
    const g1 = await play(ctx, GUILD, bob);
    const expected1 = rateGame(
      [
        { playerId: alice.id, result: 'win' },
        { playerId: bob.id, result: 'forfeit' },
      ],
      null,
      () => START_RATING,
    );
    const a1 = (await rating(GUILD, alice.id))!;
    const b1 = (await rating(GUILD, bob.id))!;
    expect(a1.rating).toBeCloseTo(expected1.get(alice.id)!.r, 9);
    expect(b1.rating).toBeCloseTo(expected1.get(bob.id)!.r, 9);
    expect(a1.rating).toBeGreaterThan(1500);
    expect([a1.games, a1.wins, a1.losses, a1.forfeits]).toEqual([1, 1, 0, 0]);
    expect([b1.games, b1.wins, b1.losses, b1.forfeits]).toEqual([1, 0, 0, 1]);

    // A practice game against the autopilot changes nothing.
    const practice = await startPractice(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', player: alice, bots: 1 });
    await resign(ctx, { gameId: practice.id, userId: alice.id, guildId: GUILD });
    expect(await rating(GUILD, alice.id)).toEqual(a1);
    expect(await db.prisma.rating.count({ where: { playerId: { startsWith: 'autopilot' } } })).toBe(0);

    // The second game starts from the first one's ratings.
    await play(ctx, GUILD, alice);
    const expected2 = rateGame(
      [
        { playerId: alice.id, result: 'forfeit' },
        { playerId: bob.id, result: 'win' },
      ],
      null,
      (id) => ({ r: id === alice.id ? a1.rating : b1.rating, rd: id === alice.id ? a1.rd : b1.rd, v: id === alice.id ? a1.vol : b1.vol }),
    );
    const a2 = (await rating(GUILD, alice.id))!;
    expect(a2.rating).toBeCloseTo(expected2.get(alice.id)!.r, 9);
    expect([a2.games, a2.wins, a2.forfeits]).toEqual([2, 1, 1]);

    // Another server: its own ratings, from 1500.
    await play(ctx, OTHER_GUILD, bob);
    expect((await rating(OTHER_GUILD, alice.id))!.rating).toBeCloseTo(expected1.get(alice.id)!.r, 9);

    // The profile: rank, counts and the recent results, newest first, practice left out.
    const profile = await playerProfile(ctx, { guildId: GUILD, playerId: alice.id });
    expect(profile).toHaveLength(1);
    expect(profile[0]!.kind).toBe('knucklebones');
    expect(profile[0]!.of).toBe(2);
    expect(profile[0]!.rank).toBe(a2.rating > (await rating(GUILD, bob.id))!.rating ? 1 : 2);
    expect(profile[0]!.recent.map((r) => r.result)).toEqual(['forfeit', 'win']);
    expect(profile[0]!.recent[1]!.gameId).toBe(g1);
    expect(profile[0]!.recent[0]!.opponents).toEqual([bob.id]);

    // Recomputed from the games alone (a database whose games ended before ratings existed), the
    // ratings come out the same as the ones moved game by game.
    const incremental = await db.prisma.rating.findMany({ orderBy: [{ guildId: 'asc' }, { playerId: 'asc' }] });
    expect(incremental).toHaveLength(4);
    await db.prisma.rating.deleteMany({});
    expect(await rebuildRatings(ctx)).toEqual({ games: 3, ratings: 4 });
    const rebuilt = await db.prisma.rating.findMany({ orderBy: [{ guildId: 'asc' }, { playerId: 'asc' }] });
    expect(rebuilt.map((r) => [r.guildId, r.playerId, r.games, r.wins, r.losses, r.forfeits])).toEqual(incremental.map((r) => [r.guildId, r.playerId, r.games, r.wins, r.losses, r.forfeits]));
    rebuilt.forEach((r, i) => {
      expect(r.rating).toBeCloseTo(incremental[i]!.rating, 9);
      expect(r.rd).toBeCloseTo(incremental[i]!.rd, 9);
      expect(r.vol).toBeCloseTo(incremental[i]!.vol, 9);
    });
  });
});
