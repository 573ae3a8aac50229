import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/scheduler/index.ts';
import { acceptChallenge, challenge } from '../../src/services/challenges.ts';
import { UserError } from '../../src/services/errors.ts';
import { getGame, playMove } from '../../src/services/games.ts';
import { testContext } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * A click that lands just as the turn's deadline falls due: the move locks the game, then its jobs;
 * the sweep must never wait for the game while it holds the job (it used to, and 1-3% of such races
 * ended in a deadlock, 40P01, after about a second: the player saw an error and had forfeited).
 * Raced many times, every outcome is clean: the move wins, or the forfeit does and the click is
 * refused in words.
 */
const GUILD = '730000000000000001';
const RACES = 100;
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await db?.drop();
});

describe('clicks racing due deadlines', () => {
  it(`${RACES} races: no deadlock and no error, one outcome each`, async () => {
    const ctx = testContext(db);
    const ids: number[] = [];
    for (let i = 0; i < RACES; i++) {
      const a = { id: String(731000000000000000n + BigInt(2 * i)), name: `a${i}`, bot: false };
      const b = { id: String(731000000000000001n + BigInt(2 * i)), name: `b${i}`, bot: false };
      const c = await challenge(ctx, { guildId: GUILD, channelId: '1', kind: 'knucklebones', from: a, to: b });
      ids.push((await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: b.id, guildId: GUILD })).game.id);
    }
    // Only the deadlines matter here (reminders would keep the sweepers busy first).
    await db.prisma.job.deleteMany({ where: { kind: 'timer-reminder' } });
    // Every deadline falls due now; several sweepers start, and the clicks arrive spread over the
    // time the sweepers take, so that clicks and deadlines of the same game meet.
    await ctx.clock.advance(24 * 3_600_000 + 1000);
    const sweepers = [new Scheduler(ctx), new Scheduler(ctx), new Scheduler(ctx)];
    const errors: unknown[] = [];
    const outcomes = { moved: 0, refused: 0 };
    await Promise.all([
      ...ids.map(async (gameId, i) => {
        await new Promise((r) => setTimeout(r, (i * 7919) % 400));
        const turn = ((await getGame(ctx, gameId, GUILD)).view(null) as { turn: string | null }).turn;
        if (!turn) return;
        try {
          await playMove(ctx, { gameId, userId: turn, guildId: GUILD, move: { type: 'place', column: 1 } });
          outcomes.moved++;
        } catch (err) {
          if (err instanceof UserError) outcomes.refused++;
          else errors.push(err);
        }
      }),
      ...sweepers.map((s) => s.sweep().catch((err) => errors.push(err))),
    ]);
    while ((await Promise.all(sweepers.map((s) => s.sweep()))).some((n) => n > 0));
    expect(errors).toEqual([]);
    const failedJobs = await db.prisma.job.findMany({ where: { OR: [{ status: 'failed' }, { lastError: { not: null } }] } });
    expect(failedJobs.map((j) => j.lastError)).toEqual([]);
    // Every game is in exactly one state: the move went through first (the game goes on), or the
    // deadline did (forfeited, and the click was refused).
    const games = await db.prisma.game.findMany({ where: { id: { in: ids } } });
    expect(games.filter((g) => g.status === 'active').length).toBe(outcomes.moved);
    expect(games.filter((g) => g.status === 'finished').length).toBe(RACES - outcomes.moved);
  }, 180_000);
});
