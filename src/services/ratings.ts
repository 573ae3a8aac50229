import type { Tx } from '../db/client.ts';
import type { Rating, Seat } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { rateGame, type RatingState } from './glicko.ts';

/**
 * All-time ratings (issue 13, feature 5): per server, game and player, a Glicko-2 rating (the same
 * computation as the cycle leaderboards, `rateGame`) and the player's counts. Every finished game
 * that is not practice counts, casual challenges and tables as well as cycle games: a profile
 * shows how someone plays a game, wherever they played it. The rating moves in the transaction
 * that ends the game, so it can never miss a game or count one twice.
 */

export interface RatedGame {
  id: number;
  guildId: string;
  kind: string;
  practice: boolean;
  outcome: unknown;
}

/** Applies a finished game to its players' all-time ratings (inside the finishing transaction). */
export async function recordRatings(tx: Tx, game: RatedGame, seats: Pick<Seat, 'playerId' | 'result' | 'autopilot'>[], now: Date): Promise<void> {
  if (game.practice) return;
  const rated = seats.filter((s) => s.result && !s.autopilot).sort((a, b) => (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0));
  if (rated.length < 2) return;
  const ids = rated.map((s) => s.playerId);
  // Rows exist first, then are locked in player order: two games ending at once that share a
  // player apply one after the other, never from the same "before".
  await tx.$executeRaw`
    INSERT INTO ratings (guild_id, kind, player_id, updated_at)
    SELECT ${game.guildId}, ${game.kind}, p, ${now} FROM unnest(${ids}::text[]) AS p ORDER BY p
    ON CONFLICT DO NOTHING`;
  const rows = await tx.$queryRaw<Array<{ player_id: string; rating: number; rd: number; vol: number }>>`
    SELECT player_id, rating, rd, vol FROM ratings
    WHERE guild_id = ${game.guildId} AND kind = ${game.kind} AND player_id = ANY(${ids}::text[])
    ORDER BY player_id FOR UPDATE`;
  const before = new Map(rows.map((r) => [r.player_id, { r: r.rating, rd: r.rd, v: r.vol } satisfies RatingState]));
  const after = rateGame(rated, game.outcome as { places?: Record<string, number> } | null, (id) => before.get(id)!);
  const updates = rated.map((s) => {
    const n = after.get(s.playerId)!;
    return { player_id: s.playerId, rating: n.r, rd: n.rd, vol: n.v, result: s.result };
  });
  await tx.$executeRaw`
    UPDATE ratings AS r SET
      rating = v.rating, rd = v.rd, vol = v.vol, games = r.games + 1,
      wins = r.wins + (v.result = 'win')::int, draws = r.draws + (v.result = 'draw')::int,
      losses = r.losses + (v.result = 'loss')::int, forfeits = r.forfeits + (v.result = 'forfeit')::int,
      updated_at = ${now}
    FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS v(player_id text, rating float8, rd float8, vol float8, result text)
    WHERE r.guild_id = ${game.guildId} AND r.kind = ${game.kind} AND r.player_id = v.player_id`;
}

export interface RecentResult {
  gameId: number;
  result: string;
  opponents: string[];
  finishedAt: Date;
}

export interface ProfileEntry {
  kind: string;
  rating: Rating;
  /** 1 = the best all-time rating of this game in the server. */
  rank: number;
  of: number;
  recent: RecentResult[];
}

/** A player's all-time record per game in a server: rating, rank, counts, and the last few results. */
export async function playerProfile(ctx: ServiceContext, input: { guildId: string; playerId: string; recent?: number }): Promise<ProfileEntry[]> {
  const ratings = await ctx.db.rating.findMany({ where: { guildId: input.guildId, playerId: input.playerId }, orderBy: [{ games: 'desc' }, { kind: 'asc' }] });
  if (ratings.length === 0) return [];
  const take = input.recent ?? 5;
  const seats = await ctx.db.seat.findMany({
    where: { playerId: input.playerId, result: { not: null }, game: { guildId: input.guildId, practice: false, status: 'finished' } },
    include: { game: { select: { id: true, kind: true, finishedAt: true, updatedAt: true, seats: { select: { playerId: true } } } } },
    orderBy: [{ game: { finishedAt: 'desc' } }, { gameId: 'desc' }],
    take: 200,
  });
  const out: ProfileEntry[] = [];
  for (const rating of ratings) {
    const [counts] = await ctx.db.$queryRaw<Array<{ better: number; of: number }>>`
      SELECT count(*) FILTER (WHERE rating > ${rating.rating})::int AS better, count(*)::int AS of
      FROM ratings WHERE guild_id = ${input.guildId} AND kind = ${rating.kind}`;
    const { better, of } = counts!;
    const recent = seats
      .filter((s) => s.game.kind === rating.kind)
      .slice(0, take)
      .map((s) => ({
        gameId: s.game.id,
        result: s.result!,
        opponents: s.game.seats.map((x) => x.playerId).filter((p) => p !== input.playerId),
        finishedAt: s.game.finishedAt ?? s.game.updatedAt,
      }));
    out.push({ kind: rating.kind, rating, rank: better + 1, of, recent });
  }
  return out;
}
