import { nextInt, type RngState } from '../../../kernel/rng.ts';
import type { PlayerId } from '../../../kernel/types.ts';
import { buildGrid, colourIndex, halfIndex, isIsolated, lift, neighbour, payingRuns, put, runSpan, YELLOW, type Grid } from './board.ts';
import { COLOURS, PLATFORM, RUNS, SCORING } from './data.ts';
import { platformsOf } from './rules.ts';
import type { CrystalliaMove, CrystalliaState } from './schema.ts';

/**
 * The Crystallia autopilot: a one-step greedy player. Every legal move is valued by the change of
 * the player's own score from the crystals it takes for sure (the covered squares, then the best
 * isolation crystal or the runs; a Move or Rotate also by what it changes in the new stone's runs
 * and isolation), going out with 13 counting -1000; a second turn earned is worth +1.5. It never
 * looks at face-down stones. Ties are broken by the generator it is given, so it is deterministic.
 * Against a player choosing uniformly among the legal moves it wins most two-player games
 * (bench/crystallia.ts prints the figure).
 */

const SECOND_TURN_VALUE = 1.5;
const OUT = -1000;

/** The player's platforms and the supplies, as numbers by colour index, for fast scoring of gains. */
interface Ctx {
  crystals: number[];
  flipped: boolean[];
  supply: number[];
  /** The colour's supercrystal is still to be taken. */
  free: boolean[];
  /** Crystals already taken this turn (for the 6-or-more black). */
  gainedBefore: number;
}

function context(s: CrystalliaState, player: PlayerId): Ctx {
  const pl = platformsOf(s, player);
  return {
    crystals: COLOURS.map((c) => pl.crystals[c]),
    flipped: COLOURS.map((c) => pl.flipped[c]),
    supply: COLOURS.map((c) => s.supply[c]),
    free: COLOURS.map((c) => s.supercrystals[c] === null),
    gainedBefore: s.turn?.gained ?? 0,
  };
}

/** Points of `n` crystals on one platform. */
const platformPoints = (n: number, flipped: boolean): number =>
  flipped ? n * SCORING.advancedPerCrystal : Math.min(n, PLATFORM.regularScoringLimit) * SCORING.regularPerCrystal + Math.max(0, n - PLATFORM.regularScoringLimit) * SCORING.regularPerCrystalBeyond;

/**
 * The change of score from taking `counts[c]` crystals of each colour this turn. Exact: each
 * colour has its own supply, platform and thresholds, so the order of the crystals changes only
 * what follows going out with 13, which is OUT anyway.
 */
function gainValue(ctx: Ctx, counts: readonly number[]): number {
  let value = 0;
  let total = 0;
  for (let c = 0; c < 4; c++) {
    const k = counts[c]!;
    if (k === 0) continue;
    total += k;
    const taken = Math.min(k, ctx.supply[c]!);
    value += (k - taken) * SCORING.black;
    const n0 = ctx.crystals[c]!;
    const flipped = ctx.flipped[c]!;
    if (!flipped) {
      const n1 = n0 + taken;
      if (n1 >= PLATFORM.loseAt) return OUT;
      if (ctx.free[c] && n0 < SCORING.supercrystalRegular && n1 >= SCORING.supercrystalRegular) value += SCORING.supercrystal;
      value += platformPoints(n1, false) - platformPoints(n0, false);
    } else {
      let n = n0;
      let got = false;
      for (let i = 0; i < taken; i++) {
        n++;
        if (n === SCORING.supercrystalAdvanced && ctx.free[c]) got = true;
        if (n > PLATFORM.advancedSpaces) {
          n = 0;
          value += SCORING.black;
        }
      }
      if (got) value += SCORING.supercrystal;
      value += platformPoints(n, true) - platformPoints(n0, true);
    }
  }
  if (ctx.gainedBefore < SCORING.bonusBlackAt && ctx.gainedBefore + total >= SCORING.bonusBlackAt) value += SCORING.black;
  return value;
}

const counts = [0, 0, 0, 0];

/**
 * The value of the new stone on `pos` (halves `a`, `b`) with the board as in `g`: its squares'
 * crystals plus `extra` (crystals already counted, e.g. squares a Move covered), then the best
 * isolation colour or its runs.
 */
function stoneValue(s: CrystalliaState, ctx: Ctx, g: Grid, a: number, b: number, pos: readonly [number, number], extra: readonly number[] = [0, 0, 0, 0]): number {
  for (let c = 0; c < 4; c++) counts[c] = extra[c]!;
  for (const sq of pos) {
    const k = colourIndex(s.squares[sq] as never);
    if (k >= 0) counts[k]! += 1;
  }
  if (isIsolated(g.owner, pos)) {
    let best = -Infinity;
    for (let c = 0; c < 4; c++) {
      if (a !== c && b !== c && a !== YELLOW && b !== YELLOW) continue;
      counts[c]! += 1;
      best = Math.max(best, gainValue(ctx, counts));
      counts[c]! -= 1;
    }
    return best;
  }
  for (const run of payingRuns(g, pos)) counts[colourIndex(run.colour)]! += run.pays;
  return gainValue(ctx, counts);
}

/** True when a half on `sq` makes a run of exactly 4 (a new one: it runs through a square just filled). */
function makesFour(g: Grid, sq: number): boolean {
  const h = g.half[sq]!;
  for (let c = 0; c < 4; c++) {
    if (h !== c && h !== YELLOW) continue;
    if (runSpan(g.half, sq, c, true)[1] === RUNS.secondTurnRun || runSpan(g.half, sq, c, false)[1] === RUNS.secondTurnRun) return true;
  }
  return false;
}

export function chooseMove(s: CrystalliaState, player: PlayerId, legal: CrystalliaMove[], rng: RngState): CrystalliaMove {
  if (legal.length === 0) throw new Error('the Crystallia autopilot was asked to move, but there is no legal move');
  if (legal[0]!.type === 'flip') return legal.find((m) => m.type === 'flip' && m.platforms.length === 0) ?? legal[0]!;
  const t = s.turn!;
  const ctx = context(s, player);
  const g = buildGrid(s.positions, s.stones);
  const one = (c: number) => [0, 1, 2, 3].map((i) => (i === c ? 1 : 0));
  const values = legal.map((m): number => {
    switch (m.type) {
      case 'place': {
        const a = halfIndex(s.stones[m.stone]![0]);
        const b = halfIndex(s.stones[m.stone]![1]);
        const pos: [number, number] = [m.square, neighbour(m.square, m.dir)];
        put(g, m.stone, [a, b], pos);
        const value = stoneValue(s, ctx, g, a, b, pos);
        const second = !t.second && (makesFour(g, pos[0]) || makesFour(g, pos[1]) || (t.number > 0 && pos.some((q) => s.squares[q] === 'extra-turn')));
        lift(g, pos);
        return value === OUT ? OUT : value + (second ? SECOND_TURN_VALUE : 0);
      }
      case 'talisman':
        return gainValue(ctx, one(colourIndex(m.colour)));
      case 'isolate':
        return gainValue(ctx, one(colourIndex(m.colour)));
      case 'discard':
        return 0;
      case 'skip-ability':
      case 'move':
      case 'rotate': {
        const id = t.stone!;
        const pos = s.positions[id]!;
        const a = halfIndex(s.stones[id]![0]);
        const b = halfIndex(s.stones[id]![1]);
        if (m.type === 'skip-ability') return stoneValue(s, ctx, g, a, b, pos);
        const other = s.positions[m.stone]!;
        const oh: [number, number] = [halfIndex(s.stones[m.stone]![0]), halfIndex(s.stones[m.stone]![1])];
        const to: [number, number] = m.type === 'move' ? [m.to, m.to + (other[1] - other[0])] : m.pivot === 0 ? [other[0], m.to] : [m.to, other[1]];
        const fresh = [0, 0, 0, 0];
        for (const q of to) {
          const k = colourIndex(s.squares[q] as never);
          if (k >= 0 && !other.includes(q)) fresh[k]! += 1;
        }
        lift(g, other);
        put(g, m.stone, oh, to);
        const value = stoneValue(s, ctx, g, a, b, pos, fresh);
        lift(g, to);
        put(g, m.stone, oh, other);
        return value;
      }
      default:
        return 0;
    }
  });
  const top = Math.max(...values);
  const best = legal.filter((_, i) => values[i]! >= top - 1e-9);
  const [k] = nextInt(rng, best.length);
  return best[k]!;
}
