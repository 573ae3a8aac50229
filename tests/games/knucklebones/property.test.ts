import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../helpers/check.ts';
import { RuleError } from '../../../src/kernel/types.ts';
import {
  knucklebones,
  replay,
  scoreColumn,
  scoreGrid,
  stateSchema,
  type Grid,
  type KnucklebonesState,
} from '../../../src/games/knucklebones/engine/index.ts';
import { cells, hex, playGame } from './helpers.ts';

const NUM_RUNS = 200;
/** Far above any real game (random play ends within ~40 placements); hitting it fails the test. */
const MAX_PLACEMENTS = 500;

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex);
// Discord snowflakes or arbitrary strings. `__proto__` is refused by setup; `constructor` works in
// the engine but trips vitest's toStrictEqual (it compares `a.constructor`), so neither is drawn.
const playerIdArb = fc.oneof(
  fc.stringMatching(/^[1-9][0-9]{16,19}$/),
  fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s !== '__proto__' && s !== 'constructor'),
);
const playersArb = fc.tuple(playerIdArb, playerIdArb).filter(([a, b]) => a !== b);
const choicesArb = fc.array(fc.nat({ max: 5 }), { maxLength: 64 });

function checkInvariants(s: KnucklebonesState): void {
  check(stateSchema.safeParse(s).success).toBe(true);
  const [a, b] = s.players;
  for (const p of [a, b]) {
    const grid = s.grids[p] as Grid;
    for (const column of grid) {
      check(column.length).toBeLessThanOrEqual(3);
      for (const v of column) check(v >= 1 && v <= 6 && Number.isInteger(v)).toBe(true);
    }
    const view = knucklebones.view(s, p);
    const columnScores = view.columnScores[p] as number[];
    check(columnScores).toEqual(grid.map((c) => scoreColumn(c)));
    check(view.scores[p]).toBe(columnScores.reduce((x, y) => x + y, 0));
    check(view.scores[p]).toBe(scoreGrid(grid));
    check(view).not.toHaveProperty('rng');
  }
  if (s.outcome === null) {
    // Running: nobody's grid is full, one player is awaited, with a legal die.
    check(cells(s.grids[a] as Grid)).toBeLessThan(9);
    check(cells(s.grids[b] as Grid)).toBeLessThan(9);
    check(knucklebones.awaiting(s)).toEqual([s.turn]);
    check(s.roll !== null && Number.isInteger(s.roll) && s.roll >= 1 && s.roll <= 6).toBe(true);
  } else {
    check(s.turn).toBeNull();
    check(s.roll).toBeNull();
    check(knucklebones.awaiting(s)).toEqual([]);
  }
}

describe('knucklebones random games', () => {
  it('keep every invariant, end exactly when the placer fills their grid, and replay exactly', () => {
    fc.assert(
      fc.property(seedArb, playersArb, choicesArb, (seed, players, choices) => {
        const setupState = knucklebones.setup({ seed, players, options: {} });
        checkInvariants(setupState);
        check(setupState.turn).toBe(setupState.players[0]);

        const { state, log } = playGame(
          seed,
          players,
          choices,
          (before, { actor, move }, after) => {
            // Purity: the input is unchanged (apply has already run on `before`).
            check(stateSchema.parse(structuredClone(before))).toStrictEqual(before);
            checkInvariants(after);
            check(after.turnNumber).toBe(before.turnNumber + 1);
            check(after.lastPlaced[actor]).toBe(before.roll);
            const placerGrid = after.grids[actor] as Grid;
            const filled = cells(placerGrid) === 9;
            // The game ends exactly when the placer's grid fills, never before.
            check(after.outcome !== null).toBe(filled);
            const other = before.players.find((p) => p !== actor) as string;
            if (after.outcome === null) {
              check(after.turn).toBe(other);
              check(after.rng.n).toBeGreaterThan(before.rng.n);
            } else {
              const scores = { [actor]: scoreGrid(placerGrid), [other]: scoreGrid(after.grids[other] as Grid) };
              check(after.outcome.reason).toBe('grid-full');
              check(after.outcome.scores).toEqual(scores);
              const mine = scores[actor] as number;
              const theirs = scores[other] as number;
              check(after.outcome.winners).toEqual(mine > theirs ? [actor] : theirs > mine ? [other] : []);
            }
            // The chosen column got the die; the opponent's same column lost every die of that value.
            const col = (move as { column: number }).column - 1;
            check(placerGrid[col]).toEqual([...((before.grids[actor] as Grid)[col] as number[]), before.roll]);
            const theirsBefore = (before.grids[other] as Grid)[col] as number[];
            check((after.grids[other] as Grid)[col]).toEqual(theirsBefore.filter((v) => v !== before.roll));
          },
          MAX_PLACEMENTS,
        );

        // Termination within the bound.
        check(state.outcome).not.toBeNull();
        check(log.length).toBeLessThan(MAX_PLACEMENTS);
        check(state.turnNumber).toBe(log.length);
        // The ender's grid has 9 dice.
        const ender = log[log.length - 1]?.actor as string;
        check(cells(state.grids[ender] as Grid)).toBe(9);
        // Replay from the seed and the move log reproduces the state exactly, also through JSON.
        check(replay(seed, players, log)).toStrictEqual(state);
        check(replay(seed, players, JSON.parse(JSON.stringify(log)))).toStrictEqual(state);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('refuse full columns without changing anything, and accept every non-full one', () => {
    fc.assert(
      fc.property(seedArb, fc.array(fc.constantFrom<1 | 2 | 3>(1, 2, 3), { maxLength: 80 }), (seed, picks) => {
        let s = knucklebones.setup({ seed, players: ['p', 'q'], options: {} });
        for (const column of picks) {
          if (s.outcome !== null) break;
          const actor = s.turn as string;
          const full = ((s.grids[actor] as Grid)[column - 1] as number[]).length === 3;
          const snapshot = structuredClone(s);
          try {
            s = knucklebones.apply(s, actor, { type: 'place', column });
            check(full).toBe(false);
          } catch (e) {
            check(full).toBe(true);
            expect(e).toBeInstanceOf(RuleError);
            check((e as RuleError).code).toBe('knucklebones/column-full');
            check(s).toStrictEqual(snapshot);
          }
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a forfeit at any point ends the game for the other player with the current totals', () => {
    fc.assert(
      fc.property(seedArb, choicesArb, fc.nat({ max: 40 }), fc.boolean(), (seed, choices, at, firstQuits) => {
        const { states } = playGame(seed, ['p', 'q'], choices);
        const s = states[Math.min(at, states.length - 1)] as KnucklebonesState;
        if (s.outcome !== null) {
          expect(() => knucklebones.forfeit(s, 'p')).toThrow(RuleError);
          return;
        }
        const quitter = firstQuits ? 'p' : 'q';
        const other = firstQuits ? 'q' : 'p';
        const f = knucklebones.forfeit(s, quitter);
        check(f.outcome).toEqual({
          winners: [other],
          scores: { p: scoreGrid(s.grids.p as Grid), q: scoreGrid(s.grids.q as Grid) },
          reason: 'forfeit',
          forfeited: quitter,
        });
        check(f.grids).toStrictEqual(s.grids);
        checkInvariants(f);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
