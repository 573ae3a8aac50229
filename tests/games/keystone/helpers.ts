import {
  CARD_IDS,
  HAND_SIZE,
  keystone,
  sortCards,
  stateSchema,
  type CardId,
  type KeystoneLogEntry,
  type KeystoneState,
} from '../../../src/games/keystone/engine/index.ts';
import { cs } from './cards.ts';
import { autopilotMove, autopilotRng, nextInt, rngFromSeed, type PlayerId } from '../../../src/kernel/index.ts';

import { deepFreeze, expectRuleError, hex, SEED_A, SEED_B } from '../../helpers/engine.ts';

export { deepFreeze, expectRuleError, hex, SEED_A, SEED_B };

export const THREE = ['ann', 'ben', 'cat'] as const;
export const FOUR = ['ann', 'ben', 'cat', 'dan'] as const;

/**
 * Builds a state directly and checks it against the schema. Hands are given as short-name specs
 * per seat (their sizes must fit `trick`); the trick in play by `played` (from `leader`).
 * Cards named nowhere go out of play first (53 - 12n of them) and the rest, one card a line, to
 * `filler`'s lines (default: the last seat), so every card is in exactly one place.
 */
export function makeState(opts: {
  players?: readonly PlayerId[];
  hands: string[];
  leader?: number;
  played?: string;
  pending?: string;
  turn?: number;
  phase?: 'play' | 'place';
  trick?: number;
  game?: number;
  lines?: string[][];
  filler?: number;
  gameScores?: number[][];
  out?: PlayerId[];
}): KeystoneState {
  const players = (opts.players ?? FOUR).slice();
  const n = players.length;
  const hands = opts.hands.map((h) => sortCards(cs(h)));
  const played = cs(opts.played ?? '');
  const pending = cs(opts.pending ?? '');
  const lines: CardId[][][] = players.map((_, i) => (opts.lines?.[i] ?? []).map((l) => cs(l)));
  const named = new Set([...hands.flat(), ...played, ...pending, ...lines.flat(2)]);
  const rest = CARD_IDS.filter((id) => !named.has(id));
  const undealt = rest.slice(0, 53 - n * HAND_SIZE);
  const filler = opts.filler ?? n - 1;
  for (const id of rest.slice(53 - n * HAND_SIZE)) lines[filler]!.push([id]);
  const leader = opts.leader ?? 0;
  const phase = opts.phase ?? 'play';
  const trick = opts.trick ?? HAND_SIZE + 1 - Math.max(...hands.map((h) => h.length));
  const turn = opts.turn ?? (phase === 'play' ? (leader + played.length) % n : leader);
  const state: KeystoneState = {
    players,
    rng: rngFromSeed(SEED_A),
    game: opts.game ?? 1,
    trick,
    phase,
    hands,
    undealt,
    leader,
    turn,
    played,
    pending,
    lines,
    lastTrick: phase === 'place' ? { game: opts.game ?? 1, trick, leader, cards: pending.slice(), winner: turn } : null,
    gameScores: opts.gameScores ?? [],
    // Finished games' lines are not given: each seat's are left empty (the schema checks their shape only).
    finishedLines: (opts.gameScores ?? []).map(() => players.map(() => [])),
    out: opts.out ?? [],
    outcome: null,
  };
  return stateSchema.parse(state);
}

/**
 * Plays a whole match from `seed`: each step, the awaited player plays a uniformly random legal
 * move, or (with chance `autoRate`, and always for forfeited seats) the autopilot's move; each
 * step a standing player may forfeit with chance `forfeitRate`. Calls `onStep` after every step.
 */
export function playMatch(
  seed: string,
  players: readonly PlayerId[],
  pickerSeed: number,
  opts: { autoRate?: number; forfeitRate?: number; beforeStep?: (state: KeystoneState) => void; onStep?: (before: KeystoneState, entry: KeystoneLogEntry, after: KeystoneState) => void } = {},
): { state: KeystoneState; log: KeystoneLogEntry[] } {
  let state = keystone.setup({ seed, players: players.slice(), options: {} });
  let r = rngFromSeed(pickerSeed.toString(16).padStart(64, '0'));
  const pick = (k: number) => {
    const [v, next] = nextInt(r, k);
    r = next;
    return v;
  };
  const log: KeystoneLogEntry[] = [];
  for (let step = 0; state.outcome === null; step++) {
    if (step > 2000) throw new Error('match did not end');
    const before = state;
    opts.beforeStep?.(before);
    let entry: KeystoneLogEntry;
    const standing = players.filter((p) => !state.out.includes(p));
    if (opts.forfeitRate && pick(10_000) < opts.forfeitRate * 10_000 && standing.length > 0) {
      entry = { actor: standing[pick(standing.length)]!, forfeit: true };
      state = keystone.forfeit(state, entry.actor);
    } else {
      const actor = keystone.awaiting(state)[0]!;
      const auto = state.out.includes(actor) || pick(1000) < (opts.autoRate ?? 0) * 1000;
      const listed = keystone.legalMoves(state, actor);
      const move = auto ? (autopilotMove(keystone, state, actor, autopilotRng(seed, step)) as (typeof listed)[number]) : listed[pick(listed.length)]!;
      entry = { actor, move };
      state = keystone.apply(state, actor, move);
    }
    log.push(entry);
    opts.onStep?.(before, entry, state);
  }
  return { state, log };
}

export { c, cs, line } from './cards.ts';
