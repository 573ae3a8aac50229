import { createHmac } from 'node:crypto';
import { nextInt, rngFromSeed, type RngState } from './rng.ts';
import type { AnyEngine, PlayerId } from './types.ts';

/**
 * The autopilot plays a seat nobody plays by hand: a seat that forfeited in a game of three or
 * more, or the bot's seats in a practice game. It is deterministic: each decision draws from a
 * generator derived from the game's seed and the game's version (the number of entries in its
 * move log), so the same game always gets the same choices, and its moves are logged like any
 * other, so a replay needs nothing more.
 */

/** The generator for the autopilot's decision at `version` of the game with this seed. */
export function autopilotRng(seed: string, version: number): RngState {
  return rngFromSeed(createHmac('sha256', Buffer.from(seed, 'hex')).update(`stonehall:autopilot:${version}`).digest('hex'));
}

/** Uniform among the legal moves (the default policy). Throws when there is none: the engine waits for a player who cannot move. */
export function uniformPolicy<Move>(moves: readonly Move[], rng: RngState): Move {
  if (moves.length === 0) throw new Error('the autopilot was asked to move, but the engine lists no legal move');
  const [i] = nextInt(rng, moves.length);
  return moves[i]!;
}

/** The autopilot's move for `player` now: the engine's own policy, or a uniform pick among the legal moves. */
export function autopilotMove(engine: AnyEngine, state: unknown, player: PlayerId, rng: RngState): unknown {
  if (engine.autopilot) return engine.autopilot(state, player, rng);
  return uniformPolicy(engine.legalMoves(state, player), rng);
}
