/**
 * Our edition's card data (RULINGS.md, Keystone), the one place it is written down.
 *
 * 53 cards: five colours numbered 1-10 and 3 God cards. Every numbered card carries a keystone
 * value that depends only on its number (the same in every colour); God cards show "=" and take
 * the number and keystone of another card when they lie in a line (lines.ts).
 *
 * Card ids are `<colour>-<number>` (`red-1` .. `purple-10`) and `god-1` .. `god-3`. `CARD_IDS` is
 * in the canonical order hands are sorted in: colours in the order of `COLOURS`, numbers
 * ascending within a colour, then the God cards.
 */

export const COLOURS = ['red', 'blue', 'green', 'yellow', 'purple'] as const;
export type Colour = (typeof COLOURS)[number];

export const NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

/** The keystone printed on a numbered card, by number. */
export const KEYSTONE_BY_NUMBER: Readonly<Record<number, number>> = Object.freeze({
  1: 1,
  2: 0,
  3: 2,
  4: -2,
  5: 0,
  6: 3,
  7: 0,
  8: 1,
  9: 0,
  10: 6,
});

export const GOD_COUNT = 3;

type NumberedId = `${Colour}-${(typeof NUMBERS)[number]}`;
type GodId = 'god-1' | 'god-2' | 'god-3';
export type CardId = NumberedId | GodId;

export type Card =
  | { id: CardId; god: false; colour: Colour; number: number; keystone: number }
  | { id: CardId; god: true; colour: null; number: null; keystone: null };

function buildCards(): Card[] {
  const cards: Card[] = [];
  for (const colour of COLOURS) {
    for (const number of NUMBERS) {
      cards.push({ id: `${colour}-${number}`, god: false, colour, number, keystone: KEYSTONE_BY_NUMBER[number]! });
    }
  }
  for (let i = 1; i <= GOD_COUNT; i++) cards.push({ id: `god-${i}` as GodId, god: true, colour: null, number: null, keystone: null });
  return cards;
}

/** All 53 cards in canonical order. */
export const CARDS: readonly Card[] = Object.freeze(buildCards().map((c) => Object.freeze(c)));

/** All 53 card ids in canonical order (a non-empty tuple type for z.enum). */
export const CARD_IDS = CARDS.map((c) => c.id) as [CardId, ...CardId[]];

export const DECK_SIZE = CARDS.length;

const BY_ID: ReadonlyMap<string, Card> = new Map(CARDS.map((c) => [c.id, c]));
const ORDER: ReadonlyMap<string, number> = new Map(CARDS.map((c, i) => [c.id, i]));

/** The card with this id; throws on an unknown id (ids reach here only after schema checks). */
export function card(id: CardId): Card {
  const c = BY_ID.get(id);
  if (!c) throw new Error(`unknown Keystone card ${id}`);
  return c;
}

export function isCardId(id: unknown): id is CardId {
  return typeof id === 'string' && BY_ID.has(id);
}

/** Canonical order: colour (red, blue, green, yellow, purple), then number, God cards last. */
export function compareCards(a: CardId, b: CardId): number {
  return (ORDER.get(a) ?? 0) - (ORDER.get(b) ?? 0);
}

export function sortCards(ids: readonly CardId[]): CardId[] {
  return ids.slice().sort(compareCards);
}

export const isGod = (id: CardId): boolean => card(id).god;
