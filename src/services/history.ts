import type { ServiceContext } from './context.ts';
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
 * move replays only the new entries. A cache only: a miss replays from the start.
 */
const replayed = new Map<number, { seq: number; seed: string; state: unknown }>();
const CACHE_MAX = 2_000;

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
    throw new UserError('game/unknown', `There is no game #${gameId} in this server. List yours with ${ctx.games.listHints()}.`);
  }
  return replaySteps(ctx, row, Math.max(1, opts.fromSeq ?? 1), opts.toSeq ?? row.version, null);
}

/**
 * The recent entries (see `rangeOf`) with their views: the game and the log's tail are read at
 * once, and the tail serves the replay when the cache reaches it (one round trip, usually).
 */
export async function recentHistory(
  ctx: ServiceContext,
  gameId: number,
  opts: { since?: string; max?: number } = {},
): Promise<{ game: GameInfo; steps: HistoryStep[]; latest: unknown | null } | null> {
  const max = opts.max ?? 8;
  const [row, tail] = await Promise.all([loadGame(ctx, gameId), ctx.db.move.findMany({ where: { gameId }, orderBy: { seq: 'desc' }, take: max + 12 })]);
  if (!row) return null;
  // As of the row's version: a move committed between the two reads waits for the next render.
  const rows = tail.filter((r) => r.seq <= row.version);
  // Secret moves (GameDefinition.secretMove) are no one's last move: the latest public one is.
  const secret = ctx.games.get(row.kind)?.secretMove;
  const told = secret ? rows.filter((r) => !((r.entry as LogEntry).type === 'move' && secret((r.entry as { move: unknown }).move))) : rows;
  const range = rangeOf(told, { ...opts, max });
  if (!range) return null;
  return replaySteps(ctx, row, range.from, range.to, rows.slice().reverse());
}

async function replaySteps(
  ctx: ServiceContext,
  row: GameWithSeats,
  fromSeq: number,
  toSeq: number,
  /** Entries already read (ascending), used when they are the ones the replay needs. */
  known: MoveRow[] | null,
): Promise<{ game: GameInfo; steps: HistoryStep[]; latest: unknown | null }> {
  const gameId = row.id;
  const def = definitionOf(ctx, row.kind);
  const { engine } = def;
  const cached = replayed.get(gameId);
  const start = cached && cached.seed === row.seed && cached.seq <= fromSeq - 1 && cached.seq <= row.version ? cached : null;
  const first = (start?.seq ?? 0) + 1;
  const covers = known !== null && known.length > 0 && known[0]!.seq <= first && known.at(-1)!.seq === row.version;
  const rows: MoveRow[] = covers
    ? known.filter((m) => m.seq >= first)
    : await ctx.db.move.findMany({ where: { gameId, seq: { gte: first, lte: row.version } }, orderBy: { seq: 'asc' } });
  const steps: HistoryStep[] = [];
  let state: unknown = null;
  let ok = true;
  try {
    state =
      start?.state ??
      engine.setup({
        seed: row.seed,
        players: row.seats.map((s) => s.playerId),
        options: engine.optionsSchema.parse(row.options ?? {}),
        ...(row.playerData ? { playerData: row.playerData as Record<string, unknown> } : {}),
      });
  } catch (err) {
    ctx.log.warn({ err, gameId }, 'history: the game could not be set up again');
    ok = false;
  }
  for (const m of rows) {
    const entry = m.entry as LogEntry;
    const wanted = m.seq >= fromSeq && m.seq <= toSeq;
    let before: unknown = null;
    let after: unknown = null;
    if (ok) {
      try {
        if (wanted) before = engine.view(state, null);
        state = entry.type === 'move' ? engine.apply(state, m.actorId, entry.move) : engine.forfeit(state, entry.player);
        if (wanted) after = engine.view(state, null);
      } catch (err) {
        ctx.log.warn({ err, gameId, seq: m.seq }, 'history: the log does not replay');
        ok = false;
        before = null;
      }
    }
    if (wanted) steps.push({ seq: m.seq, actor: m.actorId, at: m.createdAt, entry, before, after });
  }
  if (ok && rows.length > 0) {
    if (replayed.size >= CACHE_MAX) replayed.clear();
    replayed.set(gameId, { seq: rows.at(-1)!.seq, seed: row.seed, state });
  }
  let latest: unknown = null;
  if (ok) {
    try {
      latest = engine.view(state, null);
    } catch {
      latest = null;
    }
  }
  return { game: gameInfo(row), steps, latest };
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
