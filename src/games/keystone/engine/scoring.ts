import { lineKeystones, type Line } from './lines.ts';

/**
 * Scoring of one player's lines at the end of a game (RULINGS.md, Keystone "Scoring per game" and
 * "The Sun"):
 * - the line or lines with the most cards (every card counts, God cards included) are the Sun and
 *   score no keystones; a player with one line has it as their Sun;
 * - every other line scores the sum of the keystones its cards count as (lines.ts);
 * - every line, Suns included, costs 3 points;
 * - a player with no lines scores 0. Totals may be negative, with no floor.
 */

export const LINE_COST = 3;

export interface LineScore {
  length: number;
  /** The keystones the line's cards count as, summed (shown even for a Sun). */
  keystones: number;
  sun: boolean;
  /** What the line adds to the game's score: keystones (0 for a Sun) minus the line cost. */
  score: number;
}

export function scoreLinesDetailed(lines: readonly Line[]): { total: number; lines: LineScore[] } {
  let longest = 0;
  for (const l of lines) if (l.length > longest) longest = l.length;
  let total = 0;
  const out = lines.map((l) => {
    const keystones = lineKeystones(l);
    const sun = l.length === longest;
    const score = (sun ? 0 : keystones) - LINE_COST;
    total += score;
    return { length: l.length, keystones, sun, score };
  });
  return { total, lines: out };
}

/** One player's score for a game from their lines. */
export function scoreLines(lines: readonly Line[]): number {
  return scoreLinesDetailed(lines).total;
}
