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
 * `n` Knucklebones games whose current player's turn deadline is due: one real game started through
 * the services, cloned in SQL with its seats and its deadline job (reminders left out), its outbox
 * already delivered. Then the clock moves past the deadlines.
 */
async function dueDeadlines(db: Database, n: number) {
  const ctx = benchContext(db);
  const [template] = await startGames(ctx, 1);
  await db.sql.exec(`DELETE FROM jobs WHERE kind <> 'timer'`);
  await db.sql.query(
    `INSERT INTO games (guild_id, channel_id, kind, status, options, state, version, seed, seed_commitment, board_version, board_message_id, created_at, updated_at)
     SELECT guild_id, channel_id, kind, status, options, state, version, seed, seed_commitment, board_version, board_message_id, created_at, updated_at
     FROM games, generate_series(2, $1::int) WHERE id = $2`,
    [n, template],
  );
  await db.sql.query(
    `INSERT INTO seats (game_id, seat, player_id, turn_version, turn_started_at, deadline_at, dm_message_id)
     SELECT g.id, s.seat, s.player_id, s.turn_version, s.turn_started_at, s.deadline_at, s.dm_message_id FROM games g CROSS JOIN seats s WHERE s.game_id = $1 AND g.id <> $1`,
    [template],
  );
  await db.sql.query(
    `INSERT INTO jobs (kind, game_id, due_at, payload, status, created_at)
     SELECT j.kind, g.id, j.due_at, j.payload, 'pending', j.created_at FROM games g CROSS JOIN jobs j WHERE j.game_id = $1 AND g.id <> $1 AND j.status = 'pending'`,
    [template],
  );
  await db.sql.exec(`UPDATE outbox SET status = 'sent', sent_at = now()`);
  await db.sql.exec('ANALYZE');
  await ctx.clock.advance(25 * 3_600_000);
  return ctx;
}

export interface DeadlineResult {
  due: number;
  fired: number;
  ms: number;
  /** Game-over DMs written to the outbox (two per forfeit). */
  dms: number;
  finished: number;
}

/**
 * Time to fire `due` turn deadlines at once (each a forfeit: move log, seats, results, two game-over
 * DMs, the board), through the scheduler's sweep (`oneByOne`: each job claimed and handled in its own
 * transaction, the path the sweep falls back to), until none is left.
 */
export async function deadlineBench(due: number, oneByOne = false): Promise<DeadlineResult> {
  const { db, drop } = await benchDatabase(10);
  try {
    const ctx = await dueDeadlines(db, due);
    const scheduler = new Scheduler(ctx);
    let fired = 0;
    const t = performance.now();
    if (oneByOne) {
      while ((await scheduler.runOne()) !== false) fired++;
    } else {
      for (let n = await scheduler.sweep(); n > 0; n = await scheduler.sweep()) fired += n;
    }
    const ms = performance.now() - t;
    const [counts] = await db.sql.query<{ dms: string; finished: string }>(
      `SELECT (SELECT count(*) FROM outbox WHERE status = 'pending' AND kind = 'dm' AND payload->'notification'->>'type' = 'game-over') AS dms,
              (SELECT count(*) FROM games WHERE status = 'finished') AS finished`,
    );
    return { due, fired, ms, dms: Number(counts!.dms), finished: Number(counts!.finished) };
  } finally {
    await drop();
  }
}

/** The plan of the sweep's claim among `pending` future jobs (an index scan keeps it flat). */
export async function claimPlan(pending: number) {
  const { db, drop } = await benchDatabase(2);
  try {
    const now = new Date();
    await db.sql.query(
      `INSERT INTO jobs (kind, game_id, due_at, payload, status)
       SELECT 'turn-reminder', NULL, $1::timestamp + (g * interval '1 second'), '{"player":"0","turnVersion":0}', 'pending'
       FROM generate_series(1, $2::int) g`,
      [new Date(now.getTime() + 3_600_000), pending],
    );
    await db.sql.exec('ANALYZE jobs');
    const plan = await db.sql.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, FORMAT TEXT) SELECT id FROM jobs WHERE status = 'pending' AND due_at <= $1 ORDER BY due_at LIMIT 200 FOR UPDATE SKIP LOCKED`,
      [now],
    );
    const claimMs = Number(/Execution Time: ([\d.]+)/.exec(plan.map((p) => p['QUERY PLAN']).join('\n'))?.[1] ?? NaN);
    return { pending, claimMs, usesIndex: plan.some((p) => /Index Scan/.test(p['QUERY PLAN'])) };
  } finally {
    await drop();
  }
}
