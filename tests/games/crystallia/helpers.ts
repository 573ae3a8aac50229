import {
  BOARD_COLS,
  COLOURS,
  crystallia,
  stateSchema,
  STONES,
  type Colour,
  type CrystalliaEvent,
  type CrystalliaMove,
  type CrystalliaState,
  type Direction,
  type Half,
  type SquareKind,
} from '../../../src/games/crystallia/engine/index.ts';

import { expectRuleError as expectAnyRuleError } from '../../helpers/engine.ts';

export { prng } from '../../helpers/engine.ts';

export const SEED = 'c0'.repeat(32);
export const TWO = ['alice', 'bob'] as const;
export const THREE = ['alice', 'bob', 'carol'] as const;
export const FOUR = ['alice', 'bob', 'carol', 'dave'] as const;

/** A square from its name: row letter A-F, column 1-9 (A1 top left, A9 top right). */
export function sq(name: string): number {
  const row = name.charCodeAt(0) - 65;
  const col = Number(name.slice(1)) - 1;
  if (col < 0 || col >= 9 || row < 0 || row >= 6) throw new Error(`bad square ${name}`);
  return row * BOARD_COLS + col;
}

const HALF: Record<string, Half> = { r: 'red', b: 'blue', g: 'green', p: 'purple', y: 'yellow' };
const SQUARE: Record<string, SquareKind> = { r: 'red', b: 'blue', g: 'green', p: 'purple', M: 'move', E: 'extra-turn', T: 'rotate' };

/** Halves from two letters: `rb` is red/blue, `yy` a wild. */
export function halves(spec: string): [Half, Half] {
  const a = HALF[spec[0]!];
  const b = HALF[spec[1]!];
  if (!a || !b || spec.length !== 2) throw new Error(`bad stone ${spec}`);
  return [a, b];
}

/** A board in which every square shows `fill` (purple by default), with some squares set by name: `{ C3: 'M', C4: 'r' }`. */
export function boardOf(fill: string = 'p', set: Record<string, string> = {}): SquareKind[] {
  const out = new Array<SquareKind>(54).fill(SQUARE[fill]!);
  for (const [name, k] of Object.entries(set)) {
    const kind = SQUARE[k];
    if (!kind) throw new Error(`bad square kind ${k}`);
    out[sq(name)] = kind;
  }
  return out;
}

const zero = () => ({ red: 0, blue: 0, green: 0, purple: 0 });

export interface Position {
  players?: readonly string[];
  advanced?: boolean;
  /** Squares of the board (default: all purple). */
  squares?: SquareKind[];
  /** Stones on the board: [halves, square of the first half, direction of the second]. Ids 0, 1, ... in this order. */
  placed?: Array<[string, string, Direction]>;
  /** Available stones, left to right in the bottom row of the pyramid; ids follow the placed ones. */
  pyramid?: string[];
  /** Face-down stones in the middle row above the available ones (at most as many), ids after those. */
  hidden?: string[];
  crystals?: Record<string, Partial<Record<Colour, number>>>;
  blacks?: Record<string, Partial<Record<Colour, number>>>;
  flipped?: Record<string, Colour[]>;
  supply?: Partial<Record<Colour, number>>;
  supercrystals?: Partial<Record<Colour, string>>;
  talismans?: Array<{ player: string; colour: Colour }>;
  lastTalisman?: boolean;
  eliminated?: string[];
  forfeits?: string[];
  /** The running turn: player (default the first), number (default 5), second (default false). */
  turn?: { player?: string; number?: number; second?: boolean };
}

/**
 * Builds a running state at the start of a turn. Stones not placed, available or hidden are
 * listed as discarded (they are out of play); the supply is 20 per colour minus what the players
 * hold unless given.
 */
export function position(p: Position = {}): CrystalliaState {
  const players = (p.players ?? TWO).slice();
  const stones: Array<[Half, Half]> = STONES.map((h) => [h[0], h[1]]);
  const positions: CrystalliaState['positions'] = STONES.map(() => null);
  let id = 0;
  for (const [spec, at, dir] of p.placed ?? []) {
    stones[id] = halves(spec);
    const a = sq(at);
    const other = dir === 'right' ? a + 1 : dir === 'left' ? a - 1 : dir === 'down' ? a + 9 : a - 9;
    positions[id] = [a, other];
    id++;
  }
  const bottom: Array<number | null> = new Array(9).fill(null);
  const middle: Array<number | null> = new Array(8).fill(null);
  const avail = p.pyramid ?? ['rb', 'gp', 'rg'];
  avail.forEach((spec, i) => {
    stones[id] = halves(spec);
    bottom[i] = id++;
  });
  const hidden = p.hidden ?? [];
  if (hidden.length > avail.length) throw new Error('hidden stones must sit above available ones');
  hidden.forEach((spec, i) => {
    stones[id] = halves(spec);
    middle[i] = id++;
  });
  const discarded: number[] = [];
  for (; id < STONES.length; id++) discarded.push(id);
  const platforms: CrystalliaState['platforms'] = {};
  for (const pl of players) {
    const flipped = { red: false, blue: false, green: false, purple: false };
    for (const c of p.flipped?.[pl] ?? []) flipped[c] = true;
    platforms[pl] = { crystals: { ...zero(), ...(p.crystals?.[pl] ?? {}) }, blacks: { ...zero(), ...(p.blacks?.[pl] ?? {}) }, flipped };
  }
  const held = (c: Colour) => players.reduce((a, pl) => a + platforms[pl]!.crystals[c], 0);
  const supply = { red: 20 - held('red'), blue: 20 - held('blue'), green: 20 - held('green'), purple: 20 - held('purple'), ...(p.supply ?? {}) };
  const player = p.turn?.player ?? players[0]!;
  const number = p.turn?.number ?? 5;
  const second = p.turn?.second ?? false;
  const s: CrystalliaState = {
    players,
    advanced: p.advanced ?? false,
    tiles: ['C1', 'C2', 'C3', 'R1', 'R2', 'R3'].map((tid) => ({ id: tid, rotation: 0 })),
    squares: p.squares ?? boardOf(),
    stones,
    positions,
    pyramid: [new Array(7).fill(null), middle, bottom],
    discarded,
    supply,
    platforms,
    supercrystals: { red: null, blue: null, green: null, purple: null, ...(p.supercrystals ?? {}) },
    talismans: p.talismans ?? [],
    lastTalisman: p.lastTalisman ?? false,
    flips: null,
    turn: { player, number, steps: 0, second, step: 'take', stone: null, pending: [], used: [], extra: false, run4: false, gained: 0, runsBefore: [], choices: null },
    eliminated: p.eliminated ?? [],
    forfeits: p.forfeits ?? [],
    log: { current: { player, number, second, events: [] }, last: null },
    rng: { seed: SEED, n: 40 },
    outcome: null,
  };
  return stateSchema.parse(s);
}

/** The id of the available stone at bottom-row slot `i` of a `position`. */
export const avail = (s: CrystalliaState, i = 0): number => s.pyramid[2][i]!;

export function place(stone: number, at: string, dir: Direction = 'right'): CrystalliaMove {
  return { type: 'place', stone, square: sq(at), dir };
}

/** Applies moves in order for whoever is to move, checking every state against the schema. */
export function play(state: CrystalliaState, ...moves: CrystalliaMove[]): CrystalliaState {
  let s = state;
  for (const m of moves) {
    const actor = crystallia.awaiting(s)[0];
    if (actor === undefined) throw new Error('nobody is awaited');
    s = crystallia.apply(s, actor, m);
    const parsed = stateSchema.safeParse(JSON.parse(JSON.stringify(s)));
    if (!parsed.success) throw new Error(parsed.error.message);
  }
  return s;
}

/** The events of the turn just finished (or of the running one if it has not finished). */
export function events(s: CrystalliaState): CrystalliaEvent[] {
  return (s.log.current?.events.length ? s.log.current : s.log.last)?.events ?? [];
}

/** The crystals gained in the last turn, in order, as `+red(run)` / `black(bonus)` strings. */
export function gains(s: CrystalliaState, log: 'last' | 'current' = 'last'): string[] {
  const evs = (log === 'last' ? s.log.last : s.log.current)?.events ?? [];
  return evs.flatMap((e) => (e.kind === 'gain' ? [`+${e.colour}(${e.why})`] : e.kind === 'black' ? [`black(${e.why})`] : []));
}

export function crystalsOf(s: CrystalliaState, player: string): Record<Colour, number> {
  return { ...s.platforms[player]!.crystals };
}

export function totalBlacks(s: CrystalliaState, player: string): number {
  return COLOURS.reduce((a, c) => a + s.platforms[player]!.blacks[c], 0);
}

/** `fn` throws the RuleError `crystallia/<code>`, with a message. */
export function expectRuleError(fn: () => unknown, code: string): void {
  expectAnyRuleError(fn, `crystallia/${code}`);
}

export const hexSeed = (n: number): string => n.toString(16).padStart(8, '0').repeat(8);
