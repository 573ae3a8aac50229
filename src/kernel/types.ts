import type { z } from 'zod';

/** A player id: the Discord user id of the seat's occupant. */
export type PlayerId = string;

/**
 * A rule violation. `code` is stable and namespaced by game (`knucklebones/column-full`);
 * tests assert codes, the bot turns them into friendly ephemeral text using `message`.
 */
export class RuleError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'RuleError';
    this.code = code;
  }
}

export interface Outcome {
  /** Winners (empty for a draw). */
  winners: PlayerId[];
  scores?: Record<PlayerId, number>;
  /** Machine-readable reason, e.g. `grid-full`, `forfeit`. */
  reason: string;
  /** The player who forfeited, when reason is `forfeit`. */
  forfeited?: PlayerId;
}

export interface SetupArgs<Options> {
  players: PlayerId[];
  /** The game's secret seed (hex). All randomness derives from it (see rng.ts). */
  seed: string;
  options: Options;
}

/**
 * The contract every game engine follows. Engines are pure: no I/O, no clock, no Math.random,
 * never mutate their inputs. Hidden information leaves the engine only through `view`.
 */
export interface Engine<State, Move, View, Options = Record<string, never>> {
  id: string;
  /** Display name, e.g. "Knucklebones". */
  name: string;
  minPlayers: number;
  maxPlayers: number;
  stateSchema: z.ZodType<State>;
  moveSchema: z.ZodType<Move>;
  optionsSchema: z.ZodType<Options>;
  setup(args: SetupArgs<Options>): State;
  /** Applies a move by `actor`; throws RuleError when illegal. Returns a new state. */
  apply(state: State, actor: PlayerId, move: Move): State;
  /** What `viewer` may see; null is a spectator. */
  view(state: State, viewer: PlayerId | null): View;
  /** Players whose input the game waits for (empty when over). */
  awaiting(state: State): PlayerId[];
  outcome(state: State): Outcome | null;
  /** `player` gives up (or timed out); the game ends. Throws RuleError if already over or not a player. */
  forfeit(state: State, player: PlayerId): State;
  /**
   * Optional. True when `actor`'s move left their own turn going rather than ending it (a
   * Knucklebones die item used before placing): the turn's deadline stands. Without it, a move
   * after which the game waits for its own actor again starts that player's next turn.
   */
  continuesTurn?(prev: State, next: State, actor: PlayerId): boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEngine = Engine<any, any, any, any>;
