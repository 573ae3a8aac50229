import type { ServiceContext } from '../services/context.ts';
import { getGame, type GameInfo, type GameSnapshot } from '../services/games.ts';
import { messageUrl } from './format.ts';
import type { BoardMeta, GameModules, MessagePayload } from './game-module.ts';

/**
 * Display names of players, from the database, remembered for a few minutes: every board render
 * needs them and they almost never change. (A rename shows on boards within NAME_TTL_MS.)
 */
const NAME_TTL_MS = 5 * 60_000;
const nameCache = new Map<string, { name: string; at: number }>();

export async function playerNames(ctx: ServiceContext, ids: string[]): Promise<Record<string, string>> {
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
export function boardFor(games: GameModules, snap: GameSnapshot, names: Record<string, string>): MessagePayload {
  return games.require(snap.game.kind).present.board(snap.view(null), boardMeta(snap.game, names, snap.autopilot));
}

export async function renderBoard(ctx: ServiceContext, games: GameModules, gameId: number): Promise<{ payload: MessagePayload; game: GameInfo }> {
  const snap = await getGame(ctx, gameId, null);
  const names = await playerNames(ctx, snap.game.seats.map((s) => s.playerId));
  const jobs = snap.game.status === 'active' ? await ctx.db.job.findMany({ where: { gameId, kind: 'timer', status: 'pending' }, select: { dueAt: true, payload: true }, orderBy: { dueAt: 'asc' } }) : [];
  const timers = jobs.map((j) => {
    const p = j.payload as { key?: unknown; player?: unknown };
    return { key: String(p.key ?? ''), ...(typeof p.player === 'string' ? { player: p.player } : {}), dueAt: j.dueAt };
  });
  const payload = games.require(snap.game.kind).present.board(snap.view(null), { ...boardMeta(snap.game, names, snap.autopilot), timers });
  return { payload, game: snap.game };
}
