import { perDb, type ServiceContext } from '../services/context.ts';
import { getGame, type GameInfo, type GameSnapshot } from '../services/games.ts';
import { ButtonStyle, ComponentType } from 'discord.js';
import { withForfeit } from './chrome.ts';
import { customId } from './custom-id.ts';
import { durationText } from '../services/settings.ts';
import { mention, messageUrl, ts } from './format.ts';
import { recentLines, withRecentOnBoard } from './history.ts';
import type { BoardMeta, GameModules, MessagePayload } from './game-module.ts';

/**
 * Display names of players, from the database, remembered for a few minutes: every board render
 * needs them and they almost never change. (A rename shows on boards within NAME_TTL_MS.)
 */
const NAME_TTL_MS = 5 * 60_000;
/** Per database client (perDb): the same user ids are players in other databases (tests: one emulator's demo users, several files in one process). */
const nameCaches = new WeakMap<object, Map<string, { name: string; at: number }>>();

export async function playerNames(ctx: ServiceContext, ids: string[]): Promise<Record<string, string>> {
  const nameCache = perDb(nameCaches, ctx, () => new Map<string, { name: string; at: number }>());
  const now = Date.now();
  const out: Record<string, string> = {};
  const missing: string[] = [];
  for (const id of ids) {
    const hit = nameCache.get(id);
    if (hit && now - hit.at < NAME_TTL_MS) out[id] = hit.name;
    else missing.push(id);
  }
  if (missing.length > 0) {
    const players = await ctx.db.player.findMany({ where: { id: { in: missing } } });
    for (const p of players) {
      out[p.id] = p.name;
      nameCache.set(p.id, { name: p.name, at: now });
    }
    if (nameCache.size > 10_000) nameCache.clear();
  }
  return out;
}

export function boardUrl(game: Pick<GameInfo, 'guildId' | 'channelId' | 'boardMessageId'>): string | null {
  return game.boardMessageId ? messageUrl(game.guildId, game.channelId, game.boardMessageId) : null;
}

export function boardMeta(game: GameInfo, names: Record<string, string>, autopilot: string[]): BoardMeta {
  return {
    gameId: game.id,
    version: game.version,
    names,
    deadlines: Object.fromEntries(game.seats.map((s) => [s.playerId, s.deadlineAt])),
    seedCommitment: game.seedCommitment,
    seed: game.seed,
    cycle: game.cycleId !== null,
    practice: game.practice,
    autopilot,
    timedOut: ((game.outcome as { timedOut?: string[] } | null)?.timedOut ?? []).slice(),
  };
}

/** The public board of a game, rendered from the spectator view (never raw state). */
export function boardFor(games: GameModules, snap: GameSnapshot, names: Record<string, string>, extra: Partial<BoardMeta> = {}): MessagePayload {
  const module = games.require(snap.game.kind);
  const payload = module.present.board(snap.view(null), { ...boardMeta(snap.game, names, snap.autopilot), ...extra });
  // Every running game's board offers Forfeit (a game whose board forgot it gets the platform's), unless the game forfeits by command only.
  const withResign = snap.game.status === 'active' && module.boardForfeit !== false ? withForfeit(payload, { gameId: snap.game.id, version: snap.game.version }) : payload;
  return withClockControls(withResign, snap);
}

/**
 * The public board with its last move in words (src/bot/history.ts) and, for a game whose board
 * shows them (`boardTimers`: Krellstones' next roll), its running timers: whoever draws the board
 * (the outbox, or a click that edits it in place) draws the same thing, and other games' boards
 * cost no read of their jobs.
 */
export async function boardWithRecent(ctx: ServiceContext, games: GameModules, snap: GameSnapshot, names: Record<string, string>): Promise<MessagePayload> {
  const shows = games.require(snap.game.kind).boardTimers === true;
  const [lines, timers, tableId] = await Promise.all([recentLines(ctx, games, snap.game.id, snap.game.kind, names, null, snap.game.version), shows ? boardTimers(ctx, snap.game) : [], tableOf(ctx, snap.game.id)]);
  return withRecentOnBoard(boardFor(games, snap, names, { timers, ...(tableId !== null ? { tableId } : {}) }), lines);
}

/**
 * The table a game started from (null: none), remembered: a game gets its table in the
 * transaction that creates it, so the answer never changes.
 */
const tableCaches = new WeakMap<object, Map<number, number | null>>();
async function tableOf(ctx: ServiceContext, gameId: number): Promise<number | null> {
  // Per database client: game ids repeat between databases.
  const tables = perDb(tableCaches, ctx, () => new Map<number, number | null>());
  if (tables.has(gameId)) return tables.get(gameId)!;
  const row = await ctx.db.gameTable.findFirst({ where: { gameId }, select: { id: true } });
  if (tables.size > 10_000) tables.clear();
  tables.set(gameId, row?.id ?? null);
  return row?.id ?? null;
}

/** The pending timer jobs of a running game, soonest first. */
async function boardTimers(ctx: ServiceContext, game: Pick<GameInfo, 'id' | 'status'>): Promise<NonNullable<BoardMeta['timers']>> {
  if (game.status !== 'active') return [];
  const jobs = await ctx.db.job.findMany({ where: { gameId: game.id, kind: 'timer', status: 'pending' }, select: { dueAt: true, payload: true }, orderBy: { dueAt: 'asc' } });
  return jobs.map((j) => {
    const p = j.payload as { key?: unknown; player?: unknown };
    return { key: String(p.key ?? ''), ...(typeof p.player === 'string' ? { player: p.player } : {}), dueAt: j.dueAt };
  });
}

/**
 * What the platform adds to every running game's board (issue 13, feature 3): the time per move
 * when the challenger chose one, who is on vacation (their clock is paused until then), and a
 * **Nudge** button for the player waiting on an opponent.
 */
export function withClockControls(payload: MessagePayload, snap: Pick<GameSnapshot, 'game'>): MessagePayload {
  const { game } = snap;
  if (game.status !== 'active') return payload;
  const away = game.seats.filter((s) => s.vacationUntil && !s.autopilot);
  let out = payload;
  const lines = [
    // The time per move the challenger chose (none: the server's turn limit, as everywhere).
    ...(game.turnLimitMinutes !== null && game.turnLimitMinutes !== undefined ? [`⏱️ ${durationText(game.turnLimitMinutes)} per move.`] : []),
    ...away.map((s) => `⏸️ ${mention(s.playerId)} is on vacation until ${ts(s.vacationUntil!, 'f')}: their clock is paused.`),
  ];
  if (lines.length) {
    out = { ...out, content: [out.content, ...lines].filter(Boolean).join('\n').slice(0, 2000), allowed_mentions: out.allowed_mentions ?? { parse: [] } };
  }
  if (game.practice || game.seats.filter((s) => !s.autopilot).length < 2) return out;
  // Nobody's clock runs (Krellstones rolling by itself): there is nobody to nudge.
  if (!game.seats.some((s) => s.deadlineAt !== null && !s.autopilot)) return out;
  const nudge = { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('g:nudge', game.id), label: 'Nudge', emoji: { name: '👋' } } as const;
  const rows = out.components ?? [];
  const last = rows.at(-1);
  if (rows.length < 5) return { ...out, components: [...rows, { type: ComponentType.ActionRow, components: [nudge] }] };
  if (last && last.components.length < 5 && last.components.every((c) => c.type === ComponentType.Button)) {
    return { ...out, components: [...rows.slice(0, -1), { ...last, components: [...last.components, nudge] }] };
  }
  return out;
}

export async function renderBoard(ctx: ServiceContext, games: GameModules, gameId: number): Promise<{ payload: MessagePayload; game: GameInfo }> {
  const snap = await getGame(ctx, gameId, null);
  const names = await playerNames(ctx, snap.game.seats.map((s) => s.playerId));
  return { payload: await boardWithRecent(ctx, games, snap, names), game: snap.game };
}
