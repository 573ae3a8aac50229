import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/scheduler/index.ts';
import { acceptChallenge, challenge } from '../../src/services/challenges.ts';
import { rebuildRatings } from '../../src/services/ratings.ts';
import { testContext } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * Deadlines fall due together (a Battle Phase starts its games at once): the sweep claims many due
 * jobs per transaction, locks their games first, and writes the changes one statement per table.
 * Every job still fires exactly once with its DMs; a bad job makes its batch run again one job at
 * a time, so the others fire and only it records the error; a game locked by a move is left alone.
 */
const GUILD = '740000000000000001';
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 6 });
});
afterAll(async () => {
  await db?.drop();
});

let seq = 0;
function logged() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
}

async function startGames(ctx: ReturnType<typeof testContext>, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = seq++;
    const a = { id: String(741000000000000000n + BigInt(2 * k)), name: `a${k}`, bot: false };
    const b = { id: String(741000000000000001n + BigInt(2 * k)), name: `b${k}`, bot: false };
    const c = await challenge(ctx, { guildId: GUILD, channelId: '1', kind: 'knucklebones', from: a, to: b });
    ids.push((await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: b.id, guildId: GUILD })).game.id);
  }
  return ids;
}

async function outcomes(ids: number[]) {
  const games = await db.prisma.game.findMany({ where: { id: { in: ids } }, include: { seats: true } });
  const forfeits = await db.prisma.move.findMany({ where: { gameId: { in: ids } } });
  const dms = await db.prisma.outbox.findMany({ where: { kind: 'dm' } });
  const overDms = dms.filter((d) => {
    const p = d.payload as { notification: { type: string; gameId: number } };
    return p.notification.type === 'game-over' && ids.includes(p.notification.gameId);
  });
  return { games, forfeits, overDms };
}

describe('the batched deadline sweep', () => {
  it('fires many due deadlines and reminders, each once, in batches, with their DMs written', async () => {
    const { lines, log } = logged();
    const ctx = { ...testContext(db), log };
    const ids = await startGames(ctx, 30);
    await ctx.clock.advance(25 * 3_600_000);
    const due = await db.prisma.job.count({ where: { gameId: { in: ids }, status: 'pending' } });
    expect(due).toBeGreaterThan(30); // each game's deadline and its reminders

    let fired = 0;
    const sweeper = new Scheduler(ctx, { batchSize: 50 });
    for (let n = await sweeper.sweep(); n > 0; n = await sweeper.sweep()) fired += n;

    const { games, forfeits, overDms } = await outcomes(ids);
    expect(games.every((g) => g.status === 'finished')).toBe(true);
    for (const g of games) {
      expect(forfeits.filter((m) => m.gameId === g.id).map((m) => m.entry)).toEqual([{ type: 'forfeit', player: expect.any(String), reason: 'timeout' }]);
      expect(g.seats.map((s) => s.result).sort()).toEqual(['forfeit', 'win']);
      expect(g.seats.every((s) => s.deadlineAt === null)).toBe(true);
    }
    expect(overDms).toHaveLength(60);
    const jobs = await db.prisma.job.findMany({ where: { gameId: { in: ids } } });
    expect(jobs.filter((j) => j.status === 'pending')).toEqual([]);
    expect(jobs.filter((j) => j.status === 'done').every((j) => j.attempts === 1)).toBe(true);
    expect(fired).toBe(jobs.filter((j) => j.status === 'done').length);
    // Batches, not one transaction per job: every job is logged with the size of its batch.
    const firedLines = lines.filter((l) => l.msg === 'job fired');
    expect(firedLines).toHaveLength(fired);
    expect(Math.max(...firedLines.map((b) => b.batch as number))).toBe(30);
    expect(firedLines.every((b) => (b.batch as number) > 1)).toBe(true);
  });

  it('rates the games a batch ends together, player by player, as recording them one at a time would', async () => {
    const { lines, log } = logged();
    const ctx = { ...testContext(db), log };
    const guildId = '740000000000000077';
    // Four players in six games: each player ends three games in the same batch.
    const p = [0, 1, 2, 3].map((i) => ({ id: String(742000000000000000n + BigInt(i)), name: `r${i}`, bot: false }));
    const ids: number[] = [];
    for (const [x, y] of [[0, 1], [2, 3], [0, 2], [1, 3], [0, 3], [1, 2]] as const) {
      const c = await challenge(ctx, { guildId, channelId: '1', kind: 'knucklebones', from: p[x]!, to: p[y]! });
      ids.push((await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: p[y]!.id, guildId })).game.id);
    }
    await db.prisma.job.deleteMany({ where: { gameId: { in: ids }, kind: 'timer-reminder' } });
    await ctx.clock.advance(25 * 3_600_000);
    await new Scheduler(ctx, { batchSize: 50 }).sweep();
    expect(lines.filter((l) => l.msg === 'job fired').map((l) => l.batch)).toEqual(ids.map(() => 6));
    const recorded = await db.prisma.rating.findMany({ where: { guildId }, orderBy: { playerId: 'asc' } });
    expect(recorded.map((r) => r.games)).toEqual([3, 3, 3, 3]);
    // Recomputed from every finished game in the order they finished (ids, at one instant).
    await rebuildRatings(ctx);
    const rebuilt = await db.prisma.rating.findMany({ where: { guildId }, orderBy: { playerId: 'asc' } });
    expect(rebuilt.map((r) => [r.playerId, r.games, r.wins, r.losses, r.forfeits])).toEqual(recorded.map((r) => [r.playerId, r.games, r.wins, r.losses, r.forfeits]));
    rebuilt.forEach((r, i) => {
      expect(r.rating).toBeCloseTo(recorded[i]!.rating, 9);
      expect(r.rd).toBeCloseTo(recorded[i]!.rd, 9);
      expect(r.vol).toBeCloseTo(recorded[i]!.vol, 9);
    });
  });

  it('a bad job sends its batch one job at a time: the others fire, it alone records the error', async () => {
    const { lines, log } = logged();
    const ctx = { ...testContext(db), log };
    const ids = await startGames(ctx, 6);
    await db.prisma.job.deleteMany({ where: { gameId: { in: ids }, kind: 'timer-reminder' } });
    const bad = await db.prisma.job.findFirstOrThrow({ where: { gameId: ids[2], status: 'pending' } });
    await db.prisma.job.update({ where: { id: bad.id }, data: { payload: { nonsense: true } } });
    await ctx.clock.advance(25 * 3_600_000);

    await new Scheduler(ctx, { batchSize: 50 }).sweep();

    const { games, overDms } = await outcomes(ids);
    expect(games.filter((g) => g.status === 'finished').map((g) => g.id).sort()).toEqual(ids.filter((id) => id !== ids[2]).sort());
    expect(overDms).toHaveLength(10);
    const after = await db.prisma.job.findUniqueOrThrow({ where: { id: bad.id } });
    expect(after.status).toBe('pending');
    expect(after.attempts).toBe(1);
    expect(after.lastError).toMatch(/bad timer job payload/);
    expect(after.dueAt.getTime()).toBeGreaterThan(ctx.clock.now().getTime());
    expect(lines.some((l) => l.msg === 'a batch of jobs failed: firing them one at a time')).toBe(true);
  });

  it('leaves a game locked by a move alone (game before jobs) and fires it once the move is done', async () => {
    const ctx = testContext(db);
    const ids = await startGames(ctx, 4);
    await db.prisma.job.deleteMany({ where: { gameId: { in: ids }, kind: 'timer-reminder' } });
    await ctx.clock.advance(25 * 3_600_000);
    const busyGame = ids[1]!;
    // A move holds the game's lock (and would take its jobs' next): the sweep must not wait for it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const move = db.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM games WHERE id = ${busyGame} FOR UPDATE`;
      locked();
      await held;
    });
    await isLocked;
    const fired = await new Scheduler(ctx, { batchSize: 50 }).sweep();
    expect(fired).toBe(3);
    expect((await db.prisma.game.findUniqueOrThrow({ where: { id: busyGame } })).status).toBe('active');
    release();
    await move;
    expect(await new Scheduler(ctx, { batchSize: 50 }).sweep()).toBe(1);
    expect((await outcomes(ids)).games.every((g) => g.status === 'finished')).toBe(true);
  });
});
