import { autopilotMove, autopilotRng } from '../kernel/autopilot.ts';
import type { Outcome, PlayerId, TimerSpec } from '../kernel/types.ts';
import type { Tx } from '../db/client.ts';
import type { Game, Seat } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { autopilotSeats, type GameRow, type GuildTiming, type LockedGame, type LogEntry } from './game-store.ts';
import { grantCycleRewards } from './inventory.ts';
import { recordRatings } from './ratings.ts';
import type { OutboxKind, OutboxPayload } from './notifications.ts';
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
  outbox: Array<{ kind: OutboxKind; payload: object }>;
  releaseAssets: boolean;
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

/** Writes the gathered seats, jobs and outbox rows: at most four statements. */
async function flushWrites(tx: Tx, gameId: number, w: Writes, now: Date): Promise<void> {
  if (w.seats.length) {
    const rows = w.seats.map((s) => ({ seat: s.seat, result: s.result, turn_version: s.turnVersion, turn_started_at: s.turnStartedAt, deadline_at: s.deadlineAt }));
    await tx.$executeRaw`
      UPDATE seats AS s
      SET result = v.result, turn_version = v.turn_version, turn_started_at = v.turn_started_at, deadline_at = v.deadline_at
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS v(seat int, result text, turn_version int, turn_started_at timestamp(3), deadline_at timestamp(3))
      WHERE s.game_id = ${gameId} AND s.seat = v.seat`;
  }
  const cancelAll = w.cancelTimers === '*';
  const cancel = cancelAll ? [] : (w.cancelTimers as string[]);
  if (cancelAll || cancel.length || w.jobs.length) {
    const jobs = w.jobs.map((j) => ({ kind: j.kind, due_at: j.dueAt, payload: j.payload }));
    // One statement: cancel the jobs of timers that stopped, insert those of timers that started.
    await tx.$executeRaw`
      WITH cancelled AS (
        UPDATE jobs SET status = 'cancelled', done_at = ${now}
        WHERE game_id = ${gameId} AND status = 'pending'
          AND (${cancelAll} OR payload->>'timer' IN (SELECT jsonb_array_elements_text(${JSON.stringify(cancel)}::jsonb)))
      )
      INSERT INTO jobs (kind, game_id, due_at, payload, created_at)
      SELECT v.kind, ${gameId}, v.due_at, v.payload, ${now}
      FROM jsonb_to_recordset(${JSON.stringify(jobs)}::jsonb) AS v(kind text, due_at timestamp(3), payload jsonb)`;
  }
  if (w.outbox.length) {
    await tx.outbox.createMany({ data: w.outbox.map((o) => ({ kind: o.kind, payload: o.payload, availableAt: now, createdAt: now })) });
  }
  if (w.releaseAssets) await tx.$executeRaw`UPDATE assets SET locked_by_game_id = NULL, updated_at = ${now} WHERE locked_by_game_id = ${gameId}`;
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
}

/**
 * Commits a change of `game` from `prev` (null: the game was just created) to `next`, reached by
 * `steps`; the autopilot then plays its seats. `actor` is who made the change (their own turn
 * going on gets a fresh turn DM).
 */
export async function commitChange(
  tx: Tx,
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
    extra?: (w: { outbox: Writes['outbox'] }, state: unknown) => void;
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
    const earlier = await tx.$queryRaw<Array<{ player: string }>>`
      SELECT entry->>'player' AS player FROM moves
      WHERE game_id = ${game.id} AND entry->>'type' = 'forfeit' AND entry->>'reason' = 'timeout' ORDER BY seq`;
    timedOut = [...new Set([...earlier.map((e) => e.player), ...timedOut])];
  }
  // The game's own clock too (Krellstones' expired choices), which the engine records as a forfeit.
  if (engineOutcome && def.timedOut) timedOut = [...new Set([...timedOut, ...def.timedOut(final)])];
  const outcome: StoredOutcome | null = engineOutcome && timedOut.length ? { ...engineOutcome, timedOut } : engineOutcome;
  if (auto.steps.length > 0) {
    const rows = auto.steps.map((s, i) => ({ i: i + 1, actor: s.actor, entry: s.entry }));
    const updated = await tx.$executeRaw`
      WITH logged AS (
        INSERT INTO moves (game_id, seq, actor_id, entry, created_at)
        SELECT ${game.id}, ${game.version} + v.i, v.actor, v.entry, ${now}
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(i int, actor text, entry jsonb)
      )
      UPDATE games SET
        state = ${JSON.stringify(final)}::jsonb, version = ${version}, updated_at = ${now},
        status = CASE WHEN ${outcome !== null} THEN 'finished' ELSE status END,
        outcome = CASE WHEN ${outcome !== null} THEN ${JSON.stringify(outcome)}::jsonb ELSE outcome END,
        finished_at = CASE WHEN ${outcome !== null} THEN ${now}::timestamp(3) ELSE finished_at END
      WHERE id = ${game.id} AND version = ${game.version}`;
    if (updated !== 1) throw new UserError('game/stale', 'The game changed while you were moving. Look at the board again and retry.');
  }

  const w = noWrites();
  const committed: GameRow = { ...game, version };
  let seats = timerChanges(ctx, committed, def, prev, final, opts.actor ?? null, game.timing, now, w, opts.fromDm === true);
  notifyNewlyOut(ctx, committed, def, prev, final, auto.steps, outcome, w);
  for (const n of def.channelNotices?.({ gameId: game.id, prev, next: final }) ?? []) {
    const users = n.users.filter((u) => game.seats.some((s) => s.playerId === u && !s.autopilot));
    if (users.length) queue(w, 'channel-message', { channelId: game.channelId, content: n.content.slice(0, 2000), allowedUserIds: users });
  }
  if (outcome) seats = finish(committed, def, outcome, w);
  queue(w, 'board', { gameId: game.id });
  // The game is over: a result message in its channel (after the board, which it links to).
  if (outcome) queue(w, 'result', { gameId: game.id });
  opts.extra?.(w, final);
  await flushWrites(tx, game.id, w, now);
  if (outcome && game.cycleId !== null && !game.practice) await grantCycleRewards(tx, ctx, game, outcome, now);
  if (outcome) await recordRatings(tx, { ...game, outcome }, seats, now);
  const { timing: _timing, ...row } = game;
  const after: GameRow = {
    ...row,
    state: final as Game['state'],
    version,
    updatedAt: now,
    seats,
    ...(outcome ? { status: 'finished', outcome: outcome as unknown as Game['outcome'], finishedAt: now } : {}),
  };
  return { version, outcome, after, state: final };
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
  const started = new Map<PlayerId, Date>();
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
    if (turnOf(t.player!) === t) started.set(t.player!, dueAt);
  }
  return game.seats.map((original) => {
    let seat = original;
    const p = seat.playerId;
    const turn = turnOf(p);
    const startedAt = started.get(p);
    if (startedAt) {
      seat = { ...seat, turnVersion: game.version, turnStartedAt: now, deadlineAt: startedAt };
      queue(w, 'dm', turnDm(game, def, next, p, startedAt));
    } else if (!turn && (seat.deadlineAt !== null || seat.turnVersion !== null)) {
      seat = { ...seat, turnVersion: null, turnStartedAt: null, deadlineAt: null };
      // Their turn ended: the turn DM's move buttons go at once (unless the move was made from
      // that DM, whose buttons the click's own answer removed).
      if (!(fromDm && p === actor)) queue(w, 'dm-edit', { gameId: game.id, userId: p, mode: 'retire', version: game.version });
    } else if (turn && p === actor && seat.deadlineAt) {
      // Their own turn goes on after their move (a die item, a step of a longer turn): same
      // deadline, and the turn DM is edited in place to show what to do next (one DM per turn).
      queue(w, 'dm-edit', { gameId: game.id, userId: p, mode: 'refresh', version: game.version });
    }
    if (seat !== original) w.seats = [...w.seats.filter((s) => s.seat !== seat.seat), seat];
    return seat;
  });
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
