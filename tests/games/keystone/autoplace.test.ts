import { describe, expect, it } from 'vitest';
import {
  autoPlacements,
  autoPlaceSearch,
  autoPlaceValue,
  canPlace,
  greedyPlacements,
  keystone,
  scoreLines,
  type CardId,
  type KeystoneState,
  type Placement,
} from '../../../src/games/keystone/engine/index.ts';
import { nextInt, rngFromSeed } from '../../../src/kernel/rng.ts';
import { c, cs, line } from './cards.ts';

/** The lines after placements made one by one, checking each is legal. */
function placeAll(lines: readonly (readonly CardId[])[], placements: readonly Placement[]): CardId[][] {
  const out = lines.map((l) => l.slice());
  for (const p of placements) {
    if (p.line === 'new') out.push([p.card]);
    else {
      expect(canPlace(out[p.line]!, p.card)).toBe(true);
      out[p.line]!.push(p.card);
    }
  }
  return out;
}

describe('the Auto-place rule', () => {
  it('places every waiting card exactly once, legally', () => {
    const lines = [line('2 3 5'), line('9')];
    const waiting = cs('r7 r10 y4');
    const { placements, exhaustive } = autoPlaceSearch(lines, waiting);
    expect(exhaustive).toBe(true);
    expect(placements.map((p) => p.card).sort()).toEqual(waiting.slice().sort());
    placeAll(lines, placements);
  });

  it('starts lines from nothing: the junk makes the Sun, a 10 its own line', () => {
    const placed = placeAll([], autoPlacements([], cs('r4 b2 =1 g10')));
    // One line of b2 r4 =1 (keystones 0 -2 -2, the Sun; ascending from 2 keeps 4-10 open, where
    // r4 b2 would keep only 1-2) and g10 alone: -3 + (6 - 3) = 0.
    expect(placed).toEqual([cs('b2 r4 =1'), cs('g10')]);
    expect(scoreLines(placed)).toBe(0);
  });

  it('looks at every order: it beats placing card by card where hiding a -2 card needs a second Sun', () => {
    const lines = [line('2 3 5'), cs('p9')];
    const waiting = cs('r7 r10 y4');
    const best = placeAll(lines, autoPlacements(lines, waiting));
    const greedy = placeAll(lines, greedyPlacements(lines, waiting));
    expect(scoreLines(best)).toBe(-3);
    expect(scoreLines(greedy)).toBe(-5);
    expect(autoPlaceValue(best)).toBeGreaterThan(autoPlaceValue(greedy));
  });

  it('falls back to the greedy search on a table of very many different lines', () => {
    // 28 lines that all behave differently (so none is skipped as a twin), and three God cards,
    // which fit everywhere: far more than 20,000 ways to place them.
    const lines: CardId[][] = [];
    for (let i = 1; i <= 10; i++) lines.push([c(`r${i}`)]);
    for (let i = 1; i <= 9; i++) lines.push([c(`b${i}`), c(`g${i + 1}`)]);
    for (let i = 1; i <= 9; i++) lines.push([c(`y${i + 1}`), c(`p${i}`)]);
    const waiting = cs('=1 =2 =3 p10');
    const search = autoPlaceSearch(lines, waiting);
    expect(search.exhaustive).toBe(false);
    expect(search.placements).toEqual(greedyPlacements(lines, waiting));
    expect(autoPlacements(lines, waiting)).toEqual(search.placements);
    expect(placeAll(lines, search.placements).flat()).toHaveLength(50);
    // With fewer lines the same cards are searched exhaustively.
    expect(autoPlaceSearch(lines.slice(0, 6), waiting).exhaustive).toBe(true);
  });
});

describe('the Auto-place rule in play', () => {
  it('scores far better than placing won cards at random (seats 0 and 2 auto-place, 1 and 3 at random)', () => {
    const sums = [0, 0, 0, 0];
    let games = 0;
    for (let g = 0; g < 4; g++) {
      let s: KeystoneState = keystone.setup({ players: ['a', 'b', 'c', 'd'], seed: g.toString(16).padStart(64, '4'), options: {} });
      let r = rngFromSeed(g.toString(16).padStart(64, '2'));
      while (s.outcome === null) {
        const p = keystone.awaiting(s)[0]!;
        let move = keystone.autopilot!(s, p, r);
        if (s.phase === 'place' && s.turn % 2 === 1) {
          const singles = keystone.legalMoves(s, p).filter((x) => x.type !== 'auto-place');
          const [i, next] = nextInt(r, singles.length);
          r = next;
          move = singles[i]!;
        }
        s = keystone.apply(s, p, move);
      }
      for (const scores of s.gameScores) scores.forEach((x, i) => (sums[i]! += x));
      games += 2;
    }
    const auto = (sums[0]! + sums[2]!) / (2 * games);
    const random = (sums[1]! + sums[3]!) / (2 * games);
    console.log(`Keystone Auto-place vs random placement over ${games} seeded games: ${auto.toFixed(1)} vs ${random.toFixed(1)} points a game`);
    expect(auto - random).toBeGreaterThan(5);
  });
});
