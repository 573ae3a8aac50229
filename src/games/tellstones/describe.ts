import type { MoveStep, Wording } from '../../bot/game-module.ts';
import { SYMBOLS, type TellstonesMove, type TellstonesView, type ViewLogEntry } from './engine/index.ts';
import { logLine } from './present.ts';

/** An entry without its symbols (which a view blanks or not depending on when it is taken). */
const shape = (e: ViewLogEntry) => JSON.stringify({ ...e, symbol: undefined, named: undefined });

/** The entries `after` added to `before` (the log keeps its last 20, so compare the tails). */
function added(before: ViewLogEntry[], after: ViewLogEntry[]): ViewLogEntry[] {
  const b = before.map(shape);
  const a = after.map(shape);
  for (let k = 0; k <= a.length; k++) {
    const kept = a.slice(0, a.length - k);
    if (kept.length <= b.length && kept.every((x, i) => x === b[b.length - kept.length + i])) return after.slice(after.length - k);
  }
  return after;
}

/**
 * A Tellstones move in words: the public log lines it added, with every symbol that is face down
 * *now* blanked ("a stone"), whatever it was when the move was made, so neither the board, a DM
 * nor `/tellstones history` is a memory aid; a peek never says what was seen.
 */
export function describeMove(step: MoveStep<TellstonesView, TellstonesMove>, w: Wording): string | null {
  const { before, after, latest } = step;
  const entries = added(before.log, after.log);
  if (entries.length === 0) return null;
  // Face down now on each line: every symbol neither in its pool nor face up.
  const hidden = latest.lines.map((l) => {
    const open = new Set<string>([...l.pool, ...l.stones.flatMap((s) => (s.faceUp ? [s.symbol] : []))]);
    return new Set<string>(SYMBOLS.filter((s) => !open.has(s)));
  });
  const blank = (e: ViewLogEntry): ViewLogEntry => {
    if (!('line' in e)) return e;
    const h = hidden[e.line] ?? new Set<string>();
    const out = { ...e } as Record<string, unknown>;
    // A lasting message (a DM) names no symbol at all: it could be hidden later, and the DM would remember it.
    for (const k of ['symbol', 'named']) if (typeof out[k] === 'string' && (w.lasting || h.has(out[k] as string))) out[k] = null;
    return out as ViewLogEntry;
  };
  return entries
    .map((e) => logLine(latest, blank(e)))
    .join(' ')
    .replace(/<@([^>]+)>’s/g, (_, id: string) => w.possessive(id))
    .replace(/<@([^>]+)>/g, (_, id: string) => w.name(id))
    .replace(/(^|[.!?] )(you|your)\b/g, (_, pre: string, word: string) => pre + word.charAt(0).toUpperCase() + word.slice(1));
}
