import { RuleError, type Engine, type Outcome, type PlayerId, type SetupArgs, type TimerSpec } from '../../../kernel/types.ts';
import { checkSetup, copyOutcome } from '../../../kernel/checks.ts';
import { rngFromSeed, rollDie } from '../../../kernel/rng.ts';
import { replayer, twoPlayer } from '../../../kernel/two-player.ts';
import { DIE_INFO, type DieItem } from './dice.ts';
import { scoreColumn, scoreGrid } from './scoring.ts';
import {
  moveSchema,
  optionsSchema,
  stateSchema,
  type Grid,
  type KnucklebonesMove,
  type KnucklebonesOptions,
  type KnucklebonesState,
} from './schema.ts';

export { scoreColumn, scoreGrid } from './scoring.ts';
export { DIE_INFO, DIE_ITEMS, dieItemSchema, type DieItem } from './dice.ts';
export {
  columnSchema,
  dieSchema,
  gridSchema,
  moveSchema,
  optionsSchema,
  outcomeSchema,
  stateSchema,
  type Grid,
  type KnucklebonesMove,
  type KnucklebonesOptions,
  type KnucklebonesState,
} from './schema.ts';

/** What anyone sees (Knucklebones has no hidden information; the rng never leaves the engine). */
export interface KnucklebonesView {
  players: [PlayerId, PlayerId];
  /** The player to move; null when the game is over. */
  turn: PlayerId | null;
  /** The die the player to move has to place; null when the game is over. */
  roll: number | null;
  grids: Record<PlayerId, Grid>;
  columnScores: Record<PlayerId, [number, number, number]>;
  scores: Record<PlayerId, number>;
  turnNumber: number;
  outcome: Outcome | null;
  /** Dice items: present once one was used in the game. */
  dice?: {
    /** Dice items each player has used in this game (each once per game). */
    used: Record<PlayerId, DieItem[]>;
    /** The die item used in the running turn, if any. */
    turnDie: DieItem | null;
    /** Loaded Die: the two values to keep one of (place waits for the choice). */
    choices: [number, number] | null;
    /** Twin Die: the column of the first placement; the twin goes in another column. */
    twinFrom: number | null;
  };
}

/** One entry of a game's move log, as `replay` consumes it. */
export interface KnucklebonesLogEntry {
  actor: PlayerId;
  move: KnucklebonesMove;
}

const COLUMNS = 3;
const ROWS = 3;
const CELLS = COLUMNS * ROWS;

function fail(code: string, message: string): never {
  throw new RuleError(`knucklebones/${code}`, message);
}

const cloneGrid = (g: Grid): Grid => [g[0].slice(), g[1].slice(), g[2].slice()];

const cellCount = (g: Grid): number => g[0].length + g[1].length + g[2].length;

/** Turns, seats, outcome and the turn's forfeit timer, keyed by the turn number (src/kernel/two-player.ts). */
const turns = twoPlayer<KnucklebonesState>({ id: 'knucklebones', name: 'Knucklebones' }, (s) => s.turnNumber);
const opponentOf = turns.opponentOf;

/** Looks a player's grid up by seat (never through the prototype chain). */
function gridOf(state: KnucklebonesState, player: PlayerId): Grid {
  const g = Object.hasOwn(state.grids, player) ? state.grids[player] : undefined;
  if (!g) throw new Error(`corrupt knucklebones state: no grid for ${player}`);
  return g;
}

function totals(state: KnucklebonesState): Record<PlayerId, number> {
  const [a, b] = state.players;
  return { [a]: scoreGrid(gridOf(state, a)), [b]: scoreGrid(gridOf(state, b)) };
}

function setup(args: SetupArgs<KnucklebonesOptions>): KnucklebonesState {
  if (!optionsSchema.safeParse(args.options ?? {}).success) fail('bad-setup', 'Knucklebones has no options.');
  checkSetup('knucklebones', args, { min: 2, max: 2 });
  const [p0, p1] = args.players as [PlayerId, PlayerId];
  const rng0 = rngFromSeed(args.seed);

  // Seeded random turn order, then the first player's die is rolled right away.
  const [[first, second], rng1] = turns.drawOrder(rng0, [p0, p1]);
  const [roll, rng2] = rollDie(rng1);
  return {
    players: [first, second],
    grids: { [first]: [[], [], []], [second]: [[], [], []] },
    turn: first,
    roll,
    rng: rng2,
    turnNumber: 0,
    lastPlaced: { [first]: null, [second]: null },
    outcome: null,
  };
}

type DiceState = NonNullable<KnucklebonesState['dice']>;

function copyDice(d: KnucklebonesState['dice']): DiceState | undefined {
  if (!d) return undefined;
  const used: DiceState['used'] = {};
  for (const [k, v] of Object.entries(d.used)) used[k] = v.slice();
  return { used, turn: d.turn ? { die: d.turn.die, choices: d.turn.choices ? [d.turn.choices[0], d.turn.choices[1]] : null, twinFrom: d.turn.twinFrom } : null };
}

/** A copy of the state with the same turn (for the steps of a turn that do not pass it). */
function sameTurn(state: KnucklebonesState): KnucklebonesState {
  const [a, b] = state.players;
  const next: KnucklebonesState = {
    players: [a, b],
    grids: { [a]: cloneGrid(gridOf(state, a)), [b]: cloneGrid(gridOf(state, b)) },
    turn: state.turn,
    roll: state.roll,
    rng: { seed: state.rng.seed, n: state.rng.n },
    turnNumber: state.turnNumber,
    lastPlaced: { ...state.lastPlaced },
    outcome: null,
  };
  const dice = copyDice(state.dice);
  if (dice) next.dice = dice;
  return next;
}

function apply(state: KnucklebonesState, actor: PlayerId, move: KnucklebonesMove): KnucklebonesState {
  turns.assertTurn(state, actor);
  const parsed = moveSchema.safeParse(move);
  if (!parsed.success) fail('bad-move', 'That is not a valid Knucklebones move: choose column 1, 2 or 3.');
  const m = parsed.data;
  if (state.roll === null) throw new Error('corrupt knucklebones state: a turn is running without a roll');
  if (m.type === 'use-die') return useDie(state, actor, m.die, m.column);
  if (m.type === 'keep') return keep(state, m.choice);
  return place(state, actor, m.column);
}

function useDie(state: KnucklebonesState, actor: PlayerId, die: DieItem, column: 1 | 2 | 3 | undefined): KnucklebonesState {
  const turnDie = state.dice?.turn ?? null;
  if (turnDie) fail('one-die-per-turn', `You already used the ${DIE_INFO[turnDie.die].name} this turn: only one die item per turn.`);
  if (state.dice?.used[actor]?.includes(die)) fail('die-used', `You already used the ${DIE_INFO[die].name} in this game: each die once per game.`);
  if (die !== 'spoiler' && column !== undefined) fail('bad-move', `The ${DIE_INFO[die].name} does not take a column.`);
  const next = sameTurn(state);
  const opponent = opponentOf(state, actor);
  let choices: [number, number] | null = null;
  switch (die) {
    case 'loaded': {
      const [x, r1] = rollDie(next.rng);
      const [y, r2] = rollDie(r1);
      next.rng = r2;
      choices = [x, y];
      break;
    }
    case 'lucky': {
      const [v, r] = rollDie(next.rng);
      next.rng = r;
      next.roll = v;
      break;
    }
    case 'steady':
      next.roll = 3;
      break;
    case 'echo': {
      const v = state.lastPlaced[opponent] ?? null;
      if (v === null) fail('nothing-to-echo', 'Your opponent has not placed a die yet, so there is nothing to echo.');
      next.roll = v;
      break;
    }
    case 'spoiler': {
      if (column === undefined) fail('spoiler-column', 'Choose which of your opponent’s columns the Spoiler Die hits.');
      const theirs = gridOf(next, opponent);
      const col = theirs[column - 1] as number[];
      if (col.length === 0) fail('spoiler-empty', `Your opponent’s column ${column} is empty; choose a column with dice.`);
      const highest = Math.max(...col);
      col.splice(col.indexOf(highest), 1);
      break;
    }
    case 'twin':
      break;
  }
  const [a, b] = state.players;
  const used = next.dice?.used ?? { [a]: [], [b]: [] };
  used[actor] = [...(used[actor] ?? []), die];
  next.dice = { used, turn: { die, choices, twinFrom: null } };
  return next;
}

function keep(state: KnucklebonesState, choice: 0 | 1): KnucklebonesState {
  const choices = state.dice?.turn?.choices ?? null;
  if (!choices) fail('nothing-to-keep', 'There is no Loaded Die roll to choose from this turn.');
  const next = sameTurn(state);
  next.roll = choices[choice];
  next.dice!.turn!.choices = null;
  return next;
}

function place(state: KnucklebonesState, actor: PlayerId, column: 1 | 2 | 3): KnucklebonesState {
  const turnDie = state.dice?.turn ?? null;
  if (turnDie?.choices) fail('choose-first', 'Keep one of the two Loaded Die values first, then place it.');
  const twinFrom = turnDie?.die === 'twin' ? turnDie.twinFrom : null;
  const col = column - 1;
  const value = state.roll as number;

  const mine = cloneGrid(gridOf(state, actor));
  const myColumn = mine[col] as number[];
  if (myColumn.length >= ROWS) fail('column-full', `Column ${column} is full; choose another column.`);
  if (twinFrom === column) fail('twin-same-column', `The twin die goes in another column than column ${column}.`);
  myColumn.push(value);

  // Destruction: every die of the placed value in the opponent's same-numbered column is removed
  // (not by the Twin Die's second die).
  const opponent = opponentOf(state, actor);
  const theirs = cloneGrid(gridOf(state, opponent));
  if (twinFrom === null) theirs[col] = (theirs[col] as number[]).filter((v) => v !== value);

  const [a, b] = state.players;
  const next: KnucklebonesState = {
    players: [a, b],
    // Keys in seat order, so the stored JSON does not depend on who moved last.
    grids: actor === a ? { [a]: mine, [b]: theirs } : { [a]: theirs, [b]: mine },
    turn: null,
    roll: null,
    rng: { seed: state.rng.seed, n: state.rng.n },
    turnNumber: state.turnNumber + 1,
    lastPlaced: { ...state.lastPlaced, [actor]: value },
    outcome: null,
  };
  const dice = copyDice(state.dice);
  if (dice) next.dice = { used: dice.used, turn: null };

  if (cellCount(mine) === CELLS) {
    // The placer's ninth cell ends the game at once; higher total wins, equal totals draw.
    const scores = totals(next);
    const mineTotal = scores[actor] ?? 0;
    const theirTotal = scores[opponent] ?? 0;
    const winners = mineTotal > theirTotal ? [actor] : theirTotal > mineTotal ? [opponent] : [];
    next.outcome = { winners, scores, reason: 'grid-full' };
    return next;
  }

  // Twin Die: the first placement is followed by the twin in another non-full column, if any.
  if (turnDie?.die === 'twin' && twinFrom === null && mine.some((c, i) => i !== col && c.length < ROWS)) {
    next.turn = actor;
    next.roll = value;
    next.turnNumber = state.turnNumber;
    next.dice = { used: next.dice!.used, turn: { die: 'twin', choices: null, twinFrom: column } };
    return next;
  }

  // The turn passes and the engine rolls the opponent's die right away.
  const [roll, rng] = rollDie(next.rng);
  next.turn = opponent;
  next.roll = roll;
  next.rng = rng;
  return next;
}

function view(state: KnucklebonesState, _viewer: PlayerId | null): KnucklebonesView {
  const [a, b] = state.players;
  const grids: Record<PlayerId, Grid> = { [a]: cloneGrid(gridOf(state, a)), [b]: cloneGrid(gridOf(state, b)) };
  const colScores = (g: Grid): [number, number, number] => [scoreColumn(g[0]), scoreColumn(g[1]), scoreColumn(g[2])];
  const over = state.outcome !== null;
  return {
    players: [a, b],
    turn: over ? null : state.turn,
    roll: over ? null : state.roll,
    grids,
    columnScores: { [a]: colScores(grids[a] as Grid), [b]: colScores(grids[b] as Grid) },
    scores: totals(state),
    turnNumber: state.turnNumber,
    outcome: state.outcome ? copyOutcome(state.outcome) : null,
    ...(state.dice
      ? {
          dice: {
            used: { [a]: state.dice.used[a]?.slice() ?? [], [b]: state.dice.used[b]?.slice() ?? [] },
            turnDie: over ? null : (state.dice.turn?.die ?? null),
            choices: over || !state.dice.turn?.choices ? null : ([state.dice.turn.choices[0], state.dice.turn.choices[1]] as [number, number]),
            twinFrom: over ? null : (state.dice.turn?.twinFrom ?? null),
          },
        }
      : {}),
  };
}

const awaiting = turns.awaiting;

/**
 * The moves the rules allow `player` now with nothing but the game: keep a Loaded Die value, or
 * place in a column that is not full (and, for a Twin's second die, not the first one's column).
 * Using a die item needs the item in the player's inventory, which the engine does not know:
 * those moves are offered by the bot from the inventory and never by the autopilot.
 */
function legalMoves(state: KnucklebonesState, player: PlayerId): KnucklebonesMove[] {
  if (state.outcome !== null || state.turn !== player || state.roll === null) return [];
  const turnDie = state.dice?.turn ?? null;
  if (turnDie?.choices) return [{ type: 'keep', choice: 0 }, { type: 'keep', choice: 1 }];
  const grid = gridOf(state, player);
  const twinFrom = turnDie?.die === 'twin' ? turnDie.twinFrom : null;
  return ([1, 2, 3] as const).filter((c) => grid[c - 1]!.length < ROWS && c !== twinFrom).map((column) => ({ type: 'place' as const, column }));
}

/**
 * One timer: the turn of the player to move, the server's turn limit, forfeit at expiry. Its key
 * is the turn number, which a die item or a Twin's second die does not advance: the deadline of a
 * turn stands however many steps it takes.
 */
const timers: (state: KnucklebonesState) => TimerSpec<KnucklebonesMove>[] = turns.timers;

/**
 * What one more die is expected to add to a grid: for each column with room, the average over the
 * six values of the score it would gain there (a die matching k dice of its value adds
 * (2k + 1) x value). Stacks in open columns are worth more than their score shows.
 */
function potential(g: Grid): number {
  let p = 0;
  for (const c of g) {
    if (c.length >= ROWS) continue;
    let e = 0;
    for (let v = 1; v <= 6; v++) {
      const k = c.filter((x) => x === v).length;
      e += (2 * k + 1) * v;
    }
    p += e / 6;
  }
  return p;
}

/**
 * The autopilot: expectimax over the opponent's next die. Each candidate move is scored by the
 * average, over the six values the opponent may roll, of the position after the opponent's best
 * reply, a position being worth the score margin plus 0.7 x the mover's open-column potential
 * minus 0.3 x the opponent's (a finished game: +-1000 plus the margin). Ties go to the lowest
 * column. A Loaded Die's two values are judged by their best placement. Against a uniformly random
 * player it wins more than 80% of games (tests/games/knucklebones/autopilot.test.ts prints the
 * figure); the weights were chosen by measuring that figure.
 */
function autopilot(state: KnucklebonesState, player: PlayerId): KnucklebonesMove {
  const moves = legalMoves(state, player);
  if (moves.length === 0) throw new Error('the Knucklebones autopilot was asked to move out of turn');
  const opponent = opponentOf(state, player);
  const put = (mover: Grid, other: Grid, col: number, value: number): [Grid, Grid] => {
    const a = cloneGrid(mover);
    a[col]!.push(value);
    const b = cloneGrid(other);
    b[col] = b[col]!.filter((v) => v !== value);
    return [a, b];
  };
  const final = (mine: Grid, theirs: Grid) => {
    const m = scoreGrid(mine) - scoreGrid(theirs);
    return m > 0 ? 1000 + m : m < 0 ? -1000 + m : 0;
  };
  const worth = (mine: Grid, theirs: Grid) => scoreGrid(mine) - scoreGrid(theirs) + 0.7 * potential(mine) - 0.3 * potential(theirs);
  const placement = (col: number, value: number): number => {
    const [mine, theirs] = put(gridOf(state, player), gridOf(state, opponent), col, value);
    if (cellCount(mine) === CELLS) return final(mine, theirs);
    let total = 0;
    for (let d = 1; d <= 6; d++) {
      let worst = Infinity;
      for (let c = 0; c < COLUMNS; c++) {
        if (theirs[c]!.length >= ROWS) continue;
        const [t2, m2] = put(theirs, mine, c, d);
        worst = Math.min(worst, cellCount(t2) === CELLS ? final(m2, t2) : worth(m2, t2));
      }
      total += worst;
    }
    return total / 6;
  };
  const bestPlacement = (value: number) =>
    Math.max(...[0, 1, 2].filter((c) => gridOf(state, player)[c]!.length < ROWS && c + 1 !== state.dice?.turn?.twinFrom).map((c) => placement(c, value)));
  let best = moves[0]!;
  let bestValue = -Infinity;
  for (const m of moves) {
    const v = m.type === 'keep' ? bestPlacement(state.dice!.turn!.choices![m.choice]) : m.type === 'place' ? placement(m.column - 1, state.roll as number) : -Infinity;
    if (v > bestValue) {
      best = m;
      bestValue = v;
    }
  }
  return best;
}

function forfeit(state: KnucklebonesState, player: PlayerId): KnucklebonesState {
  turns.assertSeated(state, player);
  const [a, b] = state.players;
  return {
    players: [a, b],
    grids: { [a]: cloneGrid(gridOf(state, a)), [b]: cloneGrid(gridOf(state, b)) },
    turn: null,
    roll: null,
    rng: { seed: state.rng.seed, n: state.rng.n },
    turnNumber: state.turnNumber,
    lastPlaced: { ...state.lastPlaced },
    outcome: turns.forfeitOutcome(state, player, totals(state)),
    ...(state.dice ? { dice: { used: copyDice(state.dice)!.used, turn: null } } : {}),
  };
}

/**
 * Knucklebones (knucklebones.seed.txt, settled by RULINGS.md).
 *
 * - Two players. Turn order is random, drawn from the game's seeded rng at setup (a shuffle of the
 *   two seats); the first player's die is rolled at setup, every later die when the turn passes.
 * - A move places the current roll in one of the mover's own columns (1-3) that is not full. The row
 *   is irrelevant, so a column is just the list of its dice in placement order (at most 3).
 * - Destruction: every die of the placed value in the opponent's same-numbered column is removed.
 * - The game ends right after the placement that fills the placer's ninth cell (only the placer's
 *   grid can fill on their own placement). Higher total wins; equal totals are a draw (no winners).
 * - Scoring: each die scores value × the count of that value in its column; total = sum of columns.
 * - Forfeit (a player gives up or timed out) may happen on either player's turn; the opponent wins
 *   with reason `forfeit`, scores are the current totals.
 *
 * - Dice items (dice.ts): `use-die` before placing, once per die per player per game and one per
 *   turn. Loaded draws two fresh dice from the rng and waits for `keep` (0 or 1) before the placement;
 *   Lucky draws one fresh die that replaces the roll; Steady sets 3; Echo copies the opponent's
 *   last placed value (refused before they placed); Spoiler removes one die of the highest value from
 *   the named opponent column (refused when empty) and the turn goes on; Twin: the placement is
 *   followed, on the same turn, by a second `place` of the same value in another non-full column,
 *   without destruction. If the first placement fills the grid the game ends at once; if no other
 *   column has room the twin is lost and the turn passes. The twin counts as the player's last
 *   placed die; turnNumber counts turns, not dice.
 *
 * Choices where the rulebook and rulings are silent: setup refuses anything but two distinct
 * non-empty ids (not `__proto__`) and a 64-hex seed (`knucklebones/bad-setup`); a move with extra keys is a bad move;
 * when the game ends the rng is not advanced (no die is rolled for a turn that never comes).
 */
export const knucklebones: Engine<KnucklebonesState, KnucklebonesMove, KnucklebonesView, KnucklebonesOptions> = {
  id: 'knucklebones',
  name: 'Knucklebones',
  minPlayers: 2,
  maxPlayers: 2,
  stateSchema,
  moveSchema,
  optionsSchema,
  setup,
  apply,
  view,
  awaiting,
  outcome: turns.outcome,
  forfeit,
  legalMoves,
  timers,
  autopilot,
};

/**
 * Recomputes a game from its seed, seating and move log (setup, then apply for each entry in order).
 * Pure; throws the RuleError of the first illegal entry. `players` is the seating passed to setup
 * (the turn order is then drawn from the seed, exactly as when the game was created).
 */
export const replay: (seed: string, players: PlayerId[], moves: readonly KnucklebonesLogEntry[], options?: KnucklebonesOptions) => KnucklebonesState = replayer(knucklebones, {});
