import type { z } from 'zod';
import { assertRunningAndSeated, copyOutcome } from './checks.ts';
import { replayWith, type ReplayEntry } from './replay.ts';
import { shuffle, type RngState } from './rng.ts';
import { RuleError, type Engine, type Outcome, type PlayerId, type TimerSpec } from './types.ts';

/**
 * What every alternating-turn game of two players repeats, once: who is awaited, "the game runs
 * and you are seated (and it is your turn)", the outcome and a forfeit, the one forfeit timer at
 * the turn limit, the seeded draw of who starts, the state schema's consistency checks and the
 * replay wrapper. A game keeps `players` (in turn order), `turn` (null when over) and `outcome`
 * (set exactly when over) in its state; the rest of its state is its own.
 */
export interface TurnState {
  players: readonly PlayerId[];
  turn: PlayerId | null;
  outcome: Outcome | null;
}

export interface TwoPlayer<S extends TurnState> {
  /** The other seat (callers have checked that `player` is seated). */
  opponentOf(state: S, player: PlayerId): PlayerId;
  /** Throws `<game>/game-over` or `<game>/not-a-player`. */
  assertSeated(state: S, player: PlayerId): void;
  /** As assertSeated, then `<game>/not-your-turn` unless `player` is to move. */
  assertTurn(state: S, player: PlayerId): void;
  /** The player to move, or nobody when the game is over. */
  awaiting(state: S): PlayerId[];
  outcome(state: S): Outcome | null;
  /** One timer: the mover's turn at the turn limit, forfeit at expiry, keyed by `turnKey` (`turn:<key>`). */
  timers<M>(state: S): TimerSpec<M>[];
  /** The outcome of `player` giving up (or running out of time): the other seat wins. */
  forfeitOutcome(state: S, player: PlayerId, scores?: Record<PlayerId, number>): Outcome;
  /** The seeded draw of who starts: the two seats shuffled (turn order) and the advanced generator. */
  drawOrder(rng: RngState, players: readonly PlayerId[]): [[PlayerId, PlayerId], RngState];
}

export function twoPlayer<S extends TurnState>(game: { id: string; name: string }, turnKey: (state: S) => string | number): TwoPlayer<S> {
  const over = (s: S) => s.outcome !== null || s.turn === null;
  const assertSeated = (s: S, p: PlayerId) => assertRunningAndSeated(game.id, game.name, over(s), s.players, p);
  return {
    opponentOf: (s, p) => (p === s.players[0] ? s.players[1]! : s.players[0]!),
    assertSeated,
    assertTurn(s, p) {
      assertSeated(s, p);
      if (s.turn !== p) throw new RuleError(`${game.id}/not-your-turn`, 'It is not your turn.');
    },
    awaiting: (s) => (s.outcome === null && s.turn !== null ? [s.turn] : []),
    outcome: (s) => (s.outcome ? copyOutcome(s.outcome) : null),
    timers: (s) => (over(s) ? [] : [{ key: `turn:${turnKey(s)}`, player: s.turn!, after: 'turn-limit', onExpiry: { type: 'forfeit' } }]),
    forfeitOutcome(s, p, scores) {
      const winner = p === s.players[0] ? s.players[1]! : s.players[0]!;
      return { winners: [winner], ...(scores ? { scores } : {}), reason: 'forfeit', forfeited: p };
    },
    drawOrder(rng, players) {
      const [order, next] = shuffle(rng, players);
      return [[order[0]!, order[1]!], next];
    },
  };
}

/**
 * The consistency checks of a two-player state schema (in a zod `superRefine`): two distinct
 * players; each record of `keyed` keyed by exactly those players; `turn` one of them; `outcome`
 * set exactly when no turn runs; winners are players.
 */
export function checkTwoPlayerState(s: TurnState, ctx: z.RefinementCtx, keyed: Record<string, Record<string, unknown>> = {}, extra?: () => void): void {
  const [a, b] = s.players as [PlayerId, PlayerId];
  if (a === b) ctx.addIssue({ code: 'custom', message: 'players must be distinct', path: ['players'] });
  for (const [name, rec] of Object.entries(keyed)) {
    const keys = Object.keys(rec);
    if (!(keys.length === 2 && Object.hasOwn(rec, a) && Object.hasOwn(rec, b))) {
      ctx.addIssue({ code: 'custom', message: `${name} must be keyed by the players`, path: [name] });
    }
  }
  if (s.turn !== null && !s.players.includes(s.turn)) ctx.addIssue({ code: 'custom', message: 'turn must be a player', path: ['turn'] });
  extra?.();
  if ((s.turn === null) !== (s.outcome !== null)) {
    ctx.addIssue({ code: 'custom', message: 'outcome must be set exactly when no turn is running', path: ['outcome'] });
  }
  if (s.outcome && !s.outcome.winners.every((w) => s.players.includes(w))) {
    ctx.addIssue({ code: 'custom', message: 'winners must be players', path: ['outcome', 'winners'] });
  }
}

/**
 * A game's `replay(seed, players, log, options)`: setup with the seating passed to it, then each
 * entry in order (the turn order is drawn from the seed again, exactly as when the game began).
 * Pure; throws the RuleError of the first illegal entry.
 */
export function replayer<State, Move, View, Options>(engine: Engine<State, Move, View, Options>, defaults: Options) {
  return (seed: string, players: PlayerId[], moves: readonly ReplayEntry<Move>[], options: Options = defaults): State =>
    replayWith(engine, seed, players, options, moves).at(-1)!;
}
