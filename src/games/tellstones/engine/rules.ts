import type { PlayerId } from '../../../kernel/types.ts';
import {
  ACTION_TYPES,
  LINE_MAX,
  SYMBOLS,
  type LineIndex,
  type Side,
  type Slot,
  type StoneRef,
  type TellstonesMoveType,
  type TellstonesState,
} from './schema.ts';

/**
 * Pure questions about a Tellstones state, shared by `apply`, `view` and the schema-independent
 * parts of the engine. Nothing here mutates or throws RuleError.
 */

export function seatOf(state: Pick<TellstonesState, 'seats'>, player: PlayerId): number {
  return state.seats.indexOf(player);
}

/** Side of a seated player: seat index mod 2 (two players: each is a side; King's Circle: A = 0, B = 1). */
export function sideOf(state: Pick<TellstonesState, 'seats'>, player: PlayerId): Side {
  const seat = seatOf(state, player);
  if (seat < 0) throw new Error(`corrupt tellstones state: ${player} is not seated`);
  return (seat % 2) as Side;
}

export const otherSide = (side: Side): Side => (side === 0 ? 1 : 0);

/** The players of a side, in seat order. */
export function playersOf(state: Pick<TellstonesState, 'seats'>, side: Side): PlayerId[] {
  return state.seats.filter((_, i) => i % 2 === side);
}

/** The next seat clockwise: the opponent on the player's left, who answers their challenges and boasts. */
export function nextClockwise(state: Pick<TellstonesState, 'seats'>, player: PlayerId): PlayerId {
  const seat = seatOf(state, player);
  const next = state.seats[(seat + 1) % state.seats.length];
  if (seat < 0 || next === undefined) throw new Error(`corrupt tellstones state: ${player} is not seated`);
  return next;
}

/** The partner in King's Circle (the seat opposite); null in two-player games. */
export function partnerOf(state: Pick<TellstonesState, 'seats'>, player: PlayerId): PlayerId | null {
  if (state.seats.length !== 4) return null;
  const seat = seatOf(state, player);
  return seat < 0 ? null : (state.seats[(seat + 2) % 4] ?? null);
}

export function lineAt(state: Pick<TellstonesState, 'lines'>, line: number): Slot[] {
  const l = state.lines[line];
  if (!l) throw new Error(`corrupt tellstones state: no line ${line}`);
  return l;
}

export const lineIndexes = (state: Pick<TellstonesState, 'lines'>): LineIndex[] => state.lines.map((_, i) => i as LineIndex);

export const hasFaceDown = (line: readonly Slot[]): boolean => line.some((s) => !s.faceUp);
export const hasFaceUp = (line: readonly Slot[]): boolean => line.some((s) => s.faceUp);
export const anyFaceDown = (state: Pick<TellstonesState, 'lines'>): boolean => state.lines.some(hasFaceDown);

/** Where a stone is now, or -1 when it is not on its line. */
export function positionOf(state: Pick<TellstonesState, 'lines'>, ref: StoneRef): number {
  return state.lines[ref.line]?.findIndex((s) => s.symbol === ref.symbol) ?? -1;
}

export const sameStone = (a: StoneRef, b: StoneRef): boolean => a.line === b.line && a.symbol === b.symbol;

/** Canonical order for stone lists: by line, then by symbol order. */
export function compareRefs(a: StoneRef, b: StoneRef): number {
  return a.line - b.line || SYMBOLS.indexOf(a.symbol) - SYMBOLS.indexOf(b.symbol);
}

/**
 * How many stones `player` may peek at: 3 when the opposing side gained a point on either of the
 * two most recent turns (RULINGS), otherwise 1.
 */
export function peekLimit(state: Pick<TellstonesState, 'seats' | 'recentTurns'>, player: PlayerId): 1 | 3 {
  const opposing = otherSide(sideOf(state, player));
  return state.recentTurns.some((t) => t.gained.includes(opposing)) ? 3 : 1;
}

/** Whether the action kind is possible at all on the current lines (RULINGS' legality table). */
export function actionPossible(state: Pick<TellstonesState, 'lines'>, type: (typeof ACTION_TYPES)[number]): boolean {
  switch (type) {
    case 'place':
      return state.lines.some((l) => l.length < LINE_MAX);
    case 'hide':
      return state.lines.some(hasFaceUp);
    case 'swap':
      return state.lines.some((l) => l.length >= 2);
    case 'peek':
    case 'challenge':
    case 'boast':
      return anyFaceDown(state);
  }
}

/** The players the game waits for (empty when over). */
export function awaitingPlayers(state: TellstonesState): PlayerId[] {
  if (state.outcome !== null || state.turn === null) return [];
  const p = state.pending;
  if (!p) return [state.turn];
  if (p.kind === 'proof') {
    const prover = p.provers[p.next];
    return prover === undefined ? [] : [prover];
  }
  return [p.answerer];
}

/** The move types `player` may send now (empty unless they are awaited). */
export function legalMoveTypes(state: TellstonesState, player: PlayerId | null): TellstonesMoveType[] {
  if (player === null || !awaitingPlayers(state).includes(player)) return [];
  const p = state.pending;
  if (!p) return ACTION_TYPES.filter((t) => actionPossible(state, t));
  if (p.kind === 'challenge') return ['answer-challenge'];
  if (p.kind === 'boast') return ['answer-boast'];
  return ['prove'];
}
