import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { Tx } from '../db/client.ts';
import { PoolBusyError, pgTransaction, poolOf, run, runOnPool, type HotTx, type Statement } from '../db/hot.ts';
import type { Game, Seat } from '../generated/prisma/client.ts';
import type { Outcome, PlayerId } from '../kernel/types.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import type { GameDefinition } from './registry.ts';

/**
 * Loading and locking games, and what leaves the services about a game. Raw engine state never
 * leaves the services: callers get a GameInfo (the row without state and, until the game ends,
 * without its seed) and views computed here, so hidden information is filtered at this boundary.
 */

export interface PlayerRef {
  id: string;
  name: string;
}

/** A game row with its seats (services only: it holds the raw state). */
export type GameRow = Game & { seats: Seat[] };

/** What callers outside the services see of a game: no state, and the seed only once the game is over. */
export type GameInfo = Omit<Game, 'state' | 'seed' | 'playerData'> & { seed: string | null; seats: Seat[] };

/** A move-log entry. Replaying setup(seed) and these entries in order reproduces the game. */
export type LogEntry =
  | {
      type: 'move';
      move: unknown;
      /** Chosen by the autopilot (a practice bot, or a seat that forfeited in a game that went on). */
      auto?: true;
      /** Applied because this timer expired (a default choice, or a phase that advanced by itself). */
      timer?: string;
    }
  | { type: 'forfeit'; player: string; reason: 'resign' | 'timeout' };

export interface GuildTiming {
  turnLimitMinutes: number;
  reminderMinutes: number[];
}

export type LockedGame = GameRow & { timing: GuildTiming };

export function seedCommitment(seed: string): string {
  return createHash('sha256').update(seed, 'utf8').digest('hex');
}

export function gameInfo(row: GameRow): GameInfo {
  const { state: _state, seed, playerData: _playerData, ...rest } = row as GameRow & { timing?: GuildTiming };
  delete (rest as { timing?: unknown }).timing;
  return { ...rest, seed: row.status === 'finished' ? seed : null };
}

/** Parses the stored state with the engine's schema: unchecked JSON never reaches an engine. */
export function parseState(def: GameDefinition, game: Pick<Game, 'id' | 'state'>): unknown {
  const parsed = def.engine.stateSchema.safeParse(game.state);
  if (!parsed.success) throw new Error(`game ${game.id}: stored state does not match the ${def.kind} schema: ${parsed.error.message}`);
  return parsed.data;
}

/** The seats the autopilot plays now: a practice game's bot seats, and seats that forfeited in a game that goes on. */
export function autopilotSeats(def: GameDefinition, seats: Seat[], state: unknown): Set<PlayerId> {
  return new Set([...seats.filter((s) => s.autopilot).map((s) => s.playerId), ...(def.engine.out?.(state) ?? [])]);
}

/**
 * A game as callers may see it: its info, and its views and legal moves computed on demand from
 * the state the snapshot closes over (never handed out).
 */
export interface GameSnapshot<View = unknown, Move = unknown> {
  game: GameInfo;
  def: GameDefinition;
  /** What `viewer` may see (null: a spectator). */
  view(viewer: PlayerId | null): View;
  /** The moves `player` may make now. */
  legalMoves(player: PlayerId): Move[];
  /** Seats played by the autopilot. */
  autopilot: PlayerId[];
  /** Players the game waits for now. */
  awaiting: PlayerId[];
  outcome: Outcome | null;
}

export function makeSnapshot(def: GameDefinition, row: GameRow, state: unknown): GameSnapshot {
  return {
    game: gameInfo(row),
    def,
    view: (viewer) => def.engine.view(state, viewer),
    legalMoves: (player) => def.engine.legalMoves(state, player),
    autopilot: [...autopilotSeats(def, row.seats, state)],
    awaiting: def.engine.awaiting(state),
    outcome: def.engine.outcome(state),
  };
}

export function definitionOf(ctx: ServiceContext, kind: string): GameDefinition {
  return ctx.games.require(kind);
}

interface LockedRow {
  id: number;
  guild_id: string;
  channel_id: string;
  kind: string;
  status: string;
  options: Game['options'];
  state: Game['state'];
  version: number;
  seed: string;
  seed_commitment: string;
  board_message_id: string | null;
  board_version: number;
  board_blocked: string | null;
  outcome: Game['outcome'];
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  cycle_id: number | null;
  practice: boolean;
  player_data: Game['playerData'];
  /** The game's own time per move, if its challenger chose one. */
  turn_limit_minutes: number | null;
  /** The time per move in force: the game's own, else the server's turn limit. */
  timing_turn_limit_minutes: number;
  reminder_minutes: number[];
  seats: Array<{
    game_id: number;
    seat: number;
    player_id: string;
    result: string | null;
    turn_version: number | null;
    turn_started_at: string | null;
    deadline_at: string | null;
    dm_message_id: string | null;
    dm_live: boolean;
    dm_moves: boolean;
    autopilot: boolean;
    vacation_until: string | null;
    nudged_turn: number | null;
  }>;
}

/** A timestamp(3) column as json_agg writes it (no zone: the database keeps UTC). */
const utc = (t: string | null): Date | null => (t === null ? null : new Date(`${t}Z`));

/**
 * Locks the game row and reads it with its seats and its turn timing (the time per move chosen for
 * the game, else the server's turn limit; the server's reminders): one statement (a move's latency
 * is mostly round trips). The same text runs through Prisma and, prepared, on the hot path.
 */
export const LOCK_GAME: Statement = {
  name: 'stonehall-lock-game',
  text: `SELECT g.*, COALESCE(g.turn_limit_minutes, gu.turn_limit_minutes) AS timing_turn_limit_minutes, gu.reminder_minutes,
      (SELECT coalesce(json_agg(s ORDER BY s.seat), '[]'::json) FROM seats s WHERE s.game_id = g.id) AS seats
    FROM games g JOIN guilds gu ON gu.id = g.guild_id
    WHERE g.id = $1::int FOR UPDATE OF g`,
};

/**
 * The game with its seats and timing as LOCK_GAME reads it, without the lock: one statement instead
 * of Prisma's two (the game, then its seats), prepared on plain pg where there is a pool (a click
 * reads its game this way before it moves).
 */
export const READ_GAME: Statement = {
  name: 'stonehall-read-game',
  text: LOCK_GAME.text.replace(/ FOR UPDATE OF g$/, ''),
};

export async function readGame(ctx: ServiceContext, gameId: number): Promise<LockedGame | null> {
  const pool = poolOf(ctx.db);
  const rows = pool ? await runOnPool<LockedRow>(pool, READ_GAME, [gameId]) : await ctx.db.$queryRawUnsafe<LockedRow[]>(READ_GAME.text, gameId);
  return rows[0] ? toLockedGame(rows[0]) : null;
}

export async function lockGame(tx: Tx, gameId: number): Promise<LockedGame | null> {
  const rows = await tx.$queryRawUnsafe<LockedRow[]>(LOCK_GAME.text, gameId);
  return rows[0] ? toLockedGame(rows[0]) : null;
}

/** lockGame on the hot path: a plain pg client in its transaction. */
export async function lockGamePg(client: PoolClient, gameId: number): Promise<LockedGame | null> {
  const rows = await run<LockedRow>(client, LOCK_GAME, [gameId]);
  return rows[0] ? toLockedGame(rows[0]) : null;
}

/**
 * LOCK_GAME with the game's id in its text, to run in the hot transaction's BEGIN round trip
 * (src/db/hot.ts `first`): an integer checked here, so nothing but digits goes into the text.
 * Null for an id that is not a 32-bit integer (the prepared statement then runs, and refuses it).
 */
export function lockGameFirst(gameId: number): string | null {
  if (!Number.isInteger(gameId) || gameId < -2147483648 || gameId > 2147483647) return null;
  return LOCK_GAME.text.replace('$1::int', `${gameId}`);
}

/** The game locked by lockGameFirst in BEGIN's round trip (its rows), as lockGamePg reads it. */
export function lockedFromFirst(rows: unknown[]): LockedGame | null {
  return rows[0] ? toLockedGame(rows[0] as LockedRow) : null;
}

/** Games the caller has already locked (the batched sweep), read like lockGame reads one: one statement. */
export async function readLockedGames(tx: Tx, ids: number[]): Promise<Map<number, LockedGame>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.$queryRaw<LockedRow[]>`
    SELECT g.*, COALESCE(g.turn_limit_minutes, gu.turn_limit_minutes) AS timing_turn_limit_minutes, gu.reminder_minutes,
      (SELECT coalesce(json_agg(s ORDER BY s.seat), '[]'::json) FROM seats s WHERE s.game_id = g.id) AS seats
    FROM games g JOIN guilds gu ON gu.id = g.guild_id
    WHERE g.id = ANY(${ids}::int[])`;
  return new Map(rows.map((r) => [r.id, toLockedGame(r)]));
}

function toLockedGame(r: LockedRow): LockedGame {
  return {
    id: r.id,
    guildId: r.guild_id,
    channelId: r.channel_id,
    kind: r.kind,
    status: r.status,
    options: r.options,
    state: r.state,
    version: r.version,
    seed: r.seed,
    seedCommitment: r.seed_commitment,
    boardMessageId: r.board_message_id,
    boardVersion: r.board_version,
    boardBlocked: r.board_blocked ?? null,
    outcome: r.outcome,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
    cycleId: r.cycle_id,
    practice: r.practice,
    playerData: r.player_data,
    seats: r.seats.map((s) => ({
      gameId: s.game_id,
      seat: s.seat,
      playerId: s.player_id,
      result: s.result,
      turnVersion: s.turn_version,
      turnStartedAt: utc(s.turn_started_at),
      deadlineAt: utc(s.deadline_at),
      dmMessageId: s.dm_message_id,
      dmLive: s.dm_live,
      dmMoves: s.dm_moves,
      autopilot: s.autopilot,
      vacationUntil: utc(s.vacation_until),
      nudgedTurn: s.nudged_turn,
    })),
    turnLimitMinutes: r.turn_limit_minutes,
    timing: { turnLimitMinutes: r.timing_turn_limit_minutes, reminderMinutes: r.reminder_minutes },
  };
}

/**
 * Loads a game for a use case, refusing unknown ids and ids from another server alike. `tx`: the
 * Prisma transaction, or the hot path's lock (lockGamePg on its client).
 */
export async function loadForUpdate(
  tx: Tx | ((gameId: number) => Promise<LockedGame | null>),
  ctx: ServiceContext,
  gameId: number,
  guildId: string | null,
): Promise<LockedGame> {
  const game = typeof tx === 'function' ? await tx(gameId) : await lockGame(tx, gameId);
  if (!game || (guildId !== null && game.guildId !== guildId)) {
    throw new UserError('game/unknown', `There is no game #${gameId} in this server.`);
  }
  return game;
}

const BUSY_MESSAGE = 'Stonehall is very busy right now and nothing was changed. Please try again in a moment.';
/** How long a use case waits for a free connection before the user is told to try again (ServiceContext.connectionWaitMs overrides). */
const MAX_WAIT_MS = 10_000;
/** How long a use case's transaction may last (Prisma's path); on the hot path, each statement. */
const TIMEOUT_MS = 15_000;

/**
 * One use case, one transaction; wakes the outbox after the commit. When the database is so busy
 * that no connection frees up in time (Prisma's P2028), nothing has happened yet, so the user is
 * told to try again rather than shown an error id. `timeoutMs`: longer than a move's 15 s, for a
 * use case that must be one transaction however big (a Battle Phase starting all its games).
 */
export async function inTransaction<T>(ctx: ServiceContext, fn: (tx: Tx) => Promise<T>, opts: { timeoutMs?: number } = {}): Promise<T> {
  let result: T;
  try {
    result = await ctx.db.$transaction(fn, { timeout: opts.timeoutMs ?? TIMEOUT_MS, maxWait: ctx.connectionWaitMs ?? MAX_WAIT_MS });
  } catch (err) {
    if ((err as { code?: string })?.code === 'P2028' && /start a transaction/i.test(String((err as Error).message))) {
      throw new UserError('system/busy', BUSY_MESSAGE);
    }
    throw err;
  }
  ctx.onOutbox?.();
  return result;
}

/**
 * Thrown on a hot path when the use case needs what only the Prisma path does (a finishing move's
 * rewards and ratings, an item check): the pg transaction rolls back and the caller reruns the use
 * case through inTransaction.
 */
export class NeedsPrismaPath extends Error {
  constructor(why: string) {
    super(`hot path declined: ${why}`);
    this.name = 'NeedsPrismaPath';
  }
}

/**
 * inTransaction on a plain pg client of the pool Prisma runs on (src/db/hot.ts): same
 * transaction, same busy refusal, same outbox wake-up after the commit.
 */
export async function inPgTransaction<T>(ctx: ServiceContext, pool: Pool, fn: (client: PoolClient, tx: HotTx) => Promise<T>, opts: { first?: string } = {}): Promise<T> {
  let result: T;
  try {
    result = await pgTransaction(pool, fn, { maxWaitMs: ctx.connectionWaitMs ?? MAX_WAIT_MS, statementTimeoutMs: TIMEOUT_MS, ...opts });
  } catch (err) {
    if (err instanceof PoolBusyError) throw new UserError('system/busy', BUSY_MESSAGE);
    throw err;
  }
  ctx.onOutbox?.();
  return result;
}
