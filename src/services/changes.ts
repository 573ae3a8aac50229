import { autopilotMove, autopilotRng } from '../kernel/autopilot.ts';
import type { Outcome, PlayerId, TimerSpec } from '../kernel/types.ts';
import type { PoolClient } from 'pg';
import type { Tx } from '../db/client.ts';
import { pgSql, prismaSql, run, type HotTx, type Statement } from '../db/hot.ts';
import type { Game, Seat } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { autopilotSeats, NeedsPrismaPath, type GameRow, type GuildTiming, type LockedGame, type LogEntry } from './game-store.ts';
import { grantCycleRewards } from './inventory.ts';
import { recordRatings, recordRatingsBatch, recordRatingsOn, type RatedGame } from './ratings.ts';
import { outboxRowGame, type OutboxKind, type OutboxPayload } from './notifications.ts';
import type { GameDefinition } from './registry.ts';

/**
 * Everything a change of a game writes, in the caller's transaction: the move log and the new
 * state (conditional on the version read), the timers that start and stop (jobs, turn DMs,
 * deadlines on the seats), the autopilot's moves for the seats it plays, the game's end (results,
 * DMs, rewards, owned assets released), and the board refresh. Gathered in memory, then written
 * in one statement per table.
 */

export interface Step {
  actor: PlayerId;
  entry: LogEntry;
}

interface Writes {
  /** Seats whose turn bookkeeping or result changed, as they will be stored. */
  seats: Seat[];
  /** Timer identities whose pending jobs are cancelled ('*': every pending job of the game). */
  cancelTimers: string[] | '*';
  jobs: Array<{ kind: string; dueAt: Date; payload: object }>;
  outbox: Array<{ kind: OutboxKind; payload: object; availableAt?: Date }>;
  releaseAssets: boolean;
  /** The actor moved from their turn DM and their turn ended: the click's answer removed its buttons. */
  dmAnswered?: { seat: number; messageId: string };
}

const noWrites = (): Writes => ({ seats: [], cancelTimers: [], jobs: [], outbox: [], releaseAssets: false });

export function queue<K extends OutboxKind>(w: { outbox: Writes['outbox'] }, kind: K, payload: OutboxPayload<K>): void {
  w.outbox.push({ kind, payload: payload as object });
}

const minutes = (m: number) => m * 60_000;

/** A timer's identity: a job stays bound to it, whatever else changes. */
export const timerId = (t: Pick<TimerSpec<unknown>, 'key' | 'player'>) => `${t.key}|${t.player ?? ''}`;

/** The payload of a timer job and of its reminders. */
export interface TimerJob {
  timer: string;
  key: string;
  player?: string;
  /** The game version at which the timer started. */
  version: number;
  minutesLeft?: number;
}

/**
 * How long a board row waits when the click's own answer edits the board (interaction answers are
 * not bound to the global rate limit): by then the answer has recorded the version it shows, and
 * the row finds the board up to date without a rate-limited edit. If the answer failed, the row
 * edits the board then. Longer than Discord's 3 s to answer an interaction.
 */
export const BOARD_BY_REPLY_GRACE_MS = 3_500;

/**
 * Outbox rows in one statement, in the order given (deliveries follow the ids). The payloads are
 * serialised once as JSON, not through the ORM's per-field encoding (a sweep writes hundreds).
 */
export async function insertOutbox(tx: Tx, rows: Writes['outbox'], now: Date): Promise<void> {
  if (rows.length === 0) return;
  const data = rows.map((o, i) => ({ i, kind: o.kind, payload: o.payload, available_at: o.availableAt ?? now }));
  await tx.$executeRaw`
    INSERT INTO outbox (kind, payload, available_at, created_at)
    SELECT v.kind, v.payload, v.available_at, ${now}
    FROM jsonb_to_recordset(${JSON.stringify(data)}::jsonb) AS v(i int, kind text, payload jsonb, available_at timestamp(3))
    ORDER BY v.i`;
}

/** A seat's columns as a change writes them (and the DM its click answered, whose buttons are gone). */
function seatRow(st: Seat, w: Writes) {
  return {
    seat: st.seat,
    result: st.result,
    turn_version: st.turnVersion,
    turn_started_at: st.turnStartedAt,
    deadline_at: st.deadlineAt,
    dm_moves: st.dmMoves,
    answered: w.dmAnswered?.seat === st.seat ? w.dmAnswered.messageId : null,
  };
}

/**
 * One game's change in one statement (data-modifying CTEs): the move log, the state (conditional
 * on the version read), the seats, the jobs cancelled and started, the outbox rows (in order) and
 * the assets released. A move is then two round trips on the hot path: BEGIN with the lock-and-read,
 * then this with COMMIT (WRITE_CHANGE_CHECKED, src/db/hot.ts). Its text never varies (rows go in
 * as jsonb): the Prisma path runs the same text, and a game's last move prepares it on the hot path.
 * Parameters: see changeParams.
 * dm_live is the dispatcher's (it posts and retires DMs outside the game's lock): only cleared
 * here for the DM the click answered, and only if it is still that seat's newest.
 * A retire row (`dm-edit`, mode `retire`: the turn DM's buttons go) is written only when there can
 * be something to retire: the seat's DM shows buttons (`dm_live`, as `seated` returns it: the
 * newest committed value, since that update waits for any writer of the seat row, e.g. Play here
 * adopting a DM), or a DM or DM edit of that player in this game is still pending (its delivery
 * may yet set `dm_live`; the dispatcher records `dm_live` before it marks the row sent, so any
 * snapshot sees one or the other). Otherwise the retire's delivery would only read the seat and
 * find nothing: one round trip, a claim's and a mark's share, for nothing.
 */
export const WRITE_CHANGE: Statement = {
  name: 'stonehall-write-change',
  text: `WITH logged AS (
      INSERT INTO moves (game_id, seq, actor_id, entry, created_at)
      SELECT $1::int, $2::int + v.i, v.actor, v.entry, $3::timestamp(3)
      FROM jsonb_to_recordset($4::jsonb) AS v(i int, actor text, entry jsonb)
    ), changed AS (
      UPDATE games AS g SET
        state = v.state, version = v.version, updated_at = $3::timestamp(3),
        status = CASE WHEN v.finished THEN 'finished' ELSE g.status END,
        outcome = CASE WHEN v.finished THEN v.outcome ELSE g.outcome END,
        finished_at = CASE WHEN v.finished THEN $3::timestamp(3) ELSE g.finished_at END
      FROM jsonb_to_recordset($5::jsonb) AS v(version int, state jsonb, finished boolean, outcome jsonb)
      WHERE g.id = $1::int AND g.version = $2::int
      RETURNING g.id
    ), seated AS (
      UPDATE seats AS s
      SET result = v.result, turn_version = v.turn_version, turn_started_at = v.turn_started_at, deadline_at = v.deadline_at,
        dm_moves = COALESCE(v.dm_moves, s.dm_moves),
        dm_live = CASE WHEN v.answered IS NOT NULL AND s.dm_message_id = v.answered THEN false ELSE s.dm_live END
      FROM jsonb_to_recordset($6::jsonb)
        AS v(seat int, result text, turn_version int, turn_started_at timestamp(3), deadline_at timestamp(3), dm_moves boolean, answered text)
      WHERE s.game_id = $1::int AND s.seat = v.seat
      RETURNING s.player_id, s.dm_live, s.dm_message_id
    ), cancelled AS (
      UPDATE jobs SET status = 'cancelled', done_at = $3::timestamp(3)
      WHERE game_id = $1::int AND status = 'pending'
        AND ($7::boolean OR payload->>'timer' IN (SELECT jsonb_array_elements_text($8::jsonb)))
    ), scheduled AS (
      INSERT INTO jobs (kind, game_id, due_at, payload, created_at)
      SELECT v.kind, $1::int, v.due_at, v.payload, $3::timestamp(3)
      FROM jsonb_to_recordset($9::jsonb) AS v(kind text, due_at timestamp(3), payload jsonb)
    ), queued AS (
      INSERT INTO outbox (kind, payload, available_at, created_at)
      SELECT v.kind, v.payload, v.available_at, $3::timestamp(3)
      FROM jsonb_to_recordset($10::jsonb) AS v(i int, kind text, payload jsonb, available_at timestamp(3))
      WHERE v.kind <> 'dm-edit' OR v.payload->>'mode' IS DISTINCT FROM 'retire'
        OR EXISTS (SELECT 1 FROM seated x WHERE x.player_id = v.payload->>'userId' AND x.dm_live AND x.dm_message_id IS NOT NULL)
        OR EXISTS (SELECT 1 FROM outbox o WHERE o.status = 'pending' AND o.kind IN ('dm', 'dm-edit') AND o.payload->>'userId' = v.payload->>'userId'
          AND ${outboxRowGame('o')} = ($1::int)::text)
      ORDER BY v.i
    ), released AS (
      UPDATE assets SET locked_by_game_id = NULL, updated_at = $3::timestamp(3) WHERE $11::boolean AND locked_by_game_id = $1::int
    )
    SELECT count(*)::int AS updated FROM changed`,
};

/**
 * WRITE_CHANGE that fails (an error, so the transaction rolls back) unless it updated `$12` game
 * rows: the hot path sends it with COMMIT in one round trip (src/db/hot.ts `commitWith`), so the
 * check cannot wait for its answer. The error's text is computed from the count, so the planner
 * cannot fold it into an error of every run.
 */
export const WRITE_CHANGE_CHECKED: Statement = {
  name: 'stonehall-write-change-checked',
  text: WRITE_CHANGE.text.replace(
    /SELECT count\(\*\)::int AS updated FROM changed$/,
    `SELECT CASE WHEN count(*) = $12::int THEN count(*)::int ELSE ('stonehall: the game moved, ' || count(*) || ' rows')::int END AS updated FROM changed`,
  ),
};
if (WRITE_CHANGE_CHECKED.text === WRITE_CHANGE.text) throw new Error('WRITE_CHANGE_CHECKED: the count line was not found');

/** A change as written: the steps since the version read, and where they lead. */
interface ChangeRow {
  version: number;
  steps: Step[];
  state: unknown;
  outcome: StoredOutcome | null;
}

/**
 * WRITE_CHANGE's parameters. Times go in as ISO strings (UTC), which `timestamp(3)` reads without
 * a zone shift whatever the process's zone; rows go in as JSON text.
 */
function changeParams(game: StoredGame, change: ChangeRow, w: Writes, now: Date): { values: unknown[]; states: number } {
  const moves = change.steps.map((st, i) => ({ i: i + 1, actor: st.actor, entry: st.entry }));
  const states = change.steps.length ? [{ version: change.version, state: change.state, finished: change.outcome !== null, outcome: change.outcome }] : [];
  const seats = w.seats.map((st) => seatRow(st, w));
  const cancelAll = w.cancelTimers === '*';
  const cancel = cancelAll ? [] : (w.cancelTimers as string[]);
  const jobs = w.jobs.map((j) => ({ kind: j.kind, due_at: j.dueAt, payload: j.payload }));
  const outbox = w.outbox.map((o, i) => ({ i, kind: o.kind, payload: o.payload, available_at: o.availableAt ?? now }));
  const values = [
    game.id,
    game.version,
    now.toISOString(),
    JSON.stringify(moves),
    JSON.stringify(states),
    JSON.stringify(seats),
    cancelAll,
    JSON.stringify(cancel),
    JSON.stringify(jobs),
    JSON.stringify(outbox),
    w.releaseAssets,
  ];
  return { values, states: states.length };
}

function checkWritten(updated: number | undefined, expected: number): void {
  if (Number(updated ?? 0) !== expected) throw new UserError('game/stale', 'The game changed while you were moving. Look at the board again and retry.');
}

/** A move's earlier timeouts (games of three or more that went on after a seat ran out). */
export const EARLIER_TIMEOUTS: Statement = {
  name: 'stonehall-earlier-timeouts',
  text: `SELECT entry->>'player' AS player FROM moves
      WHERE game_id = $1::int AND entry->>'type' = 'forfeit' AND entry->>'reason' = 'timeout' ORDER BY seq`,
};

/**
 * Where a change's statements run: Prisma's interactive transaction (every use case), or a plain
 * pg client in its transaction (the hot path of a move, src/db/hot.ts).
 */
export interface ChangeStore {
  earlierTimeouts(gameId: number): Promise<string[]>;
  /** Writes the change; throws (rolling everything back) if the game moved. */
  write(game: StoredGame, change: ChangeRow, w: Writes, now: Date): Promise<void>;
  /** The end's other writes, after the change is written: a cycle's rewards, and everyone's all-time rating. */
  finish(ctx: ServiceContext, game: LockedGame, outcome: StoredOutcome, seats: Seat[], now: Date): Promise<void>;
}

type StoredGame = Pick<GameRow, 'id' | 'version' | 'cycleId' | 'practice'>;

/** A cycle game's end grants rewards to the cycle's inventories (practice games never count). */
const grantsRewards = (game: Pick<GameRow, 'cycleId' | 'practice'>) => game.cycleId !== null && !game.practice;

async function finishOnPrisma(tx: Tx, ctx: ServiceContext, game: LockedGame, outcome: StoredOutcome, seats: Seat[], now: Date): Promise<void> {
  if (grantsRewards(game)) await grantCycleRewards(tx, ctx, game, outcome, now);
  await recordRatings(tx, { ...game, outcome }, seats, now);
}

export function prismaStore(tx: Tx): ChangeStore {
  return {
    async earlierTimeouts(gameId) {
      return (await tx.$queryRawUnsafe<Array<{ player: string }>>(EARLIER_TIMEOUTS.text, gameId)).map((r) => r.player);
    },
    async write(game, change, w, now) {
      const p = changeParams(game, change, w, now);
      const rows = await tx.$queryRawUnsafe<Array<{ updated: number }>>(WRITE_CHANGE.text, ...p.values);
      checkWritten(rows[0]?.updated, p.states);
    },
    finish: (ctx, game, outcome, seats, now) => finishOnPrisma(tx, ctx, game, outcome, seats, now),
  };
}

/**
 * The hot path's store: prepared statements on `client`, the end's ratings included. A cycle game's
 * finishing move is declined before anything is written (NeedsPrismaPath): its rewards go through
 * Prisma (inventories, assets), so the caller reruns the move on the Prisma path.
 */
export function pgStore(client: PoolClient, tx?: HotTx): ChangeStore {
  return {
    async earlierTimeouts(gameId) {
      return (await run<{ player: string }>(client, EARLIER_TIMEOUTS, [gameId])).map((r) => r.player);
    },
    async write(game, change, w, now) {
      if (change.outcome !== null && grantsRewards(game)) throw new NeedsPrismaPath("a cycle game's end grants rewards through Prisma");
      const p = changeParams(game, change, w, now);
      if (tx && change.outcome === null) {
        // The change's last statement (a finished game's ratings come after it): written and
        // committed in one round trip. The check is in the statement (WRITE_CHANGE_CHECKED), so a
        // game that moved fails it and Postgres never runs the COMMIT.
        let rows: Array<{ updated: number }>;
        try {
          rows = await tx.commitWith<{ updated: number }>(WRITE_CHANGE_CHECKED, [...p.values, p.states]);
        } catch (err) {
          if (/stonehall: the game moved/.test(String((err as Error)?.message))) checkWritten(0, p.states);
          throw err;
        }
        checkWritten(rows[0]?.updated, p.states);
        return;
      }
      const rows = await run<{ updated: number }>(client, WRITE_CHANGE, p.values);
      checkWritten(rows[0]?.updated, p.states);
    },
    async finish(_ctx, game, outcome, seats, now) {
      if (grantsRewards(game)) throw new NeedsPrismaPath("a cycle game's end grants rewards through Prisma");
      await recordRatingsOn(pgSql(client), { ...game, outcome }, seats, now);
    },
  };
}

/**
 * The writes of several games' changes in one transaction, gathered and then written one statement
 * per table (the deadline sweep fires many due timers at once). The games must be locked by the
 * caller and distinct: one change per game per batch.
 */
export class ChangeBatch {
  private readonly moves: Array<{ game_id: number; seq: number; actor: string; entry: unknown }> = [];
  private readonly games: Array<{ id: number; old_version: number; version: number; state: unknown; finished: boolean; outcome: unknown }> = [];
  private readonly seats: Array<Record<string, unknown>> = [];
  private readonly cancel: Array<{ game_id: number; timer: string | null }> = [];
  private readonly jobs: Array<{ game_id: number; kind: string; due_at: Date; payload: object }> = [];
  private readonly outbox: Writes['outbox'] = [];
  private readonly release: number[] = [];
  /** Written after the batch (a cycle game's rewards), in the order the changes came. */
  private readonly after: Array<(tx: Tx) => Promise<void>> = [];
  /** Games the batch ends, for the all-time ratings (recorded together, in this order). */
  private readonly ended: Array<{ game: RatedGame; seats: Seat[] }> = [];
  private readonly seen = new Set<number>();

  get size(): number {
    return this.seen.size;
  }

  add(
    gameId: number,
    change: { oldVersion: number; version: number; steps: Step[]; state: unknown; outcome: StoredOutcome | null },
    w: Writes,
    after?: (tx: Tx) => Promise<void>,
    ended?: { game: RatedGame; seats: Seat[] },
  ): void {
    if (this.seen.has(gameId)) throw new Error(`game ${gameId} changes twice in one batch`);
    this.seen.add(gameId);
    if (change.steps.length > 0) {
      change.steps.forEach((st, i) => this.moves.push({ game_id: gameId, seq: change.oldVersion + i + 1, actor: st.actor, entry: st.entry }));
      this.games.push({ id: gameId, old_version: change.oldVersion, version: change.version, state: change.state, finished: change.outcome !== null, outcome: change.outcome });
    }
    for (const st of w.seats) {
      this.seats.push({ game_id: gameId, ...seatRow(st, w) });
    }
    if (w.cancelTimers === '*') this.cancel.push({ game_id: gameId, timer: null });
    else for (const timer of w.cancelTimers) this.cancel.push({ game_id: gameId, timer });
    for (const j of w.jobs) this.jobs.push({ game_id: gameId, kind: j.kind, due_at: j.dueAt, payload: j.payload });
    this.outbox.push(...w.outbox);
    if (w.releaseAssets) this.release.push(gameId);
    if (after) this.after.push(after);
    if (ended) this.ended.push(ended);
  }

  /** At most six statements, whatever the number of games; throws if any game moved meanwhile. */
  async flush(tx: Tx, now: Date): Promise<void> {
    if (this.games.length) {
      const updated = await tx.$executeRaw`
        WITH logged AS (
          INSERT INTO moves (game_id, seq, actor_id, entry, created_at)
          SELECT v.game_id, v.seq, v.actor, v.entry, ${now}
          FROM jsonb_to_recordset(${JSON.stringify(this.moves)}::jsonb) AS v(game_id int, seq int, actor text, entry jsonb)
        )
        UPDATE games AS g SET
          state = v.state, version = v.version, updated_at = ${now},
          status = CASE WHEN v.finished THEN 'finished' ELSE g.status END,
          outcome = CASE WHEN v.finished THEN v.outcome ELSE g.outcome END,
          finished_at = CASE WHEN v.finished THEN ${now}::timestamp(3) ELSE g.finished_at END
        FROM jsonb_to_recordset(${JSON.stringify(this.games)}::jsonb)
          AS v(id int, old_version int, version int, state jsonb, finished boolean, outcome jsonb)
        WHERE g.id = v.id AND g.version = v.old_version`;
      if (updated !== this.games.length) throw new UserError('game/stale', `${this.games.length - updated} of ${this.games.length} games changed while their batch was written.`);
    }
    if (this.seats.length) {
      await tx.$executeRaw`
        UPDATE seats AS s
        SET result = v.result, turn_version = v.turn_version, turn_started_at = v.turn_started_at, deadline_at = v.deadline_at,
          dm_live = CASE WHEN v.answered IS NOT NULL AND s.dm_message_id = v.answered THEN false ELSE s.dm_live END
        FROM jsonb_to_recordset(${JSON.stringify(this.seats)}::jsonb)
          AS v(game_id int, seat int, result text, turn_version int, turn_started_at timestamp(3), deadline_at timestamp(3), answered text)
        WHERE s.game_id = v.game_id AND s.seat = v.seat`;
    }
    if (this.cancel.length || this.jobs.length) {
      await tx.$executeRaw`
        WITH cancelled AS (
          UPDATE jobs AS j SET status = 'cancelled', done_at = ${now}
          FROM jsonb_to_recordset(${JSON.stringify(this.cancel)}::jsonb) AS c(game_id int, timer text)
          WHERE j.game_id = c.game_id AND j.status = 'pending' AND (c.timer IS NULL OR j.payload->>'timer' = c.timer)
        )
        INSERT INTO jobs (kind, game_id, due_at, payload, created_at)
        SELECT v.kind, v.game_id, v.due_at, v.payload, ${now}
        FROM jsonb_to_recordset(${JSON.stringify(this.jobs)}::jsonb) AS v(game_id int, kind text, due_at timestamp(3), payload jsonb)`;
    }
    await insertOutbox(tx, this.outbox, now);
    if (this.release.length) await tx.$executeRaw`UPDATE assets SET locked_by_game_id = NULL, updated_at = ${now} WHERE locked_by_game_id = ANY(${this.release}::int[])`;
    for (const fn of this.after) await fn(tx);
    await recordRatingsBatch(prismaSql(tx), this.ended, now);
  }
}

/**
 * The autopilot's moves: while the game waits for a seat the autopilot plays (and that seat has a
 * legal move), it moves, each decision drawn from a generator derived from the seed and the
 * version at that point. Its moves are logged like any other (with `auto`), so replays need
 * nothing else.
 */
export function runAutopilot(def: GameDefinition, game: Pick<GameRow, 'seed' | 'seats' | 'version'>, state: unknown, steps: Step[]): { state: unknown; steps: Step[] } {
  const { engine } = def;
  let s = state;
  const out = steps.slice();
  for (let i = 0; ; i++) {
    if (engine.outcome(s) !== null) break;
    const auto = autopilotSeats(def, game.seats, s);
    if (auto.size === 0) break;
    const player = (engine.awaiting(s) as PlayerId[]).find((p) => auto.has(p) && engine.legalMoves(s, p).length > 0);
    if (player === undefined) break;
    if (i >= 2000) throw new Error(`the autopilot of game ${def.kind} made 2000 moves in a row without the game waiting for anyone else`);
    const move = autopilotMove(engine, s, player, autopilotRng(game.seed, game.version + out.length));
    s = engine.apply(s, player, move);
    out.push({ actor: player, entry: { type: 'move', move, auto: true } });
  }
  return { state: s, steps: out };
}

/** A game's outcome as stored on its row: the engine's, and whose turn ran out (their forfeit was a timeout). */
export type StoredOutcome = Outcome & { timedOut?: string[] };

export interface Committed {
  version: number;
  outcome: StoredOutcome | null;
  /** The game as committed (state, version, seats, outcome), for rendering without another read. */
  after: GameRow;
  state: unknown;
  /** The log entries the change wrote (the autopilot's included), as the moves table holds them. */
  logged: Array<{ seq: number; actorId: string; entry: unknown; createdAt: Date }>;
}

/**
 * Commits a change of `game` from `prev` (null: the game was just created) to `next`, reached by
 * `steps`; the autopilot then plays its seats. `actor` is who made the change (their own turn
 * going on gets a fresh turn DM).
 */
export async function commitChange(tx: Tx, ...args: CommitArgs): Promise<Committed> {
  return commitChangeOn(prismaStore(tx), ...args);
}

type CommitArgs = Parameters<typeof commitChangeOn> extends [unknown, ...infer R] ? R : never;

/** commitChange with its statements run by `store` (the hot path's pg client, or Prisma). */
export async function commitChangeOn(
  store: ChangeStore,
  ctx: ServiceContext,
  game: LockedGame,
  def: GameDefinition,
  prev: unknown,
  next: unknown,
  steps: Step[],
  opts: {
    actor?: PlayerId | null;
    /** The actor moved from their turn DM itself (its buttons are gone with the click's answer): no retire edit needed. */
    fromDm?: boolean;
    /** Where the actor moved (their DMs or the server): remembered on their seat (`dm_moves`) for their next turn DM. */
    via?: 'dm' | 'board';
    /** The click's answer edits the board itself (and records it): the board row only waits, as a fallback. */
    boardByReply?: boolean;
    extra?: (w: { outbox: Writes['outbox'] }, state: unknown) => void;
    /** Gather the writes into this batch instead of writing them now (the caller flushes it). */
    batch?: ChangeBatch;
  } = {},
): Promise<Committed> {
  const { engine } = def;
  const now = ctx.clock.now();
  const auto = runAutopilot(def, game, next, steps);
  const final = auto.state;
  const version = game.version + auto.steps.length;
  const engineOutcome = engine.outcome(final);
  // What the platform adds to the stored outcome: whose turn ran out (the engine only knows that they forfeited).
  // In a game of three or more that went on after a seat ran out, that was logged in an earlier change.
  let timedOut = auto.steps.flatMap((s) => (s.entry.type === 'forfeit' && s.entry.reason === 'timeout' ? [s.entry.player] : []));
  if (engineOutcome && engine.out && game.version > 0) {
    const earlier = await store.earlierTimeouts(game.id);
    timedOut = [...new Set([...earlier, ...timedOut])];
  }
  // The game's own clock too (Krellstones' expired choices), which the engine records as a forfeit.
  if (engineOutcome && def.timedOut) timedOut = [...new Set([...timedOut, ...def.timedOut(final)])];
  const outcome: StoredOutcome | null = engineOutcome && timedOut.length ? { ...engineOutcome, timedOut } : engineOutcome;
  const w = noWrites();
  const committed: GameRow = { ...game, version };
  let seats = timerChanges(ctx, committed, def, prev, final, opts.actor ?? null, game.timing, now, w, opts.fromDm === true, opts.via);
  notifyNewlyOut(ctx, committed, def, prev, final, auto.steps, outcome, w);
  for (const n of def.channelNotices?.({ gameId: game.id, prev, next: final }) ?? []) {
    const users = n.users.filter((u) => game.seats.some((s) => s.playerId === u && !s.autopilot));
    if (users.length) queue(w, 'channel-message', { channelId: game.channelId, content: n.content.slice(0, 2000), allowedUserIds: users });
  }
  if (outcome) seats = finish(committed, def, outcome, w);
  // A change made only of secret moves (a private selection) leaves every public message as it is.
  const secret = outcome === null && def.secretMove !== undefined && auto.steps.length > 0 && auto.steps.every((st) => st.entry.type === 'move' && def.secretMove!(st.entry.move));
  if (!secret) w.outbox.push({ kind: 'board', payload: { gameId: game.id }, ...(opts.boardByReply ? { availableAt: new Date(now.getTime() + BOARD_BY_REPLY_GRACE_MS) } : {}) });
  // The game is over: a result message in its channel (after the board, which it links to).
  if (outcome) queue(w, 'result', { gameId: game.id });
  opts.extra?.(w, final);
  // What a DM shows besides its notification, fixed now: the dispatcher renders it without reading the game.
  const meta = dmMeta(committed, outcome === null);
  for (const o of w.outbox) if (o.kind === 'dm') (o.payload as OutboxPayload<'dm'>).meta = meta;
  // The end's other writes: a cycle's rewards, and everyone's all-time rating.
  const finalSeats = seats;
  if (opts.batch) {
    const rewards = outcome && grantsRewards(game) ? (t: Tx) => grantCycleRewards(t, ctx, game, outcome, now) : undefined;
    opts.batch.add(game.id, { oldVersion: game.version, version, steps: auto.steps, state: final, outcome }, w, rewards, outcome ? { game: { ...game, outcome }, seats: finalSeats } : undefined);
  } else {
    await store.write(game, { version, steps: auto.steps, state: final, outcome }, w, now);
    if (outcome) await store.finish(ctx, game, outcome, finalSeats, now);
  }
  const { timing: _timing, ...row } = game;
  const after: GameRow = {
    ...row,
    state: final as Game['state'],
    version,
    updatedAt: now,
    seats,
    ...(outcome ? { status: 'finished', outcome: outcome as unknown as Game['outcome'], finishedAt: now } : {}),
  };
  const logged = auto.steps.map((st, i) => ({ seq: game.version + i + 1, actorId: st.actor, entry: st.entry as unknown, createdAt: now }));
  return { version, outcome, after, state: final, logged };
}

/**
 * Timers before and after, compared by identity: a timer that stopped has its jobs cancelled; one
 * that started gets its expiry job (and reminders, for a turn of the server's turn limit), and,
 * when it is a player's turn, the seat's deadline and a turn DM. A turn that goes on keeps its
 * deadline; if its player just moved, they get a fresh turn DM showing what to do next. Seats the
 * autopilot plays get no DMs and no deadlines (it moves at once). Returns the seats as stored.
 */
function timerChanges(
  ctx: ServiceContext,
  game: GameRow,
  def: GameDefinition,
  prev: unknown,
  next: unknown,
  actor: PlayerId | null,
  timing: GuildTiming,
  now: Date,
  w: Writes,
  fromDm = false,
  via?: 'dm' | 'board',
): Seat[] {
  const { engine } = def;
  const before = (prev === null ? [] : engine.timers(prev)) as TimerSpec<unknown>[];
  const after = engine.timers(next) as TimerSpec<unknown>[];
  const beforeIds = new Set(before.map(timerId));
  const afterIds = new Set(after.map(timerId));
  const auto = autopilotSeats(def, game.seats, next);
  if (w.cancelTimers !== '*') w.cancelTimers.push(...before.filter((t) => !afterIds.has(timerId(t))).map(timerId));
  const isTurn = (t: TimerSpec<unknown>) => t.player !== undefined && t.turn !== false && !auto.has(t.player);
  const turnOf = (player: PlayerId) => after.find((t) => t.player === player && isTurn(t));
  const started = new Map<PlayerId, { dueAt: Date; edit: boolean }>();
  for (const t of after) {
    if (beforeIds.has(timerId(t))) continue;
    // A player on vacation: their clock starts when the vacation ends.
    const away = t.player !== undefined ? game.seats.find((x) => x.playerId === t.player)?.vacationUntil : null;
    const paused = away && away > now ? away.getTime() - now.getTime() : 0;
    const dueAt = new Date(now.getTime() + paused + (t.after === 'turn-limit' ? minutes(timing.turnLimitMinutes) : t.after.ms));
    const payload: TimerJob = { timer: timerId(t), key: t.key, ...(t.player !== undefined ? { player: t.player } : {}), version: game.version };
    w.jobs.push({ kind: 'timer', dueAt, payload });
    if (!isTurn(t)) continue;
    if (t.after === 'turn-limit') {
      for (const m of timing.reminderMinutes) {
        const at = new Date(dueAt.getTime() - minutes(m));
        if (m > 0 && m < timing.turnLimitMinutes && at > now) w.jobs.push({ kind: 'timer-reminder', dueAt: at, payload: { ...payload, minutesLeft: m } });
      }
    }
    if (turnOf(t.player!) === t) started.set(t.player!, { dueAt, edit: t.dm === 'edit' });
  }
  return game.seats.map((original) => {
    let seat = original;
    const p = seat.playerId;
    const turn = turnOf(p);
    const startedAt = started.get(p);
    if (startedAt) {
      seat = { ...seat, turnVersion: game.version, turnStartedAt: now, deadlineAt: startedAt.dueAt };
      queue(w, 'dm', { ...turnDm(game, def, next, p, startedAt.dueAt), ...(startedAt.edit ? { edit: true } : {}) });
    } else if (!turn && (seat.deadlineAt !== null || seat.turnVersion !== null)) {
      seat = { ...seat, turnVersion: null, turnStartedAt: null, deadlineAt: null };
      // Their turn ended: the turn DM's move buttons go at once (unless the move was made from
      // that DM, whose buttons the click's own answer removed).
      if (!(fromDm && p === actor)) queue(w, 'dm-edit', { gameId: game.id, userId: p, mode: 'retire', version: game.version });
      else if (seat.dmMessageId) w.dmAnswered = { seat: seat.seat, messageId: seat.dmMessageId };
    } else if (turn && p === actor && seat.deadlineAt) {
      // Their own turn goes on after their move (a die item, a step of a longer turn): same
      // deadline, and the turn DM is edited in place to show what to do next (one DM per turn).
      queue(w, 'dm-edit', { gameId: game.id, userId: p, mode: 'refresh', version: game.version });
    }
    // Where the actor moved decides what their next turn DM offers (src/bot/dm-moves.ts).
    if (p === actor && via !== undefined && seat.dmMoves !== (via === 'dm')) seat = { ...seat, dmMoves: via === 'dm' };
    if (seat !== original) w.seats = [...w.seats.filter((s) => s.seat !== seat.seat), seat];
    return seat;
  });
}

/** What a DM of this game shows besides its notification (names come from the dispatcher's cache). */
export function dmMeta(game: Pick<GameRow, 'guildId' | 'channelId' | 'boardMessageId' | 'version' | 'cycleId' | 'seats'>, active: boolean): NonNullable<OutboxPayload<'dm'>['meta']> {
  return {
    guildId: game.guildId,
    channelId: game.channelId,
    boardMessageId: game.boardMessageId,
    version: game.version,
    active,
    cycle: game.cycleId !== null,
    players: game.seats.map((s) => s.playerId),
  };
}

function turnDm(game: GameRow, def: GameDefinition, state: unknown, playerId: string, deadlineAt: Date): OutboxPayload<'dm'> {
  return {
    userId: playerId,
    fallbackChannelId: game.channelId,
    notification: {
      type: 'turn',
      gameId: game.id,
      kind: game.kind,
      view: def.engine.view(state, playerId),
      deadlineAt: deadlineAt.toISOString(),
      opponents: game.seats.filter((s) => s.playerId !== playerId).map((s) => s.playerId),
    },
  };
}

/**
 * Games of three or more: a seat that forfeits stays in under the autopilot. Everyone still
 * playing is told, and so is the player who left.
 */
function notifyNewlyOut(
  ctx: ServiceContext,
  game: GameRow,
  def: GameDefinition,
  prev: unknown,
  next: unknown,
  steps: Step[],
  outcome: Outcome | null,
  w: Writes,
): void {
  if (!def.engine.out || prev === null) return;
  const before = new Set(def.engine.out(prev));
  const newly = def.engine.out(next).filter((p) => !before.has(p));
  if (newly.length === 0) return;
  const humans = game.seats.filter((s) => !s.autopilot).map((s) => s.playerId);
  for (const p of newly) {
    const timedOut = steps.some((s) => s.entry.type === 'forfeit' && s.entry.player === p && s.entry.reason === 'timeout') || (def.timedOut?.(next) ?? []).includes(p);
    const why = timedOut ? 'ran out of time' : 'gave up';
    const rest = outcome ? 'The game is over: see the board.' : 'The autopilot plays their seat from now on; they rank last.';
    for (const to of humans) {
      const content =
        to === p
          ? `🏳️ You ${timedOut ? 'ran out of time' : 'left'} in ${def.title} #${game.id}. ${outcome ? 'The game is over.' : 'The autopilot plays your seat from now on; you rank last and gain nothing.'}`
          : `⚠️ <@${p}> ${why} in ${def.title} #${game.id}. ${rest}`;
      queue(w, 'text-dm', { userId: to, fallbackChannelId: game.channelId, content });
    }
  }
  void ctx;
}

/** The game is over: every pending job is cancelled, each seat gets its result and (if a person) a DM. */
function finish(game: GameRow, def: GameDefinition, outcome: StoredOutcome, w: Writes): Seat[] {
  w.cancelTimers = '*';
  w.jobs = [];
  w.releaseAssets = true;
  w.outbox = w.outbox.filter((o) => !(o.kind === 'dm' && (o.payload as OutboxPayload<'dm'>).notification.type === 'turn'));
  const forfeits = new Set([...(outcome.forfeits ?? []), ...(outcome.forfeited !== undefined ? [outcome.forfeited] : [])]);
  const seats = game.seats.map((seat): Seat => {
    const result = forfeits.has(seat.playerId)
      ? 'forfeit'
      : outcome.winners.includes(seat.playerId)
        ? 'win'
        : outcome.winners.length === 0
          ? 'draw'
          : 'loss';
    if (!seat.autopilot) {
      queue(w, 'dm', {
        userId: seat.playerId,
        fallbackChannelId: game.channelId,
        notification: {
          type: 'game-over',
          gameId: game.id,
          kind: game.kind,
          winners: outcome.winners,
          reason: outcome.reason,
          ...(outcome.forfeited ? { forfeited: outcome.forfeited } : {}),
          ...(outcome.timedOut?.length ? { timedOut: outcome.timedOut } : {}),
          ...(outcome.scores ? { scores: outcome.scores } : {}),
        },
      });
    }
    return { ...seat, result, turnVersion: null, turnStartedAt: null, deadlineAt: null };
  });
  w.seats = seats;
  void def;
  return seats;
}
