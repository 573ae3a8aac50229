/**
 * Crystallia: our edition's data (RULINGS.md, Crystallia). This is the one module a person edits
 * to change the tiles, the stones, the supplies, the platforms or the scoring. Setup copies the
 * chosen tiles' squares and every stone's colours into the game's state, so editing this file
 * never changes a game already running or its replay.
 *
 * The tests (tests/games/crystallia/data.test.ts) check what the rules require of the data: 8
 * regular and 8 chaos tiles of 3x3 squares, every colour equally often, 24 stones with the
 * rulings' mix, 20 crystals of each colour.
 */

/** The four crystal colours, in the rules' order (platforms, talismans, ties, payment order). */
export const COLOURS = ['red', 'blue', 'green', 'purple'] as const;
export type Colour = (typeof COLOURS)[number];

/** A stone's half: a colour, or yellow (the wild, only printed on stones). */
export const HALVES = [...COLOURS, 'yellow'] as const;
export type Half = (typeof HALVES)[number];

/** The abilities printed on chaos tiles. */
export const ABILITIES = ['move', 'extra-turn', 'rotate'] as const;
export type Ability = (typeof ABILITIES)[number];

/** What a square of the board shows: a colour (its crystal is taken when covered) or an ability. */
export type SquareKind = Colour | Ability;
export const SQUARE_KINDS = [...COLOURS, ...ABILITIES] as const;

export interface TileData {
  /** Stable id, stored in the state: `R1`..`R8` regular, `C1`..`C8` chaos. */
  id: string;
  kind: 'regular' | 'chaos';
  /** The 3x3 squares, row by row, as printed (rotation 0). */
  squares: readonly [readonly [SquareKind, SquareKind, SquareKind], readonly [SquareKind, SquareKind, SquareKind], readonly [SquareKind, SquareKind, SquareKind]];
}

const r = 'red';
const b = 'blue';
const g = 'green';
const p = 'purple';
const M = 'move';
const E = 'extra-turn';
const T = 'rotate';

/**
 * Regular tiles: 9 coloured squares each, one colour three times and the others twice; each
 * colour is the triple on two tiles, so over the eight tiles every colour shows 18 times. No
 * colour touches itself orthogonally inside a tile.
 */
export const REGULAR_TILES: readonly TileData[] = [
  { id: 'R1', kind: 'regular', squares: [[r, b, g], [p, r, b], [g, p, r]] },
  { id: 'R2', kind: 'regular', squares: [[b, r, p], [g, p, r], [r, g, b]] },
  { id: 'R3', kind: 'regular', squares: [[b, g, p], [r, b, g], [p, r, b]] },
  { id: 'R4', kind: 'regular', squares: [[g, b, r], [b, p, g], [p, r, b]] },
  { id: 'R5', kind: 'regular', squares: [[g, p, r], [b, g, p], [r, b, g]] },
  { id: 'R6', kind: 'regular', squares: [[p, g, b], [g, r, p], [b, g, r]] },
  { id: 'R7', kind: 'regular', squares: [[p, r, b], [g, p, r], [b, g, p]] },
  { id: 'R8', kind: 'regular', squares: [[r, p, g], [p, b, r], [g, p, b]] },
];

/**
 * Chaos tiles: 6 coloured squares (two colours twice, two once) and one each of Move, Extra Turn
 * and Rotate. Each colour is a double on four tiles and a single on four, so over the eight tiles
 * every colour shows 12 times and every ability 8 times.
 */
export const CHAOS_TILES: readonly TileData[] = [
  { id: 'C1', kind: 'chaos', squares: [[r, M, b], [E, g, r], [b, p, T]] },
  { id: 'C2', kind: 'chaos', squares: [[g, r, M], [p, E, g], [T, b, p]] },
  { id: 'C3', kind: 'chaos', squares: [[M, r, g], [g, T, b], [p, r, E]] },
  { id: 'C4', kind: 'chaos', squares: [[b, E, p], [r, p, M], [T, g, b]] },
  { id: 'C5', kind: 'chaos', squares: [[p, T, r], [M, r, b], [g, E, p]] },
  { id: 'C6', kind: 'chaos', squares: [[E, b, g], [g, M, r], [p, b, T]] },
  { id: 'C7', kind: 'chaos', squares: [[b, r, T], [E, M, p], [r, g, b]] },
  { id: 'C8', kind: 'chaos', squares: [[T, p, g], [g, E, r], [b, M, p]] },
];

export const TILES: readonly TileData[] = [...REGULAR_TILES, ...CHAOS_TILES];

/** Tiles on the board: 2 rows of 3 tiles make 6 rows x 9 columns of squares. */
export const TILE_ROWS = 2;
export const TILE_COLS = 3;
export const BOARD_ROWS = 6;
export const BOARD_COLS = 9;
export const BOARD_SQUARES = BOARD_ROWS * BOARD_COLS;

/** Which tiles make the board, by number of players. */
export function tileMix(players: number): { chaos: number; regular: number } {
  return players >= 4 ? { chaos: 6, regular: 0 } : { chaos: 3, regular: 3 };
}

/**
 * The 24 stones, by id (0..23): each of the 6 pairs of two different colours 3 times (ids 0-17),
 * each double once (18-21), and 2 wilds (22-23). A stone's first half is `halves[0]`.
 */
export const STONES: readonly (readonly [Half, Half])[] = [
  ...(
    [
      [r, b],
      [r, g],
      [r, p],
      [b, g],
      [b, p],
      [g, p],
    ] as const
  ).flatMap((pair) => [pair, pair, pair]),
  [r, r],
  [b, b],
  [g, g],
  [p, p],
  ['yellow', 'yellow'],
  ['yellow', 'yellow'],
];

/** The pyramid's rows, top to bottom: 7 + 8 + 9 = 24 cards. Card i of a row is covered by cards i and i+1 of the row below. */
export const PYRAMID_ROWS = [7, 8, 9] as const;

/** Crystals of each colour in the supply at the start (black is unlimited). */
export const SUPPLY_PER_COLOUR = 20;

/** Shared talismans. */
export const TALISMANS = 3;

export const PLATFORM = {
  /** Regular side: crystals of a colour that score +1 each; every crystal beyond scores -1. */
  regularScoringLimit: 9,
  /** Regular side: holding this many crystals of one colour puts the player out of the game at once. */
  loseAt: 13,
  /** Advanced (flipped) side: spaces; the next crystal (the sixth) empties the platform and adds a black. */
  advancedSpaces: 5,
} as const;

export const SCORING = {
  regularPerCrystal: 1,
  regularPerCrystalBeyond: -1,
  advancedPerCrystal: 2,
  supercrystal: 2,
  black: -1,
  /** The supercrystal of a colour goes to the first player whose count of it reaches this (regular side). */
  supercrystalRegular: 9,
  /** ... or this on a flipped (advanced) platform. */
  supercrystalAdvanced: 5,
  /** Taking this many crystals in one turn adds one black crystal at the end of the turn. */
  bonusBlackAt: 6,
} as const;

/** Longest legal run of one colour (wilds included); a run of exactly `secondTurnRun` earns a second turn. */
export const RUNS = { longestLegal: 4, secondTurnRun: 4 } as const;
