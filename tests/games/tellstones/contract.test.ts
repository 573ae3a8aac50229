import { describe, expect, it } from 'vitest';
import { SYMBOLS, tellstones, type TellstonesMove, type TellstonesState } from '../../../src/games/tellstones/engine/index.ts';
import { checkEngineContract } from '../../kernel/contract.ts';

const variants = ['standard', 'kings-circle', 'fearless-vanguard'] as const;

/** A spread of moves, legal or not, for the "unlisted moves are refused" half of the check. */
function candidates(s: TellstonesState): TellstonesMove[] {
  const lines = s.lines.length > 1 ? [{ line: 0 as const }, { line: 1 as const }] : [{}];
  const out: TellstonesMove[] = [{ type: 'boast' }];
  for (const l of lines) {
    for (let p = 0; p < 8; p++) {
      out.push({ type: 'hide', ...l, position: p }, { type: 'challenge', ...l, position: p }, { type: 'prove', ...l, position: p, symbol: SYMBOLS[p % 7]! });
      out.push({ type: 'swap', ...l, a: p, b: (p + 1) % 8 });
    }
    out.push({ type: 'peek', ...l, positions: [0, 1] }, { type: 'peek', ...l, positions: [0] }, { type: 'place', ...l, symbol: 'crown', end: 'left' });
  }
  for (const answer of ['believe', 'doubt', 'counter'] as const) out.push({ type: 'answer-boast', answer });
  out.push({ type: 'answer-challenge', symbol: 'sword' });
  return out;
}

/** Apply accepts a swap in either order and a peek's positions in any order: compare canonically. */
function same(a: TellstonesMove, b: TellstonesMove): boolean {
  const canon = (m: TellstonesMove) =>
    m.type === 'swap' ? { ...m, a: Math.min(m.a, m.b), b: Math.max(m.a, m.b) } : m.type === 'peek' ? { ...m, positions: m.positions.slice().sort() } : m;
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

describe('Tellstones follows the engine contract', () => {
  it('over 45 random games of every variant: legal moves accepted, others refused, timers, replay', () => {
    const r = checkEngineContract<TellstonesState, TellstonesMove>({
      engine: tellstones,
      games: 45,
      maxSteps: 600,
      setup: (i) => {
        const variant = variants[i % 3]!;
        const n = variant === 'kings-circle' ? 4 : 2;
        return { players: Array.from({ length: n }, (_, k) => `p${i}-${k}`), options: { variant, firstStone: i % 2 ? 'scales' : 'random' } };
      },
      candidates,
      same,
    });
    expect(Object.keys(r.outcomes).length).toBeGreaterThan(1);
  });

  it('each step of a boast has its own timer', () => {
    let s = tellstones.setup({ players: ['a', 'b'], seed: 'cd'.repeat(32), options: { variant: 'standard', firstStone: 'scales' } });
    const first = s.turn!;
    const other = first === 'a' ? 'b' : 'a';
    s = tellstones.apply(s, first, { type: 'hide', position: 0 });
    s = tellstones.apply(s, other, { type: 'boast' });
    expect(tellstones.timers(s)).toEqual([{ key: 'turn:1:boast', player: first, after: 'turn-limit', onExpiry: { type: 'forfeit' } }]);
    s = tellstones.apply(s, first, { type: 'answer-boast', answer: 'counter' });
    expect(tellstones.timers(s)[0]).toMatchObject({ key: 'turn:1:counter', player: other });
  });
});
