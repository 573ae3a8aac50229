import { card, CARD_IDS, COLOURS, isGod, type CardId, type Colour } from './engine/index.ts';

/**
 * Typed input of `/keystone play` and `/keystone place` (autocomplete offers ids; people type
 * anything): a card as `red-7`, `Red 7`, `r7`, `🟥7`, or a God card as `god`, `=`, `✨`; a line as
 * its number (1-based) or `new`.
 */

const EMOJI: Record<string, Colour> = { '🟥': 'red', '🟦': 'blue', '🟩': 'green', '🟨': 'yellow', '🟪': 'purple' };

/** The card meant by `raw` among `candidates` (God cards are alike: the first one held), or null. */
export function parseCard(raw: string, candidates: readonly CardId[]): CardId | null {
  const text = raw.trim().toLowerCase();
  if ((CARD_IDS as readonly string[]).includes(text)) return candidates.includes(text as CardId) ? (text as CardId) : null;
  if (/^(god( card)?|=|✨=?|god-[1-3])$/u.test(text)) return candidates.find((c) => isGod(c)) ?? null;
  const m = /^(?:(red|blue|green|yellow|purple)|([rbgyp])|(🟥|🟦|🟩|🟨|🟪))[\s-]*(10|[1-9])$/u.exec(text);
  if (!m) return null;
  const colour: Colour | undefined = (m[1] as Colour | undefined) ?? COLOURS.find((c) => c[0] === m[2]) ?? (m[3] ? EMOJI[m[3]] : undefined);
  const number = Number(m[4]);
  return candidates.find((c) => {
    const x = card(c);
    return !x.god && x.colour === colour && x.number === number;
  }) ?? null;
}

/** A line typed by a player: `new`, or its number (1-based) as a 0-based index; null if neither. */
export function parseLine(raw: string): number | 'new' | null {
  const text = raw.trim().toLowerCase();
  if (text === 'new' || text === 'n' || text === 'new line') return 'new';
  const m = /^(?:line\s*)?([1-9]\d?)$/.exec(text);
  return m ? Number(m[1]) - 1 : null;
}
