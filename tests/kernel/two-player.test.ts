import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rngFromSeed, shuffle } from '../../src/kernel/rng.ts';
import { checkTwoPlayerState, twoPlayer, type TurnState } from '../../src/kernel/two-player.ts';

type S = TurnState & { n: number; marks: Record<string, number> };
const turns = twoPlayer<S>({ id: 'dummy', name: 'Dummy' }, (s) => s.n);
const running: S = { players: ['a', 'b'], turn: 'b', outcome: null, n: 4, marks: { a: 1, b: 2 } };
const over: S = { ...running, turn: null, outcome: { winners: ['a'], reason: 'done' } };
const code = (f: () => void) => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return null;
};

describe('the kernel’s alternating-turn helper for two players', () => {
  it('awaits the player to move, refuses others with the game’s codes, and forfeits to the other seat', () => {
    expect(turns.awaiting(running)).toEqual(['b']);
    expect(turns.awaiting(over)).toEqual([]);
    expect(turns.opponentOf(running, 'a')).toBe('b');
    expect(code(() => turns.assertTurn(running, 'b'))).toBeNull();
    expect(code(() => turns.assertTurn(running, 'a'))).toBe('dummy/not-your-turn');
    expect(code(() => turns.assertSeated(running, 'c'))).toBe('dummy/not-a-player');
    expect(code(() => turns.assertSeated(over, 'a'))).toBe('dummy/game-over');
    expect(turns.forfeitOutcome(running, 'b', { a: 1, b: 2 })).toEqual({ winners: ['a'], scores: { a: 1, b: 2 }, reason: 'forfeit', forfeited: 'b' });
    expect(turns.forfeitOutcome(running, 'a')).toEqual({ winners: ['b'], reason: 'forfeit', forfeited: 'a' });
    const copy = turns.outcome(over)!;
    expect(copy).toEqual(over.outcome);
    expect(copy).not.toBe(over.outcome);
  });

  it('runs one forfeit timer at the turn limit, keyed by the game’s turn key; none when over', () => {
    expect(turns.timers(running)).toEqual([{ key: 'turn:4', player: 'b', after: 'turn-limit', onExpiry: { type: 'forfeit' } }]);
    expect(turns.timers(over)).toEqual([]);
  });

  it('draws who starts from the seed exactly as a shuffle of the two seats', () => {
    const rng = rngFromSeed('cd'.repeat(32));
    expect(turns.drawOrder(rng, ['x', 'y'])).toEqual(shuffle(rng, ['x', 'y']));
  });

  it('checks a stored state: distinct players, records keyed by them, outcome exactly when no turn runs', () => {
    const schema = z.object({ players: z.array(z.string()), turn: z.string().nullable(), outcome: z.any(), n: z.number(), marks: z.record(z.string(), z.number()) }).superRefine((s, ctx) => checkTwoPlayerState(s as S, ctx, { marks: s.marks }));
    expect(schema.safeParse(running).success).toBe(true);
    expect(schema.safeParse(over).success).toBe(true);
    const bad = (s: object) => schema.safeParse(s).error?.issues.map((i) => i.message);
    expect(bad({ ...running, players: ['a', 'a'], turn: 'a', marks: { a: 1 } })).toEqual(['players must be distinct', 'marks must be keyed by the players']);
    expect(bad({ ...running, turn: 'c' })).toEqual(['turn must be a player']);
    expect(bad({ ...running, turn: null })).toEqual(['outcome must be set exactly when no turn is running']);
    expect(bad({ ...over, outcome: { winners: ['z'], reason: 'x' } })).toEqual(['winners must be players']);
  });
});
