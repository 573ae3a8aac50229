import { checkSetup, copyOutcome } from '../../../kernel/checks.ts';
import { replayWith, type ReplayEntry } from '../../../kernel/replay.ts';
import { rngFromSeed, shuffle } from '../../../kernel/rng.ts';
import { RuleError, SYSTEM, type Engine, type Outcome, type PlayerId, type SetupArgs, type TimerSpec } from '../../../kernel/types.ts';
import { sideValue, sideWeight } from '../collection.ts';
import { LIMITS, PACE_TABLE, PACES, SLOT_TYPES, STONE_KINDS, YELL } from '../data.ts';
import {
  captainOnDeck,
  cloneState,
  endRolling,
  forfeitSeat,
  inPlay,
  openRound,
  rollNext,
  seatOf,
  settle,
  slotsInPlay,
  swapStones,
} from './rules.ts';
import {
  moveSchema,
  optionsSchema,
  playerDataSchema,
  stateSchema,
  type BroughtStone,
  type GameStone,
  type KrellstonesMove,
  type KrellstonesOptions,
  type KrellstonesState,
  type Seat,
} from './schema.ts';
import { viewState, type KrellstonesView } from './view.ts';

export * from './schema.ts';
export type { KrellstonesView, ViewSeat, ViewStone, ViewStoneInfo } from './view.ts';
export { highestSide, lowestSide, leftOf, sumOf } from './rules.ts';

/** One entry of a game's log, as `replay` consumes it: a move, or a forfeit. */
export type KrellstonesLogEntry = ReplayEntry<KrellstonesMove>;

const GAME = 'krellstones';

function fail(code: string, message: string): never {
  throw new RuleError(`${GAME}/${code}`, message);
}

// ---------------------------------------------------------------------------------------------
// setup

function snapshot(st: BroughtStone): GameStone {
  return {
    id: st.id,
    ...(st.alias !== undefined ? { alias: st.alias } : {}),
    type: st.type,
    sides: st.sides.map((x) => ({ value: sideValue(x), weight: sideWeight(x) })),
  };
}

function setup(args: SetupArgs<KrellstonesOptions>): KrellstonesState {
  checkSetup(GAME, args, LIMITS.players);
  const parsed = optionsSchema.safeParse(args.options ?? {});
  if (!parsed.success) fail('bad-setup', `Unknown or invalid Krellstones options: ${parsed.error.issues[0]?.message ?? ''}`);
  const options = parsed.data;
  const players = args.players.slice();
  const host = options.host ?? players[0]!;
  if (!players.includes(host)) fail('bad-setup', 'The host must be one of the players.');
  const sideboardSize = options.sideboard === 'off' ? null : options.sideboard;

  const data = args.playerData;
  if (data === undefined || data === null || typeof data !== 'object') fail('bad-player-data', 'Krellstones needs the stones each player brings.');
  const extra = Object.keys(data).filter((k) => !players.includes(k));
  if (extra.length) fail('bad-player-data', `Stones were given for someone who is not playing (${extra[0]}).`);
  const seats: Record<PlayerId, Seat> = {};
  const ids = new Set<string>();
  for (const p of players) {
    const raw = Object.hasOwn(data, p) ? data[p] : undefined;
    const pd = playerDataSchema.safeParse(raw);
    if (!pd.success) fail('bad-player-data', `The stones ${p} brings are not valid: ${pd.error.issues[0]?.message ?? 'missing'}.`);
    const byType = (t: string) => pd.data.stones.filter((x) => x.type === t);
    const active = SLOT_TYPES.filter((t, i) => SLOT_TYPES.indexOf(t) === i).flatMap((t) => byType(t));
    if (SLOT_TYPES.some((t, i) => active[i]?.type !== t)) fail('bad-player-data', `${p} must bring 1 Pawn, 1 Dancer, 3 Krells and 1 Master.`);
    if (sideboardSize === null && pd.data.sideboard.length > 0) fail('bad-player-data', 'This game has no sideboard.');
    if (sideboardSize !== null && pd.data.sideboard.length > sideboardSize) fail('bad-player-data', `${p}'s sideboard holds more than ${sideboardSize} stones.`);
    for (const st of [...active, ...pd.data.sideboard]) {
      if (ids.has(st.id)) fail('bad-player-data', `The stone ${st.id} is brought twice.`);
      ids.add(st.id);
    }
    seats[p] = {
      active: active.map(snapshot),
      sideboard: pd.data.sideboard.map(snapshot),
      stones: [],
      choice: null,
      selection: [],
      expiries: 0,
      roundsWon: 0,
      ghostNext: false,
    };
  }

  // Positions of round 1: a shuffle of the seats (the only draw at setup).
  const [order, rng] = shuffle(rngFromSeed(args.seed), players);
  const s: KrellstonesState = {
    players,
    host,
    rounds: options.rounds,
    rerolls: options.rerolls,
    sideboard: sideboardSize,
    pace: options.pace,
    rng,
    round: 1,
    order,
    phase: 'rolling',
    rolled: 0,
    windows: [],
    reversed: false,
    pawnsOut: false,
    pawnsOutNext: false,
    announcements: [],
    history: [],
    seats,
    out: [],
    outcome: null,
  };
  openRound(s);
  return s;
}

// ---------------------------------------------------------------------------------------------
// timers and who is awaited

/** The key of the running SYSTEM step: the next roll, or the end of the rolling phase. */
function systemKey(s: KrellstonesState): string | null {
  if (s.outcome !== null || s.phase !== 'rolling') return null;
  return s.rolled < s.order.length ? `roll:r${s.round}:${s.rolled}` : `rolled:r${s.round}`;
}

/** The key of a player's choice timer in the running step. */
function choiceKey(s: KrellstonesState): string | null {
  if (s.phase === 'rerolls') return `reroll:r${s.round}`;
  if (s.phase === 'swaps') return `swap:r${s.round}`;
  return null;
}

const yellKey = (s: KrellstonesState) => `yell:r${s.round}`;

/**
 * The timers of this state. SYSTEM: `roll:r<round>:<k>` (the roll of position k, one gap after the
 * previous step; k = 0 one gap after the round opens) and `rolled:r<round>` (one gap after the
 * last roll: the rolling phase ends, windows close, effects resolve). Players: `yell:r<round>`
 * (the Pup window, the pace's window; it closes at its expiry or at the end of the rolling
 * phase, whichever comes first), `reroll:r<round>` and `swap:r<round>` (a choice; at expiry the
 * default move means no reroll / no more swaps and counts toward three expiries in a row). The
 * durations come from the current pace (SLOW choices run the server's turn limit). Every player
 * timer is a turn, whatever the pace: the player is told at once by DM (the Pup's owner must be
 * pinged the moment the Master lands, and a 45-second reroll choice is made from that DM as well as
 * from the board), and the deadline shows on the board. At FAST and NORMAL pace a choice's DM
 * edits the player's DM of the game (`dm: 'edit'`: one DM per game, edited round by round); the
 * Pup's DM is always a new one (it must ping), and so is every SLOW choice.
 */
function timers(s: KrellstonesState): TimerSpec<KrellstonesMove>[] {
  if (s.outcome !== null) return [];
  const pace = PACE_TABLE[s.pace];
  const out: TimerSpec<KrellstonesMove>[] = [];
  const sys = systemKey(s);
  if (sys !== null) out.push({ key: sys, after: { ms: pace.rollGapMs }, onExpiry: { type: 'move', move: { type: 'system', key: sys } } });
  for (const p of s.windows) {
    const key = yellKey(s);
    out.push({ key, player: p, after: { ms: pace.yellWindowMs }, onExpiry: { type: 'move', move: { type: 'timeout', key } }, turn: true });
  }
  const key = choiceKey(s);
  if (key !== null) {
    for (const p of s.players) {
      if (seatOf(s, p).choice !== 'pending') continue;
      // Live paces: the choice edits the player's DM of the game (one DM per game, no ping per round).
      out.push({ key, player: p, after: pace.choice, onExpiry: { type: 'move', move: { type: 'timeout', key } }, turn: true, ...(s.pace === 'SLOW' ? {} : { dm: 'edit' as const }) });
    }
  }
  return out;
}

/** Players the game waits for: pending reroll or swap choices, and open Pup windows. */
function awaiting(s: KrellstonesState): PlayerId[] {
  if (s.outcome !== null) return [];
  return s.players.filter((p) => seatOf(s, p).choice === 'pending' || s.windows.includes(p));
}

// ---------------------------------------------------------------------------------------------
// moves

function applySystem(state: KrellstonesState, move: unknown): KrellstonesState {
  const parsed = moveSchema.safeParse(move);
  if (!parsed.success || parsed.data.type !== 'system') fail('not-a-system-move', 'The game itself only advances its own steps.');
  const key = systemKey(state);
  if (key === null || parsed.data.key !== key) fail('stale-step', 'That step of the game is not due (it already happened, or the game moved on).');
  const s = cloneState(state);
  if (s.rolled < s.order.length) rollNext(s);
  else endRolling(s);
  return s;
}

function apply(state: KrellstonesState, actor: PlayerId, move: KrellstonesMove): KrellstonesState {
  if (state.outcome !== null) fail('game-over', 'This game of Krellstones is already over.');
  if (actor === SYSTEM) return applySystem(state, move);
  if (!state.players.includes(actor)) fail('not-a-player', 'You are not playing in this game of Krellstones.');
  const parsed = moveSchema.safeParse(move);
  if (!parsed.success) fail('bad-move', 'That is not a valid Krellstones move.');
  const m = parsed.data;
  if (state.out.includes(actor)) fail('forfeited', 'You forfeited: the autopilot plays your seat.');
  const mine = seatOf(state, actor);

  switch (m.type) {
    case 'system':
      return fail('system-only', 'Only the game itself advances its steps.');
    case 'pace': {
      if (actor !== state.host) fail('not-host', 'Only the host can change the pace.');
      if (m.pace === state.pace) fail('same-pace', `The pace is already ${m.pace}.`);
      const s = cloneState(state);
      s.pace = m.pace;
      return s;
    }
    case 'yell': {
      if (!state.windows.includes(actor)) {
        const mine = (effect: string) => state.announcements.some((a) => a.effect === effect && a.player === actor && a.pass === 0);
        if (mine('captain')) fail('already-yelled', 'You already yelled: Captain on Deck turned your Master to its highest side.');
        if (mine('pup')) fail('window-closed', 'Too late: your Pup in the Hangar window has closed, and your Master stays on its lowest side.');
        fail('no-window', 'Nothing happens: you have no Pup in the Hangar to yell for now.');
      }
      if (m.text !== YELL) fail('not-a-yell', 'Nothing happens: only the exact yell counts.');
      const s = cloneState(state);
      captainOnDeck(s, actor);
      return s;
    }
    case 'timeout': {
      const s = cloneState(state);
      if (state.windows.includes(actor) && m.key === yellKey(state)) {
        s.windows = s.windows.filter((p) => p !== actor);
        return s;
      }
      if (mine.choice !== 'pending' || m.key !== choiceKey(state)) fail('stale-step', 'That timer is not running for you.');
      const seat = seatOf(s, actor);
      seat.choice = 'expired';
      seat.selection = [];
      seat.expiries += 1;
      if (seat.expiries >= LIMITS.expiriesToForfeit) forfeitSeat(s, actor, true);
      settle(s);
      return s;
    }
    case 'select': {
      if (state.phase !== 'rerolls') fail('not-choosing', 'Rerolls are chosen after the rolls and their effects.');
      if (mine.choice !== 'pending') fail('already-ready', 'You are already ready.');
      if (new Set(m.stones).size !== m.stones.length) fail('duplicate-stone', 'Each stone can be rerolled only once.');
      const slots = m.stones.map((id) => {
        const i = mine.active.findIndex((x) => x.id === id);
        if (i < 0) fail('not-your-stone', `${id} is not one of your stones in this game.`);
        if (!inPlay(mine, i)) fail('not-in-play', `Your ${STONE_KINDS[mine.active[i]!.type].name} ${id} is not in play: it cannot be rerolled.`);
        return i;
      });
      const s = cloneState(state);
      seatOf(s, actor).selection = slots.sort((a, b) => a - b).map((i) => mine.active[i]!.id);
      return s;
    }
    case 'ready': {
      if (state.phase !== 'rerolls' && state.phase !== 'swaps') fail('nothing-to-confirm', 'There is nothing to be ready for now.');
      if (mine.choice !== 'pending') fail('already-ready', 'You are already ready.');
      const s = cloneState(state);
      const seat = seatOf(s, actor);
      seat.choice = 'ready';
      seat.expiries = 0;
      settle(s);
      return s;
    }
    case 'swap': {
      if (state.phase !== 'swaps') fail('not-swapping', 'Sideboard swaps are made between rounds.');
      if (mine.choice !== 'pending') fail('already-ready', 'You are already ready.');
      const incoming = mine.sideboard.find((x) => x.id === m.in);
      if (!incoming) fail('not-on-sideboard', `${m.in} is not on your sideboard.`);
      const outgoing = mine.active.find((x) => x.id === m.out);
      if (!outgoing) fail('not-active', `${m.out} is not one of your active stones.`);
      if (incoming.type !== outgoing.type) fail('wrong-type', `A ${STONE_KINDS[incoming.type].name} can only replace a ${STONE_KINDS[incoming.type].name}.`);
      const s = cloneState(state);
      swapStones(s, actor, m.in, m.out);
      seatOf(s, actor).expiries = 0;
      return s;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// legal moves, forfeit, autopilot

/** Every subset of `ids` (in order), the empty one first. */
function subsets(ids: string[]): string[][] {
  const out: string[][] = [];
  for (let mask = 0; mask < 1 << ids.length; mask++) out.push(ids.filter((_, k) => mask & (1 << k)));
  return out;
}

/**
 * The current choices of `player`: the yell during their Pup window (and letting it pass, the
 * window's own `timeout`); while choosing rerolls,
 * `select` with every subset of their stones in play (slot order, the empty one first) and
 * `ready`; during the swap step every legal swap and `ready`; and for the host, the two other
 * paces, listed while the host is awaited (apply accepts the host's pace at any time).
 */
function legalMoves(s: KrellstonesState, player: PlayerId): KrellstonesMove[] {
  if (s.outcome !== null || !s.players.includes(player) || s.out.includes(player)) return [];
  const seat = seatOf(s, player);
  const out: KrellstonesMove[] = [];
  if (s.windows.includes(player)) out.push({ type: 'yell', text: YELL }, { type: 'timeout', key: yellKey(s) });
  if (seat.choice === 'pending' && s.phase === 'rerolls') {
    const ids = slotsInPlay(seat).map((i) => seat.active[i]!.id);
    for (const stones of subsets(ids)) out.push({ type: 'select', stones });
    out.push({ type: 'ready' });
  }
  if (seat.choice === 'pending' && s.phase === 'swaps') {
    for (const incoming of seat.sideboard) {
      for (const outgoing of seat.active) if (outgoing.type === incoming.type) out.push({ type: 'swap', in: incoming.id, out: outgoing.id });
    }
    out.push({ type: 'ready' });
  }
  if (out.length > 0 && player === s.host) for (const pace of PACES) if (pace !== s.pace) out.push({ type: 'pace', pace });
  return out;
}

function forfeit(state: KrellstonesState, player: PlayerId): KrellstonesState {
  if (state.outcome !== null) fail('game-over', 'This game of Krellstones is already over.');
  if (!state.players.includes(player)) fail('not-a-player', 'You are not playing in this game of Krellstones.');
  if (state.out.includes(player)) fail('forfeited', 'You already forfeited: the autopilot plays your seat.');
  const s = cloneState(state);
  forfeitSeat(s, player, false);
  settle(s);
  return s;
}

/**
 * The autopilot (a practice game's bot seat; a forfeited seat is never asked, the engine plays it:
 * it rolls, never rerolls, swaps or yells). It confirms its choices without rerolling or swapping,
 * and lets a Pup window pass at once (the window's `timeout`, listed beside the yell).
 */
function autopilot(s: KrellstonesState, player: PlayerId): KrellstonesMove {
  const moves = legalMoves(s, player);
  // It never yells: a Pup window is let pass at once.
  const pick = moves.find((m) => m.type === 'ready') ?? moves.find((m) => m.type === 'timeout');
  if (!pick) throw new Error('the Krellstones autopilot was asked to move, but the game waits for nothing from this seat');
  return pick;
}

function outcome(s: KrellstonesState): Outcome | null {
  return s.outcome ? copyOutcome(s.outcome) : null;
}

function view(s: KrellstonesState, viewer: PlayerId | null): KrellstonesView {
  return viewState(s, viewer, awaiting(s));
}

/**
 * Krellstones (krellstones.seed.txt, settled by RULINGS.md; numbers in ../data.ts).
 *
 * Rules as implemented:
 * - 2-4 players, 1-17 rounds (default 5), rerolls on or off, a sideboard of 1-10 stones or none,
 *   a pace (FAST, NORMAL, SLOW) and a host. Each player brings (setup's `playerData`) one Pawn, one
 *   Dancer, three Krells and one Master, and up to the sideboard size of sideboard stones; each stone
 *   is snapshotted (the value and weight of every side, faces applied) and never changes in the game.
 * - Positions: a seeded shuffle in round 1; each later round everyone moves one place left (the
 *   first becomes last). A player's left is the next in position order, wrapping.
 * - Rolling: one roll per player in position order, each a SYSTEM step one pace gap after the
 *   previous; the rolling phase ends one gap after the last roll. A roll turns every unrolled stone
 *   of the player to a side drawn with probability weight / total weight (slot order).
 * - Pup in the Hangar (initial roll only): a Master rolled to its lowest side is announced and, for
 *   a seat not on autopilot, opens a window: the pace's yell window, cut at the end of the rolling
 *   phase. Only the owner's `yell` of exactly `KRELLSTONES!` while it is open counts: Captain on
 *   Deck turns the Master to its highest side at once (before effect 1) and closes the window. Any
 *   other text, anyone else, or a closed window: refused, nothing happens (a yell after one's own
 *   window closed is told it was late: `window-closed`).
 * - Effects, after the rolling phase and again after rerolls whenever rerolls are on (even if
 *   nobody rerolled), each once per pass in the order 1-6 on the board as the earlier ones left it,
 *   position order where single players are concerned; a discarded or buried stone is out for the
 *   round (triggers nothing, is hit by nothing, is not rerolled, does not score):
 *   1 Spins Out (a player's two Krells in play show one number: every stone in play of every player
 *     showing it is discarded, Masters too; "<n> SPINS OUT!" once per number);
 *   2 In the Swamp (every player has a stone in play and their highest values are all the same:
 *     every stone showing it is discarded; "<n> IN THE SWAMP!");
 *   3 Haze the Master (a Master in play below the sum of the left player's Krells in play, 0 if
 *     none; equal stays; one "HAZE THE MASTER!" per Master);
 *   4 Pawns Up (every player has a pawn in play and the values are all equal or distinct and
 *     consecutive in any order: each pawn turns to its highest side, or its lowest if it showed its
 *     highest; one "PAWNS UP!");
 *   5 Bury the Ghost Dancer (a Dancer in play showing its lowest side is buried; it comes back next
 *     round unrolled, in play, on its highest side, unless this is the final round; one
 *     "BURY THE GHOST DANCER!" per Dancer);
 *   6 Pawn is Queen (a pawn in play showing its owner's highest value, ties counting: the lowest sum
 *     wins this round, which stays so even if no pawn is highest later, and every pawn is benched
 *     next round unless this is the final round; one "PAWN IS QUEEN!" per player per pass).
 * - Rerolls (unless off): every seat not on autopilot with a stone in play chooses at the same time
 *   and in secret (`select` any of its stones in play, each once, then `ready`); everyone else is
 *   skipped. An expired choice rerolls nothing. Then the selections are rerolled in position order.
 * - Scoring: the sum of the stones in play. In position order a sum below 23 or above 123 busts;
 *   when every player before the last busted, the last wins unchecked. Otherwise the highest
 *   non-busted sum wins (Pawn is Queen: the lowest); a tie wins nobody.
 * - Sideboard: between two rounds every seat not on autopilot whose sideboard holds a stone gets a
 *   swap step: any number of `swap`s (a sideboard stone for an active stone of its type, discarded,
 *   ghost or not), each applied at once, then `ready`. The stone swapped out goes to the sideboard;
 *   one swapped in enters the next round fresh (a Ghost Dancer's return lapses; benched pawns stay
 *   benched, the new one too). An expired swap step means no more swaps.
 * - The game ends after the last round: most rounds won wins; players tied for the most draw (no
 *   winners, sharing place 1); forfeited seats rank last whatever their count.
 * - Three choices (reroll or swap steps) left to expire in a row forfeit; a choice made (`ready`, a
 *   swap) resets the count. A forfeit with two players ends the game at once (the other wins, the
 *   round unscored; both at their third expiry in the same step: nobody wins). With three or four
 *   the seat stays under the autopilot, listed by `out`: it rolls, counts in every effect and can win
 *   rounds, never rerolls, swaps or yells, and ranks last.
 * - Pace: the host's `pace` move, accepted at any time; the running timers keep their deadlines,
 *   the next timer started takes the new pace.
 *
 * Choices where the rulebook and RULINGS are silent:
 * - Options default to 5 rounds, rerolls on, sideboard off, SLOW (RULINGS: the Discord default) and
 *   the first player given as host. Stone ids are the collection's asset ids, unique in the game; a
 *   stone's optional alias is kept for display.
 * - Round 1 opens at setup; every round's first roll is one gap after the round opens (after setup,
 *   after the previous round is scored, or after its swap step), so the positions and the last
 *   result can be read before the dice fall. The setup draws only the round-1 positions.
 * - Rerolls are all rolled at once, in position order, the moment the last choice is made or
 *   expires (no gaps: there is nothing to yell for on a reroll).
 * - The yell's Captain on Deck is applied when the yell arrives (the Master shows its highest at once),
 *   which is before effect 1 as RULINGS requires. A wrong yell may be followed by a right one while
 *   the window is open. A window belongs to the round (`yell:r<round>`); the engine has no clock, so
 *   "a yell at the deadline is late" holds when the service fires a timer that fell due before it
 *   applies a later move.
 * - The Pup window is a timer of its owner (its default move closes it, counting as no expiry),
 *   marked as the owner's turn at every pace so they are told at once (a DM, and the board's mention).
 * - A seat with no stone in play after the first pass is not asked for rerolls (its only choice
 *   would be nothing; no expiry); a `select` replaces the earlier selection and is secret until the
 *   rerolls; `ready` locks it. An expired selection is dropped (no reroll). Only `ready` and swaps
 *   count as choices made: a `select` without `ready` does not reset the expiry count.
 * - The swapped-out stone takes the incoming stone's place on the sideboard; the incoming stone
 *   takes the slot (and shows nothing until the next round). A swap may bring back a stone swapped
 *   out earlier in the same step. Swaps made before a swap step expires stand.
 * - Spins Out takes the number shown twice by a player's Krells in play (three Krells hold at most
 *   one such number). A Pawns Up flip uses the values' sides after slotting, weights ignored.
 * - A Ghost Dancer rerolled is no longer the unrolled ghost but keeps its `ghost` mark for the round;
 *   rerolled to its lowest it is buried again. Buried in the final round, it is announced the same
 *   way and simply leaves.
 * - A 2-player simultaneous third expiry is detected when the other player is still pending in the
 *   same choice step at two expiries (both timers started together with the same duration, so their
 *   deadlines are the same). The outcome then has no winners, reason `forfeit`, `forfeits` both.
 * - With three or four players, a forfeit that leaves one player standing ends the game at once
 *   (reason `forfeit`): that player wins (they would rank first anyway). If that player's choice in
 *   the same step was also at its third expiry, nobody wins.
 * - A forfeited host can no longer change the pace. `legalMoves` lists the pace only while the host
 *   is awaited for something else: listing it always would keep the host awaited all game.
 * - Outcome scores are rounds won; places follow rankedOutcome (ties share a place). Reasons:
 *   `rounds`, `forfeit`.
 * - SYSTEM moves carry the key of the timer that fired; a stale key is refused (`stale-step`), so a
 *   late or doubled timer changes nothing. Player timers' default move is `timeout` with the key.
 * - Setup refuses bad seats or seeds and unknown options (`bad-setup`), and player data that is
 *   missing, not the right six stones, over the sideboard size, with duplicate stone ids, or for
 *   someone not seated (`bad-player-data`). Move refusals: game-over, not-a-player, bad-move,
 *   forfeited, then system-only, not-host, same-pace, already-yelled, window-closed, no-window, not-a-yell, stale-step,
 *   not-choosing, already-ready, duplicate-stone, not-your-stone, not-in-play, nothing-to-confirm,
 *   not-swapping, not-on-sideboard, not-active, wrong-type; from SYSTEM: not-a-system-move,
 *   stale-step.
 */
export const krellstones: Engine<KrellstonesState, KrellstonesMove, KrellstonesView, KrellstonesOptions> = {
  id: GAME,
  name: 'Krellstones',
  minPlayers: LIMITS.players.min,
  maxPlayers: LIMITS.players.max,
  stateSchema,
  moveSchema,
  optionsSchema,
  setup,
  apply,
  view,
  awaiting,
  outcome,
  forfeit,
  legalMoves,
  timers,
  out: (s) => s.out.slice(),
  autopilot,
};

/**
 * Recomputes a game from its seed, seating, options, player data and log (setup, then each entry
 * in order). Pure; throws the RuleError of the first illegal entry.
 */
export function replay(
  seed: string,
  players: PlayerId[],
  options: Partial<KrellstonesOptions> | undefined,
  playerData: Record<PlayerId, unknown>,
  entries: readonly KrellstonesLogEntry[],
): KrellstonesState {
  return replayWith(krellstones, seed, players, optionsSchema.parse(options ?? {}), entries, playerData).at(-1)!;
}
