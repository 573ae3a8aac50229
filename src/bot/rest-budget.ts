/**
 * One REST budget for every Stonehall process of a bot token: Discord counts its global limit
 * (50 requests a second unless it granted more) per token, across processes, while discord.js
 * limits each process on its own. Every process reserves send slots from one row in Postgres.
 *
 * The row holds a "theoretical arrival time" (GCRA, the cell-rate algorithm): the moment the next
 * free slot starts. Slots are spaced `interval` apart, so the budget never lets a burst through: a
 * fixed window per wall-clock second (the obvious table of per-second windows) would grant a full
 * second's worth at the end of one second and another at the start of the next, twice the limit
 * within a second as Discord (or the emulator, whose window starts at the first request after the
 * last one lapsed) counts it. Slots spaced (1 s + slack) / limit apart, each sent no later than
 * `slack` after its slot, keep any limit + 1 requests at least one second apart, wherever the
 * counting window starts. The cost is `slack`: the budget hands out limit x 1000 / (1000 + slack)
 * requests a second (47.6 of 50 with the default 50 ms).
 *
 * A process reserves the slots its waiting requests need (up to `maxBatch` at once) with one
 * statement; while that statement runs, new requests queue and go in the next one. A reservation is
 * refused when the next free slot lies more than `horizon` ahead (the budget is spoken for): the
 * process waits until it no longer does, so no process books seconds of slots ahead of the others.
 * A request whose timer fired later than `slack` after its slot (a busy event loop) gives the slot
 * up and reserves again. If the database cannot be reached the request goes out anyway (with a
 * warning): discord.js's own limiter per process still guards it, and an outage must not stop
 * interactions.
 */
import type { Pool } from 'pg';
import type { RESTOptions } from 'discord.js';

export interface RestBudgetOptions {
  pool: Pool;
  /** Discord's global limit for this bot, requests a second (DISCORD_GLOBAL_RATE). */
  perSecond: number;
  /** The budget's row: one per bot token (the bot's user id). */
  key: string;
  /** Latest a request may leave after its slot, ms (default 50). */
  slackMs?: number;
  /** Slots reserved at most at once (default a tenth of the rate, at least 1). */
  maxBatch?: number;
  /** How far ahead a reservation may reach, ms (default 1,000). */
  horizonMs?: number;
  log?: { warn(obj: object, msg: string): void };
  now?: () => number;
}

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | null;
  timer: NodeJS.Timeout | null;
}

export type MakeRequest = RESTOptions['makeRequest'];

/**
 * Requests Discord does not count against the global limit: interaction callbacks, and everything
 * under a webhook's token (interaction follow-ups and edits; a token-authenticated webhook is not
 * the bot's request at all).
 */
export function countsAgainstGlobal(url: string): boolean {
  const path = new URL(url).pathname;
  return !/\/v\d+\/(interactions\/|webhooks\/\d+\/[^/]+)/.test(path);
}

/** The bot's user id, the first part of its token (base64): the budget's key. */
export function budgetKey(token: string): string {
  const first = token.split('.')[0] ?? '';
  const id = Buffer.from(first, 'base64').toString('utf8');
  return /^\d+$/.test(id) ? id : 'bot';
}

export class RestBudget {
  readonly interval: number;
  readonly slack: number;
  private readonly maxBatch: number;
  private readonly horizon: number;
  private readonly queue: Waiter[] = [];
  private pumping = false;
  private closed = false;
  private lastWarning = 0;
  private readonly now: () => number;
  /**
   * Slots granted, reservations made (and the slots they booked) or refused, slots given up late,
   * requests let through while the database failed, and the first slot booked (database ms).
   */
  readonly stats = { granted: 0, reservations: 0, reserved: 0, refusals: 0, late: 0, failOpen: 0, firstStartMs: Infinity };

  constructor(private readonly opts: RestBudgetOptions) {
    if (!(opts.perSecond > 0)) throw new Error('RestBudget: perSecond must be positive');
    this.slack = opts.slackMs ?? 50;
    this.interval = (1000 + this.slack) / opts.perSecond;
    this.maxBatch = opts.maxBatch ?? Math.max(1, Math.floor(opts.perSecond / 10));
    this.horizon = opts.horizonMs ?? 1000;
    this.now = opts.now ?? (() => performance.timeOrigin + performance.now());
  }

  /** Wraps discord.js's makeRequest: every HTTP attempt (retries included) waits for its slot. */
  wrap(inner: MakeRequest): MakeRequest {
    return async (url, init) => {
      if (countsAgainstGlobal(url)) await this.acquire((init.signal as AbortSignal | null | undefined) ?? undefined);
      return inner(url, init);
    };
  }

  /** Resolves when this process may send one request; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = { resolve, reject, signal, onAbort: null, timer: null };
      if (signal) {
        w.onAbort = () => {
          if (w.timer) clearTimeout(w.timer);
          const i = this.queue.indexOf(w);
          if (i >= 0) this.queue.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.queue.push(w);
      // On the next microtask: requests queued together in one go share one reservation.
      queueMicrotask(() => void this.pump());
    });
  }

  /** No more reservations; requests still waiting go out unbudgeted (the process is stopping). */
  close(): void {
    this.closed = true;
    for (const w of this.queue.splice(0)) this.release(w);
  }

  private release(w: Waiter): void {
    if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
    w.resolve();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.closed) {
        const n = Math.min(this.queue.length, this.maxBatch);
        const sentAt = this.now();
        let answer: { start_ms: number; db_now_ms: number } | undefined;
        try {
          answer = await this.reserve(n);
        } catch (err) {
          this.failOpen(err);
          continue;
        }
        const receivedAt = this.now();
        if (!answer) {
          this.stats.refusals++;
          await this.waitForRoom();
          continue;
        }
        this.stats.reservations++;
        this.stats.reserved += n;
        this.stats.firstStartMs = Math.min(this.stats.firstStartMs, answer.start_ms);
        // The database read its clock somewhere between sentAt and receivedAt: a slot is taken to
        // start at the latest local time it can (never early), and the round trip comes off the
        // lateness it may still have (but half the slack is always left).
        const offset = answer.start_ms - answer.db_now_ms;
        const allowed = Math.max(this.slack - (receivedAt - sentAt), this.slack / 2);
        const batch = this.queue.splice(0, n);
        batch.forEach((w, i) => this.schedule(w, receivedAt + offset + i * this.interval, allowed));
      }
    } finally {
      this.pumping = false;
    }
  }

  private schedule(w: Waiter, slot: number, allowedLateness: number): void {
    const fire = () => {
      w.timer = null;
      if (this.now() - slot > allowedLateness) {
        // Too late: sent now it could fall within a second of the request `perSecond` slots later.
        this.stats.late++;
        this.queue.unshift(w);
        void this.pump();
        return;
      }
      this.stats.granted++;
      this.release(w);
    };
    const delay = slot - this.now();
    if (delay <= 0) fire();
    else w.timer = setTimeout(fire, delay);
  }

  /**
   * Books `n` slots in one statement: the row's next free slot moves on by n intervals, unless it
   * lies beyond the horizon (then no row comes back). Times are the database's, in ms; the caller
   * turns them into its own clock by their difference, so the processes' clocks need not agree.
   */
  private async reserve(n: number): Promise<{ start_ms: number; db_now_ms: number } | undefined> {
    const { rows } = await this.opts.pool.query<{ start_ms: number; db_now_ms: number }>(
      `WITH t AS (SELECT extract(epoch FROM clock_timestamp())::float8 * 1000 AS now_ms, $2::int * $3::float8 AS span)
       INSERT INTO rest_budget AS b (key, next_slot_ms)
       SELECT $1, t.now_ms + t.span FROM t
       ON CONFLICT (key) DO UPDATE SET next_slot_ms = GREATEST(b.next_slot_ms, (SELECT now_ms FROM t)) + (SELECT span FROM t)
         WHERE b.next_slot_ms <= (SELECT now_ms FROM t) + $4::float8
       RETURNING b.next_slot_ms - (SELECT span FROM t) AS start_ms, (SELECT now_ms FROM t) AS db_now_ms`,
      [this.opts.key, n, this.interval, this.horizon],
    );
    const r = rows[0];
    return r ? { start_ms: Number(r.start_ms), db_now_ms: Number(r.db_now_ms) } : undefined;
  }

  /** After a refusal: sleep until the next free slot is back within the horizon. */
  private async waitForRoom(): Promise<void> {
    let ms = this.interval;
    try {
      const { rows } = await this.opts.pool.query<{ wait_ms: number }>(
        `SELECT next_slot_ms - extract(epoch FROM clock_timestamp())::float8 * 1000 - $2::float8 AS wait_ms FROM rest_budget WHERE key = $1`,
        [this.opts.key, this.horizon],
      );
      if (rows[0]) ms = Math.max(1, Number(rows[0].wait_ms));
    } catch {
      // The next reservation will tell.
    }
    await new Promise((r) => setTimeout(r, Math.min(ms, this.horizon)));
  }

  private failOpen(err: unknown): void {
    const now = this.now();
    if (now - this.lastWarning > 10_000) {
      this.lastWarning = now;
      this.opts.log?.warn({ err }, 'REST budget unavailable: sending under discord.js limits only');
    }
    const n = Math.min(this.queue.length, this.maxBatch);
    this.stats.failOpen += n;
    for (const w of this.queue.splice(0, n)) this.release(w);
  }
}
