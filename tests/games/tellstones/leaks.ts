import { BACK, SYMBOL_EMOJI, SYMBOL_NAME } from '../../../src/games/tellstones/present.ts';
import { check } from '../../helpers/check.ts';
import type { MessagePayload } from '../../../src/bot/game-module.ts';
import type { TellstonesState, TellstonesSymbol } from '../../../src/games/tellstones/engine/index.ts';

/**
 * Leak checks for Tellstones payloads, against the engine's full (hidden) state. Shared by
 * tellstones.hidden.test.ts (many random games) and tellstones.render.test.ts (snapshots).
 *
 * The checks are per stone: the board's cell for that stone must show a back, never its symbol;
 * and where the symbol is not public anywhere (not face up, not in a pool: always the case with
 * one set, sometimes in Fearless Vanguard), it must appear nowhere in the message at all, except
 * in the fixed row of all seven symbol buttons offered for naming a stone. With Vanguard's two
 * sets, a symbol face down on one line may be public on the other: then the face-down stone's
 * own line field must not show it.
 */

/** The payload without the rows of seven symbol buttons offered for naming a stone (they list every symbol). */
export function withoutNamingButtons(p: MessagePayload): MessagePayload {
  return {
    ...p,
    components: (p.components ?? []).filter(
      (r) => !r.components.some((c) => 'custom_id' in c && /^ts:(ans|prv):/.test(String(c.custom_id))),
    ),
  };
}

/** Whether `text` shows symbol `s` in any form: its id, its emoji or its display name. */
export const shows = (text: string, s: TellstonesSymbol) => text.toLowerCase().includes(s) || text.includes(SYMBOL_EMOJI[s]) || text.includes(SYMBOL_NAME[s]);

/** Symbols public somewhere: face up on a line, or in a pool. */
export function publicSymbols(state: TellstonesState): Set<string> {
  const out = new Set<string>();
  state.lines.forEach((line, i) => {
    for (const s of line) if (s.faceUp) out.add(`${s.symbol}`);
    for (const s of state.pools[i] ?? []) out.add(s);
  });
  return out;
}

/** The value of the board's embed field for `line`. */
export function lineFieldValue(board: MessagePayload, state: TellstonesState, line: number): string {
  const fields = board.embeds?.[0]?.fields ?? [];
  const f = state.lines.length > 1 ? fields.find((x) => x.name.startsWith(`Line ${line + 1}`)) : fields.find((x) => x.name === 'The line');
  if (!f) throw new Error(`no field for line ${line}`);
  return f.value;
}

/** Checks one message that anybody may end up seeing. `board`: also check the cells. */
export function expectNoLeak(state: TellstonesState, payload: MessagePayload, board: boolean, where: string): void {
  const text = JSON.stringify(withoutNamingButtons(payload));
  const pub = publicSymbols(state);
  state.lines.forEach((line, l) => {
    line.forEach((stone, p) => {
      if (board) {
        const value = lineFieldValue(payload, state, l);
        const cell = value.split('\n').find((row) => row.startsWith(`\`${p + 1}\` `));
        check(cell, `${where}: a cell for line ${l} position ${p}`).toBeDefined();
        if (stone.faceUp) {
          check(cell, `${where}: face-up stone shown`).toContain(SYMBOL_NAME[stone.symbol]);
        } else {
          check(cell, `${where}: face-down stone shows its back`).toContain(BACK);
          check(shows(cell!, stone.symbol), `${where}: cell of face-down ${stone.symbol} at ${l}:${p}`).toBe(false);
          check(shows(value, stone.symbol), `${where}: line ${l} field shows face-down ${stone.symbol}`).toBe(false);
        }
      }
      if (!stone.faceUp && !pub.has(stone.symbol)) {
        check(shows(text, stone.symbol), `${where}: face-down ${stone.symbol} (line ${l}, position ${p}) appears in ${text}`).toBe(false);
      }
    });
  });
}
