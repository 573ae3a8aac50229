import { z } from 'zod';
import { assertRunningAndSeated, checkSetup, copyOutcome, outcomeSchema, rankedOutcome } from '../../src/kernel/checks.ts';
import { rngFromSeed, rngStateSchema, shuffle } from '../../src/kernel/rng.ts';
import { RuleError, type Engine, type PlayerId, type TimerSpec } from '../../src/kernel/types.ts';
import type { GameDefinition } from '../../src/services/registry.ts';

/**
 * A small game of three or four seats who each play for themselves, for the platform's tests (neither
 * real game has three independent players): in turn, each adds 1, 2 or 3 to their own count; the
 * first to reach 10 ends the game, and the highest count wins. A forfeit keeps the seat in the game
 * (the autopilot plays it) and ranks it last. When only one seat is left standing, it wins at once.
 */
const stateSchema = z.object({
  players: z.array(z.string()).min(3).max(4),
  counts: z.record(z.string(), z.number().int()),
  turn: z.number().int().min(0).max(3),
  moves: z.number().int(),
  out: z.array(z.string()),
  rng: rngStateSchema,
  outcome: outcomeSchema.nullable(),
});
type State = z.infer<typeof stateSchema>;
const moveSchema = z.object({ type: z.literal('add'), n: z.union([z.literal(1), z.literal(2), z.literal(3)]) }).strict();
type Move = z.infer<typeof moveSchema>;
type View = { counts: Record<string, number>; turn: string | null; out: string[]; outcome: State['outcome'] };

const fail = (code: string, message: string): never => {
  throw new RuleError(`trio/${code}`, message);
};
const clone = (s: State): State => structuredClone(s);
const current = (s: State) => s.players[s.turn]!;

function finishIfDone(s: State): State {
  const standing = s.players.filter((p) => !s.out.includes(p));
  const reached = s.players.some((p) => (s.counts[p] ?? 0) >= 10);
  if (reached || standing.length <= 1) {
    s.outcome = rankedOutcome({ players: s.players, scores: s.counts, forfeits: s.out, reason: reached ? 'ten' : 'forfeit' });
  }
  return s;
}

export const trio: Engine<State, Move, View, Record<string, never>> = {
  id: 'trio',
  name: 'Trio',
  minPlayers: 3,
  maxPlayers: 4,
  stateSchema,
  moveSchema,
  optionsSchema: z.object({}).strict().default({}) as unknown as z.ZodType<Record<string, never>>,
  setup(args) {
    checkSetup('trio', args, { min: 3, max: 4 });
    const [players, rng] = shuffle(rngFromSeed(args.seed), args.players);
    return { players, counts: Object.fromEntries(players.map((p) => [p, 0])), turn: 0, moves: 0, out: [], rng, outcome: null };
  },
  apply(state, actor, move) {
    assertRunningAndSeated('trio', 'Trio', state.outcome !== null, state.players, actor);
    if (current(state) !== actor) fail('not-your-turn', 'It is not your turn.');
    const m = moveSchema.safeParse(move);
    if (!m.success) fail('bad-move', 'Add 1, 2 or 3.');
    const s = clone(state);
    s.counts[actor] = (s.counts[actor] ?? 0) + m.data!.n;
    s.moves += 1;
    s.turn = (s.turn + 1) % s.players.length;
    return finishIfDone(s);
  },
  view: (s) => ({ counts: { ...s.counts }, turn: s.outcome ? null : current(s), out: s.out.slice(), outcome: s.outcome ? copyOutcome(s.outcome) : null }),
  awaiting: (s) => (s.outcome ? [] : [current(s)]),
  outcome: (s) => (s.outcome ? copyOutcome(s.outcome) : null),
  forfeit(state, player) {
    assertRunningAndSeated('trio', 'Trio', state.outcome !== null, state.players, player);
    if (state.out.includes(player)) fail('already-out', 'You already left.');
    const s = clone(state);
    s.out.push(player);
    return finishIfDone(s);
  },
  legalMoves: (s, p) => (s.outcome || current(s) !== p ? [] : [1, 2, 3].map((n) => ({ type: 'add' as const, n: n as 1 | 2 | 3 }))),
  timers: (s): TimerSpec<Move>[] => (s.outcome ? [] : [{ key: `turn:${s.moves}`, player: current(s), after: 'turn-limit', onExpiry: { type: 'forfeit' } }]),
  out: (s) => s.out.slice(),
  // The smallest step: a seat that left never races ahead of those still playing.
  autopilot: () => ({ type: 'add', n: 1 }),
};

/** Trio as the services know a game, with an owned asset type for the asset store's tests. */
export const trioDefinition: GameDefinition = {
  kind: 'trio',
  engine: trio,
  title: 'Trio',
  joinSubcommand: 'join',
  maxIntentOpponents: 3,
  points: true,
  assets: { token: z.object({ label: z.string().min(1).max(20), shine: z.number().int().min(0).max(9) }) },
};
