import type { Tx } from '../db/client.ts';
import { prismaSql, type Sql, type Statement } from '../db/hot.ts';
import type { Rating, Seat } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { rateGame, START_RATING, type RatingState } from './glicko.ts';

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

/** recordRatings' statements (one text each: prepared on a move's hot path, src/db/hot.ts). */
const ENSURE_RATINGS: Statement = {
  name: 'stonehall-ratings-ensure',
  text: `INSERT INTO ratings (guild_id, kind, player_id, updated_at)
    SELECT $1::text, $2::text, p, $3::timestamp(3) FROM unnest($4::text[]) AS p ORDER BY p
    ON CONFLICT DO NOTHING`,
};
const LOCK_RATINGS: Statement = {
  name: 'stonehall-ratings-lock',
  text: `SELECT player_id, rating, rd, vol FROM ratings
    WHERE guild_id = $1::text AND kind = $2::text AND player_id = ANY($3::text[])
    ORDER BY player_id FOR UPDATE`,
};
const UPDATE_RATINGS: Statement = {
  name: 'stonehall-ratings-update',
  text: `UPDATE ratings AS r SET
      rating = v.rating, rd = v.rd, vol = v.vol, games = r.games + 1,
      wins = r.wins + (v.result = 'win')::int, draws = r.draws + (v.result = 'draw')::int,
      losses = r.losses + (v.result = 'loss')::int, forfeits = r.forfeits + (v.result = 'forfeit')::int,
      updated_at = $3::timestamp(3)
    FROM jsonb_to_recordset($4::jsonb) AS v(player_id text, rating float8, rd float8, vol float8, result text)
    WHERE r.guild_id = $1::text AND r.kind = $2::text AND r.player_id = v.player_id`,
};

/** Applies a finished game to its players' all-time ratings (inside the finishing transaction). */
export async function recordRatings(tx: Tx, game: RatedGame, seats: Pick<Seat, 'playerId' | 'result' | 'autopilot'>[], now: Date): Promise<void> {
  await recordRatingsOn(prismaSql(tx), game, seats, now);
}

/** recordRatings with its statements run by `sql` (Prisma's transaction, or a move's hot path). */
export async function recordRatingsOn(sql: Sql, game: RatedGame, seats: Pick<Seat, 'playerId' | 'result' | 'autopilot'>[], now: Date): Promise<void> {
  if (game.practice) return;
  const rated = seats.filter((s) => s.result && !s.autopilot).sort((a, b) => (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0));
  if (rated.length < 2) return;
  const ids = rated.map((s) => s.playerId);
  const at = now.toISOString();
  // Rows exist first, then are locked in player order: two games ending at once that share a
  // player apply one after the other, never from the same "before".
  await sql.run(ENSURE_RATINGS, [game.guildId, game.kind, at, ids]);
  const rows = await sql.run<{ player_id: string; rating: number; rd: number; vol: number }>(LOCK_RATINGS, [game.guildId, game.kind, ids]);
  const before = new Map(rows.map((r) => [r.player_id, { r: r.rating, rd: r.rd, v: r.vol } satisfies RatingState]));
  const after = rateGame(rated, game.outcome as { places?: Record<string, number> } | null, (id) => before.get(id)!);
  const updates = rated.map((s) => {
    const n = after.get(s.playerId)!;
    return { player_id: s.playerId, rating: n.r, rd: n.rd, vol: n.v, result: s.result };
  });
  await sql.run(UPDATE_RATINGS, [game.guildId, game.kind, at, JSON.stringify(updates)]);
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

/**
 * Recomputes every all-time rating from the finished games, in the order they finished (for a
 * database whose games ended before ratings existed, or to check them). Games that end meanwhile
 * wait for it (the table is locked) and then apply on top, so nothing is counted twice or lost.
 */
export async function rebuildRatings(ctx: Pick<ServiceContext, 'db' | 'clock'>): Promise<{ games: number; ratings: number }> {
  return ctx.db.$transaction(
    async (tx) => {
      await tx.$executeRaw`LOCK TABLE ratings IN EXCLUSIVE MODE`;
      await tx.rating.deleteMany({});
      const games = await tx.game.findMany({
        where: { status: 'finished', practice: false },
        include: { seats: true },
        orderBy: [{ finishedAt: 'asc' }, { id: 'asc' }],
      });
      type Row = RatingState & { guildId: string; kind: string; playerId: string; games: number; wins: number; draws: number; losses: number; forfeits: number; updatedAt: Date };
      const table = new Map<string, Row>();
      const key = (g: { guildId: string; kind: string }, p: string) => `${g.guildId}|${g.kind}|${p}`;
      let rated = 0;
      for (const g of games) {
        const seats = g.seats.filter((s) => s.result && !s.autopilot);
        if (seats.length < 2) continue;
        rated += 1;
        const at = g.finishedAt ?? g.updatedAt;
        const after = rateGame(seats, g.outcome as { places?: Record<string, number> } | null, (p) => table.get(key(g, p)) ?? START_RATING);
        for (const s of seats) {
          const prev = table.get(key(g, s.playerId)) ?? { ...START_RATING, guildId: g.guildId, kind: g.kind, playerId: s.playerId, games: 0, wins: 0, draws: 0, losses: 0, forfeits: 0, updatedAt: at };
          const n = after.get(s.playerId)!;
          table.set(key(g, s.playerId), {
            ...prev,
            ...n,
            games: prev.games + 1,
            wins: prev.wins + (s.result === 'win' ? 1 : 0),
            draws: prev.draws + (s.result === 'draw' ? 1 : 0),
            losses: prev.losses + (s.result === 'loss' ? 1 : 0),
            forfeits: prev.forfeits + (s.result === 'forfeit' ? 1 : 0),
            updatedAt: at,
          });
        }
      }
      const rows = [...table.values()].map(({ r, rd, v, ...rest }) => ({ ...rest, rating: r, rd, vol: v }));
      if (rows.length) await tx.rating.createMany({ data: rows });
      return { games: rated, ratings: rows.length };
    },
    { timeout: 10 * 60_000, maxWait: 60_000 },
  );
}
