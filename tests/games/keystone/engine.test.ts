import { describe, expect, it } from 'vitest';
import {
  CARD_IDS,
  keystone,
  scoreLines,
  sortCards,
  stateSchema,
  type KeystoneState,
} from '../../../src/games/keystone/engine/index.ts';
import { c, cs, expectRuleError, FOUR, makeState, SEED_A, SEED_B, THREE } from './helpers.ts';

const seedOf = (i: number) => i.toString(16).padStart(2, '0').repeat(32);

describe('Keystone setup', () => {
  it.each([
    [THREE, 17],
    [FOUR, 5],
  ])('deals 12 cards to each of %j from all 53; the rest (%i) are out of play', (players, undealt) => {
    const s = keystone.setup({ players: players.slice(), seed: SEED_A, options: {} });
    expect(s.hands.map((h) => h.length)).toEqual(players.map(() => 12));
    expect(s.undealt).toHaveLength(undealt);
    expect(sortCards([...s.hands.flat(), ...s.undealt])).toEqual(CARD_IDS);
    expect(s.hands.every((h) => JSON.stringify(h) === JSON.stringify(sortCards(h)))).toBe(true);
    expect(s).toMatchObject({ game: 1, trick: 1, phase: 'play', played: [], pending: [], lastTrick: null, gameScores: [], out: [], outcome: null });
    expect(s.turn).toBe(s.leader);
    expect(stateSchema.parse(s)).toEqual(s);
  });

  it('is deterministic from the seed, and the seed decides the deal and the start player', () => {
    const a = keystone.setup({ players: FOUR.slice(), seed: SEED_A, options: {} });
    expect(keystone.setup({ players: FOUR.slice(), seed: SEED_A, options: {} })).toEqual(a);
    expect(keystone.setup({ players: FOUR.slice(), seed: SEED_B, options: {} }).hands).not.toEqual(a.hands);
    const starters = new Set(Array.from({ length: 24 }, (_, i) => keystone.setup({ players: FOUR.slice(), seed: seedOf(i), options: {} }).leader));
    expect(starters).toEqual(new Set([0, 1, 2, 3]));
  });

  it.each([
    [['a', 'b'], SEED_A, {}],
    [['a', 'b', 'c', 'd', 'e'], SEED_A, {}],
    [['a', 'b', 'a'], SEED_A, {}],
    [['a', 'b', ''], SEED_A, {}],
    [['a', 'b', 'system'], SEED_A, {}],
    [['a', 'b', 'c'], 'xyz', {}],
    [['a', 'b', 'c'], SEED_A, { variant: 'x' }],
  ])('refuses players %j, seed %s, options %j', (players, seed, options) => {
    expectRuleError(() => keystone.setup({ players, seed, options: options as never }), 'keystone/bad-setup');
  });
});

describe('placing won cards', () => {
  // ann won trick 5 with r8 b3 =1 g9; her lines: 0 = `5 6` (up), 1 = `9 7` (down).
  const placing = () =>
    makeState({
      phase: 'place',
      trick: 5,
      leader: 0,
      turn: 0,
      pending: 'r8 b3 =1 g9',
      hands: ['r1 r2 r3 r4 r5 r6 r7', 'b1 b2 b4 b5 b6 b7 b8', 'g1 g2 g3 g4 g5 g6 g7', 'y1 y2 y3 y4 y5 y6 y7'],
      lines: [['p5 p6', 'p9 p7']],
      filler: 1,
    });

  it('lists every legal single placement of every waiting card, then auto-place', () => {
    expect(keystone.legalMoves(placing(), 'ann')).toEqual([
      { type: 'place', card: c('r8'), line: 0 },
      { type: 'place', card: c('r8'), line: 'new' },
      { type: 'place', card: c('b3'), line: 1 },
      { type: 'place', card: c('b3'), line: 'new' },
      { type: 'place', card: c('=1'), line: 0 },
      { type: 'place', card: c('=1'), line: 1 },
      { type: 'place', card: c('=1'), line: 'new' },
      { type: 'place', card: c('g9'), line: 0 },
      { type: 'place', card: c('g9'), line: 'new' },
      { type: 'auto-place' },
    ]);
    for (const p of ['ben', 'cat', 'dan']) expect(keystone.legalMoves(placing(), p)).toEqual([]);
  });

  it('places one card at a time in any order, on lines started in the same placement too; then the winner leads', () => {
    let s = placing();
    s = keystone.apply(s, 'ann', { type: 'place', card: c('b3'), line: 'new' });
    expect(s.lines[0]).toEqual([cs('p5 p6'), cs('p9 p7'), cs('b3')]);
    expect(s.phase).toBe('place');
    s = keystone.apply(s, 'ann', { type: 'place', card: c('g9'), line: 2 });
    s = keystone.apply(s, 'ann', { type: 'place', card: c('=1'), line: 2 });
    expect(keystone.legalMoves(s, 'ann')).toEqual([
      { type: 'place', card: c('r8'), line: 0 },
      { type: 'place', card: c('r8'), line: 'new' },
      { type: 'auto-place' },
    ]);
    s = keystone.apply(s, 'ann', { type: 'place', card: c('r8'), line: 0 });
    expect(s.lines[0]).toEqual([cs('p5 p6 r8'), cs('p9 p7'), cs('b3 g9 =1')]);
    expect(s).toMatchObject({ phase: 'play', trick: 6, leader: 0, turn: 0, pending: [] });
  });

  it('refuses a card that does not fit, a line that does not exist, a card not waiting, a lead before placing', () => {
    const s = placing();
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'place', card: c('b3'), line: 0 }), 'keystone/does-not-fit');
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'place', card: c('r8'), line: 1 }), 'keystone/does-not-fit');
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'place', card: c('r8'), line: 2 }), 'keystone/no-such-line');
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'place', card: c('r1'), line: 'new' }), 'keystone/not-waiting');
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'play', card: c('r1') }), 'keystone/place-first');
    expectRuleError(() => keystone.apply(s, 'ben', { type: 'auto-place' }), 'keystone/not-your-turn');
  });

  it('places all at once when every placement is legal in order, else refuses the whole move', () => {
    const s = placing();
    const done = keystone.apply(s, 'ann', {
      type: 'place-all',
      placements: [
        { card: c('g9'), line: 'new' },
        { card: c('b3'), line: 2 },
        { card: c('=1'), line: 1 },
        { card: c('r8'), line: 0 },
      ],
    });
    expect(done.lines[0]).toEqual([cs('p5 p6 r8'), cs('p9 p7 =1'), cs('g9 b3')]);
    expect(done.phase).toBe('play');
    // b3 on the new line before g9: line 2 does not exist yet.
    expectRuleError(
      () =>
        keystone.apply(s, 'ann', {
          type: 'place-all',
          placements: [
            { card: c('b3'), line: 2 },
            { card: c('g9'), line: 'new' },
            { card: c('=1'), line: 1 },
            { card: c('r8'), line: 0 },
          ],
        }),
      'keystone/no-such-line',
    );
    // The last placement does not fit: nothing is placed (apply is pure, the input is untouched).
    const before = JSON.stringify(s);
    expectRuleError(
      () =>
        keystone.apply(s, 'ann', {
          type: 'place-all',
          placements: [
            { card: c('g9'), line: 'new' },
            { card: c('b3'), line: 2 },
            { card: c('=1'), line: 1 },
            { card: c('r8'), line: 1 },
          ],
        }),
      'keystone/does-not-fit',
    );
    expect(JSON.stringify(s)).toBe(before);
    const three = [
      { card: c('g9'), line: 'new' as const },
      { card: c('b3'), line: 2 },
      { card: c('=1'), line: 1 },
    ];
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'place-all', placements: three }), 'keystone/place-all-incomplete');
    expectRuleError(
      () => keystone.apply(s, 'ann', { type: 'place-all', placements: [...three, { card: c('g9'), line: 'new' }] }),
      'keystone/place-all-incomplete',
    );
    expectRuleError(
      () => keystone.apply(s, 'ann', { type: 'place-all', placements: [...three, { card: c('r1'), line: 'new' }] }),
      'keystone/place-all-incomplete',
    );
  });

  /** ben won trick 5 of a 3-player game; his lines: 0 = `2 3 5` (ascending, his Sun), 1 = `9`. */
  const benPlacing = (pending: string) =>
    makeState({
      phase: 'place',
      trick: 5,
      turn: 1,
      leader: 1,
      pending,
      players: THREE,
      hands: ['r1 r2 r3 r4 r6 r8 r9', 'b1 b2 b4 b5 b6 b7 b8', 'g1 g2 g3 g4 g5 g6 g7'],
      lines: [[], ['p2 p3 p5', 'p9']],
      filler: 0,
    });

  it('auto-place sends the junk to the Sun and the high keystones to a line that stays shorter', () => {
    // The only placement worth 0: y5 then r7 on the Sun (keystones 0), r10 on `9` (0 + 6 - 3).
    // It needs y5 before r7, so the rule must look at more than one order.
    const s = benPlacing('r7 r10 y5');
    const next = keystone.apply(s, 'ben', { type: 'auto-place' });
    expect(next.lines[1]).toEqual([cs('p2 p3 p5 y5 r7'), cs('p9 r10')]);
    expect(scoreLines(next.lines[1]!)).toBe(0);
    expect(Math.max(...allPlacementsScores(s))).toBe(0);
    expect(allPlacementsScores(s).filter((x) => x === 0)).toHaveLength(3); // the same lines by three orders
    expect(next).toMatchObject({ phase: 'play', trick: 6, leader: 1, turn: 1 });
  });

  it('auto-place hides a -2 card in a second Sun of equal length when that scores best', () => {
    // y4 fits only on `9` or a new line; `9 7 4` is as long as `2 3 5`, so both are Suns: -3 in all,
    // where r7 on the Sun and y4 on `9` would make -5.
    const s = benPlacing('r7 r10 y4');
    const next = keystone.apply(s, 'ben', { type: 'auto-place' });
    expect(next.lines[1]).toEqual([cs('p2 p3 p5'), cs('p9 r7 y4'), cs('r10')]);
    expect(scoreLines(next.lines[1]!)).toBe(-3);
    expect(Math.max(...allPlacementsScores(s))).toBe(-3);
  });
});

/** Scores of the placing seat's lines over every legal way to place all waiting cards (brute force). */
function allPlacementsScores(s: KeystoneState): number[] {
  const out: number[] = [];
  const walk = (st: KeystoneState) => {
    if (st.phase !== 'place' || st.trick !== s.trick) {
      out.push(scoreLines(st.lines[s.turn]!));
      return;
    }
    for (const m of keystone.legalMoves(st, st.players[st.turn]!)) if (m.type === 'place') walk(keystone.apply(st, st.players[st.turn]!, m));
  };
  walk(s);
  return out;
}
