import cron, { type ScheduledTask } from 'node-cron';
import { cronLogger } from '../log.ts';
import type { Outbox } from '../generated/prisma/client.ts';
import type { ServiceContext } from '../services/context.ts';
import { query, type Statement } from '../db/hot.ts';
import { outboxRowGame } from '../services/notifications.ts';

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

/** What the claim read with a row, so that delivery need not read it again. */
export interface ClaimHints {
  /** A board row: the game's board message when the board already showed the game's version at the claim (else null). */
  boardShown?: string | null;
  /** A retire row (`dm-edit`, mode `retire`): true when there is nothing to retire (see CLAIM). */
  retireIdle?: boolean;
  /**
   * A turn or reminder DM: true when a newer turn DM of the same player in the same game was
   * already pending at the claim (this turn is over; see CLAIM). False says nothing: a newer one
   * may have been written since, which delivery checks again (src/bot/deliver.ts).
   */
  superseded?: boolean;
}

export interface Deliverer {
  /** Delivers one row; returns what was delivered (a message id, "fallback", "skipped: ..."). */
  deliver(row: Outbox, hints?: ClaimHints): Promise<string>;
}

/** Longer than any one delivery takes (discord.js waits out rate limits inside it). */
const LEASE_MS = 30_000;
const MAX_ATTEMPTS = 8;
/**
 * Deliveries in flight at once. discord.js queues each route's requests on its own and paces the
 * global 50/s, so most of them wait there: enough that a row waiting on one channel's bucket
 * (5 messages per 5 s) or on its game's earlier row does not leave the global budget unspent.
 */
const IN_FLIGHT = 32;

/**
 * The outbox's own statements, prepared on plain pg where there is a pool (src/db/hot.ts `query`;
 * through Prisma on the embedded database): the claim runs at every tick and after every change.
 *
 * The claim leases up to $3 due rows in one statement (the lock in a CTE with SKIP LOCKED, so
 * several processes never take the same row) and says, for a board row, whether the game's board
 * already shows its version (the click's answer edited it), and for a retire row whether it has
 * nothing to retire: the seat's DM shows no buttons and no earlier DM or DM edit of that player in
 * that game is still pending, whose delivery could yet show some (the dispatcher records `dm_live`
 * before it marks a row sent, so the claim's snapshot sees one or the other; a later row is a later
 * change's, and a turn DM retires the DM before it itself). The same test the move's write makes
 * before it writes a retire row (WRITE_CHANGE, src/services/changes.ts), made again at the claim:
 * in a busy game the player's DM was still on its way when they moved, and is a Play here (no
 * buttons) or gone by the time the retire row is claimed. For a turn or reminder DM it says whether
 * a newer turn DM of that player in that game is already pending: that turn is over, and the row is
 * done without the target read its delivery would otherwise make (the same test, in DM_TARGET,
 * src/bot/deliver.ts; in a busy game about half the turn DMs a move writes end this way).
 */
const CLAIM: Statement = {
  name: 'stonehall-outbox-claim',
  text: `WITH due AS (
      SELECT id FROM outbox
      WHERE status = 'pending' AND available_at <= $1::timestamp(3) AND (lease_until IS NULL OR lease_until < $1::timestamp(3))
      ORDER BY id LIMIT $3::int
      FOR UPDATE SKIP LOCKED)
    UPDATE outbox o SET lease_until = $2::timestamp(3), attempts = o.attempts + 1
    FROM due WHERE o.id = due.id
    RETURNING o.id, o.kind, o.payload, o.status, o.attempts, o.available_at, o.lease_until, o.last_error, o.result, o.created_at, o.sent_at,
      CASE WHEN o.kind = 'board' THEN (
        SELECT g.board_message_id FROM games g WHERE g.id = (o.payload->>'gameId')::int AND g.board_message_id IS NOT NULL AND g.board_version >= g.version) END AS board_shown,
      CASE WHEN o.kind = 'dm-edit' AND o.payload->>'mode' = 'retire' THEN
        NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = (o.payload->>'gameId')::int AND s.player_id = o.payload->>'userId' AND s.dm_live AND s.dm_message_id IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.status = 'pending' AND p.id < o.id AND p.kind IN ('dm', 'dm-edit') AND p.payload->>'userId' = o.payload->>'userId'
          AND ${outboxRowGame('p')} = o.payload->>'gameId') END AS retire_idle,
      CASE WHEN o.kind = 'dm' AND o.payload->'notification'->>'type' IN ('turn', 'reminder') THEN EXISTS (
        SELECT 1 FROM outbox n WHERE n.status = 'pending' AND n.id > o.id AND n.kind = 'dm' AND n.payload->>'userId' = o.payload->>'userId'
          AND ${outboxRowGame('n')} = ${outboxRowGame('o')} AND n.payload->'notification'->>'type' = 'turn') END AS superseded`,
};
/** Marks a batch's delivered rows sent ($2: a JSON array of {id, result}). */
const MARK_SENT: Statement = {
  name: 'stonehall-outbox-sent',
  text: `UPDATE outbox o SET status = 'sent', sent_at = $1::timestamp(3), result = v.result, lease_until = NULL, last_error = NULL
    FROM jsonb_to_recordset($2::jsonb) AS v(id bigint, result text)
    WHERE o.id = v.id`,
};

interface ClaimedRow {
  /** int8: text on plain pg, bigint through Prisma. */
  id: bigint | string;
  kind: string;
  payload: Outbox['payload'];
  status: string;
  attempts: number;
  available_at: Date;
  lease_until: Date | null;
  last_error: string | null;
  result: string | null;
  created_at: Date;
  sent_at: Date | null;
  board_shown: string | null;
  retire_idle: boolean | null;
  superseded: boolean | null;
}

/** What the claim read with a row: a board row's board, a retire row's test; nothing for the others. */
/**
 * A row claimed before (its second attempt or later): an earlier attempt may have delivered part of
 * it and stopped. A retried board row does not trust `board_version` (src/bot/deliver.ts `board`):
 * its board may show that attempt's edit, landed after a newer click's answer.
 */
export const isRetry = (row: { attempts: number }): boolean => row.attempts > 1;

const hintsOf = (r: ClaimedRow): ClaimHints =>
  r.kind === 'board'
    ? { boardShown: isRetry(r) ? null : r.board_shown }
    : r.retire_idle !== null
      ? { retireIdle: r.retire_idle }
      : r.superseded !== null
        ? { superseded: r.superseded }
        : {};

const toOutbox = (r: ClaimedRow): Outbox => ({
  id: BigInt(r.id),
  kind: r.kind,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  availableAt: r.available_at,
  leaseUntil: r.lease_until,
  lastError: r.last_error,
  result: r.result,
  createdAt: r.created_at,
  sentAt: r.sent_at,
});

/**
 * What a row's order matters to: its game (a board before the DM that links to it, a DM before the
 * edit that retires it), its recipient (a player's DMs in the order written: a game-over note,
 * then the reward), its channel, its table.
 */
function keysOf(row: Outbox): string[] {
  const p = (row.payload ?? {}) as { gameId?: unknown; notification?: { gameId?: unknown }; userId?: unknown; channelId?: unknown; tableId?: unknown };
  const keys: string[] = [];
  const game = p.gameId ?? p.notification?.gameId;
  if (typeof game === 'number') keys.push(`g${game}`);
  if (typeof p.userId === 'string') keys.push(`u${p.userId}`);
  if (typeof p.channelId === 'string') keys.push(`c${p.channelId}`);
  if (typeof p.tableId === 'number') keys.push(`t${p.tableId}`);
  return keys.length ? keys : [`r${row.id}`];
}

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
    private readonly opts: {
      cron?: string;
      batch?: number;
      beforeTick?: () => Promise<void>;
      /**
       * Resolves when a delivery may start: the bot's interactions go first (src/bot/priority.ts).
       * A board row whose board the click already showed costs no call and does not wait.
       */
      turn?: () => Promise<void>;
    } = {},
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
        total += await this.pump();
      } while (this.again && !this.stopped);
      return total;
    })().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  /**
   * Leases up to `n` due rows and returns them, in one statement (the lock in a CTE with SKIP
   * LOCKED, so several processes never take the same row).
   */
  private async claim(n: number): Promise<Array<Outbox & { hints: ClaimHints }>> {
    const now = this.ctx.clock.now();
    const lease = new Date(now.getTime() + LEASE_MS);
    const rows = await query<ClaimedRow>(this.ctx.db, CLAIM, [now.toISOString(), lease.toISOString(), n]);
    return rows.map((r) => Object.assign(toOutbox(r), { hints: hintsOf(r) })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Delivers due rows until none is left (or the dispatcher stops), without waiting for one batch
   * to finish before claiming the next: once half a batch of claimed rows is delivered, as many
   * rows are claimed again, so no more than `batch` are claimed and undelivered at any time.
   * Each row waits only for the earlier claimed rows sharing one of its keys (its game, recipient,
   * channel, table), so those are delivered in order while up to IN_FLIGHT others go side by side;
   * each batch's delivered rows are marked sent in one statement once all of them are done.
   */
  private async pump(): Promise<number> {
    const limit = this.opts.batch ?? 25;
    const tails = new Map<string, Promise<boolean>>();
    const marks: Promise<void>[] = [];
    let undelivered = 0;
    let woken: (() => void) | null = null;
    let free = IN_FLIGHT;
    const waiting: Array<() => void> = [];
    const slot = async () => {
      if (free > 0) free--;
      else await new Promise<void>((r) => waiting.push(r));
    };
    const release = () => {
      const next = waiting.shift();
      if (next) next();
      else free++;
    };
    let total = 0;
    try {
      for (;;) {
        // At most `batch` claimed rows undelivered at once, as when a batch was delivered whole: a
        // row waits behind at most a batch's rows of its channel (25 s at 5 per 5 s), inside its lease.
        while (undelivered > limit / 2) await new Promise<void>((r) => (woken = r));
        if (this.stopped) break;
        const wanted = limit - undelivered;
        const rows = await this.claim(wanted);
        if (rows.length === 0) break;
        // Fewer than asked for: nothing else is due now, so no second claim to learn it. A row
        // committed from now on kicks the dispatcher (`again`: one more pass), and one that falls
        // due later is found by the next tick.
        const last = rows.length < wanted;
        total += rows.length;
        undelivered += rows.length;
        const sent: Array<{ id: string; result: string }> = [];
        const done = rows.map((row) => {
          const keys = keysOf(row);
          const before = keys.map((k) => tails.get(k)).filter((p) => p !== undefined);
          // True once delivered or recorded for a retry; false when it could not even be recorded
          // (the database failed): a row after it then waits for the lease to lapse, keeping the order.
          const delivery = Promise.all(before).then(async (ok) => {
            try {
              if (!ok.every(Boolean)) return false;
              await slot();
              try {
                // A row the claim found done (a board already shown, nothing to retire, a turn DM
                // superseded) costs no call: no turn to wait.
                if (this.opts.turn && !row.hints.boardShown && !row.hints.retireIdle && !row.hints.superseded) await this.opts.turn();
                const result = await this.deliverOne(row);
                if (result !== null) sent.push({ id: String(row.id), result: result.slice(0, 200) });
                return true;
              } finally {
                release();
              }
            } catch (err) {
              this.ctx.log.error({ err, outbox: String(row.id) }, 'outbox delivery not recorded; the row is retried after its lease');
              return false;
            } finally {
              undelivered--;
              woken?.();
              woken = null;
            }
          });
          for (const k of keys) tails.set(k, delivery);
          void delivery.then(() => {
            for (const k of keys) if (tails.get(k) === delivery) tails.delete(k);
          });
          return delivery;
        });
        marks.push(Promise.all(done).then(() => this.markSent(sent)));
        if (last) break;
      }
    } finally {
      await Promise.allSettled(marks);
    }
    await Promise.all(marks);
    return total;
  }

  private async markSent(sent: Array<{ id: string; result: string }>): Promise<void> {
    if (sent.length === 0) return;
    await query(this.ctx.db, MARK_SENT, [this.ctx.clock.now().toISOString(), JSON.stringify(sent)]);
  }

  /** Delivers one row; returns what was delivered, or null when it failed (recorded for a retry). */
  private async deliverOne(row: Outbox & { hints?: ClaimHints }): Promise<string | null> {
    const { hints, ...plain } = row;
    try {
      return await this.deliverer.deliver(plain, hints);
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
      return null;
    }
  }
}
