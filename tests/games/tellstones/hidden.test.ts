import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../helpers/check.ts';
import { RuleError } from '../../../src/kernel/types.ts';
import {
  SYMBOLS,
  tellstones,
  type TellstonesOptions,
  type TellstonesState,
  type TellstonesView,
} from '../../../src/games/tellstones/engine/index.ts';
import { FOUR, TWO, hex, makeState, playGame } from './helpers.ts';

/**
 * Hidden information: `view` is the only way symbols leave the engine, and it must never show a
 * face-down stone's symbol to anyone but a player who legitimately learned it (by a peek, their
 * own or handed over by a partner) and only while that stone stays face down.
 */

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex);
const optionsArb: fc.Arbitrary<TellstonesOptions> = fc.record({
  variant: fc.constantFrom('standard', 'kings-circle', 'fearless-vanguard'),
  firstStone: fc.constantFrom('random', 'scales'),
});

/**
 * The part of a view that concerns line `l` (and everything not tied to a line). In Fearless
 * Vanguard the same symbol exists in both sets, so a face-up Crown on one line must not count as a
 * leak of the face-down Crown on the other; everything else is checked as a whole.
 */
function projection(v: TellstonesView, l: number): unknown {
  return {
    ...v,
    lines: v.lines.filter((x) => x.line === l),
    log: v.log.filter((e) => !('line' in e) || e.line === l),
    known: v.known.filter((k) => k.line === l),
  };
}

/** Face-down symbols of each line. */
const faceDown = (s: TellstonesState): string[][] => s.lines.map((line) => line.filter((x) => !x.faceUp).map((x) => x.symbol));

function assertNoLeak(s: TellstonesState, viewer: string | null): void {
  const v = tellstones.view(s, viewer);
  const down = faceDown(s);
  for (const [l, symbols] of down.entries()) {
    const allowed = new Set<string>(v.known.filter((k) => k.line === l).map((k) => k.symbol));
    const text = JSON.stringify(projection(v, l));
    for (const symbol of symbols) {
      if (!allowed.has(symbol)) check(text.includes(symbol), `${viewer} sees face-down ${symbol} of line ${l}`).toBe(false);
    }
  }
  // With one line the projection is the whole view: check the plain JSON too.
  if (s.lines.length === 1) {
    const allowed = new Set<string>(v.known.map((k) => k.symbol));
    const text = JSON.stringify(v);
    for (const symbol of down[0] ?? []) if (!allowed.has(symbol)) check(text.includes(symbol)).toBe(false);
  }
  // Every `known` entry is true and points at a face-down stone.
  for (const k of v.known) check(s.lines[k.line]?.[k.position]).toEqual({ symbol: k.symbol, faceUp: false });
  if (viewer === null || !s.seats.includes(viewer)) check(v.known).toEqual([]);
  // Face-down stones carry nothing but their position.
  for (const line of v.lines) for (const st of line.stones) if (!st.faceUp) check(Object.keys(st).sort()).toEqual(['faceUp', 'position']);
}

/** Views of different viewers differ only in the viewer's own fields. */
function strip(v: TellstonesView): unknown {
  const { known: _k, legal: _l, partner: _p, ...rest } = v;
  return rest;
}

type Model = Map<string, Set<string>>; // player -> "line:symbol" of stones they peeked and that are still face down

describe('tellstones hidden information', () => {
  it('no view shows a face-down symbol outside the viewer’s legitimate knowledge; peekers recall what they peeked', () => {
    fc.assert(
      fc.property(seedArb, optionsArb, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed, options, rngSeed) => {
        const players = options.variant === 'kings-circle' ? FOUR : TWO;
        const model: Model = new Map(players.map((p) => [p, new Set<string>()]));
        const checkViews = (s: TellstonesState): void => {
          const spectator = tellstones.view(s, null);
          check(tellstones.view(s, 'stranger')).toStrictEqual(spectator);
          for (const viewer of [null, 'stranger', ...players]) assertNoLeak(s, viewer);
          for (const p of players) {
            const v = tellstones.view(s, p);
            check(strip(v)).toStrictEqual(strip(spectator));
            // Exactly the modelled knowledge, at the stones' current positions.
            const expected = [...(model.get(p) ?? [])]
              .map((key) => {
                const [l, symbol] = key.split(':') as [string, string];
                const line = Number(l);
                return { line, position: s.lines[line]?.findIndex((x) => x.symbol === symbol) ?? -1, symbol };
              })
              .sort((a, b) => a.line - b.line || a.position - b.position);
            check(v.known).toEqual(expected);
          }
        };
        const first = tellstones.setup({ seed, players: [...players], options });
        checkViews(first);
        playGame(seed, options, rngSeed, (before, entry, after) => {
          if ('move' in entry && entry.move.type === 'peek') {
            const recipient = entry.move.shareWith ?? entry.actor;
            const l = entry.move.line ?? 0;
            for (const position of entry.move.positions) {
              model.get(recipient)?.add(`${l}:${before.lines[l]?.[position]?.symbol}`);
            }
          }
          // A stone turned face up is public: private knowledge of it ends.
          for (const set of model.values()) {
            for (const key of [...set]) {
              const [l, symbol] = key.split(':') as [string, string];
              if (after.lines[Number(l)]?.find((x) => x.symbol === symbol)?.faceUp) set.delete(key);
            }
          }
          checkViews(after);
        });
      }),
      { numRuns: 100 },
    );
  });

  it('rule errors about positions never name a symbol', () => {
    fc.assert(
      fc.property(seedArb, optionsArb, fc.nat(), fc.nat({ max: 30 }), (seed, options, rngSeed, at) => {
        const { states } = playGame(seed, options, rngSeed);
        const s = states[Math.min(at, states.length - 1)] as TellstonesState;
        for (const actor of s.seats) {
          for (const line of [undefined, 0, 1] as const) {
            for (const position of [0, 1, 3, 6]) {
              for (const move of [
                { type: 'hide', line, position },
                { type: 'swap', line, a: position, b: 0 },
                { type: 'peek', line, positions: [position] },
                { type: 'challenge', line, position },
                { type: 'prove', line, position, symbol: 'crown' },
              ] as const) {
                try {
                  tellstones.apply(s, actor, JSON.parse(JSON.stringify(move)));
                } catch (e) {
                  expect(e).toBeInstanceOf(RuleError);
                  const text = (e as RuleError).message.toLowerCase();
                  for (const symbol of SYMBOLS) check(text.includes(symbol)).toBe(false);
                }
              }
            }
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a peek handed to the partner shows the stone to the partner only', () => {
    const s = tellstones.apply(makeState({ variant: 'kings-circle', lines: [['-crown', '-shield', 'sword']] }), 'a1', {
      type: 'peek',
      positions: [0],
      shareWith: 'a2',
    });
    for (const viewer of [null, 'a1', 'b1', 'b2']) check(JSON.stringify(tellstones.view(s, viewer))).not.toContain('crown');
    check(tellstones.view(s, 'a2').known).toEqual([{ line: 0, position: 0, symbol: 'crown' }]);
  });

  it('a stone hidden in front of everyone is known to nobody', () => {
    const s = tellstones.apply(makeState({ lines: [['crown', '-shield', 'sword']] }), 'alice', { type: 'hide', position: 0 });
    for (const viewer of [null, 'alice', 'bob']) {
      const v = tellstones.view(s, viewer);
      check(v.known).toEqual([]);
      const text = JSON.stringify(v);
      for (const symbol of ['crown', 'shield']) check(text).not.toContain(symbol);
    }
  });

  it('face-down stones stay hidden after the game ends', () => {
    const base = makeState({ lines: [['crown', '-shield', '-sword']], points: [2, 0] });
    const won = tellstones.apply(tellstones.apply(base, 'alice', { type: 'boast' }), 'bob', { type: 'answer-boast', answer: 'believe' });
    check(won.outcome?.winners).toEqual(['alice']);
    const lost = tellstones.forfeit(base, 'bob');
    for (const s of [won, lost]) {
      for (const viewer of [null, 'alice', 'bob']) {
        const text = JSON.stringify(tellstones.view(s, viewer));
        check(text).not.toContain('shield');
        check(text).not.toContain('sword');
      }
    }
  });

  it('the view never contains the rng or its seed', () => {
    const s = makeState();
    for (const viewer of [null, 'alice']) {
      const text = JSON.stringify(tellstones.view(s, viewer));
      check(text).not.toContain(s.rng.seed);
      check(tellstones.view(s, viewer)).not.toHaveProperty('rng');
    }
  });
});
