import {
  knucklebones,
  type Grid,
  type KnucklebonesLogEntry,
  type KnucklebonesState,
} from '../../../src/games/knucklebones/engine/index.ts';

import { deepFreeze, hex, SEED_A, SEED_B } from '../../helpers/engine.ts';

export { deepFreeze, hex, SEED_A, SEED_B };

/** Builds a running (or, with `outcome`, finished) state directly; `alice` moves unless told otherwise. */
export function makeState(
  opts: {
    alice?: Grid;
    bob?: Grid;
    turn?: 'alice' | 'bob' | null;
    roll?: number | null;
    turnNumber?: number;
    outcome?: KnucklebonesState['outcome'];
  } = {},
): KnucklebonesState {
  const turn = opts.turn === undefined ? 'alice' : opts.turn;
  return {
    players: ['alice', 'bob'],
    grids: { alice: opts.alice ?? [[], [], []], bob: opts.bob ?? [[], [], []] },
    turn,
    roll: opts.roll === undefined ? (turn === null ? null : 1) : opts.roll,
    rng: { seed: SEED_A, n: 5 },
    turnNumber: opts.turnNumber ?? 0,
    lastPlaced: { alice: null, bob: null },
    outcome: opts.outcome ?? null,
  };
}

export const cells = (g: Grid): number => g[0].length + g[1].length + g[2].length;

/**
 * Plays a game to the end (or `maxPlacements`), the mover picking among non-full columns with
 * `choices[i % choices.length]`. Calls `onStep` before and after every placement.
 */
export function playGame(
  seed: string,
  players: [string, string],
  choices: readonly number[],
  onStep?: (before: KnucklebonesState, entry: KnucklebonesLogEntry, after: KnucklebonesState) => void,
  maxPlacements = 500,
): { state: KnucklebonesState; log: KnucklebonesLogEntry[]; states: KnucklebonesState[] } {
  let state = knucklebones.setup({ seed, players, options: {} });
  const log: KnucklebonesLogEntry[] = [];
  const states = [state];
  for (let i = 0; i < maxPlacements && state.outcome === null; i++) {
    const actor = state.turn;
    if (actor === null) throw new Error('running state without a turn');
    const grid = state.grids[actor] as Grid;
    const open = [1, 2, 3].filter((c) => (grid[c - 1] as number[]).length < 3) as Array<1 | 2 | 3>;
    const pick = choices.length === 0 ? 0 : (choices[i % choices.length] as number);
    const entry: KnucklebonesLogEntry = { actor, move: { type: 'place', column: open[pick % open.length] as 1 | 2 | 3 } };
    const next = knucklebones.apply(state, actor, entry.move);
    onStep?.(state, entry, next);
    log.push(entry);
    states.push(next);
    state = next;
  }
  return { state, log, states };
}
