import rate from 'glicko2-lite';

/**
 * How one finished game moves Glicko-2 ratings (glicko2-lite: Glickman's algorithm, start 1500 /
 * RD 350 / volatility 0.06, tau 0.5). Pure and without imports of the services, so the cycle
 * leaderboards (recomputed from games) and the all-time ratings (moved as each game ends) share it.
 */

type SeatRow = { playerId: string; result: string | null };

/** How `a` did against `b` in one game of three or more: 1, 0.5 or 0 (see the doc comment). */
function pairScore(a: SeatRow, b: SeatRow, places: Record<string, number> | undefined): number {
  const pa = places?.[a.playerId];
  const pb = places?.[b.playerId];
  if (pa !== undefined && pb !== undefined) return pa < pb ? 1 : pa === pb ? 0.5 : 0;
  const rank = (r: string | null) => (r === 'win' ? 3 : r === 'draw' ? 2 : r === 'loss' ? 1 : 0);
  return rank(a.result) > rank(b.result) ? 1 : rank(a.result) === rank(b.result) ? 0.5 : 0;
}

/** A player's Glicko-2 state: rating, deviation, volatility. */
export interface RatingState {
  r: number;
  rd: number;
  v: number;
}

export const START_RATING: RatingState = { r: 1500, rd: 350, v: 0.06 };

/**
 * One finished game as one Glicko-2 rating period for each seat, all against the ratings from
 * before the game (`before`). Two seats: a win scores 1, a draw 0.5, anything else 0. Three or
 * more: a match against each other seat, scored by places (see pairScore). Used by the cycle
 * leaderboards (recomputed from games) and the all-time ratings (updated as each game ends), so
 * both rate a game alike.
 */
export function rateGame(
  seats: SeatRow[],
  outcome: { places?: Record<string, number> } | null | undefined,
  before: (playerId: string) => RatingState,
): Map<string, RatingState> {
  const prior = new Map(seats.map((s) => [s.playerId, before(s.playerId)] as const));
  const score = (r: string | null) => (r === 'win' ? 1 : r === 'draw' ? 0.5 : 0);
  const out = new Map<string, RatingState>();
  for (const seat of seats) {
    const me = prior.get(seat.playerId)!;
    const matches = seats
      .filter((o) => o.playerId !== seat.playerId)
      .map((o) => {
        const them = prior.get(o.playerId)!;
        return [them.r, them.rd, seats.length === 2 ? score(seat.result) : pairScore(seat, o, outcome?.places)] as [number, number, number];
      });
    const n = rate(me.r, me.rd, me.v, matches);
    out.set(seat.playerId, { r: n.rating, rd: n.rd, v: n.vol });
  }
  return out;
}

