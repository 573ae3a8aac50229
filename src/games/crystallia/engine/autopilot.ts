import { nextInt, type RngState } from '../../../kernel/rng.ts';
import type { PlayerId } from '../../../kernel/types.ts';
import { buildGrid, halfIndex, isIsolated, lift, payingRuns, put, runSpan, type Grid } from './board.ts';
import { COLOURS, PLATFORM, RUNS, SCORING, type Colour, type Half } from './data.ts';
import { isolationChoices, platformsOf, supercrystalsOf } from './rules.ts';
import type { CrystalliaMove, CrystalliaState } from './schema.ts';
import { scoreBreakdown } from './scoring.ts';

/**
 * The Crystallia autopilot: a one-step greedy player. Every legal move is valued by the change of
 * the player's own score from the crystals it takes for sure (the covered squares, then the
 * isolation crystal or the runs; a Move or Rotate also by what it changes in the new stone's runs),
 * going out with 13 counting -1000; a second turn earned is worth +1.5. It never looks at
 * face-down stones. Ties are broken by the generator it is given, so it is deterministic.
 */

const SECOND_TURN_VALUE = 1.5;
const OUT = -1000;

/** The player's score after gaining `colours` in order (empty supplies, supercrystals, overflow, the 6+ black); OUT when 13 is reached. */
function scoreAfter(s: CrystalliaState, player: PlayerId, colours: readonly Colour[], gainedBefore: number): number {
  const pl = platformsOf(s, player);
  const crystals = { ...pl.crystals };
  let blacks = COLOURS.reduce((a, c) => a + pl.blacks[c], 0);
  const supply = { ...s.supply };
  const supers = { ...s.supercrystals };
  for (const c of colours) {
    if (supply[c] === 0) {
      blacks++;
      continue;
    }
    supply[c]--;
    crystals[c]++;
    const flipped = pl.flipped[c];
    if (crystals[c] === (flipped ? SCORING.supercrystalAdvanced : SCORING.supercrystalRegular) && supers[c] === null) supers[c] = player;
    if (flipped && crystals[c] > PLATFORM.advancedSpaces) {
      supply[c] += crystals[c];
      crystals[c] = 0;
      blacks++;
    }
    if (!flipped && crystals[c] >= PLATFORM.loseAt) return OUT;
  }
  if (gainedBefore + colours.length >= SCORING.bonusBlackAt) blacks++;
  const held = COLOURS.filter((c) => supers[c] === player);
  const zero = { red: 0, blue: 0, green: 0, purple: 0 };
  return scoreBreakdown({ crystals, blacks: { ...zero, red: blacks }, flipped: pl.flipped }, held).total;
}

/** The crystals the stone on `pos` takes from runs or isolation (best isolation colour first), given `grid`. */
function stoneColours(s: CrystalliaState, player: PlayerId, g: Grid, halves: readonly [Half, Half], pos: readonly [number, number], before: Colour[], gainedBefore: number): { colours: Colour[]; value: number } {
  const squares = pos.flatMap((sq) => {
    const k = s.squares[sq]!;
    return (COLOURS as readonly string[]).includes(k) ? [k as Colour] : [];
  });
  const base = [...before, ...squares];
  if (isIsolated(g.owner, pos)) {
    let best: { colours: Colour[]; value: number } | null = null;
    for (const c of isolationChoices(halves)) {
      const colours = [...base, c];
      const value = scoreAfter(s, player, colours, gainedBefore);
      if (!best || value > best.value) best = { colours, value };
    }
    return best!;
  }
  const colours = base.slice();
  for (const run of payingRuns(g, pos)) for (let k = 0; k < run.pays; k++) colours.push(run.colour);
  return { colours, value: scoreAfter(s, player, colours, gainedBefore) };
}

/** True when a half on `sq` makes a run of exactly 4 (a new one: it runs through a square just filled). */
function makesFour(g: Grid, sq: number): boolean {
  const h = g.half[sq]!;
  for (let c = 0; c < 4; c++) {
    if (h !== c && h !== 4) continue;
    if (runSpan(g.half, sq, c, true)[1] === RUNS.secondTurnRun || runSpan(g.half, sq, c, false)[1] === RUNS.secondTurnRun) return true;
  }
  return false;
}

function pickBest(moves: CrystalliaMove[], values: number[], rng: RngState): CrystalliaMove {
  const top = Math.max(...values);
  const best = moves.filter((_, i) => values[i]! >= top - 1e-9);
  const [k] = nextInt(rng, best.length);
  return best[k]!;
}

export function chooseMove(s: CrystalliaState, player: PlayerId, legal: CrystalliaMove[], rng: RngState): CrystalliaMove {
  if (legal.length === 0) throw new Error('the Crystallia autopilot was asked to move, but there is no legal move');
  if (legal[0]!.type === 'flip') return legal.find((m) => m.type === 'flip' && m.platforms.length === 0) ?? legal[0]!;
  const t = s.turn!;
  const now = scoreBreakdown(platformsOf(s, player), supercrystalsOf(s, player)).total;
  const g = buildGrid(s.positions, s.stones);
  const values = legal.map((m): number => {
    switch (m.type) {
      case 'place': {
        const halves = s.stones[m.stone]!;
        const a = halfIndex(halves[0]);
        const b = halfIndex(halves[1]);
        const s1 = m.dir === 'right' ? m.square + 1 : m.dir === 'left' ? m.square - 1 : m.dir === 'down' ? m.square + 9 : m.square - 9;
        put(g, m.stone, [a, b], [m.square, s1]);
        const { value } = stoneColours(s, player, g, halves, [m.square, s1], [], 0);
        const second = !t.second && (makesFour(g, m.square) || makesFour(g, s1) || (t.number > 0 && [m.square, s1].some((q) => s.squares[q] === 'extra-turn')));
        lift(g, [m.square, s1]);
        return value === OUT ? OUT : value - now + (second ? SECOND_TURN_VALUE : 0);
      }
      case 'talisman':
        return scoreAfter(s, player, [m.colour], 0) - now;
      case 'discard':
        return 0;
      case 'isolate':
        return scoreAfter(s, player, [m.colour], t.gained) - now;
      case 'skip-ability':
      case 'move':
      case 'rotate': {
        const id = t.stone!;
        const pos = s.positions[id]!;
        const halves = s.stones[id]!;
        if (m.type === 'skip-ability') {
          const r = stoneColours(s, player, g, halves, pos, [], t.gained);
          return r.value === OUT ? OUT : r.value - now;
        }
        const other = s.positions[m.stone]!;
        const oh: [number, number] = [halfIndex(s.stones[m.stone]![0]), halfIndex(s.stones[m.stone]![1])];
        let to: [number, number];
        if (m.type === 'move') to = [m.to, m.to + (other[1] - other[0])];
        else to = m.pivot === 0 ? [other[0], m.to] : [m.to, other[1]];
        const fresh = to.filter((q) => !other.includes(q) && (COLOURS as readonly string[]).includes(s.squares[q]!)).map((q) => s.squares[q] as Colour);
        lift(g, other);
        put(g, m.stone, oh, to);
        const r = stoneColours(s, player, g, halves, pos, fresh, t.gained);
        lift(g, to);
        put(g, m.stone, oh, other);
        return r.value === OUT ? OUT : r.value - now;
      }
      default:
        return 0;
    }
  });
  return pickBest(legal, values, rng);
}

