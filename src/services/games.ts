import { createHash, randomBytes } from 'node:crypto';
import { engines, getEngine } from '../games/index.ts';
import { RuleError, type AnyEngine, type Outcome } from '../kernel/types.ts';
import type { Tx } from '../db/client.ts';
import type { Game, Seat } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { grantCycleRewards } from './inventory.ts';
import { enqueue, type OutboxKind, type OutboxPayload } from './notifications.ts';
import { ensureGuild, ensurePlayers } from './settings.ts';

export interface PlayerRef {
  id: string;
  name: string;
}

export type GameWithSeats = Game & { seats: Seat[] };

/** A move-log entry. Replaying setup(seed) and these entries in order reproduces the game. */
export type LogEntry = { type: 'move'; move: unknown } | { type: 'forfeit'; player: string; reason: 'resign' | 'timeout' };

export function seedCommitment(seed: string): string {
  return createHash('sha256').update(seed, 'utf8').digest('hex');
}

function engineFor(kind: string): AnyEngine {
  const engine = getEngine(kind);
  if (!engine) throw new UserError('game/unknown-kind', `Stonehall does not know a game called "${kind}".`);
  return engine;
}

/** Parses the stored state with the engine's schema: unchecked JSON never reaches an engine. */
export function parseState(engine: AnyEngine, game: Pick<Game, 'id' | 'state'>): unknown {
  const parsed = engine.stateSchema.safeParse(game.state);
  if (!parsed.success) throw new Error(`game ${game.id}: stored state does not match the ${engine.id} schema: ${parsed.error.message}`);
  return parsed.data;
}

interface GuildTiming {
  turnLimitMinutes: number;
  reminderMinutes: number[];
}

type LockedGame = GameWithSeats & { timing: GuildTiming };

function withoutTiming({ timing: _timing, ...game }: LockedGame): GameWithSeats {
  return game;
}

/**
 * Locks the game row and reads the server's turn timing in the same statement, then reads the
 * game with its seats (two round trips: a move's latency is mostly round trips).
 */
async function lockGame(tx: Tx, gameId: number): Promise<LockedGame | null> {
  const rows = await tx.$queryRaw<Array<{ turn_limit_minutes: number; reminder_minutes: number[] }>>`
    SELECT gu.turn_limit_minutes, gu.reminder_minutes
    FROM games g JOIN guilds gu ON gu.id = g.guild_id
    WHERE g.id = ${gameId} FOR UPDATE OF g`;
  const timing = rows[0];
  if (!timing) return null;
  const game = await tx.game.findUnique({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  return game && { ...game, timing: { turnLimitMinutes: timing.turn_limit_minutes, reminderMinutes: timing.reminder_minutes } };
}

/** Loads a game for use case code, refusing unknown ids and ids from another server alike. */
async function loadForUpdate(tx: Tx, gameId: number, guildId: string | null): Promise<LockedGame> {
  const game = await lockGame(tx, gameId);
  if (!game || (guildId !== null && game.guildId !== guildId)) {
    throw new UserError('game/unknown', `There is no game #${gameId} in this server. ${listHint()}`);
  }
  return game;
}

/** Where to list one's games, for every game Stonehall has: "`/knucklebones games` or `/tellstones games`". */
function listHint(): string {
  return `List yours with ${Object.keys(engines).map((k) => `\`/${k} games\``).join(' or ')}.`;
}

function asUserError(err: unknown): never {
  if (err instanceof RuleError) throw new UserError(err.code, err.message);
  throw err;
}

function minutes(ms: number): number {
  return ms * 60_000;
}

/**
 * What a state change writes besides the game row, gathered in memory and written in one
 * statement per table (see `flushWrites`): a move costs round trips, not rows.
 */
interface Writes {
  /** Seats whose turn bookkeeping or result changed, as they will be stored. */
  seats: Seat[];
  /** Players whose pending jobs in this game are cancelled ('*': every pending job). */
  cancelJobsOf: string[] | '*';
  jobs: Array<{ kind: string; dueAt: Date; payload: object }>;
  outbox: Array<{ kind: OutboxKind; payload: object }>;
}

const noWrites = (): Writes => ({ seats: [], cancelJobsOf: [], jobs: [], outbox: [] });

function queue<K extends OutboxKind>(w: Writes, kind: K, payload: OutboxPayload<K>): void {
  w.outbox.push({ kind, payload: payload as object });
}

/** Writes the gathered seats, jobs and outbox rows: at most three statements. */
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
  const cancelAll = w.cancelJobsOf === '*';
  const cancel = cancelAll ? [] : (w.cancelJobsOf as string[]);
  if (cancelAll || cancel.length || w.jobs.length) {
    const jobs = w.jobs.map((j) => ({ kind: j.kind, due_at: j.dueAt, payload: j.payload }));
    // One statement: cancel the jobs of turns that ended, insert those of turns that began.
    await tx.$executeRaw`
      WITH cancelled AS (
        UPDATE jobs SET status = 'cancelled', done_at = ${now}
        WHERE game_id = ${gameId} AND status = 'pending'
          AND (${cancelAll} OR payload->>'player' IN (SELECT jsonb_array_elements_text(${JSON.stringify(cancel)}::jsonb)))
      )
      INSERT INTO jobs (kind, game_id, due_at, payload, created_at)
      SELECT v.kind, ${gameId}, v.due_at, v.payload, ${now}
      FROM jsonb_to_recordset(${JSON.stringify(jobs)}::jsonb) AS v(kind text, due_at timestamp(3), payload jsonb)`;
  }
  if (w.outbox.length) {
    await tx.outbox.createMany({ data: w.outbox.map((o) => ({ kind: o.kind, payload: o.payload, availableAt: now, createdAt: now })) });
  }
}

/**
 * Writes everything that follows a state change, in the caller's transaction: the move log and
 * the new state (one statement, conditional on the version read), then per-seat turn
 * bookkeeping with deadline and reminder jobs, seat results, and the outbox rows (turn DMs,
 * game-over DMs, board refresh).
 */
async function commitChange(
  tx: Tx,
  ctx: ServiceContext,
  game: LockedGame,
  engine: AnyEngine,
  prev: unknown,
  next: unknown,
  actor: string,
  entry: LogEntry,
  extra: (w: Writes) => void = () => {},
): Promise<{ version: number; outcome: Outcome | null; after: GameWithSeats }> {
  const now = ctx.clock.now();
  const version = game.version + 1;
  const outcome = engine.outcome(next);
  const updated = await tx.$executeRaw`
    WITH logged AS (
      INSERT INTO moves (game_id, seq, actor_id, entry, created_at)
      VALUES (${game.id}, ${version}, ${actor}, ${JSON.stringify(entry)}::jsonb, ${now})
    )
    UPDATE games SET
      state = ${JSON.stringify(next)}::jsonb, version = ${version}, updated_at = ${now},
      status = CASE WHEN ${outcome !== null} THEN 'finished' ELSE status END,
      outcome = CASE WHEN ${outcome !== null} THEN ${JSON.stringify(outcome)}::jsonb ELSE outcome END,
      finished_at = CASE WHEN ${outcome !== null} THEN ${now}::timestamp(3) ELSE finished_at END
    WHERE id = ${game.id} AND version = ${game.version}`;
  if (updated !== 1) throw new UserError('game/stale', 'The game changed while you were moving. Look at the board again and retry.');

  const w = noWrites();
  let seats = turnChanges(ctx, { ...game, version }, engine, prev, next, actor, game.timing, now, w);
  if (outcome) seats = finish({ ...game, seats }, outcome, w);
  queue(w, 'board', { gameId: game.id });
  extra(w);
  await flushWrites(tx, game.id, w, now);
  if (outcome && game.cycleId !== null) await grantCycleRewards(tx, game, outcome, now);
  // The game as committed, so the caller can render it without reading it again.
  const after: GameWithSeats = {
    ...withoutTiming(game),
    state: next as Game['state'],
    version,
    updatedAt: now,
    seats,
    ...(outcome ? { status: 'finished', outcome: outcome as unknown as Game['outcome'], finishedAt: now } : {}),
  };
  return { version, outcome, after };
}

/**
 * Who the game waits for, before and after: a turn that ended cancels its jobs and clears the
 * seat; a turn that began sets the deadline, schedules the deadline and reminder jobs and queues
 * the turn DM. Returns the seats as they will be stored.
 */
function turnChanges(
  ctx: ServiceContext,
  game: GameWithSeats,
  engine: AnyEngine,
  prev: unknown,
  next: unknown,
  actor: string | null,
  timing: GuildTiming,
  now: Date,
  w: Writes,
): Seat[] {
  const before = new Set(prev === null ? [] : engine.awaiting(prev));
  const after = new Set(engine.awaiting(next));
  return game.seats.map((original) => {
    let seat = original;
    const wasWaited = before.has(seat.playerId);
    const isWaited = after.has(seat.playerId);
    // The actor's move left their own turn going (e.g. a die item before placing): same deadline,
    // same jobs; a fresh turn DM shows what to do next.
    const continued = wasWaited && isWaited && seat.playerId === actor && sameTurnTimer(engine, prev, next, actor);
    const newTurn = isWaited && (!wasWaited || seat.playerId === actor) && !continued;
    if (wasWaited && (!isWaited || newTurn) && w.cancelJobsOf !== '*') w.cancelJobsOf.push(seat.playerId);
    if (!isWaited && wasWaited) seat = { ...seat, turnVersion: null, turnStartedAt: null, deadlineAt: null };
    if (continued && seat.deadlineAt) queue(w, 'dm', turnDm(game, engine, next, seat.playerId, seat.deadlineAt));
    if (newTurn) {
      const deadlineAt = new Date(now.getTime() + minutes(timing.turnLimitMinutes));
      seat = { ...seat, turnVersion: game.version, turnStartedAt: now, deadlineAt };
      const payload = { player: seat.playerId, turnVersion: game.version };
      w.jobs.push({ kind: 'turn-deadline', dueAt: deadlineAt, payload });
      for (const m of timing.reminderMinutes) {
        const dueAt = new Date(deadlineAt.getTime() - minutes(m));
        if (m > 0 && m < timing.turnLimitMinutes && dueAt > now) w.jobs.push({ kind: 'turn-reminder', dueAt, payload: { ...payload, minutesLeft: m } });
      }
      queue(w, 'dm', turnDm(game, engine, next, seat.playerId, deadlineAt));
    }
    if (seat !== original) w.seats = [...w.seats.filter((s) => s.seat !== seat.seat), seat];
    return seat;
  });
}

/** The player's turn timer runs on (same key before and after): their turn goes on. */
function sameTurnTimer(engine: AnyEngine, prev: unknown, next: unknown, player: string): boolean {
  const key = (state: unknown) => (engine.timers(state) as Array<{ key: string; player?: string }>).find((t) => t.player === player)?.key;
  return key(prev) !== undefined && key(prev) === key(next);
}

function turnDm(game: GameWithSeats, engine: AnyEngine, state: unknown, playerId: string, deadlineAt: Date): OutboxPayload<'dm'> {
  return {
    userId: playerId,
    fallbackChannelId: game.channelId,
    notification: {
      type: 'turn',
      gameId: game.id,
      kind: game.kind,
      view: engine.view(state, playerId),
      deadlineAt: deadlineAt.toISOString(),
      opponents: game.seats.filter((s) => s.playerId !== playerId).map((s) => s.playerId),
    },
  };
}

/** The game is over: every pending job is cancelled, each seat gets its result and a DM. */
function finish(game: GameWithSeats, outcome: Outcome, w: Writes): Seat[] {
  w.cancelJobsOf = '*';
  w.jobs = [];
  w.outbox = w.outbox.filter((o) => !(o.kind === 'dm' && (o.payload as OutboxPayload<'dm'>).notification.type === 'turn'));
  const seats = game.seats.map((seat): Seat => {
    const result =
      outcome.forfeited === seat.playerId
        ? 'forfeit'
        : outcome.winners.includes(seat.playerId)
          ? 'win'
          : outcome.winners.length === 0
            ? 'draw'
            : 'loss';
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
        ...(outcome.scores ? { scores: outcome.scores } : {}),
      },
    });
    return { ...seat, result, turnVersion: null, turnStartedAt: null, deadlineAt: null };
  });
  w.seats = seats;
  return seats;
}

export interface StartGameInput {
  guildId: string;
  guildName?: string;
  channelId: string;
  kind: string;
  players: PlayerRef[];
  options?: unknown;
  /** The board message to edit into the game board (e.g. the accepted challenge). */
  boardMessageId?: string | null;
  /** Tests only: a fixed seed. Real games draw 32 random bytes. */
  seed?: string;
  /** The cycle the game belongs to (a Battle Phase game): rewards go to that cycle's inventory. */
  cycleId?: number | null;
}

/** Creates a game inside the caller's transaction: state, seats, first turn, board. */
export async function startGame(tx: Tx, ctx: ServiceContext, input: StartGameInput): Promise<GameWithSeats> {
  const engine = engineFor(input.kind);
  const now = ctx.clock.now();
  const options = engine.optionsSchema.parse(input.options ?? {});
  const seed = input.seed ?? randomBytes(32).toString('hex');
  const state = engine.setup({ players: input.players.map((p) => p.id), seed, options });
  const guild = await ensureGuild(tx, input.guildId, input.guildName);
  await ensurePlayers(tx, input.players);
  const game = await tx.game.create({
    data: {
      guildId: input.guildId,
      channelId: input.channelId,
      kind: engine.id,
      options: options as object,
      state: state as object,
      seed,
      seedCommitment: seedCommitment(seed),
      boardMessageId: input.boardMessageId ?? null,
      cycleId: input.cycleId ?? null,
      createdAt: now,
      updatedAt: now,
      seats: { create: input.players.map((p, i) => ({ seat: i, playerId: p.id })) },
    },
    include: { seats: { orderBy: { seat: 'asc' } } },
  });
  const w = noWrites();
  // The board first: a game started without a message (a Battle Phase game) gets its board posted
  // before the first turn DM is rendered, so that DM links to it (the outbox delivers in order).
  queue(w, 'board', { gameId: game.id });
  const seats = turnChanges(ctx, game, engine, null, state, null, guild, now, w);
  await flushWrites(tx, game.id, w, now);
  return { ...game, seats };
}

export interface MoveResult {
  /** The game as loaded, before the move. */
  game: GameWithSeats;
  /** The game as committed (state, version, seats, outcome), for rendering without another read. */
  after: GameWithSeats;
  engine: AnyEngine;
  state: unknown;
  version: number;
  outcome: Outcome | null;
}

function requireSeat(game: GameWithSeats, userId: string): void {
  if (!game.seats.some((s) => s.playerId === userId)) {
    throw new UserError('game/not-participant', `You are not in game #${game.id}. Start your own with \`/${game.kind}\`.`);
  }
}

function requireActive(game: GameWithSeats): void {
  if (game.status !== 'active') throw new UserError('game/over', `Game #${game.id} is already over.`);
}

function requireVersion(game: GameWithSeats, expected: number | undefined): void {
  if (expected !== undefined && expected !== game.version) {
    throw new UserError('game/stale', 'That button belongs to an older board: the game has moved on. Use the buttons on the current board.');
  }
}

/** Locks a game for a seated player's action: it must be theirs, running, and at the version they saw. */
async function lockForPlayer(tx: Tx, input: { gameId: number; userId: string; guildId: string | null; expectedVersion?: number }): Promise<LockedGame> {
  const game = await loadForUpdate(tx, input.gameId, input.guildId);
  requireSeat(game, input.userId);
  requireActive(game);
  requireVersion(game, input.expectedVersion);
  return game;
}

/**
 * One use case, one transaction; wakes the outbox after the commit. When the database is so busy
 * that no connection frees up in time (Prisma's P2028), nothing has happened yet, so the user is
 * told to try again rather than shown an error id.
 */
async function inTransaction<T>(ctx: ServiceContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await ctx.db.$transaction(fn, { timeout: 15_000, maxWait: 10_000 });
  } catch (err) {
    if ((err as { code?: string })?.code === 'P2028' && /start a transaction/i.test(String((err as Error).message))) {
      throw new UserError('system/busy', 'Stonehall is very busy right now and nothing was changed. Please try again in a moment.');
    }
    throw err;
  }
  ctx.onOutbox?.();
  return result;
}

/**
 * A player's move. One transaction: lock the game row, check participant / version / turn,
 * run the engine, save conditionally on the version, write log, jobs and outbox rows.
 */
export async function playMove(
  ctx: ServiceContext,
  input: {
    gameId: number;
    userId: string;
    guildId: string | null;
    move: unknown;
    expectedVersion?: number;
    /**
     * Seated players to tell privately, in this transaction, that the move concerns them (e.g. a
     * Tellstones partner handed a peek): each gets an `update` DM rendered from their own view.
     */
    notify?: string[];
    /** Extra checks inside the transaction once the game is locked (e.g. the player holds a die item). */
    guard?: (tx: Tx, game: GameWithSeats) => Promise<void>;
  },
): Promise<MoveResult> {
  return inTransaction(ctx, async (tx) => {
    const game = await lockForPlayer(tx, input);
    await input.guard?.(tx, game);
    const engine = engineFor(game.kind);
    const move = engine.moveSchema.safeParse(input.move);
    if (!move.success) throw new UserError(`${engine.id}/bad-move`, 'That move is not valid here. Use the buttons on the board.');
    const prev = parseState(engine, game);
    let next: unknown;
    try {
      next = engine.apply(prev, input.userId, move.data);
    } catch (err) {
      asUserError(err);
    }
    const { version, outcome, after } = await commitChange(tx, ctx, game, engine, prev, next, input.userId, { type: 'move', move: move.data }, (w) => {
      for (const userId of new Set(input.notify ?? [])) {
        if (!game.seats.some((s) => s.playerId === userId)) continue;
        const notification = { type: 'update' as const, gameId: game.id, kind: game.kind, view: engine.view(next, userId), actor: input.userId };
        queue(w, 'dm', { userId, fallbackChannelId: game.channelId, notification });
      }
    });
    return { game: withoutTiming(game), after, engine, state: next, version, outcome };
  });
}

/** A player gives up. */
export async function resign(
  ctx: ServiceContext,
  input: { gameId: number; userId: string; guildId: string | null; expectedVersion?: number },
): Promise<MoveResult> {
  return inTransaction(ctx, async (tx) => {
    const game = await lockForPlayer(tx, input);
    const engine = engineFor(game.kind);
    const prev = parseState(engine, game);
    let next: unknown;
    try {
      next = engine.forfeit(prev, input.userId);
    } catch (err) {
      asUserError(err);
    }
    const { version, outcome, after } = await commitChange(tx, ctx, game, engine, prev, next, input.userId, {
      type: 'forfeit',
      player: input.userId,
      reason: 'resign',
    });
    return { game: withoutTiming(game), after, engine, state: next, version, outcome };
  });
}

export const turnJobPayload = (p: unknown): { player: string; turnVersion: number; minutesLeft?: number } => {
  const o = p as Record<string, unknown>;
  if (typeof o?.player !== 'string' || typeof o.turnVersion !== 'number') throw new Error('bad turn job payload');
  return { player: o.player, turnVersion: o.turnVersion, ...(typeof o.minutesLeft === 'number' ? { minutesLeft: o.minutesLeft } : {}) };
};

/** Is this job still about the player's current turn? (A move since then makes it moot.) */
function isCurrentTurn(game: GameWithSeats, payload: { player: string; turnVersion: number }): boolean {
  const seat = game.seats.find((s) => s.playerId === payload.player);
  return game.status === 'active' && seat?.turnVersion === payload.turnVersion;
}

/** A turn deadline fell due (called by the scheduler inside the job's claiming transaction). */
export async function expireTurn(tx: Tx, ctx: ServiceContext, gameId: number, rawPayload: unknown): Promise<'forfeited' | 'moot'> {
  const payload = turnJobPayload(rawPayload);
  const game = await lockGame(tx, gameId);
  if (!game || !isCurrentTurn(game, payload)) return 'moot';
  const engine = engineFor(game.kind);
  const prev = parseState(engine, game);
  if (!engine.awaiting(prev).includes(payload.player)) return 'moot';
  const next = engine.forfeit(prev, payload.player);
  await commitChange(tx, ctx, game, engine, prev, next, 'system', { type: 'forfeit', player: payload.player, reason: 'timeout' });
  return 'forfeited';
}

/**
 * A reminder fell due: DM the player unless they moved or turned reminders off. A reminder that
 * is late (no bot ran when it fell due) is dropped when the deadline has passed too, or when a
 * later reminder of the same turn is also due: one reminder, the most urgent, not a burst.
 */
export async function sendReminder(
  tx: Tx,
  ctx: ServiceContext,
  gameId: number,
  rawPayload: unknown,
): Promise<'sent' | 'moot' | 'muted' | 'superseded'> {
  const payload = turnJobPayload(rawPayload);
  const game = await tx.game.findUnique({ where: { id: gameId }, include: { seats: true } });
  if (!game || !isCurrentTurn(game, payload)) return 'moot';
  const seat = game.seats.find((s) => s.playerId === payload.player);
  const now = ctx.clock.now();
  if (seat?.deadlineAt && seat.deadlineAt <= now) return 'superseded';
  if (seat?.deadlineAt && payload.minutesLeft !== undefined) {
    const dueAt = new Date(seat.deadlineAt.getTime() - minutes(payload.minutesLeft));
    const later = await tx.job.count({
      where: { gameId, kind: 'turn-reminder', status: 'pending', dueAt: { gt: dueAt, lte: now }, payload: { path: ['player'], equals: payload.player } },
    });
    if (later > 0) return 'superseded';
  }
  const player = await tx.player.findUnique({ where: { id: payload.player } });
  if (player && !player.remindersEnabled) return 'muted';
  const engine = engineFor(game.kind);
  const state = parseState(engine, game);
  await enqueue(
    tx,
    'dm',
    {
      userId: payload.player,
      fallbackChannelId: game.channelId,
      notification: {
        type: 'reminder',
        gameId: game.id,
        kind: game.kind,
        view: engine.view(state, payload.player),
        deadlineAt: (seat?.deadlineAt ?? ctx.clock.now()).toISOString(),
      },
    },
    ctx.clock.now(),
  );
  return 'sent';
}

export interface GameSnapshot {
  game: GameWithSeats;
  engine: AnyEngine;
  state: unknown;
}

/** Reads a game (no lock) for display. */
export async function getGame(ctx: ServiceContext, gameId: number, guildId: string | null): Promise<GameSnapshot> {
  const game = await ctx.db.game.findUnique({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  if (!game || (guildId !== null && game.guildId !== guildId)) {
    throw new UserError('game/unknown', `There is no game #${gameId} in this server. ${listHint()}`);
  }
  const engine = engineFor(game.kind);
  return { game, engine, state: parseState(engine, game) };
}

/** The invoker's active games in a server, most urgent deadline first. */
export async function listActiveGames(ctx: ServiceContext, input: { guildId: string; userId: string; kind?: string }): Promise<GameSnapshot[]> {
  const games = await ctx.db.game.findMany({
    where: { guildId: input.guildId, status: 'active', seats: { some: { playerId: input.userId } }, ...(input.kind ? { kind: input.kind } : {}) },
    include: { seats: { orderBy: { seat: 'asc' } } },
    orderBy: { id: 'asc' },
    take: 100,
  });
  const snaps = games.map((game) => {
    const engine = engineFor(game.kind);
    return { game, engine, state: parseState(engine, game) };
  });
  const deadline = (s: GameSnapshot) => Math.min(...s.game.seats.map((x) => x.deadlineAt?.getTime() ?? Infinity));
  return snaps.sort((a, b) => deadline(a) - deadline(b));
}

/** Resolves the game a command refers to: the given id, or the invoker's only active game of that kind. */
export async function resolveOwnGame(ctx: ServiceContext, input: { guildId: string; userId: string; kind: string; gameId?: number | null }): Promise<number> {
  if (input.gameId) return input.gameId;
  const games = await listActiveGames(ctx, { guildId: input.guildId, userId: input.userId, kind: input.kind });
  if (games.length === 0) throw new UserError('game/none', `You have no ${engineFor(input.kind).name} game in progress here. Start one with \`/${input.kind}\`.`);
  if (games.length > 1) {
    throw new UserError('game/ambiguous', `You have ${games.length} games in progress: pick one with the \`game\` option (${games.map((g) => `#${g.game.id}`).join(', ')}).`);
  }
  return games[0]!.game.id;
}

/** Records that the board message shows `version` (skips a redundant outbox edit). */
export async function markBoardRendered(ctx: ServiceContext, gameId: number, version: number, messageId: string): Promise<void> {
  await ctx.db.game.updateMany({
    where: { id: gameId, boardVersion: { lt: version }, OR: [{ boardMessageId: messageId }, { boardMessageId: null }] },
    data: { boardVersion: version, boardMessageId: messageId },
  });
}

/** The move log of a game, for replays and audits. */
export async function moveLog(ctx: ServiceContext, gameId: number): Promise<Array<{ seq: number; actorId: string; entry: LogEntry }>> {
  const rows = await ctx.db.move.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
  return rows.map((r) => ({ seq: r.seq, actorId: r.actorId, entry: r.entry as LogEntry }));
}

export { inTransaction };
