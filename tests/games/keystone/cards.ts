import { CARD_IDS, type CardId } from '../../../src/games/keystone/engine/data.ts';

const COLOUR_OF: Record<string, string> = { r: 'red', b: 'blue', g: 'green', y: 'yellow', p: 'purple' };

/** A card from a short name: `r7` is red 7, `p10` purple 10, `=1`..`=3` (or `=`) the God cards. */
export function c(short: string): CardId {
  if (short === '=') return 'god-1';
  if (short.startsWith('=')) return `god-${short.slice(1)}` as CardId;
  const colour = COLOUR_OF[short[0]!];
  const id = `${colour}-${short.slice(1)}`;
  if (!colour || !(CARD_IDS as readonly string[]).includes(id)) throw new Error(`bad card ${short}`);
  return id as CardId;
}

export const cs = (spec: string): CardId[] => (spec.trim() === '' ? [] : spec.trim().split(/\s+/).map(c));

/**
 * A line from the RULINGS notation, numbers and `=`: `'8 4 ='`. Colours are picked so no card
 * repeats (red first, then blue, ... for repeated numbers); God cards are god-1, god-2, god-3.
 */
export function line(spec: string): CardId[] {
  const used = new Map<string, number>();
  let gods = 0;
  const colours = ['r', 'b', 'g', 'y', 'p'];
  return spec
    .trim()
    .split(/\s+/)
    .map((x) => {
      if (x === '=') return c(`=${++gods}`);
      const k = used.get(x) ?? 0;
      used.set(x, k + 1);
      return c(`${colours[k]}${x}`);
    });
}
