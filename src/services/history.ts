import { perDb, type ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { definitionOf, gameInfo, type GameInfo, type LogEntry } from './game-store.ts';

/**
 * A game's move log with what each entry did, for "what just happened" on the board and in the
 * turn DM, and for `/<game> history`. The log is replayed from the seed (which never leaves the
 * services): callers get spectator views around each entry, never a state, so nothing hidden can
 * reach a description.
 */
export interface HistoryStep {
  seq: number;
  actor: string;
  at: Date;
  entry: LogEntry;
  /** The spectator views before and after the entry (null when the log could not be replayed). */
  before: unknown | null;
  after: unknown | null;
}

/**
 * The state after the latest entry replayed, per game, so that the board's "last move" after each
 * move replays only the new entries, with its spectator view (the next entry's "before"). A cache
 * only: a miss replays from the start.
 */
type Replayed = Map<number, Kept[]>;
type Kept = { seq: number; seed: string; state: unknown; view: unknown };
/**
 * Per database client (a WeakMap, as `caches` below): game ids and seeds repeat between databases
 * (tests clone one template and use fixed seeds, and several test files share a process), so a
 * state kept for game 1 of one database must never start game 1's replay in another.
 */
const replayedByDb = new WeakMap<object, Replayed>();
const replayedOf = (ctx: ServiceContext): Replayed => perDb(replayedByDb, ctx, () => new Map());
/** States kept per game: the latest few, so a DM drawn after the next move's board still starts near its entries. */
const STATES_PER_GAME = 4;
const CACHE_MAX = 2_000;
/** Games whose states are kept: at most 2,000 states in all, as when one was kept for each of 2,000 games (memory). */
const REPLAYED_MAX = CACHE_MAX / STATES_PER_GAME;

type GameWithSeats = NonNullable<Awaited<ReturnType<typeof loadGame>>>;
type MoveRow = { seq: number; actorId: string; entry: unknown; createdAt: Date };

const loadGame = (ctx: ServiceContext, gameId: number) => ctx.db.game.findUnique({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });

/**
 * The entries of game `gameId` from `fromSeq` on (default: all), each with the spectator views
 * around it, and the spectator view now. `guildId` null: any server (deliveries).
 */
export async function gameHistory(
  ctx: ServiceContext,
  gameId: number,
  guildId: string | null,
  opts: { fromSeq?: number; toSeq?: number } = {},
): Promise<{ game: GameInfo; steps: HistoryStep[]; latest: unknown | null }> {
  const row = await loadGame(ctx, gameId);
  if (!row || (guildId !== null && row.guildId !== guildId)) {
    throw new UserError('game/unknown', `There is no game #${gameId} in this server.`);
  }
  return { game: gameInfo(row), ...(await replaySteps(ctx, setupOf(row), row.version, Math.max(1, opts.fromSeq ?? 1), opts.toSeq ?? row.version, null)) };
}

/** What a replay needs of a game and what never changes once the game exists: its seed, players (in seat order), options and player data. */
interface GameSetup {
  id: number;
  kind: string;
  seed: string;
  players: string[];
  options: unknown;
  playerData: unknown;
}

const setupOf = (row: GameWithSeats): GameSetup => ({ id: row.id, kind: row.kind, seed: row.seed, players: row.seats.map((s) => s.playerId), options: row.options, playerData: row.playerData });

/**
 * Caches per database (a test process opens several, whose game ids repeat), each a cache only:
 * a miss reads the database. `setups`: each game's setup, which never changes. `told`: each game's
 * log tail and described steps as of one version: the moves up to a version never change, so the
 * board drawn by a click and the next player's turn DM at that version share one read and one replay.
 */
const caches = new WeakMap<object, { setups: Map<number, GameSetup>; told: Map<string, { version: number; tail: MoveRow[]; steps: Map<number, HistoryStep>; latest: unknown | null }> }>();
/** Versions told at most (the oldest goes first): a few per game, since a turn DM may be drawn after the next move's board. */
const TOLD_MAX = 300;

const cachesOf = (ctx: ServiceContext) => perDb(caches, ctx, () => ({ setups: new Map(), told: new Map() }));

/**
 * A committed change's log entries, moving version `from` on: when the tail as of `from` is cached,
 * the tail as of the new version is that tail with these entries on top, so the board drawn right
 * after a move reads nothing. Called only once the change is committed.
 */
export function noteLogged(ctx: ServiceContext, gameId: number, from: number, logged: MoveRow[]): void {
  const cache = cachesOf(ctx);
  const known = cache.told.get(`${gameId}:${from}`);
  if (!known || logged.length === 0 || logged[0]!.seq !== from + 1) return;
  const version = logged.at(-1)!.seq;
  const tail = [...logged.slice().reverse(), ...known.tail].slice(0, TAIL);
  if (cache.told.size >= TOLD_MAX) cache.told.delete(cache.told.keys().next().value!);
  cache.told.set(`${gameId}:${version}`, { version, tail, steps: new Map(), latest: null });
}

/** Rows of the log's tail read at once: enough for the board's (8) and a DM's (16) recent entries, secret moves skipped. */
const TAIL = 28;

/**
 * The recent entries (see `rangeOf`) with their views. `version`: as of that version of the game
 * (the board or DM being drawn); then the game's setup and the tail at that version come from the
 * cache when a render at that version already read them (no round trip), else one read of the
 * tail. Without it, the game and the log's tail are read at once, as of the game's version now.
 */
export async function recentHistory(
  ctx: ServiceContext,
  gameId: number,
  opts: { since?: string; max?: number; version?: number } = {},
): Promise<{ steps: HistoryStep[]; latest: unknown | null } | null> {
  const max = opts.max ?? 8;
  const cache = cachesOf(ctx);
  let setup = cache.setups.get(gameId);
  let version = opts.version;
  let told = version !== undefined ? cache.told.get(`${gameId}:${version}`) : undefined;
  let rows: MoveRow[];
  if (told) {
    rows = told.tail;
  } else {
    const tailOf = (v: number | undefined) => ctx.db.move.findMany({ where: { gameId, ...(v !== undefined ? { seq: { lte: v } } : {}) }, orderBy: { seq: 'desc' }, take: Math.max(TAIL, max + 12) });
    let tail: MoveRow[];
    if (setup && version !== undefined) {
      tail = await tailOf(version);
    } else {
      const [row, t] = await Promise.all([loadGame(ctx, gameId), tailOf(version)]);
      if (!row) return null;
      setup = setupOf(row);
      if (cache.setups.size >= CACHE_MAX) cache.setups.clear();
      cache.setups.set(gameId, setup);
      version ??= row.version;
      tail = t;
    }
    // As of the version: a move committed between the two reads waits for the next render.
    rows = tail.filter((r) => r.seq <= version!);
    told = { version: version!, tail: rows, steps: new Map(), latest: null };
    if (cache.told.size >= TOLD_MAX) cache.told.delete(cache.told.keys().next().value!);
    cache.told.set(`${gameId}:${version}`, told);
  }
  // Secret moves (GameDefinition.secretMove) are no one's last move: the latest public one is.
  const secret = ctx.games.get(setup!.kind)?.secretMove;
  const shown = secret ? rows.filter((r) => !((r.entry as LogEntry).type === 'move' && secret((r.entry as { move: unknown }).move))) : rows;
  const range = rangeOf(shown, { since: opts.since, max });
  if (!range) return null;
  const wanted = rows.filter((r) => r.seq >= range.from && r.seq <= range.to).map((r) => r.seq);
  if (told.latest === null || wanted.some((seq) => !told!.steps.has(seq))) {
    const replay = await replaySteps(ctx, setup!, version!, range.from, range.to, rows.slice().reverse());
    for (const step of replay.steps) told.steps.set(step.seq, step);
    told.latest = replay.latest;
  }
  return { steps: wanted.map((seq) => told!.steps.get(seq)!), latest: told.latest };
}

async function replaySteps(
  ctx: ServiceContext,
  row: GameSetup,
  /** The replay runs up to this version (the log's last entry then). */
  version: number,
  fromSeq: number,
  toSeq: number,
  /** Entries already read (ascending), used when they are the ones the replay needs. */
  known: MoveRow[] | null,
): Promise<{ steps: HistoryStep[]; latest: unknown | null }> {
  const gameId = row.id;
  const replayed = replayedOf(ctx);
  const def = definitionOf(ctx, row.kind);
  const { engine } = def;
  // The latest state kept that comes before the first entry wanted.
  const start = (replayed.get(gameId) ?? []).filter((c) => c.seed === row.seed && c.seq <= fromSeq - 1 && c.seq <= version).reduce<Kept | null>((a, c) => (a && a.seq >= c.seq ? a : c), null);
  const first = (start?.seq ?? 0) + 1;
  const covers = known !== null && known.length > 0 && known[0]!.seq <= first && known.at(-1)!.seq === version;
  const rows: MoveRow[] = covers
    ? known.filter((m) => m.seq >= first)
    : await ctx.db.move.findMany({ where: { gameId, seq: { gte: first, lte: version } }, orderBy: { seq: 'asc' } });
  const steps: HistoryStep[] = [];
  let state: unknown = null;
  let ok = true;
  try {
    state =
      start?.state ??
      engine.setup({
        seed: row.seed,
        players: row.players,
        options: engine.optionsSchema.parse(row.options ?? {}),
        ...(row.playerData ? { playerData: row.playerData as Record<string, unknown> } : {}),
      });
  } catch (err) {
    ctx.log.warn({ err, gameId }, 'history: the game could not be set up again');
    ok = false;
  }
  // The spectator view of `state` when one was taken (views are pure functions of the state, and
  // read only): the next entry's "before" and the replay's "latest" reuse it instead of taking it again.
  let view: unknown | undefined = start?.view;
  for (const m of rows) {
    const entry = m.entry as LogEntry;
    const wanted = m.seq >= fromSeq && m.seq <= toSeq;
    let before: unknown = null;
    let after: unknown = null;
    if (ok) {
      try {
        if (wanted) before = view ?? engine.view(state, null);
        view = undefined;
        state = entry.type === 'move' ? engine.apply(state, m.actorId, entry.move) : engine.forfeit(state, entry.player);
        if (wanted) view = after = engine.view(state, null);
      } catch (err) {
        ctx.log.warn({ err, gameId, seq: m.seq }, 'history: the log does not replay');
        ok = false;
        before = null;
      }
    }
    if (wanted) steps.push({ seq: m.seq, actor: m.actorId, at: m.createdAt, entry, before, after });
  }
  let latest: unknown = null;
  if (ok) {
    try {
      latest = view ?? engine.view(state, null);
    } catch {
      latest = null;
    }
  }
  if (ok && rows.length > 0) {
    if (replayed.size >= REPLAYED_MAX && !replayed.has(gameId)) replayed.clear();
    const seq = rows.at(-1)!.seq;
    const kept = (replayed.get(gameId) ?? []).filter((c) => c.seed === row.seed && c.seq !== seq);
    replayed.set(gameId, [...kept, { seq, seed: row.seed, state, view: latest ?? undefined }].sort((a, b) => a.seq - b.seq).slice(-STATES_PER_GAME));
  }
  return { steps, latest };
}

/**
 * Which entries are recent, from the log's tail (newest first): without `since`, the latest run
 * of entries by one actor (a turn of several steps, a die item and its placement); with `since`,
 * what the others did since `since` last played (their own latest run, a turn going on, is
 * skipped). At most `max` entries; null when there is nothing to tell.
 */
export function rangeOf(rows: ReadonlyArray<Pick<MoveRow, 'seq' | 'actorId' | 'entry'>>, opts: { since?: string; max: number }): { from: number; to: number } | null {
  const actorOf = (r: (typeof rows)[number]) => ((r.entry as LogEntry).type === 'forfeit' ? (r.entry as { player: string }).player : r.actorId);
  let i = 0;
  if (opts.since !== undefined) while (i < rows.length && actorOf(rows[i]!) === opts.since) i++;
  if (i >= rows.length) return null;
  const first = actorOf(rows[i]!);
  const to = rows[i]!.seq;
  let from = to;
  for (let n = 0; i < rows.length && n < opts.max; i++, n++) {
    const a = actorOf(rows[i]!);
    if (opts.since !== undefined ? a === opts.since : a !== first) break;
    from = rows[i]!.seq;
  }
  return { from, to };
}
