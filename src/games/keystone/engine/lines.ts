import { card, NUMBERS, type CardId } from './data.ts';

/**
 * Lines (RULINGS.md, Keystone: "Lines" and "God cards in lines").
 *
 * A line is a list of card ids from bottom to top. Cards are only ever added on top.
 *
 * - Numbered cards must run ascending or descending by number (colour is free); equal numbers
 *   stack in either direction. The direction is fixed by the first two differing numbers of the
 *   line's numbered cards; before that, any number may come next.
 * - A God card fits on any line (it copies a neighbour, so it can never break the order). It
 *   counts as the nearest numbered card below it; with none below, as the nearest numbered card
 *   above it; with none at all, as 0 with keystone 0. This is the RULINGS chain rule: `= = 6` is
 *   6 6 6, `3 = =` is 3 3 3, a line of God cards only counts 0.
 * - God cards never fix or change a direction: legality looks at the numbered cards in order, so
 *   the next card on a God card is compared with the number it copies (`8 4 =` takes 4 or lower,
 *   `2 = 1` and `= 7 3` are legal, `= 10` and `= 4` are legal).
 */

export type Line = readonly CardId[];
export type Direction = 'up' | 'down' | null;

/** What a card in a line counts as. */
export interface Counted {
  number: number;
  keystone: number;
}

/** The numbers of the numbered cards of a line, bottom to top. */
function numbersOf(line: Line): number[] {
  const out: number[] = [];
  for (const id of line) {
    const c = card(id);
    if (!c.god) out.push(c.number);
  }
  return out;
}

/** The direction fixed by the first two differing numbers, or null while there are none. */
export function directionOfNumbers(numbers: readonly number[]): Direction {
  const first = numbers[0];
  if (first === undefined) return null;
  for (const n of numbers) {
    if (n > first) return 'up';
    if (n < first) return 'down';
  }
  return null;
}

export function lineDirection(line: Line): Direction {
  return directionOfNumbers(numbersOf(line));
}

/** Whether a numbered card of number `n` may go on top of a line with these numbers. */
function fitsNumbers(numbers: readonly number[], n: number): boolean {
  const last = numbers.at(-1);
  if (last === undefined) return true;
  const dir = directionOfNumbers(numbers);
  if (dir === 'up') return n >= last;
  if (dir === 'down') return n <= last;
  return true;
}

/** Whether `id` may be placed on top of `line` (a God card always may). */
export function canPlace(line: Line, id: CardId): boolean {
  const c = card(id);
  if (c.god) return true;
  return fitsNumbers(numbersOf(line), c.number);
}

/** Whether a line could have been built by legal placements (each card fitting the cards below). */
export function isLegalLine(line: Line): boolean {
  const numbers = numbersOf(line);
  for (let i = 1; i < numbers.length; i++) if (!fitsNumbers(numbers.slice(0, i), numbers[i]!)) return false;
  return true;
}

/** How many of the numbers 1-10 could go on top of the line next (a measure of how open it is). */
export function openNumbers(line: Line): number {
  const numbers = numbersOf(line);
  let open = 0;
  for (const n of NUMBERS) if (fitsNumbers(numbers, n)) open++;
  return open;
}

/**
 * What each card of the line counts as, bottom to top: a numbered card as itself; a God card as
 * the nearest numbered card below it, else the nearest numbered card above it, else 0 / 0.
 */
export function resolveLine(line: Line): Counted[] {
  const own: Array<Counted | null> = line.map((id) => {
    const c = card(id);
    return c.god ? null : { number: c.number, keystone: c.keystone };
  });
  const out: Counted[] = new Array(line.length);
  // Nearest numbered card below (a forward pass), then above for those with none below (a backward pass).
  let below: Counted | null = null;
  for (let i = 0; i < own.length; i++) {
    const o = own[i] ?? null;
    if (o) below = o;
    if (below) out[i] = { number: below.number, keystone: below.keystone };
  }
  let above: Counted | null = null;
  for (let i = own.length - 1; i >= 0; i--) {
    const o = own[i] ?? null;
    if (o) above = o;
    if (!out[i]) out[i] = above ? { number: above.number, keystone: above.keystone } : { number: 0, keystone: 0 };
  }
  return out;
}

/** The sum of the keystones the cards of the line count as. */
export function lineKeystones(line: Line): number {
  let sum = 0;
  for (const c of resolveLine(line)) sum += c.keystone;
  return sum;
}

/** What the Auto-place rule needs to know of a line, in one pass (equal to the functions above). */
export interface LineSummary {
  length: number;
  /** `lineKeystones`. */
  keystones: number;
  /** `openNumbers`. */
  open: number;
  /** The last numbered card's number, null when there is none. */
  last: number | null;
  direction: Direction;
}

export function lineSummary(line: Line): LineSummary {
  let first: number | null = null;
  let firstKeystone = 0;
  let last: number | null = null;
  let lastKeystone = 0;
  let direction: Direction = null;
  let leadingGods = 0;
  let keystones = 0;
  for (const id of line) {
    const c = card(id);
    if (c.god) {
      // A God card copies the nearest numbered card below; leading ones the first one above.
      if (last === null) leadingGods++;
      else keystones += lastKeystone;
      continue;
    }
    if (first === null) {
      first = c.number;
      firstKeystone = c.keystone;
    } else if (direction === null && c.number !== first) direction = c.number > first ? 'up' : 'down';
    last = c.number;
    lastKeystone = c.keystone;
    keystones += c.keystone;
  }
  if (first !== null) keystones += leadingGods * firstKeystone;
  const open = last === null || direction === null ? NUMBERS.length : direction === 'up' ? NUMBERS.length + 1 - last : last;
  return { length: line.length, keystones, open, last, direction };
}
