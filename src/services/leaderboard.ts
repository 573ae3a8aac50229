import { rateGame, START_RATING } from './glicko.ts';
import type { ServiceContext } from './context.ts';
import { cycleTitle, type CycleWithSeason } from './cycles.ts';
import { UserError } from './errors.ts';

/**
 * Leaderboards per cycle per game (RULINGS.md): games, wins, draws, losses, forfeits, and a
 * Glicko-2 rating (glicko2-lite: Glickman's algorithm, default 1500 / RD 350 / volatility 0.06,
 * tau 0.5). Every finished game of the cycle is one rating period, applied in the order the games
 * finished, so the rating is reproducible from the games alone. A forfeit counts as a loss for
 * the rating (RULINGS: a forfeit win is a win for every purpose).
 *
 * Points (RULINGS: "points where the game has points"): the sum of the player's own final score
 * in each game whose outcome has scores (Knucklebones totals, Tellstones points).
 *
 * Games of three or more who each play for themselves: every seat counts its own result
 * (each winner of a tie a win, RULINGS "Games with several winners"), and the rating sees the game
 * as a match against each other seat, scored by places (a better place 1, the same 0.5, a worse
 * 0; without places, by results: a win beats a non-win, a forfeit loses to anyone who did not
 * forfeit), all against the ratings from before the game, in one rating period.
 *
 * Order: rating (higher first); then wins; then fewer forfeits; then more points; then more games
 * played; then the player who reached their final rating first (earlier last game); finally the
 * Discord id.
 */

export interface Standing {
  playerId: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  forfeits: number;
  /** Sum of the player's scores, or null when no game of theirs had scores. */
  points: number | null;
  rating: number;
  rd: number;
  lastGameAt: Date;
}

export const TIE_BREAKS = 'Ordered by rating; ties by more wins, then fewer forfeits, then more points, then more games, then whoever finished their last game first.';

const START = { rating: START_RATING.r, rd: START_RATING.rd, vol: START_RATING.v };

export { rateGame, START_RATING, type RatingState } from './glicko.ts';

export async function resolveCycle(ctx: ServiceContext, guildId: string, name: string | null): Promise<CycleWithSeason> {
  if (name) {
    const all = await ctx.db.cycle.findMany({ where: { guildId }, include: { season: true }, orderBy: { id: 'desc' } });
    const wanted = name.trim().toLowerCase();
    const hit = all.find((c) => c.name.toLowerCase() === wanted || cycleTitle(c).toLowerCase() === wanted || String(c.id) === wanted);
    if (!hit) throw new UserError('leaderboard/unknown-cycle', `There is no cycle "${name}" here. Cycles: ${all.slice(0, 10).map((c) => cycleTitle(c)).join(', ') || 'none yet'}.`);
    return hit;
  }
  const current =
    (await ctx.db.cycle.findFirst({ where: { guildId, status: 'active' }, include: { season: true } })) ??
    (await ctx.db.cycle.findFirst({ where: { guildId }, include: { season: true }, orderBy: { id: 'desc' } }));
  if (!current) throw new UserError('leaderboard/no-cycle', 'No cycle has run in this server yet, so there is no leaderboard.');
  return current;
}

export async function standings(ctx: ServiceContext, input: { cycleId: number; kind: string }): Promise<Standing[]> {
  const games = await ctx.db.game.findMany({
    where: { cycleId: input.cycleId, kind: input.kind, status: 'finished' },
    include: { seats: true },
    orderBy: [{ finishedAt: 'asc' }, { id: 'asc' }],
  });
  const table = new Map<string, Standing>();
  const get = (id: string, at: Date) => {
    let s = table.get(id);
    if (!s) {
      s = { playerId: id, games: 0, wins: 0, draws: 0, losses: 0, forfeits: 0, points: null, rating: START.rating, rd: START.rd, lastGameAt: at };
      table.set(id, s);
    }
    return s;
  };
  const vol = new Map<string, number>();
  for (const g of games) {
    const at = g.finishedAt ?? g.updatedAt;
    const seats = g.seats.filter((s) => s.result);
    if (seats.length < 2) continue;
    const outcome = g.outcome as { scores?: Record<string, number>; places?: Record<string, number> } | null;
    const after = rateGame(seats, outcome, (id) => {
      const st = get(id, at);
      return { r: st.rating, rd: st.rd, v: vol.get(id) ?? START.vol };
    });
    for (const seat of seats) {
      const s = get(seat.playerId, at);
      const n = after.get(seat.playerId)!;
      s.games += 1;
      if (seat.result === 'win') s.wins += 1;
      else if (seat.result === 'draw') s.draws += 1;
      else if (seat.result === 'forfeit') s.forfeits += 1;
      else s.losses += 1;
      const mine = outcome?.scores?.[seat.playerId];
      if (typeof mine === 'number') s.points = (s.points ?? 0) + mine;
      s.rating = n.r;
      s.rd = n.rd;
      s.lastGameAt = at;
      vol.set(seat.playerId, n.v);
    }
  }
  return [...table.values()].sort(byStanding);
}

/** The leaderboards' order (TIE_BREAKS). */
export const byStanding = (a: Standing, b: Standing): number =>
  Math.round(b.rating) - Math.round(a.rating) ||
  b.wins - a.wins ||
  a.forfeits - b.forfeits ||
  (b.points ?? 0) - (a.points ?? 0) ||
  b.games - a.games ||
  a.lastGameAt.getTime() - b.lastGameAt.getTime() ||
  (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0);

/** All-time standings of a game in a server, from the ratings every finished non-practice game moved (src/services/ratings.ts). */
export async function allTimeStandings(ctx: ServiceContext, input: { guildId: string; kind: string }): Promise<Standing[]> {
  const rows = await ctx.db.rating.findMany({ where: { guildId: input.guildId, kind: input.kind, games: { gt: 0 } } });
  return rows
    .map((r) => ({ playerId: r.playerId, games: r.games, wins: r.wins, draws: r.draws, losses: r.losses, forfeits: r.forfeits, points: null, rating: r.rating, rd: r.rd, lastGameAt: r.updatedAt }))
    .sort(byStanding);
}

/** Whether any cycle has run in the server (else `/leaderboard` shows the all-time standings). */
export async function hasCycles(ctx: ServiceContext, guildId: string): Promise<boolean> {
  return (await ctx.db.cycle.count({ where: { guildId } })) > 0;
}

/**
 * The leaderboard as text (used by `/leaderboard` and the post when a cycle ends). Compact by
 * default, one short line per player that reads on a phone: rank, name, W–L (–D when drawn),
 * rating. `detailed` gives the long form: RD, draws, forfeits, points.
 */
export function leaderboardText(cycle: CycleWithSeason, kind: string, rows: Standing[], opts: { detailed?: boolean } = {}): string {
  const title = `🏆 **${kind.charAt(0).toUpperCase()}${kind.slice(1)} leaderboard: ${cycleTitle(cycle)}**${cycle.status === 'ended' ? ' (final)' : ''}`;
  return standingsText(title, rows, opts);
}

/** Standings as text, compact or detailed (see leaderboardText); also the all-time ratings. */
export function standingsText(title: string, rows: Standing[], opts: { detailed?: boolean } = {}): string {
  if (rows.length === 0) return `${title}\nNo finished games yet.`;
  if (!opts.detailed) {
    const lines = rows.slice(0, 40).map((r, i) => `${i + 1}. <@${r.playerId}> ${compactRecord(r)} · **${Math.round(r.rating)}**`);
    if (rows.length > 40) lines.push(`…and ${rows.length - 40} more.`);
    return `${title}\n${lines.join('\n')}\n-# Wins–losses (–draws), a forfeit counts as a loss · Glicko-2 rating from 1500 · \`/leaderboard detailed:True\` for more.`.slice(0, 2000);
  }
  const lines = rows.slice(0, 25).map(
    (r, i) =>
      `${i + 1}. <@${r.playerId}>: rating **${Math.round(r.rating)}** (±${Math.round(r.rd * 2)}) · ${r.games} game${r.games === 1 ? '' : 's'}: ${r.wins} W, ${r.draws} D, ${r.losses} L, ${r.forfeits} F${r.points === null ? '' : ` · ${r.points} pts`}`,
  );
  if (rows.length > 25) lines.push(`…and ${rows.length - 25} more.`);
  return `${title}\n${lines.join('\n')}\n-# Glicko-2 rating (start 1500). ${TIE_BREAKS} L = lost on the board, F = forfeited, pts = the player's own final scores added up.`.slice(0, 2000);
}

/** "3–1", or "3–1–2" with two draws: wins, losses (forfeits included), draws. */
export function compactRecord(r: Pick<Standing, 'wins' | 'losses' | 'forfeits' | 'draws'>): string {
  return `${r.wins}–${r.losses + r.forfeits}${r.draws ? `–${r.draws}` : ''}`;
}
