import { describe, expect, it } from 'vitest';
import { weightedIndex } from '../../../src/kernel/index.ts';
import { krellstones, type KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { allReady, board, newGame, PLAYERS, status, step, texts, values, type BoardRow, type LoadoutSpec } from './helpers.ts';

/**
 * The special effects, one row per case: the board at the end of the rolling phase (values shown
 * by pawn, dancer, three krells, master; default stones in helpers.ts), the position order, and
 * what the first pass announces and leaves. Rows are checked after the SYSTEM step that ends the
 * rolling phase (rerolls on, so the round stops at the reroll choice).
 */
interface Row {
  name: string;
  players?: string[];
  order?: string[];
  specs?: Record<string, LoadoutSpec>;
  rows: Record<string, BoardRow>;
  out?: string[];
  texts: string[];
  /** Round statuses per player: i in play, d discarded, b buried. */
  status?: Record<string, string>;
  values?: Record<string, (number | null)[]>;
  reversed?: boolean;
}

const D = 'discarded';
const code = (s: KrellstonesState, p: string) => status(s, p).map((x) => (x === 'in' ? 'i' : x === D ? 'd' : x === 'buried' ? 'b' : x[0])).join('');

const ROWS: Row[] = [
  {
    name: "Spins Out: a player's two Krells showing one number discard every stone showing it",
    rows: { alice: [1, 10, 5, 5, 7, 21], bob: [3, 15, 5, 6, 8, 33] },
    texts: ['5 SPINS OUT!'],
    status: { alice: 'iiddii', bob: 'iidiii' },
  },
  {
    name: 'Spins Out takes Masters too',
    rows: { alice: [1, 10, 7, 7, 4, 7], bob: [3, 15, 7, 6, 8, 33] },
    texts: ['7 SPINS OUT!'],
    status: { alice: 'iiddid', bob: 'iidiii' },
  },
  {
    name: 'Spins Out: a number is announced once',
    rows: { alice: [1, 10, 5, 5, 7, 21], bob: [3, 15, 5, 5, 8, 33] },
    texts: ['5 SPINS OUT!'],
    status: { alice: 'iiddii', bob: 'iiddii' },
  },
  {
    name: 'Spins Out: checked player by player in position order',
    order: ['bob', 'alice'],
    rows: { alice: [1, 10, 5, 5, 7, 21], bob: [3, 15, 6, 6, 8, 33] },
    texts: ['6 SPINS OUT!', '5 SPINS OUT!'],
    status: { alice: 'iiddii', bob: 'iiddii' },
  },
  {
    name: "In the Swamp: every player's highest value is the same",
    rows: { alice: [1, 10, 3, 4, 5, 33], bob: [3, 15, 6, 7, 8, 33] },
    texts: ['33 IN THE SWAMP!'],
    status: { alice: 'iiiiid', bob: 'iiiiid' },
  },
  {
    name: 'In the Swamp: none when a player has no stone in play (3 players)',
    players: PLAYERS[3],
    specs: { alice: { pawn: [1, 2, 3, 5] } },
    rows: { alice: [5, 5, 5, 5, 5, 5], bob: [3, 15, 6, 7, 8, 33], cara: [1, 20, 3, 4, 6, 33] },
    texts: ['5 SPINS OUT!'],
    status: { alice: 'dddddd', bob: 'iiiiii', cara: 'iiiiii' },
  },
  {
    name: 'Simultaneous effects in order: the Swamp sees what Spins Out left, Pawns Up, two Ghosts, two Queens (a tie counts)',
    rows: { alice: [2, 5, 7, 7, 6, 7], bob: [1, 5, 3, 4, 6, 7] },
    texts: ['7 SPINS OUT!', '6 IN THE SWAMP!', 'PAWNS UP!', 'BURY THE GHOST DANCER!', 'BURY THE GHOST DANCER!', 'PAWN IS QUEEN!', 'PAWN IS QUEEN!'],
    status: { alice: 'ibdddd', bob: 'ibiidd' },
    values: { alice: [4, 5, 7, 7, 6, 7], bob: [4, 5, 3, 4, 6, 7] },
    reversed: true,
  },
  {
    name: "Haze the Master: a Master below the sum of the left player's Krells",
    rows: { alice: [1, 10, 3, 4, 5, 11], bob: [3, 15, 6, 7, 8, 33] },
    texts: ['HAZE THE MASTER!'],
    status: { alice: 'iiiiid', bob: 'iiiiii' },
  },
  {
    name: 'Haze: a Master equal to the sum stays',
    rows: { alice: [1, 10, 3, 4, 5, 21], bob: [3, 15, 6, 7, 8, 33] },
    texts: [],
  },
  {
    name: "Haze: the left player's discarded Krells count 0",
    rows: { alice: [1, 10, 3, 4, 5, 13], bob: [3, 15, 7, 7, 8, 33] },
    texts: ['7 SPINS OUT!'],
    status: { alice: 'iiiiii', bob: 'iiddii' },
  },
  {
    name: 'Haze: the last player’s left is the first (3 players)',
    players: PLAYERS[3],
    rows: { alice: [1, 10, 6, 7, 8, 33], bob: [3, 15, 3, 4, 5, 35], cara: [3, 20, 3, 4, 5, 19] },
    texts: ['HAZE THE MASTER!'],
    status: { alice: 'iiiiii', bob: 'iiiiii', cara: 'iiiiid' },
  },
  {
    name: 'Haze: an autopilot seat is a left player like any other',
    players: PLAYERS[3],
    out: ['bob'],
    rows: { alice: [1, 10, 3, 4, 5, 11], bob: [3, 15, 6, 7, 8, 33], cara: [4, 20, 3, 4, 6, 35] },
    texts: ['HAZE THE MASTER!'],
    status: { alice: 'iiiiid' },
  },
  {
    name: 'Pawns Up, 2 players: a straight (3, 4); the pawn showing its maximum flips to its minimum',
    rows: { alice: [3, 10, 3, 4, 5, 33], bob: [4, 15, 6, 7, 8, 31] },
    texts: ['PAWNS UP!'],
    values: { alice: [4, 10, 3, 4, 5, 33], bob: [1, 15, 6, 7, 8, 31] },
  },
  {
    name: 'Pawns Up, 2 players: equal values',
    rows: { alice: [2, 10, 3, 4, 5, 33], bob: [2, 15, 6, 7, 8, 31] },
    texts: ['PAWNS UP!'],
    values: { alice: [4, 10, 3, 4, 5, 33], bob: [4, 15, 6, 7, 8, 31] },
  },
  {
    name: 'Pawns Up: maximum and minimum are the side values after slotting, whatever the side order (9, 10)',
    specs: { alice: { pawn: [9, 2, 6, 4] }, bob: { pawn: [1, 2, 3, 10] } },
    rows: { alice: [9, 10, 3, 4, 5, 33], bob: [10, 15, 6, 7, 8, 31] },
    texts: ['PAWNS UP!'],
    values: { alice: [2, 10, 3, 4, 5, 33], bob: [1, 15, 6, 7, 8, 31] },
  },
  {
    name: 'Pawns Up, 3 players: a straight in any order (3, 1, 2)',
    players: PLAYERS[3],
    rows: { alice: [3, 10, 3, 4, 5, 33], bob: [1, 15, 6, 7, 8, 31], cara: [2, 20, 3, 4, 6, 35] },
    texts: ['PAWNS UP!'],
    values: { alice: [4, 10, 3, 4, 5, 33], bob: [4, 15, 6, 7, 8, 31], cara: [4, 20, 3, 4, 6, 35] },
  },
  {
    name: 'Pawns Up, 3 players: equal values',
    players: PLAYERS[3],
    rows: { alice: [2, 10, 3, 4, 5, 33], bob: [2, 15, 6, 7, 8, 31], cara: [2, 20, 3, 4, 6, 35] },
    texts: ['PAWNS UP!'],
    values: { alice: [4, 10, 3, 4, 5, 33], bob: [4, 15, 6, 7, 8, 31], cara: [4, 20, 3, 4, 6, 35] },
  },
  {
    name: 'Pawns Up, 3 players: 3, 3, 4 is neither',
    players: PLAYERS[3],
    rows: { alice: [3, 10, 3, 4, 5, 33], bob: [3, 15, 6, 7, 8, 31], cara: [4, 20, 3, 4, 6, 35] },
    texts: [],
  },
  {
    name: 'Pawns Up, 4 players: a straight in any order (2, 4, 1, 3), the maximum flips down',
    players: PLAYERS[4],
    rows: { alice: [2, 10, 3, 4, 5, 33], bob: [4, 15, 6, 7, 8, 31], cara: [1, 20, 3, 4, 6, 35], dan: [3, 25, 3, 4, 5, 37] },
    texts: ['PAWNS UP!'],
    values: { alice: [4, 10, 3, 4, 5, 33], bob: [1, 15, 6, 7, 8, 31], cara: [4, 20, 3, 4, 6, 35], dan: [4, 25, 3, 4, 5, 37] },
  },
  {
    name: 'Pawns Up, 4 players: 1, 2, 4, 4 is neither',
    players: PLAYERS[4],
    rows: { alice: [1, 10, 3, 4, 5, 33], bob: [2, 15, 6, 7, 8, 31], cara: [4, 20, 3, 4, 6, 35], dan: [4, 25, 3, 4, 5, 37] },
    texts: [],
  },
  {
    name: 'Pawns Up: only when every player has a pawn in play',
    rows: { alice: [null, 10, 3, 4, 5, 33], bob: [3, 15, 6, 7, 8, 31] },
    texts: [],
  },
  {
    name: 'Pawns Up can cause Pawn is Queen in the same pass (after a Haze)',
    specs: { alice: { pawn: [1, 2, 3, 10] } },
    rows: { alice: [2, 10, 3, 4, 5, 9], bob: [3, 15, 6, 7, 8, 33] },
    texts: ['HAZE THE MASTER!', 'PAWNS UP!', 'PAWN IS QUEEN!'],
    values: { alice: [10, 10, 3, 4, 5, 9], bob: [4, 15, 6, 7, 8, 33] },
    reversed: true,
  },
  {
    name: 'Bury the Ghost Dancer: a Dancer showing its lowest value',
    rows: { alice: [1, 5, 3, 4, 6, 33], bob: [3, 15, 6, 7, 8, 31] },
    texts: ['BURY THE GHOST DANCER!'],
    status: { alice: 'ibiiii', bob: 'iiiiii' },
  },
  {
    name: 'Bury the Ghost Dancer: lowest after slotting, whatever the side order',
    specs: { alice: { dancer: [42, 7, 30, 12, 9] } },
    rows: { alice: [1, 7, 3, 4, 6, 33], bob: [3, 15, 6, 7, 8, 31] },
    texts: ['BURY THE GHOST DANCER!'],
    status: { alice: 'ibiiii' },
  },
  {
    name: 'Bury the Ghost Dancer: a Dancer discarded by an earlier effect is not buried',
    rows: { alice: [1, 5, 5, 5, 3, 33], bob: [3, 15, 6, 7, 8, 31] },
    texts: ['5 SPINS OUT!'],
    status: { alice: 'idddii' },
  },
  {
    name: 'Pawn is Queen: a pawn tied for its owner’s highest value',
    specs: { alice: { pawn: [1, 2, 3, 10] } },
    rows: { alice: [10, 10, 3, 4, 5, 9], bob: [3, 15, 6, 7, 8, 33] },
    texts: ['HAZE THE MASTER!', 'PAWN IS QUEEN!'],
    reversed: true,
  },
  {
    name: 'Pawn is Queen: not when another stone is higher',
    specs: { alice: { pawn: [1, 2, 3, 10] } },
    rows: { alice: [10, 15, 3, 4, 5, 33], bob: [3, 15, 6, 7, 8, 31] },
    texts: [],
    reversed: false,
  },
];

describe('the first pass: one row per effect', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const players = row.players ?? PLAYERS[2];
      const { state } = newGame(players, {}, row.specs);
      const s0 = board(state, row.rows, row.order);
      s0.out = row.out ?? [];
      const s = step(s0);
      expect(texts(s)).toEqual(row.texts);
      expect(s.announcements.every((a) => a.pass === 1)).toBe(true);
      for (const [p, st] of Object.entries(row.status ?? {})) expect(code(s, p), p).toBe(st);
      for (const [p, vs] of Object.entries(row.values ?? {})) expect(values(s, p), p).toEqual(vs);
      if (row.reversed !== undefined) expect(s.reversed).toBe(row.reversed);
      expect(s.phase).toBe('rerolls');
    });
  }

  it('announcements name who set them off and what they hit', () => {
    const { state } = newGame(PLAYERS[2]);
    const s = step(board(state, { alice: [1, 10, 7, 7, 4, 7], bob: [3, 15, 7, 6, 8, 33] }));
    expect(s.announcements).toEqual([
      { effect: 'spins-out', text: '7 SPINS OUT!', pass: 1, player: 'alice', value: 7, stones: ['alice-k1', 'alice-k2', 'alice-master', 'bob-k1'] },
    ]);
    expect(s.seats.bob!.stones[2]!.why).toEqual({ effect: 'spins-out', text: '7 SPINS OUT!', pass: 1 });
    expect(krellstones.view(s, null).seats.alice!.stones[5]).toMatchObject({ status: 'discarded', value: 7, why: '7 SPINS OUT!' });
  });
});

/** The first pass on `rows`, then everyone ready with no reroll: the round is scored; returns its record. */
function bothPasses(rows: Record<string, BoardRow>, opts: { rerolls?: boolean; specs?: Record<string, LoadoutSpec> } = {}) {
  const { state } = newGame(PLAYERS[2], { rerolls: opts.rerolls ?? true }, opts.specs);
  const s = allReady(step(board(state, rows)));
  return s.history[0]!;
}

describe('the second pass, after rerolls', () => {
  it('judges the whole board again even if nobody rerolled: Pawns Up fires twice (2, 2 -> 4, 4 -> 1, 1)', () => {
    const rec = bothPasses({ alice: [2, 10, 3, 4, 5, 33], bob: [2, 15, 6, 7, 8, 31] });
    expect(rec.announcements.map((a) => [a.text, a.pass])).toEqual([
      ['PAWNS UP!', 1],
      ['PAWNS UP!', 2],
    ]);
    expect(rec.sums).toEqual({ alice: 1 + 10 + 12 + 33, bob: 1 + 15 + 21 + 31 });
  });

  it('has no second pass when rerolls are off', () => {
    const rec = bothPasses({ alice: [2, 10, 3, 4, 5, 33], bob: [2, 15, 6, 7, 8, 31] }, { rerolls: false });
    expect(rec.announcements.map((a) => [a.text, a.pass])).toEqual([['PAWNS UP!', 1]]);
    expect(rec.sums.alice).toBe(4 + 10 + 12 + 33);
  });

  it('announces Pawn is Queen once per triggering player per pass; a discarded Master stays discarded', () => {
    const rec = bothPasses({ alice: [10, 10, 3, 4, 5, 9], bob: [3, 15, 6, 7, 8, 33] }, { specs: { alice: { pawn: [1, 2, 3, 10] } } });
    expect(rec.announcements.map((a) => [a.text, a.pass, a.player])).toEqual([
      ['HAZE THE MASTER!', 1, 'alice'],
      ['PAWN IS QUEEN!', 1, 'alice'],
      ['PAWN IS QUEEN!', 2, 'alice'],
    ]);
    expect(rec.reversed).toBe(true);
    expect(rec.sums.alice).toBe(10 + 10 + 12);
  });

  it('a reroll that brings two Krells together spins out in the second pass', () => {
    const { state } = newGame(PLAYERS[2]);
    const s0 = board(state, { alice: [1, 10, 3, 6, 8, 33], bob: [3, 15, 5, 4, 7, 31] });
    // Craft the generator so that alice's krell 1 will roll a 6 (side index 3 of 3..8).
    let n = s0.rng.n;
    while (weightedIndex({ seed: s0.rng.seed, n }, [1, 1, 1, 1, 1, 1])[0] !== 3) n++;
    s0.rng = { seed: s0.rng.seed, n };
    let s = step(s0);
    expect(texts(s)).toEqual([]);
    s = krellstones.apply(s, 'alice', { type: 'select', stones: ['alice-k1'] });
    s = krellstones.apply(s, 'alice', { type: 'ready' });
    s = krellstones.apply(s, 'bob', { type: 'ready' });
    const rec = s.history[0]!;
    expect(rec.announcements.map((a) => [a.text, a.pass, a.player, a.stones])).toEqual([['6 SPINS OUT!', 2, 'alice', ['alice-k1', 'alice-k2']]]);
    expect(rec.sums.alice).toBe(1 + 10 + 8 + 33);
  });

  it('Pawn is Queen stays for the round when the pawn is rerolled below the others', () => {
    const { state } = newGame(PLAYERS[2], {}, { alice: { pawn: [1, 2, 3, 10] } });
    const s0 = board(state, { alice: [10, 10, 3, 4, 5, 9], bob: [3, 15, 6, 7, 8, 33] });
    let n = s0.rng.n;
    // The pawn will roll a 1: no straight with bob's 3, not alice's highest.
    while (weightedIndex({ seed: s0.rng.seed, n }, [1, 1, 1, 1])[0] !== 0) n++;
    s0.rng = { seed: s0.rng.seed, n };
    let s = step(s0);
    s = krellstones.apply(s, 'alice', { type: 'select', stones: ['alice-pawn'] });
    s = allReady(s);
    const rec = s.history[0]!;
    expect(rec.announcements.filter((a) => a.pass === 2)).toEqual([]);
    expect(rec.reversed).toBe(true);
    // Lowest wins: alice (1 + 10 + 12) beats bob (3 + 15 + 21 + 33).
    expect(rec.sums).toEqual({ alice: 23, bob: 72 });
    expect(rec.winner).toBe('alice');
  });
});
