import type { Engine, PlayerId } from './types.ts';

/** One step of a replay: a move by `actor`, or `actor` forfeiting (a resignation or a timeout). */
export type ReplayEntry<Move> = { actor: PlayerId; move: Move } | { actor: PlayerId; forfeit: true };

/**
 * Recomputes a game from its seed, seating, options and log: setup, then each entry in order.
 * Pure; throws the RuleError of the first illegal entry. Every engine's `replay` and the
 * service's verifier (src/services/replay.ts) are this function.
 */
export function replayWith<State, Move, View, Options>(
  engine: Engine<State, Move, View, Options>,
  seed: string,
  players: PlayerId[],
  options: Options,
  entries: readonly ReplayEntry<Move>[],
  playerData?: Record<PlayerId, unknown>,
): State[] {
  let state = engine.setup({ seed, players, options, ...(playerData ? { playerData } : {}) });
  const states = [state];
  for (const entry of entries) {
    state = 'forfeit' in entry ? engine.forfeit(state, entry.actor) : engine.apply(state, entry.actor, entry.move);
    states.push(state);
  }
  return states;
}
