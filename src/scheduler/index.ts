import cron, { type ScheduledTask } from 'node-cron';
import { cronLogger } from '../log.ts';
import { query, type Statement } from '../db/hot.ts';
import type { Tx } from '../db/client.ts';
import { ChangeBatch } from '../services/changes.ts';
import type { ServiceContext } from '../services/context.ts';
import { readLockedGames } from '../services/game-store.ts';
import { expireTable } from '../services/tables.ts';
import { endVacation } from '../services/vacations.ts';
import { expireLegacyTurn, expireTimer, sendLegacyReminder, sendTimerReminder } from '../services/timers.ts';

export interface DueJob {
  id: bigint;
  kind: string;
  game_id: number | null;
  payload: unknown;
  attempts: number;
}

type Handler = (tx: Tx, ctx: ServiceContext, job: DueJob) => Promise<string>;

const handlers: Record<string, Handler> = {
  timer: (tx, ctx, job) => expireTimer(tx, ctx, job.game_id!, job.payload),
  'timer-reminder': (tx, ctx, job) => sendTimerReminder(tx, ctx, job.game_id!, job.payload),
  // Written before timers were data; a database may still hold some.
  'turn-deadline': (tx, ctx, job) => expireLegacyTurn(tx, ctx, job.game_id!, job.payload),
  'turn-reminder': (tx, ctx, job) => sendLegacyReminder(tx, ctx, job.game_id!, job.payload),
  'table-expiry': (tx, ctx, job) => expireTable(tx, ctx, job.payload),
  'vacation-end': (tx, ctx, job) => endVacation(tx, ctx, job.payload),
};

/**
 * The due jobs a sweep looks at, read without a lock (the batch's transaction locks and checks them
 * again). `busy` is a comma-separated list of job ids (text, so the embedded database reads it too).
 */
const DUE_JOBS: Statement = {
  name: 'stonehall-due-jobs',
  text: `SELECT id, game_id FROM jobs
    WHERE status = 'pending' AND due_at <= $1::timestamp(3) AND NOT (id = ANY(string_to_array($2::text, ',')::bigint[]))
    ORDER BY due_at LIMIT $3::int`,
};

const MAX_ATTEMPTS = 5;
/** Due jobs claimed and fired together in one transaction. */
const BATCH = 200;

/**
 * Fires due jobs. Jobs are claimed with FOR UPDATE SKIP LOCKED and handled in the same
 * transaction that marks them done, so a job fires exactly once even with several bot processes,
 * and a job that fell due while every process was down fires at the next sweep.
 *
 * Many jobs fall due together (a Battle Phase starts its games at once, so their deadlines and
 * reminders come due at once): the sweep claims up to BATCH of them per transaction, locks their
 * games together, and writes the timers' changes one statement per table (ChangeBatch). If a
 * batch fails, its jobs run again one at a time, each in its own transaction, so one bad job
 * cannot hold back the others and its failure is recorded on it alone.
 */
export class Scheduler {
  private task: ScheduledTask | null = null;
  private running: Promise<number> | null = null;
  /** Set by stop(): no new job is claimed; the one being handled commits or rolls back first. */
  private stopped = false;

  constructor(
    private readonly ctx: ServiceContext,
    /** `batch`: the most jobs one sweep handles (default 5,000); `batchSize`: jobs per transaction (default 200, 1: one at a time). */
    private readonly opts: { cron?: string; batch?: number; batchSize?: number; beforeTick?: () => Promise<void> } = {},
  ) {}

  start(): void {
    this.task = cron.schedule(this.opts.cron ?? '* * * * * *', () => this.tick(), {
      name: 'stonehall-scheduler',
      noOverlap: true,
      logger: cronLogger(this.ctx.log),
    });
  }

  private async tick(): Promise<void> {
    try {
      await this.opts.beforeTick?.();
      await this.sweep();
    } catch (err) {
      this.ctx.log.error({ err }, 'scheduler sweep failed');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.task?.stop();
    await this.task?.destroy();
    this.task = null;
    await this.running?.catch(() => 0);
  }

  /** Runs every due job; returns how many were handled. Concurrent calls share one sweep. */
  sweep(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    if (!this.running) {
      this.running = this.sweepOnce().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async sweepOnce(): Promise<number> {
    const limit = this.opts.batch ?? 5_000;
    const size = this.opts.batchSize ?? BATCH;
    let handled = 0;
    const busy: bigint[] = [];
    while (handled < limit && !this.stopped) {
      if (size <= 1) {
        const ran = await this.runOne(busy);
        if (ran === false) break;
        if (ran !== 'busy') handled += 1;
        continue;
      }
      const r = await this.runBatch(busy, Math.min(size, limit - handled));
      if (r.claimed === 0) break;
      handled += r.handled;
    }
    return handled;
  }

  /**
   * Claims up to `size` due jobs and fires them in one transaction. Lock order as a move's: games
   * first (SKIP LOCKED: a game busy with a move leaves its jobs for a moment later, added to
   * `busy`), then their jobs (SKIP LOCKED: another process has them). At most one job per game per
   * batch; the others wait for the next batch. `claimed`: due jobs seen (0: none is due).
   */
  async runBatch(busy: bigint[], size: number): Promise<{ claimed: number; handled: number }> {
    const now = this.ctx.clock.now();
    let taken: DueJob[] = [];
    let fired: Array<Record<string, unknown>> = [];
    let seen = 0;
    // The due jobs, read before any transaction (a plain read, no lock: the jobs are locked and
    // checked again below), so an idle sweep is one statement rather than BEGIN, read, COMMIT.
    // Prepared on plain pg where there is a pool (src/db/hot.ts `query`): it runs every second.
    const due = (await query<{ id: string | bigint; game_id: number | null }>(this.ctx.db, DUE_JOBS, [now.toISOString(), busy.join(','), size])).map((j) => ({ id: BigInt(j.id), game_id: j.game_id }));
    seen = due.length;
    if (due.length === 0) return { claimed: 0, handled: 0 };
    try {
      await this.ctx.db.$transaction(
        async (tx) => {
          const gameIds = [...new Set(due.flatMap((j) => (j.game_id === null ? [] : [j.game_id])))];
          const locked = gameIds.length
            ? (await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM games WHERE id = ANY(${gameIds}::int[]) ORDER BY id FOR UPDATE SKIP LOCKED`).map((g) => g.id)
            : [];
          const jobs = await tx.$queryRaw<DueJob[]>`
            SELECT id, kind, game_id, payload, attempts FROM jobs
            WHERE id = ANY(${due.map((j) => j.id)}::bigint[]) AND status = 'pending' AND (game_id IS NULL OR game_id = ANY(${locked}::int[]))
            ORDER BY due_at, id FOR UPDATE SKIP LOCKED`;
          const got = new Set(jobs.map((j) => j.id));
          // Locked elsewhere (a move on its game, or another process): not this sweep's.
          for (const j of due) if (!got.has(j.id)) busy.push(j.id);
          const games = new Set<number>();
          taken = jobs.filter((j) => {
            if (j.game_id === null) return true;
            if (games.has(j.game_id)) return false;
            games.add(j.game_id);
            return true;
          });
          if (taken.length === 0) return;
          const loaded = await readLockedGames(tx, [...games]);
          const batch = new ChangeBatch();
          const results: string[] = [];
          for (const job of taken) {
            if (job.kind === 'timer' && job.game_id !== null) {
              results.push(await expireTimer(tx, this.ctx, job.game_id, job.payload, { game: loaded.get(job.game_id) ?? null, batch }));
            } else {
              const handler = handlers[job.kind];
              if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
              results.push(await handler(tx, this.ctx, job));
            }
          }
          await batch.flush(tx, now);
          await tx.$executeRaw`
            UPDATE jobs SET status = 'done', done_at = ${now}, attempts = attempts + 1, last_error = NULL
            WHERE id = ANY(${taken.map((j) => j.id)}::bigint[])`;
          fired = taken.map((job, i) => ({ job: String(job.id), kind: job.kind, game: job.game_id, result: results[i], batch: taken.length }));
        },
        { timeout: 60_000, maxWait: 10_000 },
      );
    } catch (err) {
      if (taken.length === 0) throw err;
      // One at a time: each job in its own transaction, a failure recorded on that job alone.
      this.ctx.log.warn({ err, jobs: taken.length }, 'a batch of jobs failed: firing them one at a time');
      let handled = 0;
      for (const job of taken) {
        const ran = await this.runOne(busy, job.id);
        if (ran === true) handled++;
      }
      if (handled > 0) this.ctx.onOutbox?.();
      return { claimed: seen, handled };
    }
    // Logged once committed: each job fired, as the one-at-a-time path logs it.
    for (const f of fired) this.ctx.log.info(f, 'job fired');
    if (taken.length > 0) this.ctx.onOutbox?.();
    return { claimed: seen, handled: taken.length };
  }

  /**
   * Claims and handles one due job. Returns false when none is due, 'busy' when the due job's game
   * is locked by a move right now (the job is left for the next sweep and added to `busy`).
   *
   * Lock order: a move locks its game row, then that game's job rows. So the sweep never waits for
   * a game while it holds a job: it takes the game's lock with SKIP LOCKED, and a game busy with a
   * move leaves the job for a moment later (a click racing a falling deadline cannot deadlock).
   */
  async runOne(busy: bigint[] = [], only: bigint | null = null): Promise<boolean | 'busy'> {
    const now = this.ctx.clock.now();
    let claimed: DueJob | null = null;
    let wasBusy = false;
    try {
      await this.ctx.db.$transaction(
        async (tx) => {
          const rows = await tx.$queryRaw<DueJob[]>`
            SELECT id, kind, game_id, payload, attempts FROM jobs
            WHERE status = 'pending' AND due_at <= ${now} AND NOT (id = ANY(${busy}::bigint[])) AND (${only}::bigint IS NULL OR id = ${only}::bigint)
            ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED`;
          claimed = rows[0] ?? null;
          if (!claimed) return;
          if (claimed.game_id !== null) {
            const game = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM games WHERE id = ${claimed.game_id} FOR UPDATE SKIP LOCKED`;
            if (game.length === 0) {
              // Locked by a move (or gone: then the job's handler finds nothing to do next time).
              const exists = await tx.$queryRaw<Array<{ n: number }>>`SELECT 1 AS n FROM games WHERE id = ${claimed.game_id}`;
              if (exists.length > 0) {
                wasBusy = true;
                return;
              }
            }
          }
          const handler = handlers[claimed.kind];
          if (!handler) throw new Error(`no handler for job kind ${claimed.kind}`);
          const result = await handler(tx, this.ctx, claimed);
          await tx.job.update({ where: { id: claimed.id }, data: { status: 'done', doneAt: now, attempts: { increment: 1 }, lastError: null } });
          this.ctx.log.info({ job: String(claimed.id), kind: claimed.kind, game: claimed.game_id, result }, 'job fired');
        },
        { timeout: 15_000, maxWait: 10_000 },
      );
    } catch (err) {
      if (!claimed || wasBusy) throw err;
      const job: DueJob = claimed;
      const attempts = job.attempts + 1;
      const failed = attempts >= MAX_ATTEMPTS;
      this.ctx.log.error({ err, job: String(job.id), kind: job.kind, attempts }, failed ? 'job failed for good' : 'job failed, will retry');
      await this.ctx.db.job.update({
        where: { id: job.id },
        data: {
          attempts,
          lastError: String((err as Error)?.message ?? err).slice(0, 2000),
          ...(failed ? { status: 'failed', doneAt: now } : { dueAt: new Date(now.getTime() + 2 ** attempts * 1000) }),
        },
      });
      return true;
    }
    if (wasBusy && claimed) {
      busy.push((claimed as DueJob).id);
      return 'busy';
    }
    if (claimed) this.ctx.onOutbox?.();
    return claimed !== null;
  }
}
