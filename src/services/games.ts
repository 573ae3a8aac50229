import { createHash, randomBytes } from 'node:crypto';
import { engines, getEngine } from '../engines/index.ts';
import { RuleError, type AnyEngine, type Outcome } from '../engines/types.ts';
import type { Tx } from '../db/client.ts';
import type { Game, Seat } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { grantCycleRewards } from './inventory.ts';
import { enqueue } from './notifications.ts';
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

async function lockGame(tx: Tx, gameId: number): Promise<GameWithSeats | null> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM games WHERE id = ${gameId} FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.game.findUnique({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
}

/** Loads a game for use case code, refusing unknown ids and ids from another server alike. */
async function loadForUpdate(tx: Tx, gameId: number, guildId: string | null): Promise<GameWithSeats> {
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

interface GuildTiming {
  turnLimitMinutes: number;
  reminderMinutes: number[];
}

/**
 * Writes everything that follows a state change, in the caller's transaction: the move log,
 * the new state (conditional on the version read), per-seat turn bookkeeping with deadline and
 * reminder jobs, the outbox rows (turn DMs, game-over DMs, board refresh), and seat results.
 */
async function commitChange(
  tx: Tx,
  ctx: ServiceContext,
  game: GameWithSeats,
  engine: AnyEngine,
  prev: unknown,
  next: unknown,
  actor: string,
  entry: LogEntry,
): Promise<{ version: number; outcome: Outcome | null; after: GameWithSeats }> {
  const now = ctx.clock.now();
  const version = game.version + 1;
  const outcome = engine.outcome(next);
  await tx.move.create({ data: { gameId: game.id, seq: version, actorId: actor, entry: entry as object, createdAt: now } });
  const updated = await tx.game.updateMany({
    where: { id: game.id, version: game.version },
    data: {
      state: next as object,
      version,
      updatedAt: now,
      ...(outcome ? { status: 'finished', outcome: outcome as object, finishedAt: now } : {}),
    },
  });
  if (updated.count !== 1) throw new UserError('game/stale', 'The game changed while you were moving. Look at the board again and retry.');

  const guild = await tx.guild.findUniqueOrThrow({ where: { id: game.guildId } });
  let seats = await updateTurns(tx, ctx, { ...game, version }, engine, prev, next, actor, guild, now);
  if (outcome) seats = await finish(tx, { ...game, seats }, outcome, now);
  await enqueue(tx, 'board', { gameId: game.id }, now);
  // The game as committed, so the caller can render it without reading it again.
  const after: GameWithSeats = {
    ...game,
    state: next as Game['state'],
    version,
    updatedAt: now,
    seats,
    ...(outcome ? { status: 'finished', outcome: outcome as unknown as Game['outcome'], finishedAt: now } : {}),
  };
  return { version, outcome, after };
}

async function updateTurns(
  tx: Tx,
  ctx: ServiceContext,
  game: GameWithSeats,
  engine: AnyEngine,
  prev: unknown,
  next: unknown,
  actor: string | null,
  timing: GuildTiming,
  now: Date,
): Promise<Seat[]> {
  const before = new Set(prev === null ? [] : engine.awaiting(prev));
  const after = new Set(engine.awaiting(next));
  const seats: Seat[] = [];
  for (const original of game.seats) {
    let seat = original;
    const wasWaited = before.has(seat.playerId);
    const isWaited = after.has(seat.playerId);
    const newTurn = isWaited && (!wasWaited || seat.playerId === actor);
    if (wasWaited && (!isWaited || newTurn)) {
      await tx.job.updateMany({
        where: { gameId: game.id, status: 'pending', payload: { path: ['player'], equals: seat.playerId } },
        data: { status: 'cancelled', doneAt: now },
      });
    }
    if (!isWaited && wasWaited) {
      seat = await tx.seat.update({ where: { gameId_seat: { gameId: game.id, seat: seat.seat } }, data: { turnVersion: null, turnStartedAt: null, deadlineAt: null } });
    }
    if (newTurn) {
      const deadlineAt = new Date(now.getTime() + minutes(timing.turnLimitMinutes));
      seat = await tx.seat.update({
        where: { gameId_seat: { gameId: game.id, seat: seat.seat } },
        data: { turnVersion: game.version, turnStartedAt: now, deadlineAt },
      });
      const payload = { player: seat.playerId, turnVersion: game.version };
      const jobs = [{ kind: 'turn-deadline', gameId: game.id, dueAt: deadlineAt, payload, createdAt: now }];
      for (const m of timing.reminderMinutes) {
        const dueAt = new Date(deadlineAt.getTime() - minutes(m));
        if (m > 0 && m < timing.turnLimitMinutes && dueAt > now) {
          jobs.push({ kind: 'turn-reminder', gameId: game.id, dueAt, payload: { ...payload, minutesLeft: m } as typeof payload, createdAt: now });
        }
      }
      await tx.job.createMany({ data: jobs });
      await enqueue(
        tx,
        'dm',
        {
          userId: seat.playerId,
          fallbackChannelId: game.channelId,
          notification: {
            type: 'turn',
            gameId: game.id,
            kind: game.kind,
            view: engine.view(next, seat.playerId),
            deadlineAt: deadlineAt.toISOString(),
            opponents: game.seats.filter((s) => s.playerId !== seat.playerId).map((s) => s.playerId),
          },
        },
        now,
      );
    }
    seats.push(seat);
  }
  return seats;
}

async function finish(tx: Tx, game: GameWithSeats, outcome: Outcome, now: Date): Promise<Seat[]> {
  await tx.job.updateMany({ where: { gameId: game.id, status: 'pending' }, data: { status: 'cancelled', doneAt: now } });
  const seats: Seat[] = [];
  for (const seat of game.seats) {
    const result =
      outcome.forfeited === seat.playerId
        ? 'forfeit'
        : outcome.winners.includes(seat.playerId)
          ? 'win'
          : outcome.winners.length === 0
            ? 'draw'
            : 'loss';
    seats.push(
      await tx.seat.update({
        where: { gameId_seat: { gameId: game.id, seat: seat.seat } },
        data: { result, turnVersion: null, turnStartedAt: null, deadlineAt: null },
      }),
    );
    await enqueue(
      tx,
      'dm',
      {
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
      },
      now,
    );
  }
  if (game.cycleId !== null) await grantCycleRewards(tx, game, outcome, now);
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
  const seats = await updateTurns(tx, ctx, game, engine, null, state, null, guild, now);
  await enqueue(tx, 'board', { gameId: game.id }, now);
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
    const game = await loadForUpdate(tx, input.gameId, input.guildId);
    requireSeat(game, input.userId);
    requireActive(game);
    requireVersion(game, input.expectedVersion);
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
    const { version, outcome, after } = await commitChange(tx, ctx, game, engine, prev, next, input.userId, { type: 'move', move: move.data });
    for (const userId of new Set(input.notify ?? [])) {
      if (!game.seats.some((s) => s.playerId === userId)) continue;
      const notification = { type: 'update' as const, gameId: game.id, kind: game.kind, view: engine.view(next, userId), actor: input.userId };
      await enqueue(tx, 'dm', { userId, fallbackChannelId: game.channelId, notification }, ctx.clock.now());
    }
    return { game, after, engine, state: next, version, outcome };
  });
}

/** A player gives up. */
export async function resign(
  ctx: ServiceContext,
  input: { gameId: number; userId: string; guildId: string | null; expectedVersion?: number },
): Promise<MoveResult> {
  return inTransaction(ctx, async (tx) => {
    const game = await loadForUpdate(tx, input.gameId, input.guildId);
    requireSeat(game, input.userId);
    requireActive(game);
    requireVersion(game, input.expectedVersion);
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
    return { game, after, engine, state: next, version, outcome };
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

/** A reminder fell due: DM the player unless they moved or turned reminders off. */
export async function sendReminder(tx: Tx, ctx: ServiceContext, gameId: number, rawPayload: unknown): Promise<'sent' | 'moot' | 'muted'> {
  const payload = turnJobPayload(rawPayload);
  const game = await tx.game.findUnique({ where: { id: gameId }, include: { seats: true } });
  if (!game || !isCurrentTurn(game, payload)) return 'moot';
  const player = await tx.player.findUnique({ where: { id: payload.player } });
  if (player && !player.remindersEnabled) return 'muted';
  const engine = engineFor(game.kind);
  const state = parseState(engine, game);
  const seat = game.seats.find((s) => s.playerId === payload.player);
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
