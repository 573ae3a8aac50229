import { assertRunningAndSeated, checkSetup, copyOutcome, rankedOutcome } from '../../../kernel/checks.ts';
import { replayWith, type ReplayEntry } from '../../../kernel/replay.ts';
import { nextInt, rngFromSeed, shuffle, type RngState } from '../../../kernel/rng.ts';
import { RuleError, type Engine, type Outcome, type PlayerId, type SetupArgs, type TimerSpec } from '../../../kernel/types.ts';
import { autopilotCard, autoPlacements } from './autopilot.ts';
import { CARD_IDS, card, sortCards, type CardId } from './data.ts';
import { canPlace } from './lines.ts';
import { scoreLines } from './scoring.ts';
import {
  HAND_SIZE,
  MAX_PLAYERS,
  MIN_PLAYERS,
  TRICKS,
  moveSchema,
  optionsSchema,
  stateSchema,
  type KeystoneMove,
  type KeystoneOptions,
  type KeystoneState,
  type Placement,
} from './schema.ts';
import { ledColourOf, playableCards, targetsFor, viewState, type KeystoneView } from './view.ts';

export {
  CARDS,
  CARD_IDS,
  COLOURS,
  DECK_SIZE,
  GOD_COUNT,
  KEYSTONE_BY_NUMBER,
  NUMBERS,
  card,
  compareCards,
  isCardId,
  isGod,
  sortCards,
  type Card,
  type CardId,
  type Colour,
} from './data.ts';
export { canPlace, directionOfNumbers, isLegalLine, lineDirection, lineKeystones, openNumbers, resolveLine, type Counted, type Direction, type Line } from './lines.ts';
export { LINE_COST, scoreLines, scoreLinesDetailed, type LineScore } from './scoring.ts';
export { AUTO_PLACE_BUDGET, GOD_POT, OPENNESS_WEIGHT, autoPlaceSearch, autoPlaceValue, autoPlacements, autopilotCard, greedyPlacements } from './autopilot.ts';
export {
  GAMES,
  HAND_SIZE,
  MAX_PLAYERS,
  MIN_PLAYERS,
  TRICKS,
  cardIdSchema,
  moveSchema,
  optionsSchema,
  outcomeSchema,
  placementSchema,
  stateSchema,
  targetSchema,
  trickRecordSchema,
  type KeystoneMove,
  type KeystoneOptions,
  type KeystoneState,
  type Placement,
  type Target,
  type TrickRecord,
} from './schema.ts';
export { ledColourOf, playableCards, targetsFor, viewCard, viewLinesOf, type KeystoneView, type ViewCard, type ViewLine, type ViewLineCard, type ViewPlayedCard, type ViewSeat, type ViewTrick } from './view.ts';

/** One entry of a game's log, as `replay` consumes it: a move, or a forfeit. */
export type KeystoneLogEntry = ReplayEntry<KeystoneMove>;

const GAME = 'keystone';
const TITLE = 'Keystone';

function fail(code: string, message: string): never {
  throw new RuleError(`${GAME}/${code}`, message);
}

/** A copy sharing nothing with `s` (the state is arrays of strings and numbers). */
function clone(s: KeystoneState): KeystoneState {
  return {
    players: s.players.slice(),
    rng: { seed: s.rng.seed, n: s.rng.n },
    game: s.game,
    trick: s.trick,
    phase: s.phase,
    hands: s.hands.map((h) => h.slice()),
    undealt: s.undealt.slice(),
    leader: s.leader,
    turn: s.turn,
    played: s.played.slice(),
    pending: s.pending.slice(),
    lines: s.lines.map((ls) => ls.map((l) => l.slice())),
    lastTrick: s.lastTrick ? { ...s.lastTrick, cards: s.lastTrick.cards.slice() } : null,
    gameScores: s.gameScores.map((g) => g.slice()),
    finishedLines: s.finishedLines.map((g) => g.map((ls) => ls.map((l) => l.slice()))),
    out: s.out.slice(),
    outcome: s.outcome ? copyOutcome(s.outcome) : null,
  };
}

/** Shuffles all 53 cards and deals 12 to each seat: seat i gets cards 12i..12i+11 of the shuffle. */
function deal(rng: RngState, n: number): { hands: CardId[][]; undealt: CardId[]; rng: RngState } {
  const [deck, next] = shuffle(rng, CARD_IDS);
  const hands = Array.from({ length: n }, (_, seat) => sortCards(deck.slice(seat * HAND_SIZE, (seat + 1) * HAND_SIZE)));
  return { hands, undealt: sortCards(deck.slice(n * HAND_SIZE)), rng: next };
}

function setup(args: SetupArgs<KeystoneOptions>): KeystoneState {
  checkSetup(GAME, args, { min: MIN_PLAYERS, max: MAX_PLAYERS });
  if (!optionsSchema.safeParse(args.options ?? {}).success) fail('bad-setup', 'Keystone has no options.');
  const n = args.players.length;
  const dealt = deal(rngFromSeed(args.seed), n);
  const [start, rng] = nextInt(dealt.rng, n);
  return {
    players: args.players.slice(),
    rng,
    game: 1,
    trick: 1,
    phase: 'play',
    hands: dealt.hands,
    undealt: dealt.undealt,
    leader: start,
    turn: start,
    played: [],
    pending: [],
    lines: Array.from({ length: n }, () => []),
    lastTrick: null,
    gameScores: [],
    finishedLines: [],
    out: [],
    outcome: null,
  };
}

/**
 * The winner of a full trick, as an index into the play order: the first God card played, else
 * the highest card of the led colour (the leader's card is of that colour, numbers in a colour are
 * distinct, so there is exactly one).
 */
export function trickWinner(played: readonly CardId[]): number {
  const god = played.findIndex((id) => card(id).god);
  if (god >= 0) return god;
  const led = ledColourOf(played);
  let best = 0;
  played.forEach((id, i) => {
    const c = card(id);
    const b = card(played[best]!);
    if (c.colour === led && (c.number ?? 0) > (b.number ?? 0)) best = i;
  });
  return best;
}

/** Finished games' scores plus the running game's lines as they stand, by player. */
function totals(s: KeystoneState, includeRunning: boolean): Record<PlayerId, number> {
  return Object.fromEntries(
    s.players.map((p, seat) => [p, s.gameScores.reduce((sum, g) => sum + (g[seat] ?? 0), 0) + (includeRunning ? scoreLines(s.lines[seat] ?? []) : 0)]),
  );
}

function doPlay(s: KeystoneState, seat: number, id: CardId): KeystoneState {
  const hand = s.hands[seat]!;
  if (!hand.includes(id)) fail('not-in-hand', 'That card is not in your hand.');
  if (!playableCards(s, seat).includes(id)) {
    fail('must-follow', `You must follow the led colour (${ledColourOf(s.played)}) while you hold a card of it; a God card may always be played.`);
  }
  s.hands[seat] = hand.filter((c) => c !== id);
  s.played.push(id);
  const n = s.players.length;
  if (s.played.length < n) {
    s.turn = (s.turn + 1) % n;
    return s;
  }
  // The trick is complete: its winner takes the cards and places them before the next lead.
  const winner = (s.leader + trickWinner(s.played)) % n;
  s.lastTrick = { game: s.game, trick: s.trick, leader: s.leader, cards: s.played.slice(), winner };
  s.pending = s.played;
  s.played = [];
  s.phase = 'place';
  s.turn = winner;
  return s;
}

/** Places one waiting card for the placing seat (no bookkeeping of what comes after). */
function placeOne(s: KeystoneState, p: Placement): void {
  if (!s.pending.includes(p.card)) fail('not-waiting', 'That card is not among your won cards waiting to be placed.');
  const lines = s.lines[s.turn]!;
  if (p.line === 'new') lines.push([p.card]);
  else {
    const line = lines[p.line];
    if (!line) fail('no-such-line', `You have no line ${p.line} (you have ${lines.length}); place the card on one of yours or start a new line.`);
    if (!canPlace(line, p.card)) fail('does-not-fit', 'That card does not fit on top of that line: a line runs ascending or descending (equal numbers allowed).');
    line.push(p.card);
  }
  s.pending = s.pending.filter((c) => c !== p.card);
}

/** After the last waiting card: the next trick, game 2, or the end of the match. */
function afterPlacement(s: KeystoneState): KeystoneState {
  if (s.pending.length > 0) return s;
  const winner = s.turn;
  if (s.trick < TRICKS) {
    s.trick += 1;
    s.phase = 'play';
    s.leader = winner;
    s.turn = winner;
    return s;
  }
  s.gameScores.push(s.lines.map((lines) => scoreLines(lines)));
  s.finishedLines.push(s.lines.map((lines) => lines.map((l) => l.slice())));
  if (s.game === 1) {
    const dealt = deal(s.rng, s.players.length);
    s.rng = dealt.rng;
    s.hands = dealt.hands;
    s.undealt = dealt.undealt;
    s.lines = s.players.map(() => []);
    // Game 1's last trick names cards that are now dealt again (or out of play): it is not shown.
    s.lastTrick = null;
    s.game = 2;
    s.trick = 1;
    s.phase = 'play';
    s.leader = winner;
    s.turn = winner;
    return s;
  }
  s.phase = 'over';
  s.outcome = rankedOutcome({ players: s.players, scores: totals(s, false), forfeits: s.out, reason: 'scored' });
  return s;
}

function apply(state: KeystoneState, actor: PlayerId, move: KeystoneMove): KeystoneState {
  assertRunningAndSeated(GAME, TITLE, state.phase === 'over', state.players, actor);
  const parsed = moveSchema.safeParse(move);
  if (!parsed.success) fail('bad-move', 'That is not a valid Keystone move.');
  const m = parsed.data;
  const seat = state.players.indexOf(actor);
  if (seat !== state.turn) {
    fail('not-your-turn', state.phase === 'place' ? `It is ${state.players[state.turn]}'s turn to place the won cards.` : 'It is not your turn.');
  }
  if (state.phase === 'place' && m.type === 'play') fail('place-first', 'Place every card you won before the next lead.');
  if (state.phase === 'play' && m.type !== 'play') fail('nothing-to-place', 'There are no won cards to place now: play a card.');
  const s = clone(state);
  switch (m.type) {
    case 'play':
      return doPlay(s, seat, m.card);
    case 'place':
      placeOne(s, m);
      return afterPlacement(s);
    case 'place-all': {
      const cards = m.placements.map((p) => p.card);
      if (new Set(cards).size !== cards.length || cards.length !== s.pending.length || !cards.every((c) => s.pending.includes(c))) {
        fail('place-all-incomplete', 'Placing all at once must place every waiting card exactly once.');
      }
      for (const p of m.placements) placeOne(s, p);
      return afterPlacement(s);
    }
    case 'auto-place':
      for (const p of autoPlacements(s.lines[s.turn]!, s.pending)) placeOne(s, p);
      return afterPlacement(s);
  }
}

function view(state: KeystoneState, viewer: PlayerId | null): KeystoneView {
  return viewState(state, viewer);
}

function awaiting(state: KeystoneState): PlayerId[] {
  return state.phase === 'over' ? [] : [state.players[state.turn]!];
}

function outcome(state: KeystoneState): Outcome | null {
  return state.outcome ? copyOutcome(state.outcome) : null;
}

/**
 * Every move `player` may make now: while a trick is played, their playable cards (hand order);
 * while they place won cards, every legal single placement of every waiting card (waiting cards in
 * play order; for each, the lines it fits by index, then a new line), then `auto-place`. The
 * `place-all` lists are not enumerated (they are any legal sequence of single placements; the bot
 * offers single placements and Auto-place).
 */
function legalMoves(state: KeystoneState, player: PlayerId): KeystoneMove[] {
  if (state.phase === 'over' || state.players[state.turn] !== player) return [];
  if (state.phase === 'play') return playableCards(state, state.turn).map((c) => ({ type: 'play' as const, card: c }));
  const lines = state.lines[state.turn]!;
  const out: KeystoneMove[] = [];
  for (const c of state.pending) for (const line of targetsFor(lines, c)) out.push({ type: 'place', card: c, line });
  out.push({ type: 'auto-place' });
  return out;
}

/**
 * The autopilot (a forfeited seat, or a bot seat): a card by `autopilotCard` (autopilot.ts), or
 * Auto-place for won cards. It is a pure function of the state: the generator is not needed.
 */
function autopilot(state: KeystoneState, player: PlayerId, _rng?: RngState): KeystoneMove {
  if (state.phase === 'over' || state.players[state.turn] !== player) throw new Error('the Keystone autopilot was asked to move out of turn');
  if (state.phase === 'place') return { type: 'auto-place' };
  return { type: 'play', card: autopilotCard(state, state.turn) };
}

/**
 * One timer, for the seat the game waits for. Its key names the game, the trick and the step
 * (`turn:g1:t3:play2` for the third card of trick 3, `turn:g1:t3:place` for placing its cards), so
 * every card played starts a new turn while placing several cards one at a time keeps one deadline.
 * A seat still in the game: the server's turn limit, forfeit at expiry. A forfeited seat runs no
 * timer: whoever runs the game applies the autopilot's move for it at once (the platform does so
 * in the transaction that made it the seat's turn, src/services/changes.ts), so a timer for it
 * could never fall due.
 */
function timers(state: KeystoneState): TimerSpec<KeystoneMove>[] {
  if (state.phase === 'over') return [];
  const player = state.players[state.turn]!;
  if (state.out.includes(player)) return [];
  const step = state.phase === 'play' ? `play${state.played.length}` : 'place';
  return [{ key: `turn:g${state.game}:t${state.trick}:${step}`, player, after: 'turn-limit', onExpiry: { type: 'forfeit' } }];
}

function out(state: KeystoneState): PlayerId[] {
  return state.out.slice();
}

function forfeit(state: KeystoneState, player: PlayerId): KeystoneState {
  assertRunningAndSeated(GAME, TITLE, state.phase === 'over', state.players, player);
  if (state.out.includes(player)) fail('already-out', 'You have already left this game; the autopilot plays your seat.');
  const s = clone(state);
  s.out.push(player);
  const standing = s.players.filter((p) => !s.out.includes(p));
  if (standing.length <= 1) {
    s.phase = 'over';
    s.outcome = rankedOutcome({ players: s.players, scores: totals(s, true), forfeits: s.out, reason: 'forfeit' });
  }
  return s;
}

/**
 * Keystone (keystone.seed.txt, settled by the Keystone section of RULINGS.md).
 *
 * Rules as implemented (RULINGS):
 * - 53 cards (data.ts): red, blue, green, yellow, purple 1-10, keystones 1->1, 2->0, 3->2, 4->-2,
 *   5->0, 6->3, 7->0, 8->1, 9->0, 10->6 in every colour, and 3 God cards ("=").
 * - 3 or 4 players, seated clockwise in the order given; play goes clockwise (seat order). Two
 *   games of 12 tricks. Each game deals 12 cards to each player from a seeded shuffle of all 53;
 *   the rest are out of play for that game and seen by nobody, ever. Game 2 reshuffles all 53.
 * - Game 1's start player is drawn at random (seeded) and leads trick 1. Game 2's first leader is
 *   the winner of game 1's last trick.
 * - Trick: the leader plays any card; the others must follow the led colour if they can; a God
 *   card may be played at any time, even when able to follow. A God card led means no led colour:
 *   everyone may play anything. A God card played after the lead does not free later players.
 *   The first God card played wins the trick, else the highest card of the led colour. The winner
 *   leads the next trick.
 * - Placing: the winner places every won card, one at a time in any order, each on top of one of
 *   their own lines (lines started earlier in the same placement included) where it fits, or as a
 *   new line; all are placed before the next lead. Line rules and God cards: lines.ts.
 * - Scoring per game (scoring.ts): the longest line(s) are the Sun and score no keystones, every
 *   other line scores its keystones, every line costs 3; no lines scores 0; negative totals stand.
 * - After game 2 the highest total wins; ties share the win (kernel `rankedOutcome`, reason `scored`,
 *   with places and the match totals as scores).
 * - Forfeit (a player gives up or runs out of time): the seat stays in, is listed by `out`, and is
 *   played by the autopilot from then on; it ranks last whatever its score and never wins
 *   (`rankedOutcome`; several forfeits: the latest to forfeit ranks highest among them).
 *
 * Choices where RULINGS is silent:
 * - Card ids are `red-7`, `god-2` (data.ts). Hands are kept and shown in canonical order: colours
 *   red, blue, green, yellow, purple, numbers ascending, God cards last.
 * - The deal: seat i receives cards 12i..12i+11 of the shuffled deck. The seeded generator draws,
 *   in order: game 1's shuffle, game 1's start seat, then (when game 1 is scored) game 2's shuffle.
 * - A line's cards are placed by index (0-based, in the order the lines were started); a new line
 *   goes last. Any card may start a new line, at any time (also when it would fit elsewhere).
 * - `place-all` must name every waiting card exactly once (`keystone/place-all-incomplete`) and is
 *   all or nothing: each placement sees the lines as the earlier ones left them; the first illegal
 *   one refuses the whole move with its own code.
 * - Auto-place rule (`auto-place`, also the autopilot's placement; autopilot.ts): of every way to
 *   place all waiting cards (every sequence of legal single placements), the one whose final lines
 *   have the highest value; on ties the first found (waiting cards in play order, lines by index,
 *   a new line last). The value is this game's score if it were scored now (Sun rule, 3 a line)
 *   plus 0.01 for each number 1-10 that could still go on top of each line (less than 0.8 in all
 *   between two placements, so it only decides between placements that score alike). In effect:
 *   low and negative keystones go on the longest line (the Sun), or into a second line as long as
 *   the Sun; high keystones on shorter lines that stay shorter; no new line unless it pays or the
 *   card fits nowhere. It looks no further than this placement. If the exhaustive search passes
 *   20,000 steps (possible only with very many lines), it settles for a greedy search: for every
 *   order of the waiting cards, each card where the value right after it is highest; the best order.
 * - The autopilot's card (`autopilotCard` in autopilot.ts): lead the highest number; follow high
 *   enough to take the trick (the lowest winning card when last to play), else low; play a God card
 *   when the trick already holds 6 or more keystones and it cannot win otherwise; after a God card,
 *   or when it cannot follow, throw the cheapest card (lowest keystone, then lowest number). It
 *   needs no random draw, so it is a pure function of the state (replays agree trivially).
 * - Timers: see `timers` (turn limit and forfeit for a seat still in; none for a forfeited seat,
 *   which the autopilot plays at once). Keys include game and trick.
 * - A forfeited seat is still awaited on its turn (the autopilot moves for it); the engine accepts
 *   that seat's moves like any other. Forfeiting again is `keystone/already-out`.
 * - If all but one seat have forfeited, the game ends at once (reason `forfeit`): the remaining
 *   player wins, the others rank below in reverse order of forfeiting. Scores are the finished
 *   games plus the running game's lines scored as they stand; cards still in hands, in the trick
 *   or waiting to be placed count for nothing.
 * - The last trick shown is one of the running game: game 2 starts with none (game 1's cards are
 *   dealt again, so its last trick would name cards now in hands or out of play). Its winner is
 *   game 2's first leader, shown as the player to move.
 * - Views show a running score at any time: finished games plus this game's lines as if scored now.
 *   The trick in play and the last trick are listed in play order (the leader, then clockwise),
 *   each card with who played it. The viewer's view also lists the cards they may play now, and
 *   the waiting cards come with every legal target, so a renderer needs no rules of its own.
 * - The engine never moves for a forfeited seat by itself: whoever runs the game applies the
 *   autopilot's move.
 * - The final lines of each finished game stay in the state (`finishedLines`, public), so game 1's
 *   scoring can still be shown while game 2 is played.
 * - Setup refuses wrong player counts, duplicate or empty ids, `__proto__` or `@` ids, bad seeds
 *   and any option (`keystone/bad-setup`). A move with extra keys or unknown cards is
 *   `keystone/bad-move`.
 * - Checks run in this order, so each refusal has one code: game-over, not-a-player, bad-move,
 *   not-your-turn, place-first / nothing-to-place, then not-in-hand, must-follow (play) or
 *   place-all-incomplete, not-waiting, no-such-line, does-not-fit (placing).
 */
export const keystone: Engine<KeystoneState, KeystoneMove, KeystoneView, KeystoneOptions> = {
  id: GAME,
  name: TITLE,
  minPlayers: MIN_PLAYERS,
  maxPlayers: MAX_PLAYERS,
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
  out,
  autopilot,
};

/**
 * Recomputes a game from its seed, seating and log (setup, then each entry in order). Pure; throws
 * the RuleError of the first illegal entry.
 */
export function replay(seed: string, players: PlayerId[], entries: readonly KeystoneLogEntry[], options: KeystoneOptions = {}): KeystoneState {
  return replayWith(keystone, seed, players, options, entries).at(-1)!;
}
