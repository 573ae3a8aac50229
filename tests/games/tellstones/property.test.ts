import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../helpers/check.ts';
import { RuleError } from '../../../src/kernel/types.ts';
import {
  SYMBOLS,
  replay,
  stateSchema,
  tellstones,
  type TellstonesLogEntry,
  type TellstonesMove,
  type TellstonesOptions,
  type TellstonesState,
} from '../../../src/games/tellstones/engine/index.ts';
import { CALM_TURNS, deepFreeze, hex, playGame } from './helpers.ts';

const NUM_RUNS = 120;
/**
 * Far above any real game: after CALM_TURNS turns the generator only challenges, boasts or peeks
 * at three; each challenge scores a point and a side wins at 3 (at most 5 points are ever handed
 * out), a boast takes at most 3 + 14 moves. Hitting the bound fails the test.
 */
const MAX_MOVES = 400;

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex);
const optionsArb: fc.Arbitrary<TellstonesOptions> = fc.record({
  variant: fc.constantFrom('standard', 'kings-circle', 'fearless-vanguard'),
  firstStone: fc.constantFrom('random', 'scales'),
});
const rngSeedArb = fc.integer({ min: 0, max: 2 ** 31 - 1 });

function checkInvariants(s: TellstonesState): void {
  const parsed = stateSchema.safeParse(s);
  check(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
  // Every stone is in exactly one place: 7 stones per set, each on its line or in its pool.
  check(s.lines).toHaveLength(s.variant === 'fearless-vanguard' ? 2 : 1);
  for (const [i, line] of s.lines.entries()) {
    check(line.length).toBeGreaterThanOrEqual(1);
    check(line.length).toBeLessThanOrEqual(7);
    const all = [...line.map((x) => x.symbol), ...(s.pools[i] ?? [])];
    check(all).toHaveLength(7);
    check(new Set(all)).toEqual(new Set(SYMBOLS));
  }
  const awaiting = tellstones.awaiting(s);
  if (s.outcome === null) {
    check(awaiting).toHaveLength(1);
    for (const p of s.seats) {
      const legal = tellstones.view(s, p).legal;
      if (awaiting.includes(p)) check(legal.length).toBeGreaterThan(0);
      else check(legal).toEqual([]);
    }
    check(s.points.every((x) => x < 3)).toBe(true);
  } else {
    check(awaiting).toEqual([]);
    check(s.turn).toBeNull();
    check(s.pending).toBeNull();
    check(s.outcome.winners.length).toBe(s.seats.length / 2);
    for (const p of s.seats) check(tellstones.view(s, p).legal).toEqual([]);
  }
}

describe('tellstones random games', () => {
  it('keep every invariant, never mutate their input, end within the bound, and replay exactly', () => {
    fc.assert(
      fc.property(seedArb, optionsArb, rngSeedArb, (seed, options, rngSeed) => {
        const setupState = tellstones.setup({ seed, players: options.variant === 'kings-circle' ? ['a1', 'b1', 'a2', 'b2'] : ['alice', 'bob'], options });
        checkInvariants(setupState);

        const { state, log } = playGame(
          seed,
          options,
          rngSeed,
          (before, entry, after) => {
            checkInvariants(after);
            // The stored JSON round-trips.
            check(stateSchema.parse(JSON.parse(JSON.stringify(after)))).toStrictEqual(after);
            // Points never go down and at most one point is handed out per move.
            const gained = after.points[0] + after.points[1] - before.points[0] - before.points[1];
            check(gained === 0 || gained === 1).toBe(true);
            check(after.points[0]).toBeGreaterThanOrEqual(before.points[0]);
            check(after.points[1]).toBeGreaterThanOrEqual(before.points[1]);
            // A completed turn passes clockwise from the player whose turn it was.
            if (after.outcome === null && after.turnNumber === before.turnNumber + 1) {
              const seat = before.seats.indexOf(before.turn as string);
              check(after.turn).toBe(before.seats[(seat + 1) % before.seats.length]);
              check(after.pending).toBeNull();
            }
            if (after.outcome === null && after.turnNumber === before.turnNumber) check(after.pending).not.toBeNull();
            // Only the awaited player moved.
            check(tellstones.awaiting(before)).toContain(entry.actor);
          },
          { maxMoves: MAX_MOVES, freeze: true },
        );

        check(state.outcome).not.toBeNull();
        check(log.length).toBeLessThan(MAX_MOVES);
        // After CALM_TURNS: at most 5 points, each followed by at most a hide and two peeks of three.
        check(state.turnNumber).toBeLessThanOrEqual(CALM_TURNS + 20);
        check(['points', 'boast-proven', 'boast-failed']).toContain(state.outcome?.reason);
        if (state.outcome?.reason === 'points') check(Math.max(...state.points)).toBe(3);
        // Replay from the seed, options and log reproduces the state exactly, also through JSON.
        const players = state.seats.slice();
        check(replay(seed, players, options, log)).toStrictEqual(state);
        check(replay(seed, players, options, JSON.parse(JSON.stringify(log)) as TellstonesLogEntry[])).toStrictEqual(state);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a forfeit at any point ends the game for the other side, and replays', () => {
    fc.assert(
      fc.property(seedArb, optionsArb, rngSeedArb, fc.nat({ max: 30 }), (seed, options, rngSeed, at) => {
        const { state, log } = playGame(seed, options, rngSeed, undefined, { forfeitAt: at });
        const last = log.at(-1);
        if (last && 'forfeit' in last) {
          const side = state.seats.indexOf(last.actor) % 2;
          expect(state.outcome).toMatchObject({ reason: 'forfeit', forfeited: last.actor });
          check(state.outcome?.winners).toEqual(state.seats.filter((_, i) => i % 2 !== side));
          checkInvariants(state);
        }
        check(replay(seed, state.seats.slice(), options, log)).toStrictEqual(state);
      }),
      { numRuns: 60 },
    );
  });

  const positionArb = fc.integer({ min: -1, max: 7 });
  const lineArb = fc.option(fc.constantFrom(0, 1, 2), { nil: undefined });
  const symbolArb = fc.constantFrom(...SYMBOLS, 'dragon');
  const anyMoveArb = fc.oneof(
    fc.record({ type: fc.constant('place'), line: lineArb, symbol: symbolArb, end: fc.constantFrom('left', 'right') }),
    fc.record({ type: fc.constant('hide'), line: lineArb, position: positionArb }),
    fc.record({ type: fc.constant('swap'), line: lineArb, a: positionArb, b: positionArb }),
    fc.record({
      type: fc.constant('peek'),
      line: lineArb,
      positions: fc.array(positionArb, { minLength: 0, maxLength: 4 }),
      shareWith: fc.option(fc.constantFrom('alice', 'bob', 'a1', 'a2', 'b1', 'b2', 'x'), { nil: undefined }),
    }),
    fc.record({ type: fc.constant('challenge'), line: lineArb, position: positionArb }),
    fc.constant({ type: 'boast' }),
    fc.record({ type: fc.constant('answer-challenge'), symbol: symbolArb }),
    fc.record({ type: fc.constant('answer-boast'), answer: fc.constantFrom('believe', 'doubt', 'counter', 'maybe') }),
    fc.record({ type: fc.constant('prove'), line: lineArb, position: positionArb, symbol: symbolArb }),
  );

  it('any move by anyone is either applied to a valid state or refused with a RuleError, leaving the input untouched', () => {
    fc.assert(
      fc.property(
        seedArb,
        optionsArb,
        rngSeedArb,
        fc.nat({ max: 40 }),
        fc.array(fc.tuple(fc.nat({ max: 4 }), anyMoveArb), { minLength: 1, maxLength: 12 }),
        (seed, options, rngSeed, at, attempts) => {
          const { states } = playGame(seed, options, rngSeed);
          let s = states[Math.min(at, states.length - 1)] as TellstonesState;
          for (const [who, raw] of attempts) {
            // Drop undefined keys as JSON would (an explicit `line: undefined` is an absent line).
            const move = JSON.parse(JSON.stringify(raw)) as TellstonesMove;
            const actor = s.seats[who] ?? 'stranger';
            const snapshot = structuredClone(s);
            deepFreeze(s);
            try {
              s = tellstones.apply(s, actor, move);
              checkInvariants(s);
            } catch (e) {
              expect(e).toBeInstanceOf(RuleError);
              check((e as RuleError).code.startsWith('tellstones/')).toBe(true);
              check(s).toStrictEqual(snapshot);
            }
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
