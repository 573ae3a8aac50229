import { copyOutcome } from '../../../kernel/checks.ts';
import type { Outcome, PlayerId } from '../../../kernel/types.ts';
import { card, sortCards, type CardId, type Colour } from './data.ts';
import { canPlace, lineDirection, resolveLine, type Direction } from './lines.ts';
import { LINE_COST, scoreLinesDetailed, type LineScore } from './scoring.ts';
import type { KeystoneState, Target, TrickRecord } from './schema.ts';

/** A card face: numbered cards show colour, number and keystone; God cards show "=". */
export type ViewCard =
  | { id: CardId; god: false; colour: Colour; number: number; keystone: number }
  | { id: CardId; god: true; colour: null; number: null; keystone: null };

/** A card in a line, with what it counts as there and the keystone sum from the bottom up to it. */
export interface ViewLineCard {
  card: ViewCard;
  number: number;
  keystone: number;
  /** Keystones of this card and every card below it. */
  runningKeystones: number;
}

export interface ViewLine {
  /** 0-based index, the one `place` moves name. */
  index: number;
  /** Bottom to top. */
  cards: ViewLineCard[];
  /** Fixed by the first two differing numbers; null while undecided. */
  direction: Direction;
  length: number;
  keystones: number;
  /** Among the player's longest lines right now (a Sun if the game were scored now). */
  sun: boolean;
  /** What the line would add to the game's score now: keystones (0 for a Sun) minus 3. */
  score: number;
}

export interface ViewPlayedCard {
  player: PlayerId;
  card: ViewCard;
}

export interface ViewTrick {
  game: number;
  trick: number;
  leader: PlayerId;
  /** In play order: the leader first, then clockwise (seat order). */
  cards: ViewPlayedCard[];
  winner: PlayerId;
}

export interface ViewSeat {
  player: PlayerId;
  seat: number;
  /** Cards in hand (the count only). */
  handCount: number;
  /** Forfeited: the autopilot plays this seat, which ranks last. */
  out: boolean;
  lines: ViewLine[];
  /** This game's score if it were scored now (final once the game is scored). */
  gameScore: number;
  /** Finished games' scores plus this game's score as it stands. */
  total: number;
}

/**
 * A finished game as it was scored: every seat's final lines (length, keystones, Sun, what each
 * added) and score. Without the cards: game 2 deals all 53 again, so a card of game 1's lines may
 * be in someone's hand now (as with the last trick, which game 2 starts without).
 */
export interface ViewFinishedGame {
  game: number;
  seats: Array<{ player: PlayerId; lines: LineScore[]; score: number }>;
}

export interface KeystoneView {
  /** Seats in clockwise order of play. */
  seats: ViewSeat[];
  /** 1 or 2. */
  game: number;
  /** 1-12: the trick in play, or the trick whose cards are being placed. */
  trick: number;
  phase: 'play' | 'place' | 'over';
  /** Whose input the game waits for; null when over. */
  turn: PlayerId | null;
  /** The trick in play (empty cards between tricks), with its led colour (null before the lead or after a God lead). */
  current: { leader: PlayerId | null; ledColour: Colour | null; cards: ViewPlayedCard[] };
  lastTrick: ViewTrick | null;
  /** Won cards waiting to be placed, with every legal target of each; null when none wait. */
  waiting: { player: PlayerId; cards: Array<{ card: ViewCard; targets: Target[] }> } | null;
  /** Final scores of finished games, by player. */
  gameScores: Array<Record<PlayerId, number>>;
  /** Finished games with their final lines (game 1's lines are gone from the table in game 2). */
  finishedGames: ViewFinishedGame[];
  /** Finished games plus the running game as it stands, by player. */
  totals: Record<PlayerId, number>;
  /** Forfeited seats in the order they forfeited. */
  out: PlayerId[];
  /** The viewer's own hand in canonical order; null for spectators and unseated ids. */
  hand: ViewCard[] | null;
  /** The cards of the viewer's hand they may play now (empty when it is not their turn to play). */
  playable: CardId[];
  outcome: Outcome | null;
}

export function viewCard(id: CardId): ViewCard {
  const c = card(id);
  return c.god
    ? { id: c.id, god: true, colour: null, number: null, keystone: null }
    : { id: c.id, god: false, colour: c.colour, number: c.number, keystone: c.keystone };
}

/** The led colour of a trick: the leader's colour, or none when a God card leads (or before the lead). */
export function ledColourOf(played: readonly CardId[]): Colour | null {
  const first = played[0];
  if (first === undefined) return null;
  const c = card(first);
  return c.god ? null : c.colour;
}

/** The cards `seat` may play now: all when nothing binds, else the led colour and God cards. */
export function playableCards(state: KeystoneState, seat: number): CardId[] {
  const hand = state.hands[seat] ?? [];
  const led = ledColourOf(state.played);
  if (led === null) return hand.slice();
  const follows = hand.filter((id) => card(id).colour === led);
  if (follows.length === 0) return hand.slice();
  return hand.filter((id) => {
    const c = card(id);
    return c.god || c.colour === led;
  });
}

/** Every legal target of `id` among `lines`: existing lines where it fits (ascending index), then a new line. */
export function targetsFor(lines: readonly (readonly CardId[])[], id: CardId): Target[] {
  const out: Target[] = [];
  lines.forEach((line, i) => {
    if (canPlace(line, id)) out.push(i);
  });
  out.push('new');
  return out;
}

/** Lines as a view shows them (what each card counts as, running sums, direction, Sun, score), for `lines` as given. */
export function viewLinesOf(lines: readonly (readonly CardId[])[]): ViewLine[] {
  return viewLines(lines).lines;
}

function viewLines(lines: readonly (readonly CardId[])[]): { lines: ViewLine[]; total: number } {
  let longest = 0;
  for (const l of lines) if (l.length > longest) longest = l.length;
  let total = 0;
  const out = lines.map((line, index): ViewLine => {
    let running = 0;
    const counted = resolveLine(line);
    const cards = line.map((id, i) => {
      const c = counted[i]!;
      running += c.keystone;
      return { card: viewCard(id), number: c.number, keystone: c.keystone, runningKeystones: running };
    });
    // The same rule as scoring.ts (tests check that the views add up to `scoreLines`).
    const sun = line.length === longest;
    const score = (sun ? 0 : running) - LINE_COST;
    total += score;
    return { index, cards, direction: lineDirection(line), length: line.length, keystones: running, sun, score };
  });
  return { lines: out, total };
}

function viewTrick(state: KeystoneState, t: TrickRecord): ViewTrick {
  const n = state.players.length;
  return {
    game: t.game,
    trick: t.trick,
    leader: state.players[t.leader]!,
    cards: t.cards.map((id, i) => ({ player: state.players[(t.leader + i) % n]!, card: viewCard(id) })),
    winner: state.players[t.winner]!,
  };
}

/**
 * What `viewer` may see: every public thing (lines, the trick in play, the last trick, waiting
 * cards, hand counts, scores) and the viewer's own hand. Never a card of another hand and never an
 * undealt card, also after the game is over. Spectators and unseated ids get the public part.
 */
export function viewState(state: KeystoneState, viewer: PlayerId | null): KeystoneView {
  const n = state.players.length;
  const seatOf = viewer === null ? -1 : state.players.indexOf(viewer);
  const over = state.phase === 'over';
  // Once the match is scored, the last game's lines are final: totals are the finished games'.
  const runningGame = !(over && state.gameScores.length >= state.game);
  const seats = state.players.map((player, seat): ViewSeat => {
    const { lines, total } = viewLines(state.lines[seat] ?? []);
    const finished = state.gameScores.reduce((sum, g) => sum + (g[seat] ?? 0), 0);
    return {
      player,
      seat,
      handCount: state.hands[seat]?.length ?? 0,
      out: state.out.includes(player),
      lines,
      gameScore: runningGame ? total : (state.gameScores[state.game - 1]?.[seat] ?? total),
      total: runningGame ? finished + total : finished,
    };
  });
  const placing = state.phase === 'place';
  const placerLines = state.lines[state.turn] ?? [];
  return {
    seats,
    game: state.game,
    trick: state.trick,
    phase: state.phase,
    turn: over ? null : state.players[state.turn]!,
    current: {
      leader: state.phase === 'play' ? state.players[state.leader]! : null,
      ledColour: ledColourOf(state.played),
      cards: state.played.map((id, i) => ({ player: state.players[(state.leader + i) % n]!, card: viewCard(id) })),
    },
    lastTrick: state.lastTrick ? viewTrick(state, state.lastTrick) : null,
    waiting: placing
      ? { player: state.players[state.turn]!, cards: state.pending.map((id) => ({ card: viewCard(id), targets: targetsFor(placerLines, id) })) }
      : null,
    gameScores: state.gameScores.map((g) => Object.fromEntries(state.players.map((p, i) => [p, g[i] ?? 0]))),
    finishedGames: state.finishedLines.map((g, i) => ({
      game: i + 1,
      seats: state.players.map((player, seat) => ({ player, lines: scoreLinesDetailed(g[seat] ?? []).lines, score: state.gameScores[i]?.[seat] ?? 0 })),
    })),
    totals: Object.fromEntries(seats.map((s) => [s.player, s.total])),
    out: state.out.slice(),
    hand: seatOf >= 0 ? sortCards(state.hands[seatOf] ?? []).map(viewCard) : null,
    playable: seatOf >= 0 && state.phase === 'play' && state.turn === seatOf ? playableCards(state, seatOf) : [],
    outcome: state.outcome ? copyOutcome(state.outcome) : null,
  };
}
