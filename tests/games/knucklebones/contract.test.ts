import { describe, expect, it } from 'vitest';
import { knucklebones, type KnucklebonesMove, type KnucklebonesState } from '../../../src/games/knucklebones/engine/index.ts';
import { checkEngineContract } from '../../kernel/contract.ts';

describe('Knucklebones follows the engine contract', () => {
  it('over 150 random games: legal moves accepted, others refused, timers, autopilot, replay', () => {
    const r = checkEngineContract<KnucklebonesState, KnucklebonesMove>({
      engine: knucklebones,
      games: 150,
      maxSteps: 200,
      setup: (i) => ({ players: [`p${i}a`, `p${i}b`], options: {} }),
      candidates: () => [
        ...([1, 2, 3] as const).map((column) => ({ type: 'place' as const, column })),
        { type: 'keep', choice: 0 },
        { type: 'keep', choice: 1 },
      ],
    });
    expect(r.outcomes['grid-full']).toBeGreaterThan(100);
  });

  it('one turn timer per turn; a die item keeps its key (the deadline stands)', () => {
    const s = knucklebones.setup({ players: ['a', 'b'], seed: 'ab'.repeat(32), options: {} });
    const [t] = knucklebones.timers(s);
    expect(t).toEqual({ key: 'turn:0', player: s.turn, after: 'turn-limit', onExpiry: { type: 'forfeit' } });
    const steady = knucklebones.apply(s, s.turn!, { type: 'use-die', die: 'steady' });
    expect(knucklebones.timers(steady)[0]!.key).toBe('turn:0');
    const placed = knucklebones.apply(steady, s.turn!, { type: 'place', column: 1 });
    expect(knucklebones.timers(placed)[0]).toMatchObject({ key: 'turn:1', player: placed.turn });
  });
});
