import { replayWith } from '../../../kernel/replay.ts';
import { RuleError, type Engine, type Outcome, type PlayerId, type SetupArgs, type TimerSpec } from '../../../kernel/types.ts';
import { assertRunningAndSeated as assertSeated, checkSetup } from '../../../kernel/checks.ts';
import { nextInt, rngFromSeed } from '../../../kernel/rng.ts';
import {
  LINE_MAX,
  LOG_LIMIT,
  SYMBOLS,
  WINNING_POINTS,
  moveSchema,
  optionsSchema,
  stateSchema,
  type LineIndex,
  type Side,
  type Slot,
  type StoneRef,
  type TellstonesEvent,
  type TellstonesMove,
  type TellstonesOptions,
  type TellstonesState,
  type TellstonesSymbol,
} from './schema.ts';
import {
  anyFaceDown,
  awaitingPlayers,
  compareRefs,
  hasFaceDown,
  hasFaceUp,
  legalMoveTypes,
  lineAt,
  nextClockwise,
  otherSide,
  partnerOf,
  peekLimit,
  playersOf,
  sameStone,
  sideOf,
} from './rules.ts';
import { copyOutcome, viewState, type TellstonesView } from './view.ts';

export {
  ACTION_TYPES,
  LINE_MAX,
  LOG_LIMIT,
  SYMBOLS,
  VARIANTS,
  WINNING_POINTS,
  eventSchema,
  lineIndexSchema,
  moveSchema,
  optionsSchema,
  outcomeSchema,
  pendingSchema,
  slotSchema,
  stateSchema,
  stoneRefSchema,
  symbolSchema,
  type LineIndex,
  type Pending,
  type Side,
  type Slot,
  type StoneRef,
  type TellstonesEvent,
  type TellstonesMove,
  type TellstonesMoveType,
  type TellstonesOptions,
  type TellstonesState,
  type TellstonesSymbol,
  type TellstonesVariant,
  type TurnRecord,
} from './schema.ts';
export { legalMoveTypes, nextClockwise, partnerOf, peekLimit, sideOf } from './rules.ts';
export type {
  TellstonesView,
  ViewLine,
  ViewLogEntry,
  ViewPending,
  ViewSeat,
  ViewSide,
  ViewStone,
} from './view.ts';

/** One entry of a game's log, as `replay` consumes it: a move, or a forfeit. */
export type TellstonesLogEntry = { actor: PlayerId; move: TellstonesMove } | { actor: PlayerId; forfeit: true };

function fail(code: string, message: string): never {
  throw new RuleError(`tellstones/${code}`, message);
}

/** Display names of the symbols (engine messages and the bot's renderers use the same words). */
export const SYMBOL_NAMES: Record<TellstonesSymbol, string> = {
  crown: 'Crown',
  shield: 'Shield',
  sword: 'Sword',
  flag: 'Flag',
  knight: 'Knight',
  hammer: 'Hammer',
  scales: 'Scales',
};

// ---------------------------------------------------------------------------------------------
// setup

function setup(args: SetupArgs<TellstonesOptions>): TellstonesState {
  const parsedOptions = optionsSchema.safeParse(args.options ?? {});
  if (!parsedOptions.success) fail('bad-setup', 'Unknown or invalid Tellstones options.');
  const { variant, firstStone } = parsedOptions.data;
  const players = args.players;
  const needed = variant === 'kings-circle' ? 4 : 2;
  if (players.length !== needed) {
    fail('bad-setup', `Tellstones (${variant}) needs exactly ${needed} players, got ${players.length}.`);
  }
  checkSetup('tellstones', args, { min: needed, max: needed });

  // Draw order: the first stone of each line (line 0 first), then the first player.
  let rng = rngFromSeed(args.seed);
  const lineCount = variant === 'fearless-vanguard' ? 2 : 1;
  const lines: Slot[][] = [];
  const pools: TellstonesSymbol[][] = [];
  const log: TellstonesEvent[] = [];
  for (let i = 0; i < lineCount; i++) {
    let symbol: TellstonesSymbol = 'scales';
    if (firstStone === 'random') {
      const [k, next] = nextInt(rng, SYMBOLS.length);
      rng = next;
      symbol = SYMBOLS[k] ?? 'scales';
    }
    lines.push([{ symbol, faceUp: true }]);
    pools.push(SYMBOLS.filter((x) => x !== symbol));
    log.push({ kind: 'start', line: i as LineIndex, symbol });
  }
  const [first, rngAfter] = nextInt(rng, players.length);
  const turn = players[first];
  if (turn === undefined) throw new Error('unreachable: first player out of range');

  return {
    variant,
    seats: players.slice(),
    lines,
    pools,
    points: [0, 0],
    turn,
    turnNumber: 0,
    pending: null,
    recentTurns: [],
    knowledge: players.map(() => []),
    log,
    rng: rngAfter,
    outcome: null,
  };
}

// ---------------------------------------------------------------------------------------------
// helpers over a working copy (apply clones its input once and edits the clone)

function assertRunningAndSeated(state: TellstonesState, player: PlayerId): void {
  assertSeated('tellstones', 'Tellstones', state.outcome !== null || state.turn === null, state.seats, player);
}

/** The line a move names: required in Fearless Vanguard, otherwise absent or 0. */
function resolveLine(s: TellstonesState, line: LineIndex | undefined): LineIndex {
  if (line === undefined) {
    if (s.lines.length > 1) fail('line-required', 'Fearless Vanguard has two lines: say which line (0 or 1).');
    return 0;
  }
  if (line >= s.lines.length) fail('no-such-line', `There is no line ${line} in this game.`);
  return line;
}

function slotAt(s: TellstonesState, line: LineIndex, position: number): Slot {
  const slot = lineAt(s, line)[position];
  if (!slot) fail('no-such-position', `There is no stone at position ${position} (the line holds ${lineAt(s, line).length}).`);
  return slot;
}

function faceDownAt(s: TellstonesState, line: LineIndex, position: number): Slot {
  const slot = slotAt(s, line, position);
  if (slot.faceUp) fail('not-face-down', `The stone at position ${position} is face up.`);
  return slot;
}

function requireFaceDown(s: TellstonesState, line: LineIndex, what: string): void {
  if (!hasFaceDown(lineAt(s, line))) fail('no-face-down', `There is no face-down stone on the line to ${what}.`);
}

function record(s: TellstonesState, event: TellstonesEvent): void {
  s.log.push(event);
  if (s.log.length > LOG_LIMIT) s.log.splice(0, s.log.length - LOG_LIMIT);
}

/** Turns a stone face up: everyone sees it, so private knowledge of it is moot and dropped. */
function reveal(s: TellstonesState, line: LineIndex, slot: Slot): void {
  slot.faceUp = true;
  const ref: StoneRef = { line, symbol: slot.symbol };
  s.knowledge = s.knowledge.map((refs) => refs.filter((r) => !sameStone(r, ref)));
}

function learn(s: TellstonesState, player: PlayerId, refs: StoneRef[]): void {
  const seat = s.seats.indexOf(player);
  const mine = s.knowledge[seat] ?? [];
  const merged = mine.slice();
  for (const r of refs) if (!merged.some((m) => sameStone(m, r))) merged.push(r);
  merged.sort(compareRefs);
  s.knowledge[seat] = merged;
}

function scores(s: TellstonesState): Record<PlayerId, number> {
  return Object.fromEntries(s.seats.map((p, i) => [p, s.points[(i % 2) as Side]]));
}

/** Ends the game for `winner`'s side. */
function finish(s: TellstonesState, winner: Side, reason: string): TellstonesState {
  s.turnNumber += 1;
  s.turn = null;
  s.pending = null;
  s.outcome = { winners: playersOf(s, winner), scores: scores(s), reason };
  return s;
}

/** Completes the turn of `owner`: remembers who gained, passes the turn clockwise. */
function endTurn(s: TellstonesState, owner: PlayerId, gained: Side[]): TellstonesState {
  s.recentTurns = [...s.recentTurns, { player: owner, gained }].slice(-2);
  s.turnNumber += 1;
  s.turn = nextClockwise(s, owner);
  s.pending = null;
  return s;
}

/** Gives `scorer`'s side a point; at 3 the side wins, otherwise the turn of `owner` ends. */
function score(s: TellstonesState, owner: PlayerId, scorer: PlayerId): TellstonesState {
  const side = sideOf(s, scorer);
  s.points[side] += 1;
  if (s.points[side] >= WINNING_POINTS) return finish(s, side, 'points');
  return endTurn(s, owner, [side]);
}

// ---------------------------------------------------------------------------------------------
// moves

type MoveOf<T extends TellstonesMove['type']> = Extract<TellstonesMove, { type: T }>;

function doPlace(s: TellstonesState, actor: PlayerId, m: MoveOf<'place'>): TellstonesState {
  const line = resolveLine(s, m.line);
  const stones = lineAt(s, line);
  if (stones.length >= LINE_MAX) fail('line-full', 'The line already holds seven stones (the pool is empty).');
  const pool = s.pools[line] ?? [];
  if (!pool.includes(m.symbol)) fail('not-in-pool', `The ${SYMBOL_NAMES[m.symbol]} is not in the pool.`);
  s.pools[line] = pool.filter((x) => x !== m.symbol);
  const slot: Slot = { symbol: m.symbol, faceUp: true };
  if (m.end === 'left') stones.unshift(slot);
  else stones.push(slot);
  record(s, { kind: 'place', turnNumber: s.turnNumber + 1, actor, line, symbol: m.symbol, end: m.end });
  return endTurn(s, actor, []);
}

function doHide(s: TellstonesState, actor: PlayerId, m: MoveOf<'hide'>): TellstonesState {
  const line = resolveLine(s, m.line);
  if (!hasFaceUp(lineAt(s, line))) fail('no-face-up', 'There is no face-up stone on the line to hide.');
  const slot = slotAt(s, line, m.position);
  if (!slot.faceUp) fail('not-face-up', `The stone at position ${m.position} is already face down.`);
  // Hidden in front of everyone: nobody gains `known` knowledge; remembering it is the game.
  slot.faceUp = false;
  record(s, { kind: 'hide', turnNumber: s.turnNumber + 1, actor, line, position: m.position });
  return endTurn(s, actor, []);
}

function doSwap(s: TellstonesState, actor: PlayerId, m: MoveOf<'swap'>): TellstonesState {
  const line = resolveLine(s, m.line);
  const stones = lineAt(s, line);
  if (stones.length < 2) fail('too-few-stones', 'A swap needs two stones on the line.');
  if (m.a === m.b) fail('same-position', 'Choose two different stones to swap.');
  const a = slotAt(s, line, m.a);
  const b = slotAt(s, line, m.b);
  // Identity travels with the stone, so everyone's knowledge follows it.
  stones[m.a] = b;
  stones[m.b] = a;
  record(s, { kind: 'swap', turnNumber: s.turnNumber + 1, actor, line, a: m.a, b: m.b });
  return endTurn(s, actor, []);
}

function doPeek(s: TellstonesState, actor: PlayerId, m: MoveOf<'peek'>): TellstonesState {
  let viewer = actor;
  let partner: PlayerId | null = null;
  if (m.shareWith !== undefined) {
    partner = partnerOf(s, actor);
    if (partner === null) fail('no-partner', 'Only King’s Circle has partners to hand a peek to.');
    if (m.shareWith !== partner) fail('not-partner', 'You can hand a peek only to your partner.');
    viewer = partner!;
  } else if (m.forPartner !== undefined) {
    fail('no-partner', 'Name your partner (`shareWith`) to split a peek with them.');
  }
  const split = m.forPartner !== undefined;
  const line = resolveLine(s, m.line);
  requireFaceDown(s, line, 'peek at');
  const limit = peekLimit(s, actor);
  const all = [...m.positions, ...(m.forPartner ?? [])];
  if (all.length > limit) fail('peek-too-many', `You may peek at ${limit} stone${limit === 1 ? '' : 's'} this turn.`);
  if (new Set(all).size !== all.length) fail('duplicate-position', 'Peek at each stone only once.');
  const refsOf = (positions: number[]) => positions.map((position) => ({ line, symbol: faceDownAt(s, line, position).symbol }));
  const mine = refsOf(m.positions);
  const theirs = split ? refsOf(m.forPartner!) : [];
  // A split peek: the mover looks at `positions`, the partner at `forPartner`; each learns only their own.
  learn(s, split ? actor : viewer, mine);
  record(s, { kind: 'peek', turnNumber: s.turnNumber + 1, actor, viewer: split ? actor : viewer, line, positions: m.positions.slice() });
  if (split) {
    learn(s, partner!, theirs);
    record(s, { kind: 'peek', turnNumber: s.turnNumber + 1, actor, viewer: partner!, line, positions: m.forPartner!.slice() });
  }
  return endTurn(s, actor, []);
}

function doChallenge(s: TellstonesState, actor: PlayerId, m: MoveOf<'challenge'>): TellstonesState {
  const line = resolveLine(s, m.line);
  requireFaceDown(s, line, 'challenge');
  faceDownAt(s, line, m.position);
  const answerer = nextClockwise(s, actor);
  s.pending = { kind: 'challenge', challenger: actor, answerer, line, position: m.position };
  record(s, { kind: 'challenge', turnNumber: s.turnNumber + 1, actor, answerer, line, position: m.position });
  return s;
}

function doBoast(s: TellstonesState, actor: PlayerId): TellstonesState {
  if (!anyFaceDown(s)) fail('no-face-down', 'There is no face-down stone to boast about.');
  const answerer = nextClockwise(s, actor);
  s.pending = { kind: 'boast', boaster: actor, answerer, countered: false };
  record(s, { kind: 'boast', turnNumber: s.turnNumber + 1, actor, answerer });
  return s;
}

function doAnswerChallenge(s: TellstonesState, actor: PlayerId, named: TellstonesSymbol): TellstonesState {
  const p = s.pending;
  if (p?.kind !== 'challenge' || s.turn === null) throw new Error('unreachable: no challenge pending');
  const slot = slotAt(s, p.line, p.position);
  const correct = slot.symbol === named;
  reveal(s, p.line, slot);
  const scorer = correct ? actor : p.challenger;
  record(s, {
    kind: 'answer-challenge',
    turnNumber: s.turnNumber + 1,
    actor,
    line: p.line,
    position: p.position,
    named,
    symbol: slot.symbol,
    correct,
    scorer,
  });
  return score(s, s.turn, scorer);
}

function doAnswerBoast(s: TellstonesState, actor: PlayerId, answer: 'believe' | 'doubt' | 'counter'): TellstonesState {
  const p = s.pending;
  if (p?.kind !== 'boast' || s.turn === null) throw new Error('unreachable: no boast pending');
  const turnNumber = s.turnNumber + 1;
  if (answer === 'believe') {
    record(s, { kind: 'answer-boast', turnNumber, actor, answer, scorer: p.boaster });
    return score(s, s.turn, p.boaster);
  }
  if (answer === 'counter') {
    if (p.countered) fail('no-counter-to-counter', 'A counter-boast can only be believed or doubted.');
    record(s, { kind: 'answer-boast', turnNumber, actor, answer });
    // The counter-boast is answered by the opponent to the counter-boaster's left: in King's
    // Circle a player of the original boaster's team, in a two-player game the original boaster.
    s.pending = { kind: 'boast', boaster: actor, answerer: nextClockwise(s, actor), countered: true };
    return s;
  }
  record(s, { kind: 'answer-boast', turnNumber, actor, answer });
  const partner = partnerOf(s, p.boaster);
  s.pending = {
    kind: 'proof',
    boaster: p.boaster,
    doubter: actor,
    provers: partner === null ? [p.boaster] : [p.boaster, partner],
    next: 0,
    named: 0,
  };
  return s;
}

function doProve(s: TellstonesState, actor: PlayerId, m: MoveOf<'prove'>): TellstonesState {
  const p = s.pending;
  if (p?.kind !== 'proof') throw new Error('unreachable: no proof pending');
  const line = resolveLine(s, m.line);
  const slot = faceDownAt(s, line, m.position);
  const correct = slot.symbol === m.symbol;
  reveal(s, line, slot);
  record(s, {
    kind: 'prove',
    turnNumber: s.turnNumber + 1,
    actor,
    line,
    position: m.position,
    named: m.symbol,
    symbol: slot.symbol,
    correct,
  });
  const side = sideOf(s, p.boaster);
  if (!correct) return finish(s, otherSide(side), 'boast-failed');
  if (!anyFaceDown(s)) return finish(s, side, 'boast-proven');
  s.pending = { ...p, provers: p.provers.slice(), next: (p.next + 1) % p.provers.length, named: p.named + 1 };
  return s;
}

function apply(state: TellstonesState, actor: PlayerId, move: TellstonesMove): TellstonesState {
  assertRunningAndSeated(state, actor);
  const parsed = moveSchema.safeParse(move);
  if (!parsed.success) fail('bad-move', 'That is not a valid Tellstones move.');
  const m = parsed.data;
  const p = state.pending;
  const awaited = awaitingPlayers(state);

  if (!p) {
    if (!awaited.includes(actor)) fail('not-your-turn', 'It is not your turn.');
  } else if (p.kind === 'proof') {
    if (!awaited.includes(actor)) fail('not-prover', 'It is not your turn to name a stone of the boast.');
    if (m.type !== 'prove') fail('proof-pending', 'The boast is being proven: name a face-down stone.');
  } else {
    if (!awaited.includes(actor)) fail('not-answering-player', `Only the answering player can answer this ${p.kind}.`);
    const expected = p.kind === 'challenge' ? 'answer-challenge' : 'answer-boast';
    if (m.type !== expected) fail('answer-pending', `The ${p.kind} must be answered first.`);
  }

  // The working copy: plain JSON, so a structured clone shares nothing with the input.
  const s = structuredClone(state);
  switch (m.type) {
    case 'place':
      return doPlace(s, actor, m);
    case 'hide':
      return doHide(s, actor, m);
    case 'swap':
      return doSwap(s, actor, m);
    case 'peek':
      return doPeek(s, actor, m);
    case 'challenge':
      return doChallenge(s, actor, m);
    case 'boast':
      return doBoast(s, actor);
    case 'answer-challenge':
      if (p?.kind !== 'challenge') fail('nothing-to-answer', 'There is no challenge to answer.');
      return doAnswerChallenge(s, actor, m.symbol);
    case 'answer-boast':
      if (p?.kind !== 'boast') fail('nothing-to-answer', 'There is no boast to answer.');
      return doAnswerBoast(s, actor, m.answer);
    case 'prove':
      if (p?.kind !== 'proof') fail('nothing-to-answer', 'There is no doubted boast to prove.');
      return doProve(s, actor, m);
  }
}

function view(state: TellstonesState, viewer: PlayerId | null): TellstonesView {
  return viewState(state, viewer);
}

function awaiting(state: TellstonesState): PlayerId[] {
  return awaitingPlayers(state);
}

/** All subsets of `items` of size 1..max, in ascending order (items ascending). */
function subsets(items: number[], max: number): number[][] {
  const out: number[][] = [];
  const walk = (start: number, acc: number[]) => {
    if (acc.length > 0) out.push(acc);
    if (acc.length === max) return;
    for (let i = start; i < items.length; i++) walk(i + 1, [...acc, items[i]!]);
  };
  walk(0, []);
  return out;
}

/**
 * Every move `player` may send now. Positions are listed in one canonical form: a swap with
 * a < b, a peek's positions ascending (apply accepts them in any order). The line is named only in
 * Fearless Vanguard.
 */
function legalMoves(state: TellstonesState, player: PlayerId): TellstonesMove[] {
  const types = legalMoveTypes(state, player);
  if (types.length === 0) return [];
  const multi = state.lines.length > 1;
  const lineField = (line: number) => (multi ? { line: line as LineIndex } : {});
  const out: TellstonesMove[] = [];
  const faceDown = (line: number) => lineAt(state, line).flatMap((slot, i) => (slot.faceUp ? [] : [i]));
  for (const type of types) {
    switch (type) {
      case 'place':
        state.lines.forEach((stones, line) => {
          if (stones.length >= LINE_MAX) return;
          for (const symbol of state.pools[line] ?? []) for (const end of ['left', 'right'] as const) out.push({ type, ...lineField(line), symbol, end });
        });
        break;
      case 'hide':
        state.lines.forEach((stones, line) => stones.forEach((slot, position) => slot.faceUp && out.push({ type, ...lineField(line), position })));
        break;
      case 'swap':
        state.lines.forEach((stones, line) => {
          for (let a = 0; a < stones.length; a++) for (let b = a + 1; b < stones.length; b++) out.push({ type, ...lineField(line), a, b });
        });
        break;
      case 'peek': {
        const limit = peekLimit(state, player);
        const partner = partnerOf(state, player);
        state.lines.forEach((_stones, line) => {
          for (const positions of subsets(faceDown(line), limit)) {
            out.push({ type, ...lineField(line), positions });
            if (partner === null) continue;
            out.push({ type, ...lineField(line), positions, shareWith: partner });
            // A peek of two or three split between the partners: every way to part the stones.
            if (positions.length < 2) continue;
            for (const mine of subsets(positions, positions.length - 1)) {
              out.push({ type, ...lineField(line), positions: mine, shareWith: partner, forPartner: positions.filter((x) => !mine.includes(x)) });
            }
          }
        });
        break;
      }
      case 'challenge':
        state.lines.forEach((_stones, line) => faceDown(line).forEach((position) => out.push({ type, ...lineField(line), position })));
        break;
      case 'boast':
        out.push({ type });
        break;
      case 'answer-challenge':
        for (const symbol of SYMBOLS) out.push({ type, symbol });
        break;
      case 'answer-boast': {
        const countered = state.pending?.kind === 'boast' && state.pending.countered;
        for (const answer of ['believe', 'doubt', 'counter'] as const) if (answer !== 'counter' || !countered) out.push({ type, answer });
        break;
      }
      case 'prove':
        state.lines.forEach((_stones, line) =>
          faceDown(line).forEach((position) => {
            for (const symbol of SYMBOLS) out.push({ type, ...lineField(line), position, symbol });
          }),
        );
        break;
    }
  }
  return out;
}

/**
 * One timer per awaited player: their turn (the server's turn limit, forfeit at expiry). Its key
 * names the step: the turn number, what is pending, and how many stones of a doubted boast were
 * named, so each answer, each naming of a proof and each new turn starts a fresh timer.
 */
function timers(state: TellstonesState): TimerSpec<TellstonesMove>[] {
  const p = state.pending;
  const step = !p ? 'act' : p.kind === 'proof' ? `proof${p.named}` : p.kind === 'boast' && p.countered ? 'counter' : p.kind;
  return awaitingPlayers(state).map((player) => ({
    key: `turn:${state.turnNumber}:${step}`,
    player,
    after: 'turn-limit' as const,
    onExpiry: { type: 'forfeit' as const },
  }));
}

function outcome(state: TellstonesState): Outcome | null {
  return state.outcome ? copyOutcome(state.outcome) : null;
}

function forfeit(state: TellstonesState, player: PlayerId): TellstonesState {
  assertRunningAndSeated(state, player);
  const s = structuredClone(state);
  record(s, { kind: 'forfeit', turnNumber: s.turnNumber + 1, actor: player });
  s.turn = null;
  s.pending = null;
  s.outcome = {
    winners: playersOf(s, otherSide(sideOf(s, player))),
    scores: scores(s),
    reason: 'forfeit',
    forfeited: player,
  };
  return s;
}

/**
 * Tellstones: King's Gambit (tellstones-kings-gambit.en.md, settled by RULINGS.md), with the
 * variants King's Circle (4 players, 2 teams) and Fearless Vanguard (two sets, two lines).
 *
 * Rules as implemented (RULINGS):
 * - Setup: one stone face up in the middle of each line: random (seeded) or, with
 *   `firstStone: 'scales'`, the Scales. First player random (seeded). Rng draws, in order: the
 *   first stone of line 0, of line 1 (Vanguard), then the first player's seat.
 * - Standard and Fearless Vanguard take exactly 2 players, King's Circle exactly 4, seated
 *   A1 B1 A2 B2 clockwise in the order given. Turns go clockwise (seat order). A side is a player,
 *   or a team (seats 0 and 2 are team A, 1 and 3 team B); team points are shared.
 * - Place: a pool stone, face up, at the left or right end; impossible with 7 on the line (which is
 *   exactly when that pool is empty). Hide: a face-up stone. Swap: two different stones of one
 *   line, either facing. Peek and Challenge: a face-down stone. Boast: at least one face-down stone.
 * - Peek shows up to 3 stones when the opposing side gained a point on either of the two most
 *   recent turns (not the third), otherwise 1.
 * - Challenge and boast are answered by the next seat clockwise (the opponent on the left).
 *   Challenge: the named stone is turned face up; a right name scores for the answerer, a wrong one
 *   for the challenger. Boast: believe scores for the boaster; doubt makes the boaster name every
 *   face-down stone (on both lines in Vanguard), each naming revealing that stone: the first wrong
 *   name loses the game at once, all right wins it (points do not matter). Counter takes the boast
 *   over; the original boaster must then believe or doubt (no counter to a counter).
 * - 3 points win the game.
 *
 * Choices where the rulebook and rulings are silent:
 * - Positions are 0-based from the left end; lines are 0 and 1. `line` may be omitted (or 0)
 *   except in Fearless Vanguard, where place/hide/swap/peek/challenge/prove must name it
 *   (`tellstones/line-required`). Vanguard line i is the set brought by seat i (shown as `owner`);
 *   either player may act on either line.
 * - A peek looks within one line; a peek of up to three goes to the mover, or in King's Circle to
 *   the partner named by `shareWith`, or is split between them (`positions` for the mover,
 *   `forPartner` for the partner; RULINGS), each seeing only their own. The stones must be
 *   distinct. Points of the mover's own side never raise the limit.
 * - Knowledge (`known` in the view) is private information only: the stones a player peeked at
 *   (or was handed). It follows the stone's identity (set + symbol, never position), so it
 *   survives swaps and placements that shift positions (both are public), and ends when the
 *   stone is turned face up (a challenge or a proof reveals it to all, so private knowledge is
 *   moot; if hidden again later, nobody "knows" it until they peek again).
 *   Every face-down stone was seen face up by everyone when it was hidden, so in a strict sense
 *   all seated players have seen every stone. The engine deliberately does not remember public
 *   events for anyone: tracking stones through hides and swaps is the whole game, so a stone
 *   hidden in front of the table is added to nobody's `known`. Spectators know nothing.
 * - The public log keeps the last 20 events. When viewed, any symbol that is face down on its
 *   line at that moment is blanked (null) in every entry, including wrong guesses of it; a peek
 *   is logged with who looked and where, never what. Face-down stones stay hidden in views even
 *   after the game ends (the seed and move log remain the way to audit a game).
 * - In King's Circle the doubted boast is proven by the boaster and their partner alternating,
 *   the boaster first (for a counter-boast: the counter-boaster first). A proof names one stone
 *   per move, in any order, across both lines in Vanguard.
 * - After a challenge or a believed boast that does not end the game, the turn passes clockwise
 *   from the player who challenged or boasted (also after a counter-boast is believed).
 * - Win reasons: `points` (a side reached 3), `boast-proven`, `boast-failed`, `forfeit`. Outcome
 *   scores give every player their side's points. A forfeit (any time, also while an answer is
 *   pending) makes the forfeiting player's side lose.
 * - The rules have no turn limit and the engine adds none (every challenge scores a point, so
 *   players who want the game to end can always end it; the bot's turn timers forfeit idle ones).
 * - A "turn" for the peek-of-three rule is a whole turn: the action plus any answer and proof it
 *   started. A challenged player may name any of the seven symbols (even one visible elsewhere).
 *   The engine performs every action the rulebook has the opponent perform.
 * - Setup refuses wrong player counts, duplicate or empty ids, `__proto__` as an id, bad seeds and
 *   unknown options (`tellstones/bad-setup`). A move with extra keys or out-of-range values is
 *   `tellstones/bad-move`.
 * - Checks run in this order, so each refusal has one code: game-over, not-a-player, bad-move;
 *   then whose input is awaited (not-your-turn / not-answering-player / not-prover) and whether the
 *   move fits (answer-pending, proof-pending, nothing-to-answer); then the move's own rules
 *   (line-required, no-such-line, line-full, not-in-pool, no-face-up, not-face-up, too-few-stones,
 *   same-position, no-partner, not-partner, no-face-down, peek-too-many, duplicate-position,
 *   no-such-position, not-face-down, no-counter-to-counter). Rule messages never name a face-down
 *   stone's symbol.
 */
export const tellstones: Engine<TellstonesState, TellstonesMove, TellstonesView, TellstonesOptions> = {
  id: 'tellstones',
  name: 'Tellstones',
  minPlayers: 2,
  maxPlayers: 4,
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
};

/**
 * Recomputes a game from its seed, seating, options and log (setup, then each entry in order:
 * `{actor, move}` applies a move, `{actor, forfeit: true}` forfeits). Pure; throws the RuleError of
 * the first illegal entry.
 */
export function replay(
  seed: string,
  players: PlayerId[],
  options: Partial<TellstonesOptions> | undefined,
  entries: readonly TellstonesLogEntry[],
): TellstonesState {
  return replayWith(tellstones, seed, players, optionsSchema.parse(options ?? {}), entries).at(-1)!;
}
