import { describe, expect, it } from 'vitest';
import { buildGrid, longestRun } from '../../../src/games/crystallia/engine/board.ts';
import { canonicalMove, COLOURS, crystallia, type CrystalliaMove, type CrystalliaState } from '../../../src/games/crystallia/engine/index.ts';
import { checkEngineContract } from '../../kernel/contract.ts';

const DIRS = ['right', 'down', 'left', 'up'] as const;

/**
 * A spread of moves, legal or not, for the "unlisted moves are refused" half of the contract:
 * every kind, with stones, squares and directions varied by the turn and step. Candidates are
 * given in the engine's canonical spelling (a double going left is the same as going right from
 * the other square), so equal JSON means the same move.
 */
function candidates(s: CrystalliaState): CrystalliaMove[] {
  const k = (s.turn?.number ?? 0) * 31 + (s.turn?.steps ?? 0) * 7;
  const out: CrystalliaMove[] = [{ type: 'skip-ability' }, { type: 'flip', platforms: [] }, { type: 'flip', platforms: ['red', 'purple'] }];
  for (let stone = 0; stone < 24; stone++) {
    const square = (stone * 13 + k) % 54;
    out.push({ type: 'place', stone, square, dir: DIRS[(stone + k) % 4]! });
    out.push({ type: 'discard', stone });
    out.push({ type: 'move', stone, to: (square * 5 + 1) % 54 });
    out.push({ type: 'rotate', stone, pivot: (stone % 2) as 0 | 1, to: (square + 9) % 54 });
  }
  for (const colour of COLOURS) out.push({ type: 'talisman', colour }, { type: 'isolate', colour });
  return out.map((m) => canonicalMove(s, m));
}

/** Candidates are canonical, so the same move is the same fields (compared directly: the default JSON comparison against ~2000 listed placements is slow). */
function same(a: CrystalliaMove, b: CrystalliaMove): boolean {
  if (a.type !== b.type) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k of Object.keys(x)) {
    const u = x[k];
    const v = y[k];
    if (Array.isArray(u) ? !Array.isArray(v) || u.join() !== v.join() : u !== v) return false;
  }
  return Object.keys(y).length === Object.keys(x).length;
}

function check(s: CrystalliaState): void {
  for (const c of COLOURS) expect(s.supply[c] + s.players.reduce((a, p) => a + s.platforms[p]!.crystals[c], 0)).toBe(20);
  expect(longestRun(buildGrid(s.positions, s.stones).half)).toBeLessThanOrEqual(4);
}

describe('Crystallia follows the engine contract', () => {
  it('over random games of 2, 3 and 4 players, Advanced Mode on and off: legal moves accepted, others refused, timers, autopilot, replay', () => {
    const r = checkEngineContract<CrystalliaState, CrystalliaMove>({
      engine: crystallia,
      games: 12,
      maxSteps: 400,
      sample: 6,
      forfeitRate: 0.02,
      setup: (i) => ({ players: Array.from({ length: 2 + (i % 3) }, (_, k) => `g${i}p${k}`), options: { advanced: Math.floor(i / 3) % 2 === 1 } }),
      candidates,
      same,
      check,
    });
    expect(r.outcomes['pyramid-empty']).toBeGreaterThan(0);
  });
});
