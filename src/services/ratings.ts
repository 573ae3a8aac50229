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

/** recordRatings' statements (one text each, whatever the number of games: prepared on a move's hot path, src/db/hot.ts). */
const ENSURE_RATINGS: Statement = {
  name: 'stonehall-ratings-ensure',
  text: `INSERT INTO ratings (guild_id, kind, player_id, updated_at)
    SELECT k.guild_id, k.kind, k.player_id, $1::timestamp(3)
    FROM jsonb_to_recordset($2::jsonb) AS k(guild_id text, kind text, player_id text)
    ORDER BY k.guild_id, k.kind, k.player_id
    ON CONFLICT DO NOTHING`,
};
const LOCK_RATINGS: Statement = {
  name: 'stonehall-ratings-lock',
  text: `SELECT r.guild_id, r.kind, r.player_id, r.rating, r.rd, r.vol
    FROM ratings r JOIN jsonb_to_recordset($1::jsonb) AS k(guild_id text, kind text, player_id text)
      ON r.guild_id = k.guild_id AND r.kind = k.kind AND r.player_id = k.player_id
    ORDER BY r.guild_id, r.kind, r.player_id FOR UPDATE OF r`,
};
const UPDATE_RATINGS: Statement = {
  name: 'stonehall-ratings-update',
  text: `UPDATE ratings AS r SET
      rating = v.rating, rd = v.rd, vol = v.vol, games = r.games + v.games,
      wins = r.wins + v.wins, draws = r.draws + v.draws, losses = r.losses + v.losses, forfeits = r.forfeits + v.forfeits,
      updated_at = $1::timestamp(3)
    FROM jsonb_to_recordset($2::jsonb)
      AS v(guild_id text, kind text, player_id text, rating float8, rd float8, vol float8, games int, wins int, draws int, losses int, forfeits int)
    WHERE r.guild_id = v.guild_id AND r.kind = v.kind AND r.player_id = v.player_id`,
};

type RatedSeat = Pick<Seat, 'playerId' | 'result' | 'autopilot'>;

/** A seat's result and the count it adds to. */
const COUNTS = { win: 'wins', draw: 'draws', loss: 'losses', forfeit: 'forfeits' } as const;

/** Applies a finished game to its players' all-time ratings (inside the finishing transaction). */
export async function recordRatings(tx: Tx, game: RatedGame, seats: RatedSeat[], now: Date): Promise<void> {
  await recordRatingsOn(prismaSql(tx), game, seats, now);
}

/** recordRatings with its statements run by `sql` (Prisma's transaction, or a move's hot path). */
export async function recordRatingsOn(sql: Sql, game: RatedGame, seats: RatedSeat[], now: Date): Promise<void> {
  await recordRatingsBatch(sql, [{ game, seats }], now);
}

/**
 * Applies finished games, in the order given, to their players' all-time ratings: three
 * statements whatever their number (the deadline sweep ends hundreds of games in one batch). A
 * player in several of them moves game after game, as if each had been recorded on its own.
 */
export async function recordRatingsBatch(sql: Sql, ended: Array<{ game: RatedGame; seats: RatedSeat[] }>, now: Date): Promise<void> {
  const games = ended
    .filter((e) => !e.game.practice)
    .map((e) => ({ game: e.game, rated: e.seats.filter((s) => s.result && !s.autopilot) }))
    .filter((e) => e.rated.length >= 2);
  if (games.length === 0) return;
  const key = (guildId: string, kind: string, playerId: string) => JSON.stringify([guildId, kind, playerId]);
  const keys = new Map<string, { guild_id: string; kind: string; player_id: string }>();
  for (const { game, rated } of games) for (const s of rated) keys.set(key(game.guildId, game.kind, s.playerId), { guild_id: game.guildId, kind: game.kind, player_id: s.playerId });
  const at = now.toISOString();
  const wanted = JSON.stringify([...keys.values()]);
  // Rows exist first, then are locked in key order: two transactions ending games that share a
  // player apply one after the other, never from the same "before".
  await sql.run(ENSURE_RATINGS, [at, wanted]);
  const rows = await sql.run<{ guild_id: string; kind: string; player_id: string; rating: number; rd: number; vol: number }>(LOCK_RATINGS, [wanted]);
  type Row = { guild_id: string; kind: string; player_id: string; rating: number; rd: number; vol: number; games: number; wins: number; draws: number; losses: number; forfeits: number };
  const table = new Map<string, Row>(rows.map((r) => [key(r.guild_id, r.kind, r.player_id), { ...r, games: 0, wins: 0, draws: 0, losses: 0, forfeits: 0 }]));
  for (const { game, rated } of games) {
    const row = (playerId: string) => table.get(key(game.guildId, game.kind, playerId))!;
    const after = rateGame(rated, game.outcome as { places?: Record<string, number> } | null, (id) => {
      const r = row(id);
      return { r: r.rating, rd: r.rd, v: r.vol } satisfies RatingState;
    });
    for (const s of rated) {
      const r = row(s.playerId);
      const n = after.get(s.playerId)!;
      Object.assign(r, { rating: n.r, rd: n.rd, vol: n.v, games: r.games + 1 });
      const count = COUNTS[s.result as keyof typeof COUNTS];
      if (count) r[count] += 1;
    }
  }
  await sql.run(UPDATE_RATINGS, [at, JSON.stringify([...table.values()])]);
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
