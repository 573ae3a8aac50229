import { describe, expect, it } from 'vitest';
import { score } from '../../../src/games/krellstones/engine/rules.ts';
import type { KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { board, newGame, PLAYERS, type BoardRow, type LoadoutSpec } from './helpers.ts';

/** Wide stones so that any sum from 13 to 155 can be shown: null benches a stone (it does not score). */
const BIG: LoadoutSpec = {
  pawn: [1, 2, 3, 4],
  dancer: [5, 10, 20, 30, 42],
  krells: [
    [3, 4, 5, 6, 7, 8],
    [9, 10, 11, 12, 13, 14],
    [15, 16, 17, 18, 19, 20],
  ],
  master: Array.from({ length: 20 }, (_, i) => 29 + 2 * i),
};
const SUM: Record<number, BoardRow> = {
  13: [1, null, 3, 9, null, null],
  22: [4, null, 8, 10, null, null],
  23: [4, null, 8, 11, null, null],
  62: [1, 5, 3, 9, 15, 29],
  100: [4, 30, 8, 14, 15, 29],
  117: [4, 42, 8, 14, 20, 29],
  123: [4, 42, 8, 14, 20, 35],
  124: [4, 42, 7, 14, 20, 37],
  155: [4, 42, 8, 14, 20, 67],
};

/** Scores a round with these sums (players in this position order) directly, effects aside. */
function scored(sums: Record<string, number>, opts: { order?: string[]; reversed?: boolean; rounds?: number; prepare?: (s: KrellstonesState) => void } = {}) {
  const players = Object.keys(sums);
  const { state } = newGame(players, { rounds: opts.rounds ?? 2 }, Object.fromEntries(players.map((p) => [p, BIG])));
  const s = board(state, Object.fromEntries(players.map((p) => [p, SUM[sums[p]!]!])), opts.order);
  s.reversed = opts.reversed ?? false;
  opts.prepare?.(s);
  score(s);
  return s;
}

interface Row {
  name: string;
  sums: Record<string, number>;
  order?: string[];
  reversed?: boolean;
  busted: string[];
  winner: string | null;
  unchecked?: boolean;
}

const ROWS: Row[] = [
  { name: 'the highest sum wins', sums: { alice: 117, bob: 62 }, busted: [], winner: 'alice' },
  { name: 'a tie wins nobody', sums: { alice: 62, bob: 62 }, busted: [], winner: null },
  { name: 'the first busts above 123: the other wins unchecked', sums: { alice: 155, bob: 62 }, busted: ['alice'], winner: 'bob', unchecked: true },
  { name: 'all but one busted: the remaining player wins even below 23', sums: { alice: 155, bob: 13 }, busted: ['alice'], winner: 'bob', unchecked: true },
  { name: 'the bust check follows position order', sums: { alice: 13, bob: 155 }, order: ['bob', 'alice'], busted: ['bob'], winner: 'alice', unchecked: true },
  { name: 'the last player busts: the first wins, checked', sums: { alice: 62, bob: 155 }, busted: ['bob'], winner: 'alice', unchecked: false },
  { name: '23 and 123 do not bust', sums: { alice: 23, bob: 123 }, busted: [], winner: 'bob' },
  { name: '22 and 124 bust (3 players)', sums: { cara: 62, alice: 22, bob: 124 }, busted: ['alice', 'bob'], winner: 'cara', unchecked: false },
  { name: 'Pawn is Queen: the lowest sum wins', sums: { alice: 62, bob: 117 }, reversed: true, busted: [], winner: 'alice' },
  { name: 'Pawn is Queen: a tie for the lowest wins nobody', sums: { alice: 62, bob: 62, cara: 117 }, reversed: true, busted: [], winner: null },
  { name: 'Pawn is Queen: a busted low sum does not win', sums: { alice: 13, bob: 117, cara: 100 }, reversed: true, busted: ['alice'], winner: 'cara' },
  { name: '3 players: the first two bust, the third wins unchecked below 23', sums: { alice: 155, bob: 13, cara: 13 }, busted: ['alice', 'bob'], winner: 'cara', unchecked: true },
  { name: '3 players: a tie at the top wins nobody', sums: { alice: 117, bob: 117, cara: 62 }, busted: [], winner: null },
  { name: '4 players: three bust, the last wins unchecked', sums: { alice: 155, bob: 13, cara: 124, dan: 62 }, busted: ['alice', 'bob', 'cara'], winner: 'dan', unchecked: true },
  { name: '4 players: the first in range, the rest bust', sums: { alice: 62, bob: 155, cara: 13, dan: 124 }, busted: ['bob', 'cara', 'dan'], winner: 'alice', unchecked: false },
];

describe('scoring and busts: one row per case', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const s = scored(row.sums, { order: row.order ?? Object.keys(row.sums), reversed: row.reversed ?? false });
      const rec = s.history[0]!;
      expect(rec.sums).toEqual(row.sums);
      expect(rec.busted).toEqual(row.busted);
      expect(rec.winner).toBe(row.winner);
      if (row.unchecked !== undefined) expect(rec.unchecked).toBe(row.unchecked);
      for (const p of Object.keys(row.sums)) expect(s.seats[p]!.roundsWon).toBe(p === row.winner ? 1 : 0);
    });
  }

  it('only stones in play score: discarded and buried stones count nothing', () => {
    const s = scored(
      { alice: 117, bob: 62 },
      {
        prepare: (x) => {
          x.seats.alice!.stones[5]!.status = 'discarded'; // the master, 29
          x.seats.alice!.stones[1]!.status = 'buried'; // the dancer, 42
        },
      },
    );
    expect(s.history[0]!.sums).toEqual({ alice: 117 - 29 - 42, bob: 62 });
    expect(s.history[0]!.winner).toBe('bob');
  });
});

describe('the end of the game', () => {
  it('after the last round the most rounds won wins', () => {
    const s = scored({ alice: 117, bob: 62 }, { rounds: 1 });
    expect(s.phase).toBe('over');
    expect(s.outcome).toMatchObject({ winners: ['alice'], reason: 'rounds', scores: { alice: 1, bob: 0 } });
  });

  it('players tied for the most rounds draw: no winners, place 1 shared', () => {
    const s = scored(
      { alice: 62, bob: 117, cara: 100 },
      {
        rounds: 3,
        prepare: (x) => {
          x.round = 3;
          x.seats.alice!.roundsWon = 2;
          x.seats.bob!.roundsWon = 1;
        },
      },
    );
    expect(s.outcome).toEqual({ winners: [], reason: 'rounds', scores: { alice: 2, bob: 2, cara: 0 }, places: { alice: 1, bob: 1, cara: 3 } });
  });

  it('a forfeited seat ranks last whatever its rounds won and never wins', () => {
    const s = scored(
      { alice: 117, bob: 62, cara: 100 },
      {
        rounds: 4,
        prepare: (x) => {
          x.round = 4;
          x.out = ['alice'];
          x.seats.alice!.roundsWon = 2;
          x.seats.cara!.roundsWon = 1;
        },
      },
    );
    expect(s.outcome).toEqual({ winners: ['cara'], reason: 'rounds', scores: { alice: 3, bob: 0, cara: 1 }, places: { cara: 1, bob: 2, alice: 3 }, forfeits: ['alice'] });
  });
});
