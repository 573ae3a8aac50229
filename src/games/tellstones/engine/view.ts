import type { Outcome, PlayerId } from '../../../kernel/types.ts';
import { copyOutcome } from '../../../kernel/checks.ts';
import {
  awaitingPlayers,
  legalMoveTypes,
  partnerOf,
  peekLimit,
  playersOf,
  positionOf,
} from './rules.ts';
import type {
  LineIndex,
  Side,
  TellstonesEvent,
  TellstonesMoveType,
  TellstonesState,
  TellstonesSymbol,
  TellstonesVariant,
} from './schema.ts';

/** A stone as everyone sees it: face-up stones show their symbol, face-down ones nothing at all. */
export type ViewStone =
  | { position: number; faceUp: true; symbol: TellstonesSymbol }
  | { position: number; faceUp: false };

export interface ViewLine {
  line: LineIndex;
  /** Fearless Vanguard: the player who brought this set; null otherwise. */
  owner: PlayerId | null;
  stones: ViewStone[];
  /** The pool of this line's set (public), in the rulebook's symbol order. */
  pool: TellstonesSymbol[];
}

export interface ViewSeat {
  player: PlayerId;
  /** 0-based seat, clockwise from the first player given at setup. */
  seat: number;
  side: Side;
  /** Team letter: King's Circle seats are A1 B1 A2 B2; in two-player games A is the first seat. */
  team: 'A' | 'B';
}

export interface ViewSide {
  side: Side;
  team: 'A' | 'B';
  players: PlayerId[];
  points: number;
}

/** The public part of what the game waits for. */
export type ViewPending =
  | { kind: 'challenge'; challenger: PlayerId; answerer: PlayerId; line: LineIndex; position: number }
  | { kind: 'boast'; boaster: PlayerId; answerer: PlayerId; countered: boolean; canCounter: boolean }
  | {
      kind: 'proof';
      boaster: PlayerId;
      doubter: PlayerId;
      provers: PlayerId[];
      /** Who names the next stone. */
      prover: PlayerId;
      named: number;
      /** Face-down stones still to name (on every line). */
      remaining: number;
    };

type Redacted<E> = E extends unknown
  ? { [K in keyof E]: K extends 'symbol' | 'named' ? E[K] | null : E[K] }
  : never;

/**
 * A public log entry: the stored event with every symbol that is face down on its line at viewing
 * time replaced by null (a symbol that is face down now is never printed, not even a wrong guess
 * of it, so the log is never a memory aid or a leak). Peeks never carry a symbol.
 */
export type ViewLogEntry = Redacted<TellstonesEvent>;

export interface TellstonesView {
  variant: TellstonesVariant;
  seats: ViewSeat[];
  sides: ViewSide[];
  lines: ViewLine[];
  /** The player whose turn it is (also while their challenge or boast is answered); null when over. */
  turn: PlayerId | null;
  turnNumber: number;
  /** Whose input the game waits for. */
  awaiting: PlayerId[];
  pending: ViewPending | null;
  /** How many stones the player to move may peek at (1 or 3); null when over. */
  peekLimit: 1 | 3 | null;
  /** The viewer's partner in King's Circle (null otherwise, and for spectators). */
  partner: PlayerId | null;
  /** Face-down stones the viewer has legitimately learned (by a peek) and still holds; empty for spectators. */
  known: Array<{ line: LineIndex; position: number; symbol: TellstonesSymbol }>;
  /** Move types the viewer may send now. */
  legal: TellstonesMoveType[];
  log: ViewLogEntry[];
  outcome: Outcome | null;
}

export { copyOutcome };

const TEAMS = ['A', 'B'] as const;

/** The symbols face down on each line right now (public as a set: the complement of pool and face-up stones). */
function faceDownSymbols(state: TellstonesState): Array<Set<TellstonesSymbol>> {
  return state.lines.map((line) => new Set(line.filter((s) => !s.faceUp).map((s) => s.symbol)));
}

function publicEntry(e: TellstonesEvent, hidden: Array<Set<TellstonesSymbol>>): ViewLogEntry {
  const blank = (line: number, symbol: TellstonesSymbol): TellstonesSymbol | null =>
    hidden[line]?.has(symbol) ? null : symbol;
  switch (e.kind) {
    case 'start':
    case 'place':
      return { ...e, symbol: blank(e.line, e.symbol) };
    case 'answer-challenge':
    case 'prove':
      return { ...e, named: blank(e.line, e.named), symbol: blank(e.line, e.symbol) };
    case 'peek':
      return { ...e, positions: e.positions.slice() };
    default:
      return { ...e };
  }
}

function viewPending(state: TellstonesState): ViewPending | null {
  const p = state.pending;
  if (!p) return null;
  switch (p.kind) {
    case 'challenge':
      return { kind: 'challenge', challenger: p.challenger, answerer: p.answerer, line: p.line, position: p.position };
    case 'boast':
      return { kind: 'boast', boaster: p.boaster, answerer: p.answerer, countered: p.countered, canCounter: !p.countered };
    case 'proof':
      return {
        kind: 'proof',
        boaster: p.boaster,
        doubter: p.doubter,
        provers: p.provers.slice(),
        prover: p.provers[p.next] ?? p.boaster,
        named: p.named,
        remaining: state.lines.reduce((n, line) => n + line.filter((s) => !s.faceUp).length, 0),
      };
  }
}

/**
 * What `viewer` may see. The only way hidden information leaves the engine: face-down stones show
 * no symbol and no identity; the viewer's own legitimate knowledge comes separately in `known`.
 * Spectators (null) and unseated ids get the public view with an empty `known`.
 */
export function viewState(state: TellstonesState, viewer: PlayerId | null): TellstonesView {
  const seatIndex = viewer === null ? -1 : state.seats.indexOf(viewer);
  const seated = viewer !== null && seatIndex >= 0;
  const hidden = faceDownSymbols(state);

  const known: TellstonesView['known'] = [];
  if (seated) {
    for (const ref of state.knowledge[seatIndex] ?? []) {
      const position = positionOf(state, ref);
      const slot = state.lines[ref.line]?.[position];
      // The schema guarantees this; the check keeps a corrupt state from leaking a face-up mismatch.
      if (slot && !slot.faceUp) known.push({ line: ref.line, position, symbol: ref.symbol });
    }
    known.sort((a, b) => a.line - b.line || a.position - b.position);
  }

  const over = state.outcome !== null;
  return {
    variant: state.variant,
    seats: state.seats.map((player, seat) => ({ player, seat, side: (seat % 2) as Side, team: TEAMS[seat % 2] ?? 'A' })),
    sides: ([0, 1] as const).map((side) => ({
      side,
      team: TEAMS[side],
      players: playersOf(state, side),
      points: state.points[side],
    })),
    lines: state.lines.map((line, i) => ({
      line: i as LineIndex,
      owner: state.variant === 'fearless-vanguard' ? (state.seats[i] ?? null) : null,
      stones: line.map((s, position): ViewStone => (s.faceUp ? { position, faceUp: true, symbol: s.symbol } : { position, faceUp: false })),
      pool: (state.pools[i] ?? []).slice(),
    })),
    turn: over ? null : state.turn,
    turnNumber: state.turnNumber,
    awaiting: awaitingPlayers(state),
    pending: over ? null : viewPending(state),
    peekLimit: over || state.turn === null ? null : peekLimit(state, state.turn),
    partner: seated ? partnerOf(state, viewer) : null,
    known,
    legal: seated ? legalMoveTypes(state, viewer) : [],
    log: state.log.map((e) => publicEntry(e, hidden)),
    outcome: state.outcome ? copyOutcome(state.outcome) : null,
  };
}
