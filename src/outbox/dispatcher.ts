import cron, { type ScheduledTask } from 'node-cron';
import { cronLogger } from '../log.ts';
import type { Outbox } from '../generated/prisma/client.ts';
import type { ServiceContext } from '../services/context.ts';

/** Thrown by a Deliverer. `retriable` failures are tried again with backoff. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export interface Deliverer {
  /** Delivers one row; returns what was delivered (a message id, "fallback", "skipped: ..."). */
  deliver(row: Outbox): Promise<string>;
}

/** Longer than any one delivery takes (discord.js waits out rate limits inside it). */
const LEASE_MS = 30_000;
const MAX_ATTEMPTS = 8;

function backoffMs(attempts: number): number {
  return Math.min(2 ** attempts * 1000, 15 * 60_000);
}

/**
 * Delivers outbox rows. A row is leased (lease_until) in a short transaction, delivered outside
 * any transaction, then marked sent. If the process dies mid-delivery the lease expires and the
 * row is delivered again; message creates carry the row id as an enforced nonce, so Discord
 * drops the duplicate. Failures retry with exponential backoff and end as `failed` with the
 * error recorded.
 */
export class Dispatcher {
  private task: ScheduledTask | null = null;
  private draining: Promise<number> | null = null;
  private again = false;
  /** Set by stop(): no new lease is taken; the batch in flight finishes. */
  private stopped = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly deliverer: Deliverer,
    private readonly opts: { cron?: string; batch?: number; beforeTick?: () => Promise<void> } = {},
  ) {}

  start(): void {
    this.task = cron.schedule(
      this.opts.cron ?? '* * * * * *',
      async () => {
        await this.opts.beforeTick?.().catch((err) => this.ctx.log.warn({ err }, 'before-tick hook failed'));
        this.kick();
      },
      { name: 'stonehall-outbox', noOverlap: true, logger: cronLogger(this.ctx.log) },
    );
  }

  /** Stops leasing rows: the ticks end, a batch being delivered finishes, and no new batch is claimed. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.task?.stop();
    await this.task?.destroy();
    this.task = null;
    await this.draining?.catch(() => 0);
  }

  /** Asks for a drain soon; calls made while draining cause one more pass. */
  kick(): void {
    void this.drain().catch((err) => this.ctx.log.error({ err }, 'outbox drain failed'));
  }

  drain(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      let total = 0;
      do {
        this.again = false;
        for (;;) {
          if (this.stopped) break;
          const n = await this.drainBatch();
          total += n;
          if (n === 0) break;
        }
      } while (this.again && !this.stopped);
      return total;
    })().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async claim(): Promise<Outbox[]> {
    const now = this.ctx.clock.now();
    const lease = new Date(now.getTime() + LEASE_MS);
    const rows = await this.ctx.db.$queryRaw<Array<{ id: bigint }>>`
      UPDATE outbox SET lease_until = ${lease}, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM outbox
        WHERE status = 'pending' AND available_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now})
        ORDER BY id LIMIT ${this.opts.batch ?? 25}
        FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    if (rows.length === 0) return [];
    return this.ctx.db.outbox.findMany({ where: { id: { in: rows.map((r) => r.id) } }, orderBy: { id: 'asc' } });
  }

  private async drainBatch(): Promise<number> {
    const rows = await this.claim();
    for (const row of rows) await this.deliverOne(row);
    return rows.length;
  }

  private async deliverOne(row: Outbox): Promise<void> {
    try {
      const result = await this.deliverer.deliver(row);
      await this.ctx.db.outbox.update({
        where: { id: row.id },
        data: { status: 'sent', sentAt: this.ctx.clock.now(), result: result.slice(0, 200), leaseUntil: null, lastError: null },
      });
    } catch (err) {
      const retriable = err instanceof DeliveryError ? err.retriable : true;
      const failed = !retriable || row.attempts >= MAX_ATTEMPTS;
      const now = this.ctx.clock.now();
      const wait = err instanceof DeliveryError && err.retryAfterMs !== undefined ? err.retryAfterMs : backoffMs(row.attempts);
      this.ctx.log[failed ? 'error' : 'warn']({ err, outbox: String(row.id), kind: row.kind, attempts: row.attempts }, failed ? 'delivery failed for good' : 'delivery failed, will retry');
      await this.ctx.db.outbox.update({
        where: { id: row.id },
        data: {
          lastError: String((err as Error)?.message ?? err).slice(0, 2000),
          leaseUntil: null,
          ...(failed ? { status: 'failed' } : { availableAt: new Date(now.getTime() + wait) }),
        },
      });
    }
  }
}
