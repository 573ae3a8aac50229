import { copyOutcome } from '../../../kernel/checks.ts';
import type { Outcome, PlayerId } from '../../../kernel/types.ts';
import { BUST, type Pace, type StoneType } from '../data.ts';
import { seatOf, sumOf, valueAt, leftOf } from './rules.ts';
import type { Announcement, Choice, GameStone, KrellstonesState, Phase, RoundRecord, StoneRound } from './schema.ts';

/** A stone on a sideboard, or the sides of any stone: what the game snapshotted at the start. */
export interface ViewStoneInfo {
  id: string;
  alias: string | null;
  type: StoneType;
  /** Side values and weights, side 1 first. */
  sides: { value: number; weight: number }[];
}

/** A stone in play this round. */
export interface ViewStone extends ViewStoneInfo {
  status: StoneRound['status'];
  /** The side showing (1-based), null when not rolled or benched. */
  side: number | null;
  /** The value showing (also for a discarded or buried stone: the value it went with). */
  value: number | null;
  /** Why it is discarded or buried: the announcement, e.g. "7 SPINS OUT!". */
  why: string | null;
  /** A Ghost Dancer back from last round (not rolled). */
  ghost: boolean;
  /** Rerolled this round (public once the rerolls are rolled). */
  rerolled: boolean;
}

export interface ViewSeat {
  player: PlayerId;
  /** 0-based place in this round's position order. */
  position: number;
  /** The player to the left (whose Krells haze this player's Master). */
  left: PlayerId;
  stones: ViewStone[];
  /** Visible to everyone: the game has started. */
  sideboard: ViewStoneInfo[];
  /** The running sum of the stones in play. */
  sum: number;
  /**
   * The running sum is below 23 or above 123: it busts if checked like this (the busts of finished
   * rounds are in `history`; a last player may still win unchecked).
   */
  wouldBust: boolean;
  roundsWon: number;
  /** The seat's part in the running choice step (who is ready), null outside choices. */
  choice: Choice | null;
  /** The reroll selection: only the viewer's own, only while choosing; null otherwise. */
  selection: string[] | null;
  /** Forfeited: the autopilot plays the seat. */
  out: boolean;
  /** Choices left to expire in a row (three forfeit). */
  expiries: number;
  /** The Dancer returns next round as a Ghost Dancer. */
  ghostNext: boolean;
}

export interface KrellstonesView {
  /** Whose view this is (null: a spectator's): a turn DM speaks of this player's stones. */
  viewer: PlayerId | null;
  players: PlayerId[];
  /** Position order this round. */
  order: PlayerId[];
  host: PlayerId;
  round: number;
  rounds: number;
  rerolls: boolean;
  /** Sideboard size, null when off. */
  sideboard: number | null;
  pace: Pace;
  phase: Phase;
  /** Players who have rolled this round. */
  rolled: number;
  /** Who rolls next (rolling phase), null when everyone has rolled. */
  nextRoller: PlayerId | null;
  /** Players whose Pup in the Hangar window is open. */
  windows: PlayerId[];
  /** Pawn is Queen this round: the lowest score wins. */
  reversed: boolean;
  pawnsOut: boolean;
  pawnsOutNext: boolean;
  seats: Record<PlayerId, ViewSeat>;
  /** This round's announcements so far. */
  announcements: Announcement[];
  /** Every finished round. */
  history: RoundRecord[];
  /** The last finished round, or null. */
  lastRound: RoundRecord | null;
  awaiting: PlayerId[];
  out: PlayerId[];
  outcome: Outcome | null;
}

const info = (st: GameStone): ViewStoneInfo => ({ id: st.id, alias: st.alias ?? null, type: st.type, sides: st.sides.map((x) => ({ value: x.value, weight: x.weight })) });

const copyAnnouncement = (a: Announcement): Announcement => ({ ...a, stones: a.stones.slice() });
const copyRecord = (r: RoundRecord): RoundRecord => ({ ...r, order: r.order.slice(), sums: { ...r.sums }, busted: r.busted.slice(), announcements: r.announcements.map(copyAnnouncement) });

/**
 * What `viewer` sees (null: a spectator). Everything is public but the reroll selections: a
 * player sees their own while choosing, everyone sees who is ready, and which stones were
 * rerolled once the rerolls are rolled. The generator never leaves the engine.
 */
export function viewState(s: KrellstonesState, viewer: PlayerId | null, awaiting: PlayerId[]): KrellstonesView {
  const seats: Record<PlayerId, ViewSeat> = {};
  for (const p of s.players) {
    const seat = seatOf(s, p);
    seats[p] = {
      player: p,
      position: s.order.indexOf(p),
      left: leftOf(s, p),
      stones: seat.active.map((st, i) => {
        const r = seat.stones[i]!;
        return { ...info(st), status: r.status, side: r.side === null ? null : r.side + 1, value: valueAt(seat, i), why: r.why?.text ?? null, ghost: r.ghost, rerolled: r.rerolled };
      }),
      sideboard: seat.sideboard.map(info),
      sum: sumOf(seat),
      wouldBust: sumOf(seat) < BUST.below || sumOf(seat) > BUST.above,
      roundsWon: seat.roundsWon,
      choice: seat.choice,
      selection: viewer === p && s.phase === 'rerolls' ? seat.selection.slice() : null,
      out: s.out.includes(p),
      expiries: seat.expiries,
      ghostNext: seat.ghostNext,
    };
  }
  return {
    viewer: viewer !== null && s.players.includes(viewer) ? viewer : null,
    players: s.players.slice(),
    order: s.order.slice(),
    host: s.host,
    round: s.round,
    rounds: s.rounds,
    rerolls: s.rerolls,
    sideboard: s.sideboard,
    pace: s.pace,
    phase: s.phase,
    rolled: s.rolled,
    nextRoller: s.phase === 'rolling' && s.rolled < s.order.length ? s.order[s.rolled]! : null,
    windows: s.windows.slice(),
    reversed: s.reversed,
    pawnsOut: s.pawnsOut,
    pawnsOutNext: s.pawnsOutNext,
    seats,
    announcements: s.announcements.map(copyAnnouncement),
    history: s.history.map(copyRecord),
    lastRound: s.history.length ? copyRecord(s.history[s.history.length - 1]!) : null,
    awaiting,
    out: s.out.slice(),
    outcome: s.outcome ? copyOutcome(s.outcome) : null,
  };
}
