import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { knucklebones, type KnucklebonesMove, type KnucklebonesState } from '../../../src/games/knucklebones/engine/index.ts';
import { DIE_ITEMS } from '../../../src/games/knucklebones/engine/dice.ts';
import { rollDie } from '../../../src/kernel/rng.ts';
import { RuleError } from '../../../src/kernel/types.ts';
import { deepFreeze, makeState } from './helpers.ts';

/** Dice items (RULINGS.md, Knucklebones, "Dice items"): one row per die, plus the limits. */

const apply = (s: KnucklebonesState, actor: string, m: KnucklebonesMove) => knucklebones.apply(deepFreeze(s), actor, m);
const use = (die: (typeof DIE_ITEMS)[number], column?: 1 | 2 | 3): KnucklebonesMove => ({ type: 'use-die', die, ...(column ? { column } : {}) });
const place = (column: 1 | 2 | 3): KnucklebonesMove => ({ type: 'place', column });

function expectRule(fn: () => unknown, code: string) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RuleError);
    expect((e as RuleError).code).toBe(code);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe('each die, as RULINGS.md describes it', () => {
  const base = () => {
    const s = makeState({ alice: [[1], [], []], bob: [[4, 4], [6], []], roll: 4 });
    s.lastPlaced = { alice: 1, bob: 6 };
    return s;
  };

  const rows: Array<{ die: (typeof DIE_ITEMS)[number]; column?: 1 | 2 | 3; check: (before: KnucklebonesState, after: KnucklebonesState) => void }> = [
    {
      die: 'loaded',
      check: (b, a) => {
        const [x, r1] = rollDie(b.rng);
        const [y, r2] = rollDie(r1);
        expect(a.dice?.turn?.choices).toEqual([x, y]);
        expect(a.rng).toEqual(r2);
        expect(a.roll).toBe(b.roll); // unchanged until a value is kept
      },
    },
    {
      die: 'lucky',
      check: (b, a) => {
        const [v, r] = rollDie(b.rng);
        expect(a.roll).toBe(v);
        expect(a.rng).toEqual(r);
      },
    },
    { die: 'steady', check: (_b, a) => expect(a.roll).toBe(3) },
    { die: 'echo', check: (_b, a) => expect(a.roll).toBe(6) },
    {
      die: 'spoiler',
      column: 2,
      check: (_b, a) => {
        expect(a.grids.bob).toEqual([[4, 4], [], []]);
        expect(a.roll).toBe(4);
      },
    },
    { die: 'twin', check: (_b, a) => expect(a.dice?.turn).toEqual({ die: 'twin', choices: null, twinFrom: null }) },
  ];

  it.each(rows)('$die', ({ die, column, check }) => {
    const before = base();
    const after = apply(before, 'alice', use(die, column));
    check(before, after);
    expect(after.turn).toBe('alice'); // using a die is part of the same turn
    expect(after.dice?.used.alice).toEqual([die]);
    expect(knucklebones.stateSchema.safeParse(after).success).toBe(true);
    expect(knucklebones.view(after, null).dice?.used.alice).toEqual([die]);
  });

  it('Loaded: keep one of the two values, then place it; placing before keeping is refused', () => {
    const s1 = apply(base(), 'alice', use('loaded'));
    expectRule(() => apply(s1, 'alice', place(3)), 'knucklebones/choose-first');
    const s2 = apply(s1, 'alice', { type: 'keep', choice: 1 });
    expect(s2.roll).toBe(s1.dice!.turn!.choices![1]);
    const s3 = apply(s2, 'alice', place(3));
    expect(s3.grids.alice![2]).toEqual([s1.dice!.turn!.choices![1]]);
    expect(s3.turn).toBe('bob');
    expect(s3.dice?.turn).toBeNull();
  });

  it('Spoiler: removes one die of the highest value; an empty column is refused', () => {
    const s = makeState({ bob: [[2, 5, 5], [], []], roll: 1 });
    expect(apply(s, 'alice', use('spoiler', 1)).grids.bob![0]).toEqual([2, 5]);
    expectRule(() => apply(s, 'alice', use('spoiler', 3)), 'knucklebones/spoiler-empty');
    expectRule(() => apply(s, 'alice', use('spoiler')), 'knucklebones/spoiler-column');
  });

  it('Echo: refused before the opponent placed anything', () => {
    expectRule(() => apply(makeState(), 'alice', use('echo')), 'knucklebones/nothing-to-echo');
  });

  it('Twin: the first die destroys, the twin goes in another non-full column and does not', () => {
    const s = makeState({ alice: [[], [], []], bob: [[4], [4], []], roll: 4 });
    const s1 = apply(apply(s, 'alice', use('twin')), 'alice', place(1));
    expect(s1.grids.bob).toEqual([[], [4], []]);
    expect(s1.turn).toBe('alice');
    expect(s1.roll).toBe(4);
    expectRule(() => apply(s1, 'alice', place(1)), 'knucklebones/twin-same-column');
    const s2 = apply(s1, 'alice', place(2));
    expect(s2.grids.alice).toEqual([[4], [4], []]);
    expect(s2.grids.bob).toEqual([[], [4], []]); // no destruction from the twin
    expect(s2.turn).toBe('bob');
    expect(s2.turnNumber).toBe(s.turnNumber + 1);
  });

  it('Twin: no other column with room, the twin is lost; a full grid ends the game', () => {
    const only = makeState({ alice: [[1, 2, 3], [1, 2, 3], []], roll: 6 });
    const t = apply(apply(only, 'alice', use('twin')), 'alice', place(3));
    expect(t.turn).toBe('bob');
    const nearlyFull = makeState({ alice: [[1, 2, 3], [1, 2], [5, 4]], roll: 6 });
    const u1 = apply(apply(nearlyFull, 'alice', use('twin')), 'alice', place(3));
    expect(u1.turn).toBe('alice');
    const u2 = apply(u1, 'alice', place(2));
    expect(u2.outcome?.reason).toBe('grid-full');
    expect(u2.grids.alice).toEqual([[1, 2, 3], [1, 2, 6], [5, 4, 6]]);
    // The first die filling the ninth cell ends the game at once (no twin).
    const last = makeState({ alice: [[1, 2, 3], [1, 2, 3], [5, 4]], roll: 6 });
    expect(apply(apply(last, 'alice', use('twin')), 'alice', place(3)).outcome?.reason).toBe('grid-full');
  });

  it('one die item per turn, each die once per game', () => {
    const s1 = apply(base(), 'alice', use('steady'));
    expectRule(() => apply(s1, 'alice', use('lucky')), 'knucklebones/one-die-per-turn');
    const s2 = apply(s1, 'alice', place(2));
    const s3 = apply(s2, 'bob', place(3));
    expectRule(() => apply(s3, 'alice', use('steady')), 'knucklebones/die-used');
    expect(apply(s3, 'alice', use('lucky')).dice?.used.alice).toEqual(['steady', 'lucky']);
    expectRule(() => apply(s3, 'bob', use('lucky')), 'knucklebones/not-your-turn');
    expectRule(() => apply(s3, 'alice', { type: 'keep', choice: 0 }), 'knucklebones/nothing-to-keep');
  });

  it('property: any sequence of dice uses keeps the state valid and replays identically', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...DIE_ITEMS, null), fc.integer({ min: 1, max: 3 })), { maxLength: 40 }), (plan) => {
        const run = () => {
          let s = knucklebones.setup({ seed: 'c'.repeat(64), players: ['alice', 'bob'], options: {} });
          for (const [die, col] of plan) {
            if (s.outcome) break;
            const me = s.turn!;
            if (die && !s.dice?.used[me]?.includes(die)) {
              try {
                s = knucklebones.apply(s, me, use(die, die === 'spoiler' ? (col as 1 | 2 | 3) : undefined));
              } catch (e) {
                if (!(e instanceof RuleError)) throw e;
              }
            }
            if (s.dice?.turn?.choices) s = knucklebones.apply(s, me, { type: 'keep', choice: 0 });
            for (let k = 0; k < 2 && !s.outcome && s.turn === me; k++) {
              const grid = s.grids[me]!;
              const free = [0, 1, 2].find((c) => grid[c]!.length < 3 && c + 1 !== s.dice?.turn?.twinFrom)!;
              s = knucklebones.apply(s, me, place((free + 1) as 1 | 2 | 3));
            }
            expect(knucklebones.stateSchema.safeParse(s).success).toBe(true);
          }
          return s;
        };
        expect(run()).toEqual(run());
      }),
      { numRuns: 60 },
    );
  });
});
