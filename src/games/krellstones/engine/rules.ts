import { rankedOutcome } from '../../../kernel/checks.ts';
import { weightedIndex } from '../../../kernel/rng.ts';
import type { Outcome, PlayerId } from '../../../kernel/types.ts';
import { ANNOUNCE, BUST, LIMITS } from '../data.ts';
import type { Announcement, Effect, GameStone, KrellstonesState, Pass, RoundRecord, Seat, StoneRound } from './schema.ts';

/**
 * The rules of a round, as functions that edit a working copy of the state (apply and forfeit clone
 * their input once). Slots: 0 pawn, 1 dancer, 2-4 krells, 5 master.
 */

export const PAWN = 0;
export const DANCER = 1;
export const KRELLS = [2, 3, 4] as const;
export const MASTER = 5;

type S = KrellstonesState;

export function seatOf(s: S, p: PlayerId): Seat {
  const seat = Object.hasOwn(s.seats, p) ? s.seats[p] : undefined;
  if (!seat) throw new Error(`corrupt krellstones state: no seat for ${p}`);
  return seat;
}

export const highestSide = (st: GameStone): number => st.sides.reduce((best, x, i, all) => (x.value > all[best]!.value ? i : best), 0);
export const lowestSide = (st: GameStone): number => st.sides.reduce((best, x, i, all) => (x.value < all[best]!.value ? i : best), 0);

export const inPlay = (seat: Seat, slot: number): boolean => seat.stones[slot]!.status === 'in';

/** The value the stone in `slot` shows, or null when it shows none (not rolled, benched). */
export function valueAt(seat: Seat, slot: number): number | null {
  const side = seat.stones[slot]!.side;
  return side === null ? null : seat.active[slot]!.sides[side]!.value;
}

/** Slots of the seat's stones in play. */
export const slotsInPlay = (seat: Seat): number[] => [0, 1, 2, 3, 4, 5].filter((i) => inPlay(seat, i));

/** The running sum: the values of the stones in play. */
export function sumOf(seat: Seat): number {
  return slotsInPlay(seat).reduce((a, i) => a + valueAt(seat, i)!, 0);
}

/** The player to the left: the next in position order, wrapping. */
export function leftOf(s: S, p: PlayerId): PlayerId {
  const i = s.order.indexOf(p);
  return s.order[(i + 1) % s.order.length]!;
}

export const standing = (s: S): PlayerId[] => s.players.filter((p) => !s.out.includes(p));

/**
 * The working copy apply and forfeit edit: every array and object a step can change is copied;
 * what no step ever changes once made is shared with the input (the stone snapshots, past
 * announcements and round records, the outcome). Much cheaper than a structured clone.
 */
export function cloneState(s: S): S {
  const seats: Record<PlayerId, Seat> = {};
  for (const p of s.players) {
    const seat = seatOf(s, p);
    seats[p] = {
      ...seat,
      active: seat.active.slice(),
      sideboard: seat.sideboard.slice(),
      stones: seat.stones.map((r) => ({ ...r })),
      selection: seat.selection.slice(),
    };
  }
  return {
    ...s,
    players: s.players.slice(),
    rng: { seed: s.rng.seed, n: s.rng.n },
    order: s.order.slice(),
    windows: s.windows.slice(),
    announcements: s.announcements.slice(),
    history: s.history.slice(),
    seats,
    out: s.out.slice(),
  };
}

const fresh = (): StoneRound => ({ status: 'unrolled', side: null, ghost: false, rerolled: false, why: null });

function announce(s: S, a: Announcement): void {
  s.announcements.push(a);
}

function takeOut(seat: Seat, slot: number, status: 'discarded' | 'buried', a: Announcement): void {
  const r = seat.stones[slot]!;
  r.status = status;
  r.why = { effect: a.effect, text: a.text, pass: a.pass };
}

function roll(s: S, st: GameStone): number {
  const [i, next] = weightedIndex(
    s.rng,
    st.sides.map((x) => x.weight),
  );
  s.rng = next;
  return i;
}

// ---------------------------------------------------------------------------------------------
// round flow

/**
 * Opens round `s.round` (positions already set): every stone unrolled, except the pawns when
 * Pawn is Queen struck last round (benched) and a Ghost Dancer coming back (in play, highest side).
 */
export function openRound(s: S): void {
  s.phase = 'rolling';
  s.rolled = 0;
  s.windows = [];
  s.reversed = false;
  s.pawnsOut = s.pawnsOutNext;
  s.pawnsOutNext = false;
  s.announcements = [];
  for (const p of s.players) {
    const seat = seatOf(s, p);
    seat.stones = seat.active.map(fresh);
    if (s.pawnsOut) seat.stones[PAWN]!.status = 'benched';
    if (seat.ghostNext) seat.stones[DANCER] = { status: 'in', side: highestSide(seat.active[DANCER]!), ghost: true, rerolled: false, why: null };
    seat.ghostNext = false;
    seat.choice = null;
    seat.selection = [];
  }
}

/** The next roll of the rolling phase: the player at position `s.rolled` rolls every unrolled stone, in slot order. */
export function rollNext(s: S): void {
  const p = s.order[s.rolled]!;
  const seat = seatOf(s, p);
  seat.active.forEach((st, i) => {
    const r = seat.stones[i]!;
    if (r.status !== 'unrolled') return;
    r.side = roll(s, st);
    r.status = 'in';
  });
  s.rolled += 1;
  // Pup in the Hangar: the Master shows its lowest side. The autopilot never yells: no window.
  const master = seat.active[MASTER]!;
  if (inPlay(seat, MASTER) && seat.stones[MASTER]!.side === lowestSide(master)) {
    announce(s, { effect: 'pup', text: ANNOUNCE.pup, pass: 0, player: p, value: valueAt(seat, MASTER)!, stones: [master.id] });
    if (!s.out.includes(p)) s.windows.push(p);
  }
}

/** Captain on Deck: the yell counted; the Master turns to its highest side and the window closes. */
export function captainOnDeck(s: S, p: PlayerId): void {
  const seat = seatOf(s, p);
  const master = seat.active[MASTER]!;
  seat.stones[MASTER]!.side = highestSide(master);
  s.windows = s.windows.filter((x) => x !== p);
  announce(s, { effect: 'captain', text: ANNOUNCE.captain, pass: 0, player: p, value: valueAt(seat, MASTER)!, stones: [master.id] });
}

/** One gap after the last roll: the windows close, the effects resolve, then the reroll choice or scoring. */
export function endRolling(s: S): void {
  s.windows = [];
  resolveEffects(s, 1);
  if (s.rerolls) openRerolls(s);
  else score(s);
}

function openRerolls(s: S): void {
  s.phase = 'rerolls';
  for (const p of s.players) {
    const seat = seatOf(s, p);
    seat.selection = [];
    seat.choice = s.out.includes(p) || slotsInPlay(seat).length === 0 ? 'skipped' : 'pending';
  }
  if (!anyPending(s)) finishRerolls(s);
}

export const anyPending = (s: S): boolean => s.players.some((p) => seatOf(s, p).choice === 'pending');

/** Everyone has chosen: the selections are rerolled in position order, the effects resolve again, the round is scored. */
export function finishRerolls(s: S): void {
  for (const p of s.order) {
    const seat = seatOf(s, p);
    for (const id of seat.selection) {
      const i = seat.active.findIndex((x) => x.id === id);
      const r = seat.stones[i]!;
      if (r.status !== 'in') continue;
      r.side = roll(s, seat.active[i]!);
      r.rerolled = true;
    }
    seat.selection = [];
    seat.choice = null;
  }
  resolveEffects(s, 2);
  score(s);
}

// ---------------------------------------------------------------------------------------------
// effects

/**
 * One pass of the special effects: each once, in the rulebook's order 1-6, each on the board as
 * the earlier ones left it, players in position order where an effect concerns single players.
 */
export function resolveEffects(s: S, pass: Pass): void {
  const seats = s.order.map((p) => [p, seatOf(s, p)] as const);
  const stonesShowing = (v: number) => seats.flatMap(([, seat]) => slotsInPlay(seat).filter((i) => valueAt(seat, i) === v).map((i) => [seat, i] as const));
  const hit = (effect: Effect, text: string, status: 'discarded' | 'buried', targets: (readonly [Seat, number])[], extra: Partial<Announcement> = {}) => {
    const a: Announcement = { effect, text, pass, ...extra, stones: targets.map(([seat, i]) => seat.active[i]!.id) };
    for (const [seat, i] of targets) takeOut(seat, i, status, a);
    announce(s, a);
  };

  // 1. Spins Out: a player's two Krells showing one number discard every stone showing it.
  for (const [p, seat] of seats) {
    const krells = KRELLS.filter((i) => inPlay(seat, i)).map((i) => valueAt(seat, i)!);
    const twice = krells.find((v, k) => krells.indexOf(v) !== k);
    if (twice === undefined) continue;
    hit('spins-out', ANNOUNCE.spinsOut(twice), 'discarded', stonesShowing(twice), { player: p, value: twice });
  }

  // 2. In the Swamp: every player's highest value is the same (no Swamp when someone has nothing in play).
  const highs = seats.map(([, seat]) => {
    const vs = slotsInPlay(seat).map((i) => valueAt(seat, i)!);
    return vs.length ? Math.max(...vs) : null;
  });
  const h = highs[0];
  if (h !== null && h !== undefined && highs.every((x) => x === h)) hit('swamp', ANNOUNCE.swamp(h), 'discarded', stonesShowing(h), { value: h });

  // 3. Haze the Master: a Master below the sum of the left player's Krells in play.
  for (const [p, seat] of seats) {
    if (!inPlay(seat, MASTER)) continue;
    const left = seatOf(s, leftOf(s, p));
    const krellSum = KRELLS.filter((i) => inPlay(left, i)).reduce((a, i) => a + valueAt(left, i)!, 0);
    const master = valueAt(seat, MASTER)!;
    if (master < krellSum) hit('haze', ANNOUNCE.haze, 'discarded', [[seat, MASTER]], { player: p, value: master });
  }

  // 4. Pawns Up: every player has a pawn in play, all equal or a straight; each flips to its
  //    highest side, or its lowest if it showed its highest.
  if (seats.every(([, seat]) => inPlay(seat, PAWN))) {
    const vs = seats.map(([, seat]) => valueAt(seat, PAWN)!);
    const sorted = vs.slice().sort((a, b) => a - b);
    const equal = sorted.every((v) => v === sorted[0]);
    const straight = sorted.every((v, k) => k === 0 || v === sorted[k - 1]! + 1);
    if (equal || straight) {
      for (const [, seat] of seats) {
        const pawn = seat.active[PAWN]!;
        const r = seat.stones[PAWN]!;
        r.side = r.side === highestSide(pawn) ? lowestSide(pawn) : highestSide(pawn);
      }
      announce(s, { effect: 'pawns-up', text: ANNOUNCE.pawnsUp, pass, stones: seats.map(([, seat]) => seat.active[PAWN]!.id) });
    }
  }

  // 5. Bury the Ghost Dancer: a Dancer in play showing its lowest side; it returns next round (not after the last).
  for (const [p, seat] of seats) {
    if (!inPlay(seat, DANCER) || seat.stones[DANCER]!.side !== lowestSide(seat.active[DANCER]!)) continue;
    hit('ghost', ANNOUNCE.ghost, 'buried', [[seat, DANCER]], { player: p, value: valueAt(seat, DANCER)! });
    if (s.round < s.rounds) seat.ghostNext = true;
  }

  // 6. Pawn is Queen: a pawn showing (or tied for) its owner's highest value reverses the round
  //    and benches every pawn next round (not after the last).
  for (const [p, seat] of seats) {
    if (!inPlay(seat, PAWN)) continue;
    const pawn = valueAt(seat, PAWN)!;
    if (slotsInPlay(seat).some((i) => valueAt(seat, i)! > pawn)) continue;
    s.reversed = true;
    if (s.round < s.rounds) s.pawnsOutNext = true;
    announce(s, { effect: 'queen', text: ANNOUNCE.queen, pass, player: p, value: pawn, stones: [seat.active[PAWN]!.id] });
  }
}

// ---------------------------------------------------------------------------------------------
// scoring, rounds, the end

/**
 * Scores the round: in position order a player busts below 23 or above 123; when every player
 * before the last has busted, the last wins unchecked. Otherwise the highest (Pawn is Queen: the
 * lowest) non-busted sum wins; a tie wins nobody. Then the swap step, the next round or the end.
 */
export function score(s: S): void {
  const sums: Record<PlayerId, number> = {};
  for (const p of s.order) sums[p] = sumOf(seatOf(s, p));
  const busts = (p: PlayerId) => sums[p]! < BUST.below || sums[p]! > BUST.above;
  const busted: PlayerId[] = [];
  let winner: PlayerId | null = null;
  let unchecked = false;
  const last = s.order[s.order.length - 1]!;
  for (const p of s.order.slice(0, -1)) if (busts(p)) busted.push(p);
  if (busted.length === s.order.length - 1) {
    winner = last;
    unchecked = true;
  } else {
    if (busts(last)) busted.push(last);
    const alive = s.order.filter((p) => !busted.includes(p));
    const best = s.reversed ? Math.min(...alive.map((p) => sums[p]!)) : Math.max(...alive.map((p) => sums[p]!));
    const top = alive.filter((p) => sums[p] === best);
    winner = top.length === 1 ? top[0]! : null;
  }
  if (winner !== null) seatOf(s, winner).roundsWon += 1;
  const record: RoundRecord = {
    round: s.round,
    order: s.order.slice(),
    sums,
    busted,
    winner,
    unchecked,
    reversed: s.reversed,
    announcements: s.announcements.map((a) => ({ ...a, stones: a.stones.slice() })),
  };
  s.history.push(record);
  if (s.round >= s.rounds) return endGame(s, 'rounds');
  if (s.sideboard !== null && s.players.some((p) => !s.out.includes(p) && seatOf(s, p).sideboard.length > 0)) return openSwaps(s);
  nextRound(s);
}

function openSwaps(s: S): void {
  s.phase = 'swaps';
  s.windows = [];
  for (const p of s.players) {
    const seat = seatOf(s, p);
    seat.choice = s.out.includes(p) || seat.sideboard.length === 0 ? 'skipped' : 'pending';
  }
}

/** The next round: everyone moves one place left (the first becomes last). */
export function nextRound(s: S): void {
  s.round += 1;
  s.order = [...s.order.slice(1), s.order[0]!];
  openRound(s);
}

/** A swap between rounds: the sideboard stone takes the active stone's slot and place; a Ghost Dancer's return lapses. */
export function swapStones(s: S, p: PlayerId, inId: string, outId: string): void {
  const seat = seatOf(s, p);
  const j = seat.sideboard.findIndex((x) => x.id === inId);
  const i = seat.active.findIndex((x) => x.id === outId);
  const incoming = seat.sideboard[j]!;
  seat.sideboard[j] = seat.active[i]!;
  seat.active[i] = incoming;
  seat.stones[i] = fresh();
  if (i === DANCER) seat.ghostNext = false;
}

export const scores = (s: S): Record<PlayerId, number> => Object.fromEntries(s.players.map((p) => [p, seatOf(s, p).roundsWon]));

/** The end after the last round: most rounds won wins; a tie for the most is a draw (no winners); forfeited seats rank last. */
export function endGame(s: S, reason: 'rounds'): void {
  const o = rankedOutcome({ players: s.players, scores: scores(s), forfeits: s.out, reason });
  if (o.winners.length > 1) o.winners = [];
  finish(s, o);
}

function finish(s: S, o: Outcome): void {
  s.phase = 'over';
  s.windows = [];
  for (const p of s.players) {
    const seat = seatOf(s, p);
    seat.choice = null;
    seat.selection = [];
  }
  s.outcome = o;
}

/**
 * `p` forfeits (by choice, or `byExpiry`: their third choice in a row expired). Two players: the
 * other wins at once, the round in progress unscored; if the other's choice in this same step is
 * pending at their third expiry too (same step, same deadline), nobody wins. Three or four: the
 * seat goes on under the autopilot (its pending choice is skipped, its window closed); when that
 * leaves one player standing (or none), the game ends at once with that player the winner.
 */
export function forfeitSeat(s: S, p: PlayerId, byExpiry: boolean): void {
  const alsoExpiring = (q: PlayerId) => byExpiry && seatOf(s, q).choice === 'pending' && seatOf(s, q).expiries === LIMITS.expiriesToForfeit - 1;
  if (s.players.length === 2) {
    const other = s.players.find((q) => q !== p)!;
    if (alsoExpiring(other)) return finish(s, { winners: [], scores: scores(s), reason: 'forfeit', forfeits: [p, other] });
    return finish(s, { winners: [other], scores: scores(s), reason: 'forfeit', forfeited: p });
  }
  s.out.push(p);
  const seat = seatOf(s, p);
  if (seat.choice === 'pending') seat.choice = 'skipped';
  seat.selection = [];
  s.windows = s.windows.filter((x) => x !== p);
  const left = standing(s);
  if (left.length === 1 && alsoExpiring(left[0]!)) s.out.push(left[0]!);
  if (standing(s).length <= 1) finish(s, rankedOutcome({ players: s.players, scores: scores(s), forfeits: s.out, reason: 'forfeit' }));
}

/** After a choice is made, expires or is dropped by a forfeit: the step ends when nobody is pending. */
export function settle(s: S): void {
  if (s.outcome !== null || anyPending(s)) return;
  if (s.phase === 'rerolls') finishRerolls(s);
  else if (s.phase === 'swaps') nextRound(s);
}
