import type { z } from 'zod';

/** A player id: the Discord user id of the seat's occupant (or an autopilot seat's id, see SYSTEM). */
export type PlayerId = string;

/**
 * The actor of moves nobody makes by hand: a timer that advances a phase by itself (the next
 * automatic roll, a window that closes). Engines accept a move from SYSTEM only where their timers
 * declare one (`TimerSpec.onExpiry` without a player). The move log records it as the actor of
 * such moves and of timeouts.
 */
export const SYSTEM: PlayerId = 'system';

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
  /** Winners (empty for a draw or when nobody wins). Ties for the best result list every winner. */
  winners: PlayerId[];
  scores?: Record<PlayerId, number>;
  /** Machine-readable reason, e.g. `grid-full`, `forfeit`, `rounds`. */
  reason: string;
  /** The player whose forfeit ended the game (two players, or a team game). */
  forfeited?: PlayerId;
  /**
   * Games of three or more who each play for themselves: every seat that forfeited along the way
   * (their seat went on under the autopilot), in the order they forfeited. They rank last and gain
   * nothing, whatever their score.
   */
  forfeits?: PlayerId[];
  /**
   * Places, 1 = best, ties share a place (every seat). Games of more than two players give it so
   * that leaderboards can rank by place; two-player games may leave it out.
   */
  places?: Record<PlayerId, number>;
}

export interface SetupArgs<Options> {
  players: PlayerId[];
  /** The game's secret seed (hex). All randomness derives from it (see rng.ts). */
  seed: string;
  options: Options;
  /**
   * What each player brings to this game, for games with owned pieces (Krellstones' stones as they
   * were when the game started), validated by the engine. Snapshotted into the state: a later
   * change of the collection never alters a running game or its replay.
   */
  playerData?: Record<PlayerId, unknown>;
}

/** How long a timer runs once started: fixed milliseconds, or the server's turn limit (then with reminders). */
export type TimerDuration = { ms: number } | 'turn-limit';

/**
 * A timer the game runs in some state, as data (the scheduler stores it as a job, so it survives
 * restarts and fires once). The service compares the timers of the state before and after each
 * change by identity (key and player): a timer present in both keeps running with its original
 * deadline; a new one starts now; one that disappeared is cancelled. So `key` must stay the same
 * while the timer should keep running and change when a new one should start (include a step or
 * turn counter: `turn:12`, `roll:r3:p2`, `choose:r3`).
 */
export interface TimerSpec<Move> {
  key: string;
  /** The player the timer waits for; absent for a system timer (a phase that advances by itself). */
  player?: PlayerId;
  after: TimerDuration;
  /**
   * At expiry: the player forfeits (their ordinary turn); or `move` is applied for `player` (a
   * default choice: "reroll nothing") or, without a player, by SYSTEM (a phase advance).
   */
  onExpiry: { type: 'forfeit' } | { type: 'move'; move: Move };
  /**
   * True when this timer is the player's turn: they get a turn DM when it starts, reminders before
   * it ends ('turn-limit' durations), and their deadline shows on the board. Default: true when the
   * timer has a player.
   */
  turn?: boolean;
  /**
   * How the turn DM reaches the player: `new` (the default) posts a new DM, which notifies them;
   * `edit` edits their newest DM of this game in place when there is one (no new message, no
   * ping): a game of many short choices keeps one DM per game, and posts new ones only for what
   * must reach the player at once.
   */
  dm?: 'new' | 'edit';
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
  /** Applies a move by `actor` (a seated player, or SYSTEM); throws RuleError when illegal. Returns a new state. */
  apply(state: State, actor: PlayerId, move: Move): State;
  /** What `viewer` may see; null is a spectator. */
  view(state: State, viewer: PlayerId | null): View;
  /** Players whose input the game waits for (empty when over). */
  awaiting(state: State): PlayerId[];
  outcome(state: State): Outcome | null;
  /**
   * `player` gives up (or ran out of time). Two players or teams: the game ends. Three or more who
   * each play for themselves: the seat stays in the game, listed by `out`, and is played by the
   * autopilot from then on. Throws RuleError if the game is over or `player` is not seated.
   */
  forfeit(state: State, player: PlayerId): State;
  /**
   * Every move `player` may make now (empty when the game does not wait for them). The bot offers
   * exactly these, the autopilot picks among them, and tests check that each is accepted by
   * `apply`. Moves by SYSTEM are not listed.
   */
  legalMoves(state: State, player: PlayerId): Move[];
  /** The timers that run in this state (see TimerSpec). A game over runs none. */
  timers(state: State): TimerSpec<Move>[];
  /**
   * Seats that forfeited while the game goes on (three or more players): the autopilot plays them.
   * Absent or empty for games where a forfeit ends the game.
   */
  out?(state: State): PlayerId[];
  /**
   * Optional smarter autopilot for `player` (a forfeited seat, or the bot's seat in a practice
   * game). Must return one of `legalMoves(state, player)`; `rng` is a generator derived from the
   * game's seed for this decision, so the choice is deterministic. Without it the autopilot picks
   * uniformly among the legal moves.
   */
  autopilot?(state: State, player: PlayerId, rng: import('./rng.ts').RngState): Move;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEngine = Engine<any, any, any, any>;
