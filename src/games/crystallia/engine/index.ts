import { assertRunningAndSeated, checkSetup, copyOutcome } from '../../../kernel/checks.ts';
import { replayWith, type ReplayEntry } from '../../../kernel/replay.ts';
import { nextInt, rngFromSeed, shuffle, type RngState } from '../../../kernel/rng.ts';
import type { Engine, Outcome, PlayerId, SetupArgs, TimerSpec } from '../../../kernel/types.ts';
import { chooseMove } from './autopilot.ts';
import { buildGrid, halfIndex, neighbour, placementsFor } from './board.ts';
import {
  BOARD_COLS,
  BOARD_SQUARES,
  CHAOS_TILES,
  COLOURS,
  PYRAMID_ROWS,
  REGULAR_TILES,
  STONES,
  SUPPLY_PER_COLOUR,
  tileMix,
  type SquareKind,
  type TileData,
} from './data.ts';
import {
  abilityMoves,
  anyStoneFits,
  availableStones,
  cloneState,
  copyJson,
  doAbility,
  doDiscard,
  doFlip,
  doForfeit,
  doIsolate,
  doPlace,
  doSkip,
  doTalisman,
  fail,
  startTurn,
  talismanBlock,
  talismanColours,
} from './rules.ts';
import { moveSchema, optionsSchema, stateSchema, type CrystalliaMove, type CrystalliaOptions, type CrystalliaState } from './schema.ts';
import { viewState, type CrystalliaView } from './view.ts';

export * from './data.ts';
export {
  DIRECTIONS,
  abilitySchema,
  colourSchema,
  directionSchema,
  eventSchema,
  halfSchema,
  moveSchema,
  optionsSchema,
  outcomeSchema,
  stateSchema,
  type CrystalliaEvent,
  type CrystalliaMove,
  type CrystalliaMoveType,
  type CrystalliaOptions,
  type CrystalliaState,
  type Direction,
  type Platforms,
  type TurnLog,
} from './schema.ts';
export { scoreBreakdown, type ColourScore, type PlatformsLike, type ScoreBreakdown } from './scoring.ts';
export { describeTurn, stoneName, type CrystalliaView, type ViewCard, type ViewSeat, type ViewTurnLog } from './view.ts';
export { colOf, neighbour, parseSquare, rowOf, squareAt, squareName } from './board.ts';

/** One entry of a game's log, as `replay` consumes it. */
export type CrystalliaLogEntry = ReplayEntry<CrystalliaMove>;

const GAME = 'crystallia';
const TITLE = 'Crystallia';

// ---------------------------------------------------------------------------------------------
// setup

/** A tile's squares after `rotation` quarter turns clockwise. */
export function rotateTile(squares: TileData['squares'], rotation: number): SquareKind[][] {
  let g: SquareKind[][] = squares.map((row) => row.slice());
  for (let k = 0; k < rotation; k++) g = [0, 1, 2].map((i) => [0, 1, 2].map((j) => g[2 - j]![i]!));
  return g;
}

function setup(args: SetupArgs<CrystalliaOptions>): CrystalliaState {
  const parsed = optionsSchema.safeParse(args.options ?? {});
  if (!parsed.success) fail('bad-setup', 'Unknown or invalid Crystallia options (only `advanced: boolean`).');
  checkSetup(GAME, args, { min: 2, max: 4 });
  const { advanced } = parsed.data;
  const n = args.players.length;

  // Draw order: chaos tiles, regular tiles, their places, six rotations, the pyramid, the first player.
  let rng: RngState = rngFromSeed(args.seed);
  const mix = tileMix(n);
  const [chaos, r1] = shuffle(rng, CHAOS_TILES);
  const [regular, r2] = shuffle(r1, REGULAR_TILES);
  const [layout, r3] = shuffle(r2, [...chaos.slice(0, mix.chaos), ...regular.slice(0, mix.regular)]);
  rng = r3;
  const tiles: CrystalliaState['tiles'] = [];
  const squares = new Array<SquareKind>(BOARD_SQUARES);
  layout.forEach((tile, k) => {
    const [rotation, next] = nextInt(rng, 4);
    rng = next;
    tiles.push({ id: tile.id, rotation });
    const rotated = rotateTile(tile.squares, rotation);
    const top = Math.floor(k / 3) * 3;
    const left = (k % 3) * 3;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) squares[(top + i) * BOARD_COLS + left + j] = rotated[i]![j]!;
  });
  const [deck, r4] = shuffle(
    rng,
    STONES.map((_, id) => id),
  );
  const pyramid: CrystalliaState['pyramid'] = [deck.slice(0, PYRAMID_ROWS[0]), deck.slice(PYRAMID_ROWS[0], PYRAMID_ROWS[0] + PYRAMID_ROWS[1]), deck.slice(PYRAMID_ROWS[0] + PYRAMID_ROWS[1])];
  const [first, r5] = nextInt(r4, n);
  const players = [...args.players.slice(first), ...args.players.slice(0, first)];
  const zero = () => ({ red: 0, blue: 0, green: 0, purple: 0 });
  const s: CrystalliaState = {
    players,
    advanced,
    tiles,
    squares,
    stones: STONES.map((h) => [h[0], h[1]]),
    positions: STONES.map(() => null),
    pyramid,
    discarded: [],
    supply: { red: SUPPLY_PER_COLOUR, blue: SUPPLY_PER_COLOUR, green: SUPPLY_PER_COLOUR, purple: SUPPLY_PER_COLOUR },
    platforms: Object.fromEntries(players.map((p) => [p, { crystals: zero(), blacks: zero(), flipped: { red: false, blue: false, green: false, purple: false } }])),
    supercrystals: { red: null, blue: null, green: null, purple: null },
    talismans: [],
    lastTalisman: false,
    flips: advanced ? Object.fromEntries(players.map((p) => [p, null])) : null,
    turn: null,
    eliminated: [],
    forfeits: [],
    log: { current: null, last: null },
    rng: r5,
    outcome: null,
  };
  if (!advanced) startTurn(s, players[0]!, false, 0);
  return s;
}

// ---------------------------------------------------------------------------------------------
// moves

const STEP_MOVES = {
  take: ['place', 'talisman', 'discard'],
  ability: ['move', 'rotate', 'skip-ability'],
  isolate: ['isolate'],
} as const;

const STEP_HELP = {
  take: 'Take a stone from the pyramid and place it (or use a talisman).',
  ability: 'Use the Move or Rotate you covered, or skip it.',
  isolate: 'Choose the colour of your isolation crystal.',
} as const;

function apply(state: CrystalliaState, actor: PlayerId, move: CrystalliaMove): CrystalliaState {
  assertRunningAndSeated(GAME, TITLE, state.outcome !== null, state.players, actor);
  const parsed = moveSchema.safeParse(move);
  if (!parsed.success) fail('bad-move', 'That is not a valid Crystallia move.');
  const m = parsed.data;
  if (state.flips) {
    if (m.type !== 'flip') fail('flip-first', 'Advanced Mode: everyone first chooses, in secret, which platforms to flip.');
    if (state.flips[actor] !== null) fail('already-chosen', 'You have already chosen your platforms; waiting for the others.');
    return doFlip(cloneState(state), actor, m.platforms);
  }
  const t = state.turn!;
  if (state.eliminated.includes(actor)) fail('out', 'You are out of this game (13 crystals of one colour).');
  if (t.player !== actor) fail('not-your-turn', 'It is not your turn.');
  if (!(STEP_MOVES[t.step] as readonly string[]).includes(m.type)) fail('wrong-step', STEP_HELP[t.step]);
  const s = cloneState(state);
  s.turn!.steps += 1;
  switch (m.type) {
    case 'place':
      // A double written either way is one placement (RULINGS): its first half goes on the left or upper square.
      return doPlace(s, canonicalMove(state, m) as typeof m);
    case 'talisman':
      return doTalisman(s, m.colour);
    case 'discard':
      return doDiscard(s, m.stone);
    case 'move':
    case 'rotate':
      return doAbility(s, m);
    case 'skip-ability':
      return doSkip(s);
    case 'isolate':
      return doIsolate(s, m.colour);
    case 'flip':
      return fail('wrong-step', 'Platforms are flipped before the first turn only.');
  }
}

/** Every subset of the colours, in colour order, smallest first: the 16 flip choices. */
const FLIP_CHOICES: CrystalliaMove[] = Array.from({ length: 16 }, (_, mask) => mask)
  .sort((a, b) => popcount(a) - popcount(b) || a - b)
  .map((mask) => ({ type: 'flip' as const, platforms: COLOURS.filter((_, i) => mask & (1 << i)) }));

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v; v >>= 1) n += v & 1;
  return n;
}

/**
 * Every move `player` may make now, each distinct move once: placements of every available stone
 * that fits (a stone with two equal halves only `right` and `down`; apply also takes the other
 * spelling, `left`/`up` from the other square, and plays it as this one: see `canonicalMove`), then talismans, or, when no available
 * stone fits anywhere, a discard of each available stone; every legal Move and Rotate of the
 * pending abilities and `skip-ability`; the isolation colours; the 16 flip choices.
 */
function legalMoves(state: CrystalliaState, player: PlayerId): CrystalliaMove[] {
  if (state.outcome) return [];
  if (state.flips) return Object.hasOwn(state.flips, player) && state.flips[player] === null ? FLIP_CHOICES.map((m) => copyJson(m)) : [];
  const t = state.turn;
  if (!t || t.player !== player) return [];
  const out: CrystalliaMove[] = [];
  switch (t.step) {
    case 'take': {
      const g = buildGrid(state.positions, state.stones);
      const stones = availableStones(state);
      for (const stone of stones) {
        const [a, b] = state.stones[stone]!;
        for (const [square, dir] of placementsFor(g, halfIndex(a), halfIndex(b))) out.push({ type: 'place', stone, square, dir });
      }
      if (out.length === 0) for (const stone of stones) out.push({ type: 'discard', stone });
      if (talismanBlock(state) === null) for (const colour of talismanColours(state)) out.push({ type: 'talisman', colour });
      return out;
    }
    case 'ability': {
      const g = buildGrid(state.positions, state.stones);
      for (const ability of ['move', 'rotate'] as const) if (t.pending.includes(ability)) out.push(...abilityMoves(state, ability, g));
      out.push({ type: 'skip-ability' });
      return out;
    }
    case 'isolate':
      return (t.choices ?? []).map((colour) => ({ type: 'isolate', colour }));
  }
}

/**
 * The one spelling `legalMoves` uses for a move: a placement of a stone with equal halves going
 * `left` or `up` becomes the same placement going `right` or `down` from the other square; flips
 * are listed in colour order. Other moves are returned as they are. `apply` plays a placement in
 * this spelling (RULINGS: a double's first half is the upper square of a vertical placement and
 * the left square of a horizontal one, whichever way it is written), so both spellings give one
 * state: the same positions, and crystals paid in the same order.
 */
export function canonicalMove(state: CrystalliaState, move: CrystalliaMove): CrystalliaMove {
  if (move.type === 'flip') return { type: 'flip', platforms: COLOURS.filter((c) => move.platforms.includes(c)) };
  if (move.type !== 'place' || (move.dir !== 'left' && move.dir !== 'up')) return move;
  const halves = state.stones[move.stone];
  if (!halves || halves[0] !== halves[1]) return move;
  const other = neighbour(move.square, move.dir);
  if (other < 0) return move;
  return { type: 'place', stone: move.stone, square: other, dir: move.dir === 'left' ? 'right' : 'down' };
}

function awaiting(state: CrystalliaState): PlayerId[] {
  if (state.outcome) return [];
  if (state.flips) return state.players.filter((p) => state.flips![p] === null);
  return state.turn ? [state.turn.player] : [];
}

function autopilot(state: CrystalliaState, player: PlayerId, rng: RngState): CrystalliaMove {
  return chooseMove(state, player, legalMoves(state, player), rng);
}

/**
 * The timers: during the flip step, one per player still choosing (the server's turn limit; at
 * expiry, no flips); during play, the turn of the player to move (`turn:<number>`, the same for
 * every step of one turn and new for each turn, a second turn included; forfeit at expiry). A
 * forfeited seat's turn runs no timer: the platform plays every seat listed by `out` in the
 * transaction that hands it the turn (src/services/changes.ts), so no such state is ever stored
 * and waits for anyone.
 */
function timers(state: CrystalliaState): TimerSpec<CrystalliaMove>[] {
  if (state.outcome) return [];
  if (state.flips) {
    return awaiting(state).map((player) => ({
      key: 'flip',
      player,
      after: 'turn-limit' as const,
      onExpiry: { type: 'move' as const, move: { type: 'flip' as const, platforms: [] } },
      turn: true,
    }));
  }
  const t = state.turn!;
  if (state.forfeits.includes(t.player)) return [];
  return [{ key: `turn:${t.number}`, player: t.player, after: 'turn-limit', onExpiry: { type: 'forfeit' } }];
}

function outcome(state: CrystalliaState): Outcome | null {
  return state.outcome ? copyOutcome(state.outcome) : null;
}

function forfeit(state: CrystalliaState, player: PlayerId): CrystalliaState {
  assertRunningAndSeated(GAME, TITLE, state.outcome !== null, state.players, player);
  return doForfeit(cloneState(state), player);
}

function view(state: CrystalliaState, viewer: PlayerId | null): CrystalliaView {
  return viewState(state, viewer);
}

/**
 * Crystallia (crystallia.seed.txt, settled by the Crystallia section of RULINGS.md; the edition's
 * data is in data.ts).
 *
 * Setup
 * - 2-4 players. The board is six 3x3 tiles in 2 rows of 3 (6 rows x 9 columns; square = row * 9
 *   + column, named by row letter A-F and column 1-9: A1 top left, A9 top right, F9 bottom right, as the
 *   picture's edges show). 2-3 players: 3 of the 8 chaos and 3 of the 8 regular
 *   tiles, 4 players: 6 of the 8 chaos tiles, drawn at random; the six are laid in random places,
 *   each with a random quarter-turn rotation. The 24 stones are shuffled into the pyramid: rows of
 *   7 (top), 8, 9 (bottom); card i of a row is covered by cards i and i+1 of the row below. A card
 *   is available, and face up, exactly when no card covers it (the bottom row from the start).
 *   Supplies of 20 per colour; black is unlimited; three shared talismans. The first player is
 *   random; turns follow the seating given, starting there (`players` is stored in turn order).
 *   Rng draws, in order: the chaos tiles, the regular tiles, the six tiles' places, six rotations,
 *   the pyramid, the first player. Nothing after setup is random.
 * - Advanced Mode (`advanced: true`): before the first turn every player chooses in secret which
 *   platforms to flip (`flip`, any subset, possibly none). Each choosing player has a timer (the
 *   turn limit) whose expiry chooses no flips. When everyone has chosen, all flips are revealed and
 *   the first turn starts. A player sees their own choice in `view(...).flip.mine`.
 *
 * A turn (steps, so a phone player taps a few times; each step is one move)
 * - `take`: `place` an available stone (`square` holds its first half, `dir` points to its second)
 *   on two empty squares. A double (two equal halves) written going `left` or `up` is the same
 *   placement as going `right` or `down` from the other square, and is played as that one: its
 *   first half is always the left square of a horizontal placement and the upper square of a
 *   vertical one (RULINGS), which decides the order its crystals are paid in; or `talisman`; or, only when no available stone fits anywhere, `discard`
 *   one of them: it leaves the game, nothing is gained and the turn ends. A player must take a
 *   stone that fits if any does, but may always use a talisman instead when talismans allow.
 *   "Fits" ignores abilities.
 * - No step, at any time, may leave a run of 5 or more of one colour (wilds included) on the
 *   board: the placement, every Move and every Rotate is refused (`run-of-five`) and never listed.
 * - Abilities covered by the new stone (first half, then second): Extra Turn counts at once and
 *   is mandatory; Move and Rotate wait in step `ability`, used one at a time in any order
 *   (`move`, `rotate`) or all declined with `skip-ability`. Move slides another placed stone,
 *   orientation kept, so its first half lands on `to` (it may overlap its old squares); Rotate
 *   keeps half `pivot` of another placed stone and turns the other half onto `to`, an empty
 *   orthogonal neighbour of the pivot's square (quarter turn either way or half turn). Squares
 *   newly covered by a Move or Rotate pay their crystal at once (first half, then second) and an
 *   ability square so covered joins the abilities of the turn. Each ability square works at most
 *   once per turn (whether used or declined). Choice: when no pending ability has any legal use,
 *   the step is skipped by itself (recorded as "could not use").
 * - Then crystals, one at a time: each coloured square under the new stone (first half, then
 *   second), then, judged on the board after the abilities, isolation (no other stone touches the
 *   new one orthogonally or diagonally: one crystal of a colour of its halves, a yellow half
 *   allowing any colour; when more than one colour is possible the player chooses in step
 *   `isolate`, otherwise it is taken at once) or the runs. Runs: for the first half then the
 *   second, the row then the column, the colours red, blue, green, purple: the maximal straight
 *   line of halves of that colour or yellow through the half; it pays (length - 1) once if it holds
 *   halves of at least two stones and is not all yellow (a stone's own halves, a double, alone pay
 *   nothing; `R [R R]` pays 2). A moved or rotated stone never pays by itself but its new place
 *   counts in the new stone's runs and isolation.
 * - An empty supply gives a black crystal instead. Black crystals sit on the platform holding the
 *   most crystals (choice: coloured crystals counted, ties to the first in colour order); they
 *   never count toward 5, 9 or 13 and are never removed; each is -1.
 * - 6 or more crystals in one turn (every crystal of the turn, empty-supply blacks and an advanced
 *   platform's sixth included; the bonus and overflow blacks not) give one black at the end of the
 *   turn; a second turn counts on its own.
 * - A second turn (one, mandatory, never a third): earned by covering Extra Turn (not on the
 *   game's first turn, turn 0, where the ability does nothing, nor on a second turn) or when, after
 *   the placement and its abilities, the board holds a run of exactly 4 it did not hold before the
 *   turn (choice: four wild halves in a line are a run of 4 of every colour). The game still ends
 *   after the turn that takes the last stone.
 * - Talisman (`talisman {colour}`), at the start of a turn instead of taking a stone: never on a
 *   second turn, never when the turn just played was a talisman turn, allowed on the game's first
 *   turn and when a stone could be placed; the colour must be one no talisman took; gain one
 *   crystal of it (an empty supply: black). A talisman turn is a turn.
 * - Supercrystals (2 points): checked crystal by crystal, the first player whose count of a colour
 *   reaches 9 (regular platform) or 5 (flipped) takes it, and keeps it whatever happens later.
 * - A flipped platform's sixth crystal empties it (all six go back to the supply) and puts a black
 *   crystal on it. Choice: when the supply is empty the sixth crystal is a black one instead, so
 *   nothing arrives and the platform does not empty.
 * - 13 crystals of one colour on a regular platform: the player is out at once and the rest of the
 *   turn is void (no further crystals, isolation, bonus black or second turn; the stone stays).
 *   Two players: the other wins (`thirteen`). Three or four: the player is skipped from then on,
 *   keeps their crystals and ranks last (the latest out highest among them); when one player is
 *   left standing the game ends and they win (`thirteen`).
 * - The game ends after the turn that takes the last stone (placed or discarded): `pyramid-empty`.
 *   Scores: regular platform +1 per crystal up to 9, -1 per crystal beyond; flipped platform +2 per
 *   crystal; supercrystal +2; black -1. Places by score, ties sharing; everyone tied for the best
 *   score among those standing wins (kernel `rankedOutcome`, which ranks players out with 13 below
 *   the standing ones and forfeits below all).
 * - Forfeit (by choice or a turn timer): two players, the other wins (`forfeit`). Three or four:
 *   the seat stays in, listed by `out`, ranks last and never wins; its moves are made by the
 *   autopilot (`autopilot`), which the platform runs in the same transaction whenever such a seat
 *   is to move, so its turns run no timer. Choices: a seat forfeiting during the flip step has chosen no
 *   flips; when at most one player is left standing (neither forfeited nor out) the game ends at
 *   once and that player wins (`forfeit`), since nothing could change the standings but their own
 *   13; a player out with 13 may still forfeit (they then rank with the forfeits);
 *   forfeiting twice is refused (`already-forfeited`).
 * - The first player may not start with Extra Turn (rulebook) and RULINGS let the first turn cover
 *   it: reconciled as above, the placement is legal and the ability does nothing (recorded).
 *
 * Choices where the rulebook and rulings are silent (besides those above)
 * - Edition data (data.ts): every chaos tile has one each of Move, Extra Turn and Rotate and two
 *   colours twice and two once; every regular tile one colour three times and the others twice;
 *   each colour is spread evenly (18 regular + 12 chaos squares each). Stones are named by id
 *   (0-23, data order); a face-down card's id never leaves the engine.
 * - Moves name squares as numbers (row * 9 + column); `squareName` gives "C3". A Move's `to` is
 *   where the stone's first half goes. "Newly covered" is judged against where the stone lay just
 *   before that Move or Rotate: a stone slid away and back by two Moves pays again (an ability
 *   square it returns to does not work again).
 * - Pending abilities may be used in any order; `skip-ability` declines all of them at once (one
 *   tap), and a declined ability square has worked for the turn.
 * - An isolated stone whose halves allow one colour only (a double) gives it at once; otherwise
 *   the player chooses (a yellow half: any colour).
 * - A player out with 13 is refused with `out`; outcome scores are everyone's current scores,
 *   out seats included.
 * - Legal moves list each distinct move once; apply also accepts a stone with equal halves going
 *   `left`/`up` (played as the listed spelling, so either spelling gives the same state) and flips
 *   in any order (`canonicalMove` gives the listed spelling). Duplicate colours in a flip are a
 *   bad move.
 * - Checks run in this order, so each refusal has one code: game-over, not-a-player, bad-move;
 *   flip-first / already-chosen during the flip step; out, not-your-turn, wrong-step; then the
 *   move's own rules: place: not-available (also for a covered card, before anything that would
 *   depend on its colours), off-board, occupied, run-of-five; talisman: talisman-second-turn,
 *   talisman-after-talisman, no-talisman-left, colour-taken; discard: stone-fits, not-available;
 *   move/rotate: no-such-ability, not-on-board, new-stone, off-board / not-adjacent, same-place,
 *   occupied, run-of-five; isolate: bad-colour. Setup: bad-setup.
 * - Timer keys: `flip` (one per choosing player), `turn:<n>` (none for a forfeited seat). The turn
 *   number n starts at 0 and grows by one per turn, second turns included.
 * - The autopilot (autopilot.ts) is a one-step greedy player: it flips nothing, values each legal
 *   move by the score its sure crystals bring (never going out with 13 if it can help it, +1.5 for
 *   a second turn) and breaks ties with the generator it is given.
 * - The view shows everything but face-down stones and secret flips; `lastTurn.text` is the
 *   one-line record of the last turn, `thisTurn` the running turn's so far.
 */
export const crystallia: Engine<CrystalliaState, CrystalliaMove, CrystalliaView, CrystalliaOptions> = {
  id: GAME,
  name: TITLE,
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
  out: (state) => state.forfeits.slice(),
  autopilot,
};

/** Recomputes a game from its seed, seating, options and log. Pure; throws the RuleError of the first illegal entry. */
export function replay(seed: string, players: PlayerId[], options: Partial<CrystalliaOptions> | undefined, entries: readonly CrystalliaLogEntry[]): CrystalliaState {
  return replayWith(crystallia, seed, players, optionsSchema.parse(options ?? {}), entries).at(-1)!;
}

export { anyStoneFits, availableStones };
