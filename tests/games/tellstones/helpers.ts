import {
  SYMBOLS,
  tellstones,
  type LineIndex,
  type Slot,
  type TellstonesLogEntry,
  type TellstonesMove,
  type TellstonesOptions,
  type TellstonesState,
  type TellstonesSymbol,
  type TellstonesVariant,
} from '../../../src/games/tellstones/engine/index.ts';

import { deepFreeze, expectRuleError, hex, prng, SEED_A, SEED_B } from '../../helpers/engine.ts';

export { deepFreeze, expectRuleError, hex, prng, SEED_A, SEED_B };

/** Player ids chosen so that no id contains a symbol's name (the leak checks search JSON text). */
export const TWO = ['alice', 'bob'] as const;
export const FOUR = ['a1', 'b1', 'a2', 'b2'] as const;

/** A line from a compact spec: `'crown'` is face up, `'-crown'` face down. */
export function line(...spec: string[]): Slot[] {
  return spec.map((x) => {
    const faceUp = !x.startsWith('-');
    const symbol = (faceUp ? x : x.slice(1)) as TellstonesSymbol;
    if (!SYMBOLS.includes(symbol)) throw new Error(`bad symbol ${x}`);
    return { symbol, faceUp };
  });
}

/**
 * Builds a running state directly. Defaults: standard, alice and bob, alice to move, the line
 * `crown -shield sword` (pools are the complement of each line), no knowledge, no history.
 */
export function makeState(
  opts: {
    variant?: TellstonesVariant;
    seats?: readonly string[];
    lines?: string[][];
    points?: [number, number];
    turn?: string;
    turnNumber?: number;
    pending?: TellstonesState['pending'];
    recentTurns?: TellstonesState['recentTurns'];
    knowledge?: TellstonesState['knowledge'];
  } = {},
): TellstonesState {
  const variant = opts.variant ?? 'standard';
  const seats = (opts.seats ?? (variant === 'kings-circle' ? FOUR : TWO)).slice();
  const specs = opts.lines ?? (variant === 'fearless-vanguard' ? [['crown', '-shield', 'sword'], ['-flag', 'knight']] : [['crown', '-shield', 'sword']]);
  const lines = specs.map((l) => line(...l));
  return {
    variant,
    seats,
    lines,
    pools: lines.map((l) => SYMBOLS.filter((x) => !l.some((s) => s.symbol === x))),
    points: opts.points ?? [0, 0],
    turn: opts.turn ?? (seats[0] as string),
    turnNumber: opts.turnNumber ?? 4,
    pending: opts.pending ?? null,
    recentTurns: opts.recentTurns ?? [],
    knowledge: opts.knowledge ?? seats.map(() => []),
    log: [],
    rng: { seed: SEED_A, n: 2 },
    outcome: null,
  };
}

const pick = <T>(rnd: () => number, items: readonly T[]): T => {
  if (items.length === 0) throw new Error('pick from nothing');
  return items[Math.floor(rnd() * items.length)] as T;
};

const positions = (l: readonly Slot[], faceUp: boolean): number[] =>
  l.flatMap((s, i) => (s.faceUp === faceUp ? [i] : []));

/** Turns after which the generator only challenges or boasts (hiding first when nothing is face down). */
export const CALM_TURNS = 30;

/**
 * A random legal move for the awaited player, chosen from `view(state, actor).legal` and the state.
 * Policy: for the first CALM_TURNS turns, uniform over the legal action kinds, with boasts at half
 * weight, extra hides, and a peek of three half the time it is allowed; then only challenges,
 * boasts and peeks of three, so every game ends (each challenge scores a point, a side wins at 3,
 * and a peek of three is possible only within two turns of a point). Answers:
 * a challenge is named right half the time; a boast is believed, doubted or countered at random; a
 * proof names each stone right with probability `proveRight`.
 */
export function randomMove(state: TellstonesState, rnd: () => number, proveRight = 0.8): TellstonesLogEntry {
  const actor = tellstones.awaiting(state)[0];
  if (actor === undefined) throw new Error('nobody is awaited');
  const v = tellstones.view(state, actor);
  const vanguard = state.variant === 'fearless-vanguard';
  // Outside Vanguard the line may be omitted or given as 0.
  const withLine = <M extends object>(m: M, l: LineIndex): M & { line?: LineIndex } =>
    vanguard || rnd() < 0.3 ? { ...m, line: l } : m;
  const lineIdx = (pred: (l: Slot[]) => boolean): LineIndex =>
    pick(rnd, state.lines.flatMap((l, i) => (pred(l) ? [i as LineIndex] : [])));
  const p = state.pending;

  if (p?.kind === 'challenge') {
    const actual = state.lines[p.line]?.[p.position]?.symbol as TellstonesSymbol;
    return { actor, move: { type: 'answer-challenge', symbol: rnd() < 0.5 ? actual : pick(rnd, SYMBOLS) } };
  }
  if (p?.kind === 'boast') {
    const answers = p.countered ? (['believe', 'doubt'] as const) : (['believe', 'doubt', 'counter'] as const);
    return { actor, move: { type: 'answer-boast', answer: pick(rnd, answers) } };
  }
  if (p?.kind === 'proof') {
    const l = lineIdx((x) => x.some((s) => !s.faceUp));
    const position = pick(rnd, positions(lineOf(state, l), false));
    const actual = lineOf(state, l)[position]?.symbol as TellstonesSymbol;
    const symbol = rnd() < proveRight ? actual : pick(rnd, SYMBOLS);
    return { actor, move: withLine({ type: 'prove', position, symbol }, l) };
  }

  let kinds = v.legal.slice();
  if (state.turnNumber >= CALM_TURNS) {
    // A peek of three is allowed only within two turns of a point, so it cannot stall the game.
    const ending = kinds.filter((k) => k === 'challenge' || k === 'boast' || (k === 'peek' && v.peekLimit === 3));
    kinds = ending.length > 0 ? ending : ['hide'];
  } else if (kinds.includes('boast') && rnd() < 0.5) {
    kinds = kinds.filter((k) => k !== 'boast');
  }
  // Peeks of three are rare by chance (points come late): take the chance half the time. Extra
  // hides keep more stones face down, where hidden information lives.
  const kind =
    v.peekLimit === 3 && kinds.includes('peek') && rnd() < 0.5
      ? 'peek'
      : kinds.includes('hide') && rnd() < 0.25
        ? 'hide'
        : pick(rnd, kinds);
  let move: TellstonesMove;
  switch (kind) {
    case 'place': {
      const l = lineIdx((x) => x.length < 7);
      move = withLine({ type: 'place', symbol: pick(rnd, state.pools[l] ?? []), end: rnd() < 0.5 ? 'left' : 'right' }, l);
      break;
    }
    case 'hide': {
      const l = lineIdx((x) => x.some((s) => s.faceUp));
      move = withLine({ type: 'hide', position: pick(rnd, positions(lineOf(state, l), true)) }, l);
      break;
    }
    case 'swap': {
      const l = lineIdx((x) => x.length >= 2);
      const n = lineOf(state, l).length;
      const a = Math.floor(rnd() * n);
      const b = (a + 1 + Math.floor(rnd() * (n - 1))) % n;
      move = withLine({ type: 'swap', a, b }, l);
      break;
    }
    case 'peek': {
      const l = lineIdx((x) => x.some((s) => !s.faceUp));
      const down = positions(lineOf(state, l), false);
      const most = Math.min(v.peekLimit ?? 1, down.length);
      const count = rnd() < 0.6 ? most : 1 + Math.floor(rnd() * most);
      const chosen: number[] = [];
      while (chosen.length < count) {
        const q = pick(rnd, down);
        if (!chosen.includes(q)) chosen.push(q);
      }
      const partner = v.partner;
      const peek: TellstonesMove =
        partner !== null && rnd() < 0.4
          ? { type: 'peek', positions: chosen, shareWith: partner }
          : { type: 'peek', positions: chosen };
      move = withLine(peek, l);
      break;
    }
    case 'challenge': {
      const l = lineIdx((x) => x.some((s) => !s.faceUp));
      move = withLine({ type: 'challenge', position: pick(rnd, positions(lineOf(state, l), false)) }, l);
      break;
    }
    case 'boast':
      move = { type: 'boast' };
      break;
    default:
      throw new Error(`unexpected legal kind ${kind}`);
  }
  return { actor, move };
}

export function lineOf(state: TellstonesState, l: number): Slot[] {
  const x = state.lines[l];
  if (!x) throw new Error(`no line ${l}`);
  return x;
}

export const PLAYERS_FOR: Record<TellstonesVariant, readonly string[]> = {
  standard: TWO,
  'kings-circle': FOUR,
  'fearless-vanguard': TWO,
};

/**
 * Plays a random legal game from setup to the end (or `maxMoves`). With `forfeitAt`, a random seated
 * player forfeits before move number `forfeitAt`; with `freeze`, every state is deep-frozen before the
 * engine sees it. Calls `onStep` after every entry.
 */
export function playGame(
  seed: string,
  options: TellstonesOptions,
  rngSeed: number,
  onStep?: (before: TellstonesState, entry: TellstonesLogEntry, after: TellstonesState) => void,
  cfg: { maxMoves?: number; forfeitAt?: number; players?: readonly string[]; proveRight?: number; freeze?: boolean } = {},
): { state: TellstonesState; log: TellstonesLogEntry[]; states: TellstonesState[] } {
  const players = (cfg.players ?? PLAYERS_FOR[options.variant]).slice();
  const rnd = prng(rngSeed);
  let state = tellstones.setup({ seed, players, options });
  const log: TellstonesLogEntry[] = [];
  const states = [state];
  const maxMoves = cfg.maxMoves ?? 400;
  for (let i = 0; i < maxMoves && state.outcome === null; i++) {
    // A frozen input makes any mutation by the engine throw (ES modules run in strict mode).
    if (cfg.freeze) deepFreeze(state);
    let entry: TellstonesLogEntry;
    let next: TellstonesState;
    if (cfg.forfeitAt === i) {
      const quitter = pick(rnd, state.seats);
      entry = { actor: quitter, forfeit: true };
      next = tellstones.forfeit(state, quitter);
    } else {
      entry = randomMove(state, rnd, cfg.proveRight);
      if (!('move' in entry)) throw new Error('unreachable');
      next = tellstones.apply(state, entry.actor, entry.move);
    }
    onStep?.(state, entry, next);
    log.push(entry);
    states.push(next);
    state = next;
  }
  return { state, log, states };
}
