import cron, { type ScheduledTask } from 'node-cron';
import { cronLogger } from '../log.ts';
import type { Tx } from '../db/client.ts';
import type { ServiceContext } from '../services/context.ts';
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

const MAX_ATTEMPTS = 5;

/**
 * Fires due jobs. Each job is claimed with FOR UPDATE SKIP LOCKED and handled in the same
 * transaction that marks it done, so a job fires exactly once even with several bot processes,
 * and a job that fell due while every process was down fires at the next sweep.
 */
export class Scheduler {
  private task: ScheduledTask | null = null;
  private running: Promise<number> | null = null;
  /** Set by stop(): no new job is claimed; the one being handled commits or rolls back first. */
  private stopped = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly opts: { cron?: string; batch?: number; beforeTick?: () => Promise<void> } = {},
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
    const limit = this.opts.batch ?? 500;
    let handled = 0;
    const busy: bigint[] = [];
    while (handled < limit && !this.stopped) {
      const ran = await this.runOne(busy);
      if (ran === false) break;
      if (ran === 'busy') continue;
      handled += 1;
    }
    return handled;
  }

  /**
   * Claims and handles one due job. Returns false when none is due, 'busy' when the due job's game
   * is locked by a move right now (the job is left for the next sweep and added to `busy`).
   *
   * Lock order: a move locks its game row, then that game's job rows. So the sweep never waits for
   * a game while it holds a job: it takes the game's lock with SKIP LOCKED, and a game busy with a
   * move leaves the job for a moment later (a click racing a falling deadline cannot deadlock).
   */
  async runOne(busy: bigint[] = []): Promise<boolean | 'busy'> {
    const now = this.ctx.clock.now();
    let claimed: DueJob | null = null;
    let wasBusy = false;
    try {
      await this.ctx.db.$transaction(
        async (tx) => {
          const rows = await tx.$queryRaw<DueJob[]>`
            SELECT id, kind, game_id, payload, attempts FROM jobs
            WHERE status = 'pending' AND due_at <= ${now} AND NOT (id = ANY(${busy}::bigint[]))
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
