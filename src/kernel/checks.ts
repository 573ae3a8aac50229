import { z } from 'zod';
import { rngStateSchema } from './rng.ts';
import { RuleError, SYSTEM, type Outcome, type PlayerId, type SetupArgs } from './types.ts';

/**
 * What every engine checks the same way: setup arguments, "the game runs and you are seated",
 * and copying an outcome out of a state (views must never share objects with the state).
 */

/** Throws `<game>/bad-setup` unless the players and the seed are fit for a game of `game`. */
export function checkSetup(
  game: string,
  args: Pick<SetupArgs<unknown>, 'players' | 'seed'>,
  seats: { min: number; max: number },
): void {
  const players = args.players;
  const bad = (message: string): never => {
    throw new RuleError(`${game}/bad-setup`, message);
  };
  if (!Array.isArray(players)) bad('The players must be a list.');
  if (players.length < seats.min || players.length > seats.max) {
    bad(seats.min === seats.max ? `This game needs exactly ${seats.min} players, got ${players.length}.` : `This game needs ${seats.min} to ${seats.max} players, got ${players.length}.`);
  }
  if (players.some((p) => typeof p !== 'string' || p.length === 0) || new Set(players).size !== players.length) {
    bad('The players must be distinct, non-empty ids.');
  }
  // Ids key records in stored JSON; `__proto__` would not survive a JSON/zod round trip, and the
  // SYSTEM actor is not a seat.
  if (players.some((p) => p === '__proto__' || p === SYSTEM)) bad('That player id cannot be used.');
  if (!rngStateSchema.shape.seed.safeParse(args.seed).success) bad('The seed must be 64 lowercase hex characters.');
}

/** Throws `<game>/game-over` or `<game>/not-a-player`. */
export function assertRunningAndSeated(game: string, title: string, over: boolean, players: readonly PlayerId[], player: PlayerId): void {
  if (over) throw new RuleError(`${game}/game-over`, `This game of ${title} is already over.`);
  if (!players.includes(player)) throw new RuleError(`${game}/not-a-player`, `You are not playing in this game of ${title}.`);
}

/** A deep copy of an outcome (views and results must not share objects with the state). */
export function copyOutcome(o: Outcome): Outcome {
  const out: Outcome = { winners: o.winners.slice(), reason: o.reason };
  if (o.scores) out.scores = { ...o.scores };
  if (o.forfeited !== undefined) out.forfeited = o.forfeited;
  if (o.forfeits) out.forfeits = o.forfeits.slice();
  if (o.places) out.places = { ...o.places };
  return out;
}

/** The zod schema of an Outcome, for engines' state schemas. */
export const outcomeSchema: z.ZodType<Outcome> = z.object({
  winners: z.array(z.string()),
  scores: z.record(z.string(), z.number()).optional(),
  reason: z.string(),
  forfeited: z.string().optional(),
  forfeits: z.array(z.string()).optional(),
  places: z.record(z.string(), z.number().int().positive()).optional(),
});

/**
 * The outcome of a game of three or more who each play for themselves: places by score (higher
 * is better unless `lowerWins`), ties sharing a place; seats that forfeited rank below everyone
 * else whatever their score (the latest to forfeit highest among them) and never win.
 */
export function rankedOutcome(input: {
  players: readonly PlayerId[];
  scores: Record<PlayerId, number>;
  forfeits: readonly PlayerId[];
  reason: string;
  lowerWins?: boolean;
  /** Seats that are out for another reason (Crystallia's 13 crystals), ranked above forfeits, latest out highest. */
  eliminated?: readonly PlayerId[];
}): Outcome {
  const sign = input.lowerWins ? -1 : 1;
  const eliminated = (input.eliminated ?? []).filter((p) => !input.forfeits.includes(p));
  const standing = input.players.filter((p) => !input.forfeits.includes(p) && !eliminated.includes(p));
  const places: Record<PlayerId, number> = {};
  const sorted = standing.slice().sort((a, b) => sign * ((input.scores[b] ?? 0) - (input.scores[a] ?? 0)));
  sorted.forEach((p, i) => {
    const prev = sorted[i - 1];
    places[p] = prev !== undefined && (input.scores[prev] ?? 0) === (input.scores[p] ?? 0) ? places[prev]! : i + 1;
  });
  let next = sorted.length + 1;
  for (const group of [eliminated.slice().reverse(), input.forfeits.slice().reverse()]) {
    for (const p of group) places[p] = next++;
  }
  const winners = sorted.filter((p) => places[p] === 1);
  const out: Outcome = { winners, scores: { ...input.scores }, reason: input.reason, places };
  if (input.forfeits.length) out.forfeits = input.forfeits.slice();
  return out;
}
