import { CARDS, card, type CardId } from './data.ts';
import { canPlace, lineSummary, type Direction, type Line } from './lines.ts';
import { LINE_COST } from './scoring.ts';
import type { KeystoneState, Placement, Target } from './schema.ts';
import { ledColourOf, playableCards } from './view.ts';

/**
 * The engine's Auto-place rule and the autopilot's card play (documented on the engine, index.ts).
 */

/** Weight of a line's openness (how many of the numbers 1-10 could still go on it) in the Auto-place value. */
export const OPENNESS_WEIGHT = 0.01;

/** Past this many search steps, Auto-place settles for the greedy search (see `autoPlacements`). */
export const AUTO_PLACE_BUDGET = 20_000;

interface LineStat {
  len: number;
  keystones: number;
  open: number;
  last: number | null;
  direction: Direction;
  /** Lines with the same signature behave the same from now on (same length, keystones, last number, direction). */
  sig: string;
}

function statOf(line: Line): LineStat {
  const s = lineSummary(line);
  return { len: s.length, keystones: s.keystones, open: s.open, last: s.last, direction: s.direction, sig: `${s.length}|${s.keystones}|${s.last}|${s.direction}` };
}

/** `canPlace` from a line's summary (the same rule, without walking the line). */
function fits(stat: LineStat, id: CardId): boolean {
  const n = card(id).number;
  if (n === null || stat.last === null || stat.direction === null) return true;
  return stat.direction === 'up' ? n >= stat.last : n <= stat.last;
}

/**
 * The Auto-place value of a player's lines: the score the lines would make if the game were scored
 * now (the longest lines are Suns and score no keystones, every line costs 3), plus 0.01 for each
 * number 1-10 that could still go on top of each line. Scores are whole numbers and two ways of
 * placing at most 4 cards differ in at most 8 lines, so the openness terms differ by less than 0.8:
 * they only decide between placements that score alike, for lines that stay open.
 */
function value(stats: readonly LineStat[]): number {
  let longest = 0;
  for (const s of stats) if (s.len > longest) longest = s.len;
  let v = 0;
  for (const s of stats) v += (s.len === longest ? 0 : s.keystones) - LINE_COST + OPENNESS_WEIGHT * s.open;
  return v;
}

/** The Auto-place value of whole lines (exported for tests). */
export function autoPlaceValue(lines: readonly Line[]): number {
  return value(lines.map(statOf));
}

function permutations(k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (const rest of permutations(k - 1)) {
    for (let at = 0; at <= rest.length; at++) out.push([...rest.slice(0, at), k - 1, ...rest.slice(at)]);
  }
  return out.sort((a, b) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return 0;
  });
}

/**
 * Exhaustive search: every sequence of legal single placements of the waiting cards (waiting
 * cards in the order given, each on the lines it fits by index, then a new line), keeping the
 * first one whose final lines have the highest value. Refinements that never change the result's
 * value: cards that behave alike in lines (God cards; numbered cards of one number, whatever
 * their colour) are tried in the order given, the first of them only; a state reached before by
 * another order is not searched again (lines started in this placement count alike in any
 * order); of several lines untouched so far with the same signature
 * only the first is tried. Returns null past the step budget.
 */
/** What a card is in a line: its number, or `=` (colours never matter in lines). */
const RANKS: ReadonlyMap<CardId, string> = new Map(CARDS.map((c) => [c.id, c.god ? '=' : String(c.number)]));
const rankOf = (id: CardId): string => RANKS.get(id)!;

function exhaustive(start: readonly Line[], waiting: readonly CardId[]): { placements: Placement[] | null; steps: number } {
  const lines: CardId[][] = start.map((l) => l.slice());
  const stats = lines.map(statOf);
  const touched = lines.map(() => false);
  /** Each line's cards as ranks (kept for touched lines and lines started here), for the state key. */
  const ranks: string[] = lines.map(() => '');
  const seen = new Set<string>();
  const path: Placement[] = [];
  let steps = 0;
  let best: { value: number; placements: Placement[] } | null = null;
  const walk = (mask: number): boolean => {
    if (++steps > AUTO_PLACE_BUDGET) return false;
    if (mask === 0) {
      const v = value(stats);
      if (best === null || v > best.value) best = { value: v, placements: path.slice() };
      return true;
    }
    // Existing lines by index; lines started in this placement in any order (they are alike).
    let key = `${mask}`;
    for (let j = 0; j < start.length; j++) if (touched[j]) key += `;${j}=${ranks[j]}`;
    if (lines.length > start.length) key += `|${ranks.slice(start.length).sort().join('|')}`;
    if (seen.has(key)) return true;
    seen.add(key);
    const triedRanks = new Set<string>();
    for (let i = 0; i < waiting.length; i++) {
      if (!(mask & (1 << i))) continue;
      const id = waiting[i]!;
      if (triedRanks.has(rankOf(id))) continue;
      triedRanks.add(rankOf(id));
      const rest = mask & ~(1 << i);
      const sigs = new Set<string>();
      const count = lines.length;
      for (let j = 0; j < count; j++) {
        const line = lines[j]!;
        if (!touched[j]) {
          if (sigs.has(stats[j]!.sig)) continue;
          sigs.add(stats[j]!.sig);
        }
        if (!fits(stats[j]!, id)) continue;
        const old = stats[j]!;
        const wasTouched = touched[j]!;
        const oldRanks = ranks[j]!;
        line.push(id);
        stats[j] = statOf(line);
        touched[j] = true;
        ranks[j] = `${oldRanks},${rankOf(id)}`;
        path.push({ card: id, line: j });
        const ok = walk(rest);
        path.pop();
        line.pop();
        stats[j] = old;
        touched[j] = wasTouched;
        ranks[j] = oldRanks;
        if (!ok) return false;
      }
      lines.push([id]);
      stats.push(statOf([id]));
      touched.push(true);
      ranks.push(rankOf(id));
      path.push({ card: id, line: 'new' });
      const ok = walk(rest);
      path.pop();
      lines.pop();
      stats.pop();
      touched.pop();
      ranks.pop();
      if (!ok) return false;
    }
    return true;
  };
  if (!walk((1 << waiting.length) - 1)) return { placements: null, steps };
  return { placements: (best as { placements: Placement[] } | null)?.placements ?? [], steps };
}

/**
 * The fallback past the budget: for every order of the waiting cards (lexicographic), each card
 * in turn goes on the legal target where the value right after it is highest (lowest line index
 * on ties, a new line last); the order with the best final value wins (the first on ties).
 */
function greedy(start: readonly Line[], waiting: readonly CardId[]): Placement[] {
  let best: { value: number; placements: Placement[] } | null = null;
  for (const order of permutations(waiting.length)) {
    const work: CardId[][] = start.map((l) => l.slice());
    const stats = work.map(statOf);
    const placements: Placement[] = [];
    for (const idx of order) {
      const id = waiting[idx]!;
      const candidates: Array<{ target: Target; stat: LineStat }> = [];
      for (let i = 0; i < work.length; i++) if (canPlace(work[i]!, id)) candidates.push({ target: i, stat: statOf([...work[i]!, id]) });
      candidates.push({ target: 'new', stat: statOf([id]) });
      let chosen = candidates[0]!;
      let bestValue = -Infinity;
      for (const c of candidates) {
        const trial = stats.slice();
        if (c.target === 'new') trial.push(c.stat);
        else trial[c.target] = c.stat;
        const v = value(trial);
        if (v > bestValue) {
          bestValue = v;
          chosen = c;
        }
      }
      const target = chosen.target;
      if (target === 'new') {
        work.push([id]);
        stats.push(chosen.stat);
      } else {
        work[target]!.push(id);
        stats[target] = chosen.stat;
      }
      placements.push({ card: id, line: target });
    }
    const v = value(stats);
    if (best === null || v > best.value) best = { value: v, placements };
  }
  return best?.placements ?? [];
}

/**
 * The Auto-place rule: of all the ways to place every waiting card (each sequence of legal single
 * placements), the one whose final lines have the highest Auto-place value; on ties the first
 * found (waiting cards in play order, lines by index, a new line last). If that search would take
 * more than 20,000 steps (only with very many lines), the greedy search instead.
 * Returns the placements in the order to make them (line indices as they are at that moment).
 */
export function autoPlacements(lines: readonly Line[], waiting: readonly CardId[]): Placement[] {
  return autoPlaceSearch(lines, waiting).placements;
}

/** `autoPlacements`, saying whether the search was exhaustive (false: the greedy fallback) and how many steps it took. */
export function autoPlaceSearch(lines: readonly Line[], waiting: readonly CardId[]): { placements: Placement[]; exhaustive: boolean; steps: number } {
  const found = exhaustive(lines, waiting);
  if (found.placements) return { placements: found.placements, exhaustive: true, steps: found.steps };
  return { placements: greedy(lines, waiting), exhaustive: false, steps: found.steps };
}

/** Exposed for tests: the greedy search on its own. */
export const greedyPlacements = greedy;

/** The keystones a numbered card carries; God cards count as the best possible here (they are kept). */
const worth = (id: CardId): number => card(id).keystone ?? 100;

/** Cheapest first: the lowest keystone, then the lowest number, then canonical order (God cards last). */
function cheapest(ids: readonly CardId[]): CardId {
  return ids.slice().sort((a, b) => worth(a) - worth(b) || (card(a).number ?? 99) - (card(b).number ?? 99))[0]!;
}

/** The keystones of the numbered cards already in the trick (what a God card would win now). */
function pot(played: readonly CardId[]): number {
  return played.reduce((sum, id) => sum + (card(id).keystone ?? 0), 0);
}

/** A trick is worth a God card once the numbered cards in it carry this many keystones. */
export const GOD_POT = 6;

/**
 * The autopilot's card for `seat` (one of its playable cards):
 * - Leading: the highest numbered card (the first in canonical order among equals); only God
 *   cards: a God card.
 * - A God card is already in the trick (its winner is settled): the cheapest playable card.
 * - Otherwise, when the seat cannot follow the led colour (or a God card led): a God card if it
 *   holds one and the trick already carries at least 6 keystones; else the cheapest card.
 * - Following the led colour: when it is the last to play, the lowest card of the colour that
 *   beats the best card so far, if any; when others play after it, its highest card of the colour
 *   if that beats the best so far. If it cannot win with the colour: a God card when the trick
 *   carries at least 6 keystones, else its lowest card of the colour.
 * "Cheapest" means the lowest keystone, then the lowest number; God cards are kept for last.
 */
export function autopilotCard(state: KeystoneState, seat: number): CardId {
  const playable = playableCards(state, seat);
  if (playable.length === 0) throw new Error('the Keystone autopilot was asked to play without a card');
  const numbered = playable.filter((id) => !card(id).god);
  const gods = playable.filter((id) => card(id).god);
  const played = state.played;
  if (played.length === 0) {
    if (numbered.length === 0) return gods[0]!;
    return numbered.slice().sort((a, b) => card(b).number! - card(a).number!)[0]!;
  }
  const godPlayed = played.some((id) => card(id).god);
  if (godPlayed) return cheapest(numbered.length ? numbered : playable);
  const led = ledColourOf(played);
  const follow = numbered.filter((id) => card(id).colour === led);
  const richPot = pot(played) >= GOD_POT;
  if (follow.length === 0) {
    if (richPot && gods.length) return gods[0]!;
    return cheapest(numbered.length ? numbered : playable);
  }
  const best = Math.max(...played.filter((id) => card(id).colour === led).map((id) => card(id).number!));
  const beating = follow.filter((id) => card(id).number! > best).sort((a, b) => card(a).number! - card(b).number!);
  const last = played.length === state.players.length - 1;
  if (beating.length) return last ? beating[0]! : beating.at(-1)!;
  if (richPot && gods.length) return gods[0]!;
  return follow.slice().sort((a, b) => card(a).number! - card(b).number!)[0]!;
}
