import { describe, expect, it } from 'vitest';
import { wording } from '../../../src/bot/history.ts';
import { describeMove } from '../../../src/games/tellstones/describe.ts';
import { tellstones, type TellstonesState } from '../../../src/games/tellstones/engine/index.ts';
import { SYMBOL_NAME } from '../../../src/games/tellstones/present.ts';
import { SEED_A, SEED_B, playGame } from './helpers.ts';
import { shows } from './leaks.ts';

/**
 * Tellstones' moves in words (the board's "Recently", the turn DM, `/tellstones history`): every
 * move is told, and a symbol that is face down at the time of reading never appears, whether it
 * was face up when the move was made or only named in a guess.
 */
const faceDown = (s: TellstonesState) => new Set(s.lines.flatMap((l) => l.filter((x) => !x.faceUp).map((x) => x.symbol)));
const names = { alice: 'Alice', bob: 'Bob', a1: 'Ann', b1: 'Ben', a2: 'Amy', b2: 'Bea' };

describe('Tellstones moves in words', () => {
  for (const [variant, seed, rng] of [['standard', SEED_A, 1], ['standard', SEED_B, 7], ['kings-circle', SEED_A, 3], ['kings-circle', SEED_B, 11]] as const) {
    it(`${variant}, game ${rng}: every move is told, and nothing face down at reading time is named`, () => {
      const { states, log } = playGame(seed, { variant, firstStone: 'random' }, rng);
      // Read the history at several moments of the game, as /tellstones history would.
      for (const j of [Math.floor(states.length / 3), Math.floor((2 * states.length) / 3), states.length - 1]) {
        const latest = tellstones.view(states[j]!, null);
        const hiddenNow = faceDown(states[j]!);
        for (let i = 0; i < j; i++) {
          const entry = log[i]!;
          if (!('move' in entry)) continue;
          const text = describeMove(
            { actor: entry.actor, move: entry.move, auto: false, before: tellstones.view(states[i]!, null), after: tellstones.view(states[i + 1]!, null), latest },
            wording(names, null),
          );
          expect(text, `move ${i} (${entry.move.type})`).toBeTruthy();
          for (const s of hiddenNow) expect(shows(text!, s), `move ${i} names the face-down ${s}: ${text}`).toBe(false);
        }
      }
    });
  }

  it('a placement reads as the log does, in the reader’s words', () => {
    const { states, log } = playGame(SEED_A, { variant: 'standard', firstStone: 'random' }, 5);
    const i = log.findIndex((e) => 'move' in e && e.move.type === 'place');
    const entry = log[i]!;
    if (!('move' in entry) || entry.move.type !== 'place') throw new Error('no placement');
    const after = tellstones.view(states[i + 1]!, null);
    const step = { actor: entry.actor, move: entry.move, auto: false, before: tellstones.view(states[i]!, null), after, latest: after };
    const who = names[entry.actor as 'alice' | 'bob'];
    const symbol = SYMBOL_NAME[entry.move.symbol];
    expect(describeMove(step, wording(names, null))).toContain(`${who} placed the `);
    expect(describeMove(step, wording(names, null))).toContain(`${symbol}`);
    expect(describeMove(step, wording(names, null))).toMatch(new RegExp(`at the ${entry.move.end} end\\.$`));
    expect(describeMove(step, wording(names, entry.actor))).toMatch(/^You placed the /);
    // A DM stays as it is while the game moves on: it names no symbol at all.
    expect(describeMove(step, wording(names, entry.actor, true))).toMatch(/^You placed a stone at the (left|right) end\.$/);
  });
});
