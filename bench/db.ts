import { games } from '../src/games/index.ts';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { OffsetClock } from '../src/clock.ts';
import { connectPostgres, type Database } from '../src/db/client.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { silentLogger } from '../src/log.ts';
import { Scheduler } from '../src/scheduler/index.ts';
import { acceptChallenge, challenge } from '../src/services/challenges.ts';
import type { ServiceContext } from '../src/services/context.ts';
import { summary } from './stats.ts';

export const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** A fresh, migrated database for one bench run (dropped by the returned function). */
export async function benchDatabase(poolSize = 10): Promise<{ db: Database; url: string; drop: () => Promise<void> }> {
  const name = `stonehall_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const db = await connectPostgres(u.toString(), { poolSize });
  await applyMigrations(db.sql);
  return {
    db,
    url: u.toString(),
    async drop() {
      await db.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

export function benchContext(db: Database, clock = new OffsetClock()): ServiceContext & { clock: OffsetClock } {
  return { db: db.prisma, clock, log: silentLogger, games };
}

let userSeq = 300000000000000000n;
export const newUser = (name: string) => ({ id: String(userSeq++), name, bot: false });

/** Starts `n` Knucklebones games through the services (challenge + accept). */
export async function startGames(ctx: ServiceContext, n: number, guildId = '900000000000000001', channelId = '900000000000000002') {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = newUser(`A${i}`);
    const b = newUser(`B${i}`);
    const c = await challenge(ctx, { guildId, channelId, kind: 'knucklebones', from: a, to: b });
    const { game } = await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: b.id, guildId });
    ids.push(game.id);
  }
  return ids;
}

/** The floor: one transaction with one read and one conditional write, on the same pool. */
export async function floorLatency(db: Database, gameId: number, iterations = 400) {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await db.prisma.$transaction(async (tx) => {
      const g = await tx.game.findUniqueOrThrow({ where: { id: gameId }, select: { version: true } });
      await tx.game.updateMany({ where: { id: gameId, version: g.version }, data: { boardVersion: { increment: 0 } } });
    });
    samples.push(performance.now() - t);
  }
  return summary(samples);
}

/**
 * Deadline sweep: `pending` future jobs plus 100 due turn deadlines (100 real games whose
 * player timed out). Reports the time of the claim query alone and of the whole sweep (100
 * forfeits, each its own transaction with outbox rows).
 */
export async function sweepBench(pendingCounts: number[]) {
  const results = [];
  for (const pending of pendingCounts) {
    const { db, drop } = await benchDatabase(4);
    try {
      const ctx = benchContext(db);
      await startGames(ctx, 100);
      // Only the deadline of each game is due; its reminders are dropped so the sweep is 100 jobs.
      await db.sql.exec(`DELETE FROM jobs WHERE kind = 'turn-reminder'`);
      await ctx.clock.advance(25 * 3_600_000);
      if (pending > 0) {
        await db.sql.query(
          `INSERT INTO jobs (kind, game_id, due_at, payload, status)
           SELECT 'turn-reminder', NULL, $1::timestamp + (g * interval '1 second'), '{"player":"0","turnVersion":0}', 'pending'
           FROM generate_series(1, $2::int) g`,
          [new Date(ctx.clock.now().getTime() + 3_600_000), pending],
        );
      }
      await db.sql.exec('ANALYZE jobs');
      const plan = await db.sql.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, FORMAT TEXT) SELECT id FROM jobs WHERE status = 'pending' AND due_at <= $1 ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [ctx.clock.now()],
      );
      const claimMs = Number(/Execution Time: ([\d.]+)/.exec(plan.map((p) => p['QUERY PLAN']).join('\n'))?.[1] ?? NaN);
      const usesIndex = plan.some((p) => /Index Scan/.test(p['QUERY PLAN']));
      const t = performance.now();
      const fired = await new Scheduler(ctx).sweep();
      const sweepMs = performance.now() - t;
      results.push({ pending, due: 100, fired, claimMs, usesIndex, sweepMs });
    } finally {
      await drop();
    }
  }
  return results;
}
