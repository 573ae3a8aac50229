import fc from 'fast-check';
import { describe, it } from 'vitest';
import { check } from '../../helpers/check.ts';
import { krellstones, replay, stateSchema, type KrellstonesOptions, type KrellstonesPlayerData, type KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { hex, newGame, picker, playRandom, PLAYERS, type LoadoutSpec } from './helpers.ts';
import { STONE_TYPES } from '../../../src/games/krellstones/data.ts';

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex);
const sideboardTypes = fc.array(fc.constantFrom(...STONE_TYPES), { maxLength: 3 });

const gameArb = fc.record({
  seed: seedArb,
  pickSeed: seedArb,
  n: fc.constantFrom(2, 3, 4) as fc.Arbitrary<2 | 3 | 4>,
  rounds: fc.integer({ min: 1, max: 5 }),
  rerolls: fc.boolean(),
  sideboard: fc.constantFrom<KrellstonesOptions['sideboard']>('off', 3),
  pace: fc.constantFrom<KrellstonesOptions['pace']>('FAST', 'NORMAL', 'SLOW'),
  sideboards: fc.array(sideboardTypes, { minLength: 4, maxLength: 4 }),
  forfeitRate: fc.constantFrom(0, 0, 4),
  timerRate: fc.constantFrom(50, 300),
});

/** The ids each player brought, sorted. */
const brought = (data: Record<string, KrellstonesPlayerData>) =>
  Object.fromEntries(Object.entries(data).map(([p, d]) => [p, [...d.stones, ...(d.sideboard ?? [])].map((x) => x.id).sort()]));
const held = (s: KrellstonesState) => Object.fromEntries(s.players.map((p) => [p, [...s.seats[p]!.active, ...s.seats[p]!.sideboard].map((x) => x.id).sort()]));

/** After every step; `deep` (every few steps and at the end): the stored JSON passes its schema and the public view hides the seed. */
function checkStep(s: KrellstonesState, ids: Record<string, string[]>, deep: boolean): void {
  if (deep) {
    check(stateSchema.safeParse(JSON.parse(JSON.stringify(s))).success).toBe(true);
    check(JSON.stringify(krellstones.view(s, null))).not.toContain(s.rng.seed);
  }
  // Stones are never lost or duplicated: each player holds exactly what they brought.
  check(held(s)).toEqual(ids);
  const awaited = krellstones.awaiting(s);
  for (const p of s.players) {
    if (!awaited.includes(p)) check(krellstones.legalMoves(s, p)).toEqual([]);
    if (s.out.includes(p)) check(awaited).not.toContain(p);
  }
  check(s.history.reduce((a, h) => a + (h.winner ? 1 : 0), 0)).toBe(s.players.reduce((a, p) => a + s.seats[p]!.roundsWon, 0));
}

describe('random games through legalMoves and timers', () => {
  it('keep the stones, end after their rounds (or a forfeit), rank forfeits last, and replay exactly', () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        const players = PLAYERS[g.n];
        const specs: Record<string, LoadoutSpec> = {};
        players.forEach((p, i) => {
          if (g.sideboard !== 'off') specs[p] = { sideboard: g.sideboards[i]!.map((type) => ({ type })) };
        });
        const { state, playerData, options } = newGame(players, { rounds: g.rounds, rerolls: g.rerolls, sideboard: g.sideboard, pace: g.pace }, specs, g.seed);
        const ids = brought(playerData);
        let forfeited = false;
        let steps = 0;
        const { state: end, log } = playRandom(state, picker(g.pickSeed), {
          forfeitRate: g.forfeitRate,
          timerRate: g.timerRate,
          maxSteps: 3000,
          onStep: (before, entry, after) => {
            if ('forfeit' in entry) forfeited = true;
            check(before.phase === 'over').toBe(false);
            check(after.history.length).toBeGreaterThanOrEqual(before.history.length);
            checkStep(after, ids, ++steps % 8 === 0 || after.outcome !== null);
          },
        });
        const o = end.outcome;
        check(o).not.toBeNull();
        check(krellstones.timers(end)).toEqual([]);
        check(o!.reason === 'rounds').toBe(end.history.length === g.rounds);
        // A game ends early only by a forfeit: by choice, or three expiries in a row.
        if (o!.reason !== 'rounds') check(forfeited || o!.forfeited !== undefined || (o!.forfeits?.length ?? 0) > 0).toBe(true);
        for (const w of o!.winners) check(end.out).not.toContain(w);
        if (o!.places) {
          const standing = players.filter((p) => !end.out.includes(p));
          for (const p of end.out) for (const q of standing) check(o!.places[p]!).toBeGreaterThan(o!.places[q]!);
        }
        // Replay from seed, options, player data and the move log, also through JSON.
        check(replay(g.seed, players, options, playerData, JSON.parse(JSON.stringify(log)))).toEqual(end);
      }),
      { numRuns: 30 },
    );
  });

  it('a 4-player 17-round game with sideboards ends after exactly 17 rounds when nobody forfeits', () => {
    const specs = Object.fromEntries(PLAYERS[4].map((p) => [p, { sideboard: [{ type: 'krell' as const }, { type: 'dancer' as const }] }]));
    const { state, playerData } = newGame(PLAYERS[4], { rounds: 17, sideboard: 2 }, specs, 'be'.repeat(32));
    const ids = brought(playerData);
    const { state: end } = playRandom(state, picker('ef'.repeat(32)), { timerRate: 0, onStep: (_b, _e, after) => check(held(after)).toEqual(ids) });
    check(end.outcome?.reason).toBe('rounds');
    check(end.history.map((h) => h.round)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    // Everyone moved one place left each round.
    end.history.forEach((h, i) => check(h.order).toEqual([...end.history[0]!.order.slice(i % 4), ...end.history[0]!.order.slice(0, i % 4)]));
  });
});
