import { randomBytes } from 'node:crypto';
import { RuleError, type Outcome, type PlayerId } from '../kernel/types.ts';
import type { Tx } from '../db/client.ts';
import { poolOf } from '../db/hot.ts';
import { commitChange, commitChangeOn, pgStore, prismaStore, queue, runAutopilot, type ChangeStore, type Committed, type Step } from './changes.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import {
  definitionOf,
  gameInfo,
  inPgTransaction,
  inTransaction,
  loadForUpdate,
  lockGameFirst,
  lockGamePg,
  lockedFromFirst,
  NeedsPrismaPath,
  makeSnapshot,
  parseState,
  readGame,
  seedCommitment,
  type GameInfo,
  type GameRow,
  type GameSnapshot,
  type LockedGame,
  type LogEntry,
  type PlayerRef,
} from './game-store.ts';
import { holdsItem } from './inventory.ts';
import { noteLogged } from './history.ts';
import type { GameDefinition } from './registry.ts';
import { ensureGuild, ensurePlayers, requireGameChannel } from './settings.ts';

export { inTransaction, seedCommitment, type GameInfo, type GameSnapshot, type LogEntry, type PlayerRef } from './game-store.ts';

/** The games' use cases: start (also practice), move, forfeit, preview, and reads for display. */

function asUserError(err: unknown): never {
  if (err instanceof RuleError) throw new UserError(err.code, err.message);
  throw err;
}

export interface StartGameInput {
  guildId: string;
  guildName?: string;
  channelId: string;
  kind: string;
  players: PlayerRef[];
  options?: unknown;
  /** What each player brings (engine.setup's playerData), kept on the game for replays. */
  playerData?: Record<PlayerId, unknown>;
  /** The board message to edit into the game board (e.g. the accepted challenge). */
  boardMessageId?: string | null;
  /** Tests only: a fixed seed. Real games draw 32 random bytes. */
  seed?: string;
  /** The cycle the game belongs to (a Battle Phase game): rewards go to that cycle's inventory. */
  cycleId?: number | null;
  /** A practice game: these seats are the autopilot's; no leaderboard, no rewards. */
  autopilot?: PlayerId[];
  /** The time per move chosen for this game (a challenge's), in minutes; absent: the server's turn limit. */
  turnLimitMinutes?: number | null;
}

/** Creates a game inside the caller's transaction: state, seats, first timers and turn DMs, board. */
export async function startGame(tx: Tx, ctx: ServiceContext, input: StartGameInput): Promise<GameRow> {
  const def = definitionOf(ctx, input.kind);
  const { engine } = def;
  const now = ctx.clock.now();
  const options = engine.optionsSchema.parse(input.options ?? {});
  const seed = input.seed ?? ctx.seeds?.() ?? randomBytes(32).toString('hex');
  let state: unknown;
  try {
    state = engine.setup({ players: input.players.map((p) => p.id), seed, options, ...(input.playerData ? { playerData: input.playerData } : {}) });
  } catch (err) {
    asUserError(err);
  }
  const guild = await ensureGuild(tx, input.guildId, input.guildName);
  await ensurePlayers(tx, input.players);
  const bots = new Set(input.autopilot ?? []);
  // Players on vacation now: their clocks are paused in this game too (changes.ts pushes their turns back).
  const away = await tx.vacation.findMany({ where: { guildId: input.guildId, playerId: { in: input.players.map((p) => p.id) }, endsAt: { gt: now } } });
  const vacationUntil = (id: string) => away.filter((v) => v.playerId === id).reduce<Date | null>((m, v) => (m === null || v.endsAt > m ? v.endsAt : m), null);
  const created = await tx.game.create({
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
      practice: bots.size > 0,
      ...(input.playerData ? { playerData: input.playerData as object } : {}),
      turnLimitMinutes: input.turnLimitMinutes ?? null,
      createdAt: now,
      updatedAt: now,
      seats: { create: input.players.map((p, i) => ({ seat: i, playerId: p.id, autopilot: bots.has(p.id), vacationUntil: bots.has(p.id) ? null : vacationUntil(p.id) })) },
    },
    include: { seats: { orderBy: { seat: 'asc' } } },
  });
  const game: LockedGame = { ...created, timing: { turnLimitMinutes: input.turnLimitMinutes ?? guild.turnLimitMinutes, reminderMinutes: guild.reminderMinutes } };
  const committed = await commitChange(tx, ctx, game, def, null, state, [], { extra: boardFirst });
  return committed.after;
}

/**
 * Deliveries go out in insertion order: a new game's board row is moved to the front so the first
 * turn DM, rendered after it, can link to the board.
 */
function boardFirst(w: { outbox: Array<{ kind: string; payload: object }> }): void {
  const i = w.outbox.findIndex((o) => o.kind === 'board');
  if (i > 0) w.outbox.unshift(...w.outbox.splice(i, 1));
}

export interface MoveResult {
  /** The game before the change. */
  before: GameSnapshot;
  /** The game as committed (the autopilot's replies included). */
  after: GameSnapshot;
  outcome: Outcome | null;
  /** The log entries the change wrote, for the recent-moves cache once committed (src/services/history.ts). */
  logged?: Committed['logged'];
}

function requireSeat(ctx: ServiceContext, game: GameRow, userId: string): void {
  if (!game.seats.some((s) => s.playerId === userId && !s.autopilot)) {
    const def = ctx.games.get(game.kind);
    throw new UserError('game/not-participant', `You are not playing in game #${game.id}. Start your own with \`/${game.kind} ${def?.joinSubcommand ?? 'join'}\`.`);
  }
}

function requireActive(game: GameRow): void {
  if (game.status !== 'active') throw new UserError('game/over', `Game #${game.id} is already over.`);
}

function requireVersion(game: GameRow, expected: number | undefined): void {
  if (expected !== undefined && expected !== game.version) {
    throw new UserError('game/stale', 'That button belongs to an older board: the game has moved on. Use the buttons on the current board.');
  }
}

/** Locks a game for a seated player's action: it must be theirs, running, and at the version they saw. */
async function lockForPlayer(
  tx: Tx | ((gameId: number) => Promise<LockedGame | null>),
  ctx: ServiceContext,
  input: { gameId: number; userId: string; guildId: string | null; expectedVersion?: number; kind?: string },
): Promise<LockedGame> {
  const game = await loadForUpdate(tx, ctx, input.gameId, input.guildId);
  if (input.kind !== undefined && game.kind !== input.kind) {
    throw new UserError('game/wrong-kind', `Game #${game.id} is a game of ${ctx.games.title(game.kind)}, not ${ctx.games.title(input.kind)}.`);
  }
  requireSeat(ctx, game, input.userId);
  requireActive(game);
  requireVersion(game, input.expectedVersion);
  return game;
}

/** Applies `moves` by `userId` in order (each parsed, legal, and holding any item it needs). */
async function applyMoves(
  holds: ((item: string) => Promise<boolean>) | null,
  def: GameDefinition,
  state: unknown,
  userId: string,
  moves: unknown[],
): Promise<{ state: unknown; steps: Step[] }> {
  let s = state;
  const steps: Step[] = [];
  for (const raw of moves) {
    const move = def.engine.moveSchema.safeParse(raw);
    if (!move.success) throw new UserError(`${def.kind}/bad-move`, 'That move is not valid here. Use the buttons on the board.');
    const item = def.itemFor?.(move.data) ?? null;
    if (item && holds && !(await holds(item))) {
      const name = def.items?.find((i) => i.id === item)?.name ?? item;
      throw new UserError('inventory/not-held', `You do not hold a ${name} in this cycle’s inventory. See yours with \`/inventory show\`.`);
    }
    try {
      s = def.engine.apply(s, userId, move.data);
    } catch (err) {
      asUserError(err);
    }
    steps.push({ actor: userId, entry: { type: 'move', move: move.data } });
  }
  return { state: s, steps };
}

/**
 * A player's move (or several of one turn, applied in order). One transaction: lock the game row,
 * check participant / version, run the engine, save conditionally on the version, write the log,
 * timers and outbox rows; the autopilot answers for the seats it plays.
 */
export async function playMove(
  ctx: ServiceContext,
  input: {
    gameId: number;
    userId: string;
    guildId: string | null;
    /** One move, or the moves of one turn in order (e.g. a placement and its abilities). */
    move: unknown;
    many?: boolean;
    expectedVersion?: number;
    /** The route's game: a button of one game never moves another's. */
    kind?: string;
    /**
     * Seated players to tell privately, in this transaction, that the move concerns them (e.g. a
     * Tellstones partner handed a peek): each gets an `update` DM rendered from their own view.
     */
    notify?: string[];
    /** The move was made by clicking the player's own turn DM. */
    fromDm?: boolean;
    /**
     * The move was made from the board, and the click's answer edits the board in place and then
     * records it (markBoardRendered): the outbox's board row waits, as a fallback only.
     */
    fromBoard?: boolean;
    /** Where the move was made (a DM, or the server: the board or a menu of it), remembered on the seat. */
    via?: 'dm' | 'board';
    /**
     * A click played without reading its game first (src/bot/game-routes.ts, RouteDef.direct): its
     * checks run on the game as this transaction locks it, in place of the seat, status and version
     * checks here, and throw a UserError to refuse (nothing is written). With it, `clicked` says
     * which message was clicked: fromDm and fromBoard are read from the locked game.
     */
    guard?: (game: GameRow, snapshot: GameSnapshot) => void;
    clicked?: { messageId: string; inGuild: boolean };
  },
): Promise<MoveResult> {
  // The hot path (a plain pg transaction on Prisma's own pool, prepared statements) when the
  // database is a server; a move it declines (a finishing move, an item) runs through Prisma.
  const pool = poolOf(ctx.db);
  if (pool) {
    // Two round trips when nothing declines: BEGIN with the game's lock, then the change's write
    // with COMMIT (src/db/hot.ts `first`, `commitWith`).
    const first = lockGameFirst(input.gameId);
    try {
      return committedMove(
        ctx,
        await inPgTransaction(
          ctx,
          pool,
          (client, tx) => {
            let locked = tx.first;
            const lock = (id: number) => {
              const rows = locked;
              locked = undefined;
              return rows && id === input.gameId ? Promise.resolve(lockedFromFirst(rows)) : lockGamePg(client, id);
            };
            return moveIn(ctx, input, { lock, holds: null, store: pgStore(client, tx) });
          },
          first ? { first } : {},
        ),
      );
    } catch (err) {
      if (!(err instanceof NeedsPrismaPath)) throw err;
    }
  }
  return committedMove(ctx, await inTransaction(ctx, (tx) => moveIn(ctx, input, { lock: tx, holds: (game, userId, item) => holdsItem(tx, game, userId, item), store: prismaStore(tx) })));
}

/** Once a move is committed (never before: a rolled-back change logged nothing), the recent-moves cache learns its entries. */
function committedMove(ctx: ServiceContext, result: MoveResult): MoveResult {
  if (result.logged?.length) noteLogged(ctx, result.after.game.id, result.before.game.version, result.logged);
  return result;
}

/** playMove's transaction, its statements run on Prisma or on the hot path's client. */
async function moveIn(
  ctx: ServiceContext,
  input: Parameters<typeof playMove>[1],
  on: {
    lock: Tx | ((gameId: number) => Promise<LockedGame | null>);
    /** null: the hot path, which declines a move that needs an item (NeedsPrismaPath). */
    holds: ((game: GameRow, userId: string, item: string) => Promise<boolean>) | null;
    store: ChangeStore;
  },
): Promise<MoveResult> {
  const game = input.guard ? await loadForUpdate(on.lock, ctx, input.gameId, input.guildId) : await lockForPlayer(on.lock, ctx, input);
  const def = definitionOf(ctx, game.kind);
  const prev = parseState(def, game);
  const before = makeSnapshot(def, game, prev);
  input.guard?.(game, before);
  const clicked = input.clicked;
  const fromDm = clicked ? !clicked.inGuild && clicked.messageId === game.seats.find((s) => s.playerId === input.userId)?.dmMessageId : input.fromDm === true;
  const fromBoard = clicked ? clicked.messageId === game.boardMessageId : input.fromBoard === true;
  const moves = input.many ? (input.move as unknown[]) : [input.move];
  if (moves.length === 0) throw new UserError('game/no-move', 'Choose a move first.');
  const holds = on.holds;
  const { state: next, steps } = await applyMoves(
    holds
      ? (item) => holds(game, input.userId, item)
      : async () => {
          throw new NeedsPrismaPath('an item is checked through Prisma');
        },
    def,
    prev,
    input.userId,
    moves,
  );
  const committed = await commitChangeOn(on.store, ctx, game, def, prev, next, steps, {
    actor: input.userId,
    fromDm,
    boardByReply: fromBoard,
    ...(input.via ? { via: input.via } : {}),
    extra: (w, final) => {
      for (const userId of new Set(input.notify ?? [])) {
        // The autopilot's seats (practice) have no DMs: a Tellstones peek handed to one is its own.
        if (!game.seats.some((s) => s.playerId === userId && !s.autopilot)) continue;
        const notification = { type: 'update' as const, gameId: game.id, kind: game.kind, view: def.engine.view(final, userId), actor: input.userId };
        queue(w, 'dm', { userId, fallbackChannelId: game.channelId, notification });
      }
    },
  });
  return { before, after: makeSnapshot(def, committed.after, committed.state), outcome: committed.outcome, logged: committed.logged };
}

/**
 * What `moves` would do, without saving anything: the player's view after them and the moves they
 * could make next (a turn of several steps is chosen step by step, then played at once), for a
 * preview before confirming. The autopilot does not answer. Refuses exactly as playMove would.
 */
export async function previewMoves(
  ctx: ServiceContext,
  input: { gameId: number; userId: string; guildId: string | null; moves: unknown[]; expectedVersion?: number },
): Promise<{ view: unknown; legal: unknown[]; outcome: Outcome | null }> {
  const game = await ctx.db.game.findUnique({ where: { id: input.gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  if (!game || (input.guildId !== null && game.guildId !== input.guildId)) throw new UserError('game/unknown', `There is no game #${input.gameId} in this server.`);
  requireSeat(ctx, game, input.userId);
  requireActive(game);
  requireVersion(game, input.expectedVersion);
  const def = definitionOf(ctx, game.kind);
  const { state } = await applyMoves(null, def, parseState(def, game), input.userId, input.moves);
  return { view: def.engine.view(state, input.userId), legal: def.engine.legalMoves(state, input.userId), outcome: def.engine.outcome(state) };
}

/** A player gives up. Two players or teams: the game ends; three or more: the autopilot takes the seat. */
export async function resign(
  ctx: ServiceContext,
  input: { gameId: number; userId: string; guildId: string | null; expectedVersion?: number },
): Promise<MoveResult> {
  return inTransaction(ctx, async (tx) => {
    const game = await lockForPlayer(tx, ctx, input);
    const def = definitionOf(ctx, game.kind);
    const prev = parseState(def, game);
    if (def.engine.out?.(prev).includes(input.userId)) throw new UserError('game/already-out', `You already left game #${game.id}; the autopilot plays your seat.`);
    let next: unknown;
    try {
      next = def.engine.forfeit(prev, input.userId);
    } catch (err) {
      asUserError(err);
    }
    const committed = await commitChange(tx, ctx, game, def, prev, next, [{ actor: input.userId, entry: { type: 'forfeit', player: input.userId, reason: 'resign' } }]);
    return { before: makeSnapshot(def, game, prev), after: makeSnapshot(def, committed.after, committed.state), outcome: committed.outcome };
  });
}

/** Reads a game (no lock) for display. */
export async function getGame(ctx: ServiceContext, gameId: number, guildId: string | null): Promise<GameSnapshot> {
  // One statement (the game with its seats), prepared on plain pg: every click reads its game first.
  const game = await readGame(ctx, gameId);
  if (!game || (guildId !== null && game.guildId !== guildId)) {
    throw new UserError('game/unknown', `There is no game #${gameId} in this server.`);
  }
  const def = definitionOf(ctx, game.kind);
  return makeSnapshot(def, game, parseState(def, game));
}

/** The invoker's active games in a server, most urgent deadline first. */
export async function listActiveGames(ctx: ServiceContext, input: { guildId: string; userId: string; kind?: string }): Promise<GameSnapshot[]> {
  const games = await ctx.db.game.findMany({
    where: { guildId: input.guildId, status: 'active', seats: { some: { playerId: input.userId } }, ...(input.kind ? { kind: input.kind } : {}) },
    include: { seats: { orderBy: { seat: 'asc' } } },
    orderBy: { id: 'asc' },
    take: 100,
  });
  const snaps = games.flatMap((game) => {
    const def = ctx.games.get(game.kind);
    return def ? [makeSnapshot(def, game, parseState(def, game))] : [];
  });
  const deadline = (s: GameSnapshot) => Math.min(...s.game.seats.map((x) => x.deadlineAt?.getTime() ?? Infinity));
  return snaps.sort((a, b) => deadline(a) - deadline(b));
}

/** Active games of a kind in a server that the invoker does not play (for spectators' autocomplete). */
export async function listOtherGames(ctx: ServiceContext, input: { guildId: string; kind: string; excludeIds: number[]; take: number }): Promise<GameInfo[]> {
  const rows = await ctx.db.game.findMany({
    where: { guildId: input.guildId, kind: input.kind, status: 'active', id: { notIn: input.excludeIds } },
    include: { seats: { orderBy: { seat: 'asc' } } },
    orderBy: { id: 'desc' },
    take: input.take,
  });
  return rows.map(gameInfo);
}

/** Resolves the game a command refers to: the given id, or the invoker's only active game of that kind. */
export async function resolveOwnGame(ctx: ServiceContext, input: { guildId: string; userId: string; kind: string; gameId?: number | null }): Promise<number> {
  if (input.gameId) return input.gameId;
  const def = definitionOf(ctx, input.kind);
  const games = await listActiveGames(ctx, { guildId: input.guildId, userId: input.userId, kind: input.kind });
  if (games.length === 0) throw new UserError('game/none', `You have no ${def.title} game in progress here. Start one with \`/${def.kind} ${def.startSubcommand ?? def.joinSubcommand}\`.`);
  if (games.length > 1) {
    throw new UserError('game/ambiguous', `You have ${games.length} games in progress: pick one with the \`game\` option (${games.map((g) => `#${g.game.id}`).join(', ')}).`);
  }
  return games[0]!.game.id;
}

/** The invoker's latest game of a kind in a server (finished ones included), or null. */
export async function latestGame(ctx: ServiceContext, input: { guildId: string; userId: string; kind: string }): Promise<number | null> {
  const g = await ctx.db.game.findFirst({
    where: { guildId: input.guildId, kind: input.kind, seats: { some: { playerId: input.userId } } },
    orderBy: { id: 'desc' },
    select: { id: true },
  });
  return g?.id ?? null;
}

/** The move log of a game, for replays and audits. */
export async function moveLog(ctx: ServiceContext, gameId: number): Promise<Array<{ seq: number; actorId: string; entry: LogEntry }>> {
  const rows = await ctx.db.move.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
  return rows.map((r) => ({ seq: r.seq, actorId: r.actorId, entry: r.entry as LogEntry }));
}

/** The ids and names of a practice game's autopilot seats. */
export const AUTOPILOT_ID = (n: number) => `autopilot-${n}`;

/**
 * `/<game> practice`: a game against the autopilot in the other seat(s), at once, outside any
 * cycle: no leaderboard, no rewards. The player's seat is drawn like any seating (the engine
 * decides who starts).
 */
export async function startPractice(
  ctx: ServiceContext,
  input: { guildId: string; guildName?: string; channelId: string; kind: string; player: PlayerRef; bots: number; options?: unknown; seed?: string },
): Promise<GameRow> {
  const def = definitionOf(ctx, input.kind);
  const max = def.engine.maxPlayers - 1;
  if (!Number.isInteger(input.bots) || input.bots < def.engine.minPlayers - 1 || input.bots > max) {
    throw new UserError('practice/seats', `${def.title} is played by ${def.engine.minPlayers}${def.engine.maxPlayers > def.engine.minPlayers ? `-${def.engine.maxPlayers}` : ''}: choose between ${def.engine.minPlayers - 1} and ${max} autopilot seats.`);
  }
  const bots = Array.from({ length: input.bots }, (_, i) => ({ id: AUTOPILOT_ID(i + 1), name: input.bots > 1 ? `Autopilot ${i + 1}` : 'Autopilot' }));
  return inTransaction(ctx, async (tx) => {
    requireGameChannel(await ensureGuild(tx, input.guildId, input.guildName), input.channelId);
    const active = await tx.game.count({ where: { guildId: input.guildId, kind: def.kind, status: 'active', practice: true, seats: { some: { playerId: input.player.id } } } });
    if (active >= 3) throw new UserError('practice/too-many', `You already have ${active} practice games of ${def.title} running. Finish or forfeit one first (\`/${def.kind} games\`).`);
    // A game whose seats bring something (Krellstones' stones) says what each brings, from the game's seed.
    const seed = input.seed ?? ctx.seeds?.() ?? randomBytes(32).toString('hex');
    const prepared = (await def.preparePractice?.(tx, ctx, { guildId: input.guildId, player: input.player, bots, seed })) ?? {};
    const game = await startGame(tx, ctx, {
      guildId: input.guildId,
      ...(input.guildName !== undefined ? { guildName: input.guildName } : {}),
      channelId: input.channelId,
      kind: def.kind,
      players: [input.player, ...bots],
      options: input.options ?? prepared.options ?? def.practiceOptions?.(input.bots),
      ...(prepared.playerData ? { playerData: prepared.playerData } : {}),
      autopilot: bots.map((b) => b.id),
      seed,
    });
    await prepared.afterStart?.(tx, game.id);
    return game;
  });
}

export { runAutopilot };
