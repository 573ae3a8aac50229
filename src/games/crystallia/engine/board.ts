import { BOARD_COLS, BOARD_ROWS, BOARD_SQUARES, COLOURS, HALVES, RUNS, type Colour, type Half } from './data.ts';
import type { Direction } from './schema.ts';

/**
 * Board geometry and the run rules, on a compact grid: for each of the 54 squares the colour index
 * of the half lying there (red 0, blue 1, green 2, purple 3, yellow 4; -1 empty) and the id of the
 * stone it belongs to (-1 empty). Squares are row * 9 + column.
 */
export const YELLOW = 4;
export const EMPTY = -1;

export interface Grid {
  half: Int8Array;
  owner: Int8Array;
}

export const halfIndex = (h: Half): number => HALVES.indexOf(h);
export const colourIndex = (c: Colour): number => COLOURS.indexOf(c);

export const rowOf = (sq: number): number => Math.floor(sq / BOARD_COLS);
export const colOf = (sq: number): number => sq % BOARD_COLS;
export const squareAt = (row: number, col: number): number => row * BOARD_COLS + col;

/**
 * A square's name as players read it and the picture's edges show it: row letter A-F (A is the
 * top row), column number 1-9 (1 is the left column): A1 is the top left, F9 the bottom right.
 */
export function squareName(sq: number): string {
  return `${String.fromCharCode(65 + rowOf(sq))}${colOf(sq) + 1}`;
}

/** The square named `name` ("C4", case and spaces ignored), or null if there is none. */
export function parseSquare(name: string): number | null {
  const m = /^([A-Fa-f])\s*([1-9])$/.exec(name.trim());
  if (!m) return null;
  return squareAt(m[1]!.toUpperCase().charCodeAt(0) - 65, Number(m[2]) - 1);
}

/** The square next to `sq` in direction `dir`, or -1 off the board. */
export function neighbour(sq: number, dir: Direction): number {
  const row = rowOf(sq);
  const col = colOf(sq);
  switch (dir) {
    case 'right':
      return col < BOARD_COLS - 1 ? sq + 1 : -1;
    case 'left':
      return col > 0 ? sq - 1 : -1;
    case 'down':
      return row < BOARD_ROWS - 1 ? sq + BOARD_COLS : -1;
    case 'up':
      return row > 0 ? sq - BOARD_COLS : -1;
  }
}

/** The direction from `a` to its orthogonal neighbour `b`, or null if they are not neighbours. */
export function directionBetween(a: number, b: number): Direction | null {
  for (const d of ['right', 'down', 'left', 'up'] as const) if (neighbour(a, d) === b) return d;
  return null;
}

/** The orthogonal neighbours of `sq` on the board, in the order right, down, left, up. */
export function orthogonal(sq: number): number[] {
  const out: number[] = [];
  for (const d of ['right', 'down', 'left', 'up'] as const) {
    const n = neighbour(sq, d);
    if (n >= 0) out.push(n);
  }
  return out;
}

/** The grid of a board: stones' positions and halves. */
export function buildGrid(positions: readonly (readonly [number, number] | null)[], stones: readonly (readonly [Half, Half])[]): Grid {
  const half = new Int8Array(BOARD_SQUARES).fill(EMPTY);
  const owner = new Int8Array(BOARD_SQUARES).fill(EMPTY);
  positions.forEach((pos, id) => {
    if (!pos) return;
    const halves = stones[id]!;
    half[pos[0]] = halfIndex(halves[0]);
    half[pos[1]] = halfIndex(halves[1]);
    owner[pos[0]] = id;
    owner[pos[1]] = id;
  });
  return { half, owner };
}

const matches = (h: number, c: number): boolean => h === c || h === YELLOW;

/**
 * The maximal straight run of colour `c` (halves of `c` or yellow) through `sq`, which must hold a
 * matching half: [its first square (leftmost or topmost), its length].
 */
export function runSpan(half: Int8Array, sq: number, c: number, horizontal: boolean): [number, number] {
  const row = rowOf(sq);
  const col = colOf(sq);
  if (horizontal) {
    let a = col;
    while (a > 0 && matches(half[row * BOARD_COLS + a - 1]!, c)) a--;
    let b = col;
    while (b < BOARD_COLS - 1 && matches(half[row * BOARD_COLS + b + 1]!, c)) b++;
    return [row * BOARD_COLS + a, b - a + 1];
  }
  let a = row;
  while (a > 0 && matches(half[(a - 1) * BOARD_COLS + col]!, c)) a--;
  let b = row;
  while (b < BOARD_ROWS - 1 && matches(half[(b + 1) * BOARD_COLS + col]!, c)) b++;
  return [a * BOARD_COLS + col, b - a + 1];
}

/** True when some run through one of `squares` is longer than the rules allow (5 or more of one colour, wilds included). */
export function tooLongThrough(half: Int8Array, squares: readonly number[]): boolean {
  for (const sq of squares) {
    const h = half[sq]!;
    if (h === EMPTY) continue;
    for (let c = 0; c < 4; c++) {
      if (!matches(h, c)) continue;
      if (runSpan(half, sq, c, true)[1] > RUNS.longestLegal) return true;
      if (runSpan(half, sq, c, false)[1] > RUNS.longestLegal) return true;
    }
  }
  return false;
}

/** The longest run of one colour anywhere on the board (for tests and invariants). */
export function longestRun(half: Int8Array): number {
  let best = 0;
  for (let sq = 0; sq < BOARD_SQUARES; sq++) {
    const h = half[sq]!;
    if (h === EMPTY) continue;
    for (let c = 0; c < 4; c++) {
      if (!matches(h, c)) continue;
      best = Math.max(best, runSpan(half, sq, c, true)[1], runSpan(half, sq, c, false)[1]);
    }
  }
  return best;
}

const runKey = (c: number, horizontal: boolean, start: number): string => `${COLOURS[c]}:${horizontal ? 'row' : 'col'}:${start}`;

/**
 * Every run of exactly 4 on the board (the second-turn test), as keys `colour:row|col:first
 * square`, sorted. A run of four wilds is a run of 4 of every colour.
 */
export function runsOfFour(half: Int8Array): string[] {
  const out: string[] = [];
  for (const horizontal of [true, false]) {
    const lines = horizontal ? BOARD_ROWS : BOARD_COLS;
    const len = horizontal ? BOARD_COLS : BOARD_ROWS;
    const at = (line: number, i: number) => (horizontal ? line * BOARD_COLS + i : i * BOARD_COLS + line);
    for (let line = 0; line < lines; line++) {
      for (let c = 0; c < 4; c++) {
        let i = 0;
        while (i < len) {
          if (!matches(half[at(line, i)]!, c)) {
            i++;
            continue;
          }
          let j = i;
          while (j + 1 < len && matches(half[at(line, j + 1)]!, c)) j++;
          if (j - i + 1 === RUNS.secondTurnRun) out.push(runKey(c, horizontal, at(line, i)));
          i = j + 1;
        }
      }
    }
  }
  return out.sort();
}

export interface PayingRun {
  colour: Colour;
  /** Crystals it pays: its length - 1. */
  pays: number;
  /** Its first square and direction. */
  start: number;
  horizontal: boolean;
  length: number;
}

/**
 * The runs the new stone on `squares` pays, in payment order: its first half before its second,
 * the row before the column, colours red, blue, green, purple. A run is the maximal line of halves
 * of a colour or yellow through a new half; it pays (length - 1) once (however many new halves it
 * holds) if it holds halves of at least two stones and is not made of yellow halves only.
 */
export function payingRuns(grid: Grid, squares: readonly [number, number]): PayingRun[] {
  const out: PayingRun[] = [];
  const seen = new Set<string>();
  for (const sq of squares) {
    const h = grid.half[sq]!;
    for (const horizontal of [true, false]) {
      for (let c = 0; c < 4; c++) {
        if (!matches(h, c)) continue;
        const [start, length] = runSpan(grid.half, sq, c, horizontal);
        if (length < 2) continue;
        const key = runKey(c, horizontal, start);
        if (seen.has(key)) continue;
        seen.add(key);
        const step = horizontal ? 1 : BOARD_COLS;
        const owners = new Set<number>();
        let allYellow = true;
        for (let k = 0; k < length; k++) {
          const s = start + k * step;
          owners.add(grid.owner[s]!);
          if (grid.half[s] !== YELLOW) allYellow = false;
        }
        if (owners.size >= 2 && !allYellow) out.push({ colour: COLOURS[c]!, pays: length - 1, start, horizontal, length });
      }
    }
  }
  return out;
}

/** True when no other stone touches `squares` orthogonally or diagonally. */
export function isIsolated(owner: Int8Array, squares: readonly number[]): boolean {
  for (const sq of squares) {
    const row = rowOf(sq);
    const col = colOf(sq);
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        const r = row + dr;
        const c = col + dc;
        if (r < 0 || r >= BOARD_ROWS || c < 0 || c >= BOARD_COLS) continue;
        const n = r * BOARD_COLS + c;
        if (squares.includes(n)) continue;
        if (owner[n] !== EMPTY) return false;
      }
    }
  }
  return true;
}

/**
 * Whether halves `a` (first) and `b` may lie on squares `s0` and `s1` of `grid` (both must be
 * empty already): no run of 5. The grid is restored before returning.
 */
export function fitsAt(grid: Grid, a: number, b: number, s0: number, s1: number): boolean {
  if (s0 < 0 || s1 < 0 || grid.half[s0] !== EMPTY || grid.half[s1] !== EMPTY) return false;
  grid.half[s0] = a;
  grid.half[s1] = b;
  const bad = tooLongThrough(grid.half, [s0, s1]);
  grid.half[s0] = EMPTY;
  grid.half[s1] = EMPTY;
  return !bad;
}

/** The placements a stone's halves can take: every (square, direction) that fits, canonical (a symmetric stone: right and down only). */
export function placementsFor(grid: Grid, a: number, b: number): Array<[number, Direction]> {
  const dirs: Direction[] = a === b ? ['right', 'down'] : ['right', 'down', 'left', 'up'];
  const out: Array<[number, Direction]> = [];
  for (let sq = 0; sq < BOARD_SQUARES; sq++) {
    if (grid.half[sq] !== EMPTY) continue;
    for (const d of dirs) if (fitsAt(grid, a, b, sq, neighbour(sq, d))) out.push([sq, d]);
  }
  return out;
}

/** True when the stone's halves fit somewhere on the board. */
export function fitsAnywhere(grid: Grid, a: number, b: number): boolean {
  for (let sq = 0; sq < BOARD_SQUARES; sq++) {
    if (grid.half[sq] !== EMPTY) continue;
    if (fitsAt(grid, a, b, sq, neighbour(sq, 'right')) || fitsAt(grid, a, b, sq, neighbour(sq, 'down'))) return true;
    if (a !== b && (fitsAt(grid, a, b, sq, neighbour(sq, 'left')) || fitsAt(grid, a, b, sq, neighbour(sq, 'up')))) return true;
  }
  return false;
}

/** Lifts a stone off the grid (for Move and Rotate); `put` puts it back or elsewhere. */
export function lift(grid: Grid, pos: readonly [number, number]): void {
  for (const sq of pos) {
    grid.half[sq] = EMPTY;
    grid.owner[sq] = EMPTY;
  }
}

export function put(grid: Grid, id: number, halves: readonly [number, number], pos: readonly [number, number]): void {
  grid.half[pos[0]] = halves[0];
  grid.half[pos[1]] = halves[1];
  grid.owner[pos[0]] = id;
  grid.owner[pos[1]] = id;
}

/**
 * Where a Move may slide stone `id` (at `pos`, halves `halves`): every square for its first half
 * such that both squares are on the board and empty or its own, other than where it is, with no
 * run of 5 after the slide. The grid is restored before returning.
 */
export function moveTargets(grid: Grid, id: number, halves: readonly [number, number], pos: readonly [number, number]): number[] {
  const dir = directionBetween(pos[0], pos[1])!;
  lift(grid, pos);
  const out: number[] = [];
  for (let sq = 0; sq < BOARD_SQUARES; sq++) {
    if (sq === pos[0]) continue;
    const s1 = neighbour(sq, dir);
    if (fitsAt(grid, halves[0], halves[1], sq, s1)) out.push(sq);
  }
  put(grid, id, halves, pos);
  return out;
}

/**
 * Where a Rotate may turn stone `id`'s other half when half `pivot` stays: every empty orthogonal
 * neighbour of the pivot's square other than the other half's square, with no run of 5 after.
 */
export function rotateTargets(grid: Grid, id: number, halves: readonly [number, number], pos: readonly [number, number], pivot: 0 | 1): number[] {
  const p = pos[pivot];
  const q = pos[1 - pivot]!;
  lift(grid, pos);
  const out: number[] = [];
  for (const t of orthogonal(p)) {
    if (t === q) continue;
    const s0 = pivot === 0 ? p : t;
    const s1 = pivot === 0 ? t : p;
    if (fitsAt(grid, halves[0], halves[1], s0, s1)) out.push(t);
  }
  put(grid, id, halves, pos);
  return out;
}
