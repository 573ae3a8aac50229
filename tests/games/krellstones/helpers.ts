import { nextInt, rngFromSeed, SYSTEM, type PlayerId, type RngState } from '../../../src/kernel/index.ts';
import type { StoneType } from '../../../src/games/krellstones/data.ts';
import {
  krellstones,
  type BroughtStone,
  type KrellstonesLogEntry,
  type KrellstonesMove,
  type KrellstonesOptions,
  type KrellstonesPlayerData,
  type KrellstonesState,
} from '../../../src/games/krellstones/engine/index.ts';

import { deepFreeze, expectRuleError, hex, SEED_A, SEED_B } from '../../helpers/engine.ts';

export { deepFreeze, expectRuleError, hex, SEED_A, SEED_B };

/** Default side values: pawn 1-4, dancer 5..25 by 5, krell 3-8, master odd 1..39. */
export const DEFAULT_SIDES: Record<StoneType, number[]> = {
  pawn: [1, 2, 3, 4],
  dancer: [5, 10, 15, 20, 25],
  krell: [3, 4, 5, 6, 7, 8],
  master: Array.from({ length: 20 }, (_, i) => 2 * i + 1),
};

/** A stone as a player brings it; `weights` (default all 1) become faces of the same value. */
export function stone(id: string, type: StoneType, values: number[] = DEFAULT_SIDES[type], weights?: number[]): BroughtStone {
  return {
    id,
    type,
    sides: values.map((v, i) => {
      const w = weights?.[i] ?? 1;
      return { printed: v, face: w > 1 ? { type, value: v, weight: (w - 1) as 0 | 1 | 2, promo: false } : null };
    }),
  };
}

export interface LoadoutSpec {
  pawn?: number[];
  dancer?: number[];
  krells?: [number[], number[], number[]];
  master?: number[];
  sideboard?: { type: StoneType; values?: number[] }[];
}

/** A player's stones: ids `<p>-pawn`, `<p>-dancer`, `<p>-k1..k3`, `<p>-master`, sideboard `<p>-sb1..`. */
export function loadout(p: string, spec: LoadoutSpec = {}): KrellstonesPlayerData {
  const k = spec.krells ?? [DEFAULT_SIDES.krell, DEFAULT_SIDES.krell, DEFAULT_SIDES.krell];
  return {
    stones: [
      stone(`${p}-pawn`, 'pawn', spec.pawn),
      stone(`${p}-dancer`, 'dancer', spec.dancer),
      stone(`${p}-k1`, 'krell', k[0]),
      stone(`${p}-k2`, 'krell', k[1]),
      stone(`${p}-k3`, 'krell', k[2]),
      stone(`${p}-master`, 'master', spec.master),
    ],
    sideboard: (spec.sideboard ?? []).map((x, i) => stone(`${p}-sb${i + 1}`, x.type, x.values)),
  };
}

export function newGame(
  players: string[],
  options: Partial<KrellstonesOptions> = {},
  specs: Record<string, LoadoutSpec> = {},
  seed = SEED_A,
): { state: KrellstonesState; playerData: Record<string, KrellstonesPlayerData>; options: KrellstonesOptions } {
  const playerData = Object.fromEntries(players.map((p) => [p, loadout(p, specs[p])]));
  const full = { rounds: 5, rerolls: true, sideboard: 'off', pace: 'FAST', ...options } as KrellstonesOptions;
  return { state: krellstones.setup({ players, seed, options: full, playerData }), playerData, options: full };
}

/** What a player shows: pawn, dancer, three krells, master; null leaves the stone unrolled (a pawn: benched). */
export type BoardRow = [number | null, number | null, number | null, number | null, number | null, number | null];

/**
 * The state at the end of the rolling phase with the given values showing (every player rolled),
 * positions in `order` (default: players as given). The round's announcements are cleared.
 */
export function board(state: KrellstonesState, rows: Record<string, BoardRow>, order?: string[]): KrellstonesState {
  const s = structuredClone(state);
  s.order = order ?? s.players.slice();
  s.phase = 'rolling';
  s.rolled = s.players.length;
  s.windows = [];
  s.announcements = [];
  for (const [p, row] of Object.entries(rows)) {
    const seat = s.seats[p]!;
    row.forEach((v, i) => {
      const st = seat.active[i]!;
      if (v === null) {
        seat.stones[i] = { status: 'benched', side: null, ghost: false, rerolled: false, why: null };
        return;
      }
      const side = st.sides.findIndex((x) => x.value === v);
      if (side < 0) throw new Error(`${st.id} has no side ${v}`);
      seat.stones[i] = { status: 'in', side, ghost: false, rerolled: false, why: null };
    });
  }
  return s;
}

/** The key of the SYSTEM timer now running. */
export function systemKey(s: KrellstonesState): string {
  const t = krellstones.timers(s).find((x) => x.player === undefined);
  if (!t) throw new Error('no system timer');
  return t.key;
}

/** Fires the SYSTEM timer. */
export function step(s: KrellstonesState): KrellstonesState {
  return krellstones.apply(s, SYSTEM, { type: 'system', key: systemKey(s) });
}

/** Fires SYSTEM timers until this round's rolling phase has ended (and what follows it at once). */
export function rollAll(s: KrellstonesState): KrellstonesState {
  let x = s;
  const round = x.round;
  while (x.outcome === null && x.phase === 'rolling' && x.round === round) x = step(x);
  return x;
}

/** Everyone still choosing readies (no rerolls / no swaps). */
export function allReady(s: KrellstonesState): KrellstonesState {
  let x = s;
  for (const p of krellstones.awaiting(x)) if (x.seats[p]!.choice === 'pending') x = krellstones.apply(x, p, { type: 'ready' });
  return x;
}

export function status(s: KrellstonesState, p: string): string[] {
  return s.seats[p]!.stones.map((r) => r.status);
}

export function values(s: KrellstonesState, p: string): (number | null)[] {
  const seat = s.seats[p]!;
  return seat.stones.map((r, i) => (r.side === null ? null : seat.active[i]!.sides[r.side]!.value));
}

export function texts(s: KrellstonesState): string[] {
  return s.announcements.map((a) => a.text);
}

/** A small deterministic picker (a seeded rng of its own, apart from the game's). */
export function picker(seed: string): (n: number) => number {
  let r: RngState = rngFromSeed(seed);
  return (n: number) => {
    const [v, next] = nextInt(r, n);
    r = next;
    return v;
  };
}

export interface PlayOptions {
  /** Per mille chance per step of firing a random running timer (default 150). */
  timerRate?: number;
  /** Per mille chance per step of a forfeit by a random standing player (default 0). */
  forfeitRate?: number;
  maxSteps?: number;
  /** Deep-freeze every state before it is used, so that any mutation of an input throws (default true). */
  freeze?: boolean;
  onStep?(before: KrellstonesState, entry: KrellstonesLogEntry, after: KrellstonesState): void;
}

/**
 * Plays a game to its end through `legalMoves` and `timers` only, as players and the scheduler
 * would: each step either fires a running timer (its default move, by its player or SYSTEM), a
 * listed move of an awaited player, or now and then a forfeit.
 */
export function playRandom(start: KrellstonesState, pick: (n: number) => number, opts: PlayOptions = {}): { state: KrellstonesState; log: KrellstonesLogEntry[] } {
  let s = start;
  const log: KrellstonesLogEntry[] = [];
  const max = opts.maxSteps ?? 5000;
  for (let n = 0; n < max && s.outcome === null; n++) {
    if (opts.freeze ?? true) deepFreeze(s);
    const timers = krellstones.timers(s);
    const movers = krellstones.awaiting(s).filter((p) => krellstones.legalMoves(s, p).length > 0);
    let entry: KrellstonesLogEntry;
    const standing = s.players.filter((p) => !s.out.includes(p));
    if (pick(1000) < (opts.forfeitRate ?? 0)) {
      entry = { actor: standing[pick(standing.length)]!, forfeit: true };
    } else if (movers.length === 0 || pick(1000) < (opts.timerRate ?? 150)) {
      const t = timers[pick(timers.length)]!;
      if (t.onExpiry.type !== 'move') throw new Error('krellstones timers always carry a move');
      entry = { actor: t.player ?? SYSTEM, move: t.onExpiry.move };
    } else {
      const actor = movers[pick(movers.length)]!;
      const moves = krellstones.legalMoves(s, actor);
      entry = { actor, move: moves[pick(moves.length)]! };
    }
    const before = s;
    s = 'forfeit' in entry ? krellstones.forfeit(s, entry.actor) : krellstones.apply(s, entry.actor, entry.move as KrellstonesMove);
    log.push(entry);
    opts.onStep?.(before, entry, s);
  }
  return { state: s, log };
}

export const PLAYERS: Record<2 | 3 | 4, PlayerId[]> = { 2: ['alice', 'bob'], 3: ['alice', 'bob', 'cara'], 4: ['alice', 'bob', 'cara', 'dan'] };
