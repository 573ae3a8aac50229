import fc from 'fast-check';
import { describe, it } from 'vitest';
import { check } from '../../helpers/check.ts';
import { buildGrid, longestRun } from '../../../src/games/crystallia/engine/board.ts';
import {
  canonicalMove,
  COLOURS,
  crystallia,
  neighbour,
  replay,
  scoreBreakdown,
  stateSchema,
  type CrystalliaLogEntry,
  type CrystalliaState,
} from '../../../src/games/crystallia/engine/index.ts';
// deepFreeze: an engine function that writes into its input then throws (ES modules are strict).
import { deepFreeze } from '../../helpers/engine.ts';

/** Far above any real game (24 stones, 3 talismans, a few ability steps each); reaching it fails the test. */
const MAX_STEPS = 400;

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
const gameArb = fc.record({
  seed: seedArb,
  players: fc.integer({ min: 2, max: 4 }),
  advanced: fc.boolean(),
  picks: fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
  forfeitAt: fc.option(fc.integer({ min: 0, max: 80 }), { nil: undefined }),
});

/**
 * What must hold in every state of every game: the broken invariants, as text (empty when all
 * hold). Plain checks, collected per game: thousands of `expect` calls per game cost more than
 * the games themselves.
 */
function broken(s: CrystalliaState, prev: CrystalliaState | null): string[] {
  const out: string[] = [];
  // Crystals are conserved between the supply and the players.
  for (const c of COLOURS) {
    const total = s.supply[c] + s.players.reduce((a, p) => a + s.platforms[p]!.crystals[c], 0);
    if (total !== 20) out.push(`${total} ${c} crystals`);
  }
  // The board never holds a run of 5 or more.
  const longest = longestRun(buildGrid(s.positions, s.stones).half);
  if (longest > 4) out.push(`a run of ${longest}`);
  for (const p of s.players) {
    const pl = s.platforms[p]!;
    for (const c of COLOURS) {
      if (pl.flipped[c] && pl.crystals[c] > 5) out.push(`${p}: ${pl.crystals[c]} ${c} on a flipped platform`);
      if (!pl.flipped[c] && !s.eliminated.includes(p) && pl.crystals[c] >= 13) out.push(`${p}: ${pl.crystals[c]} ${c} and still in`);
      // Black crystals are never removed.
      if (prev && pl.blacks[c] < prev.platforms[p]!.blacks[c]) out.push(`${p}: a black crystal removed`);
    }
    if (s.eliminated.includes(p) && !COLOURS.some((c) => pl.crystals[c] === 13)) out.push(`${p} out without 13`);
  }
  // A supercrystal, once taken, stays.
  if (prev) for (const c of COLOURS) if (prev.supercrystals[c] !== null && s.supercrystals[c] !== prev.supercrystals[c]) out.push(`${c} supercrystal changed hands`);
  // The view shows the scores scoring gives, and no face-down stone.
  const v = crystallia.view(s, null);
  for (const seat of v.seats) {
    const expected = scoreBreakdown(s.platforms[seat.player]!, COLOURS.filter((c) => s.supercrystals[c] === seat.player)).total;
    if (seat.score.total !== expected) out.push(`${seat.player}: view score ${seat.score.total}, expected ${expected}`);
  }
  for (const row of v.pyramid) for (const card of row) if (card && !card.faceUp && Object.keys(card).join() !== 'faceUp') out.push('a face-down card shows more than its back');
  return out;
}

function playRandom(g: { seed: string; players: number; advanced: boolean; picks: number[]; forfeitAt: number | undefined }) {
  const players = Array.from({ length: g.players }, (_, i) => `seat${i}`);
  let s = crystallia.setup({ seed: g.seed, players, options: { advanced: g.advanced } });
  const problems = broken(s, null);
  const log: CrystalliaLogEntry[] = [];
  const turnPlayers: string[] = [];
  let lastTurn = -1;
  let step = 0;
  for (; step < MAX_STEPS && !s.outcome; step++) {
    if (step === g.forfeitAt) {
      const p = s.players[g.picks[0]! % s.players.length]!;
      if (!s.forfeits.includes(p)) {
        s = crystallia.forfeit(s, p);
        log.push({ actor: p, forfeit: true });
        problems.push(...broken(s, null));
        continue;
      }
    }
    // Purity: nothing below may write into the state it is given.
    deepFreeze(s);
    crystallia.timers(s);
    crystallia.view(s, s.players[step % s.players.length]!);
    const awaiting = crystallia.awaiting(s);
    const actor = awaiting[g.picks[step % 64]! % awaiting.length]!;
    const moves = crystallia.legalMoves(s, actor);
    if (moves.length === 0) problems.push(`${actor} is awaited without a legal move`);
    const move = moves[(g.picks[(step * 7 + 3) % 64]! + step) % moves.length]!;
    const next = crystallia.apply(s, actor, move);
    problems.push(...broken(next, s).map((x) => `after ${JSON.stringify(move)}: ${x}`));
    s = next;
    log.push({ actor, move });
    if (s.turn && s.turn.number !== lastTurn) {
      lastTurn = s.turn.number;
      turnPlayers.push(s.turn.player);
    }
  }
  return { s, log, players, turnPlayers, step, problems };
}

describe('Crystallia random games through legalMoves', () => {
  it('conserve crystals, never hold a run of 5, give nobody three turns in a row, never write into their input, always end, and replay exactly', () => {
    const reasons = new Set<string>();
    fc.assert(
      fc.property(gameArb, (g) => {
        const { s, log, players, turnPlayers, problems } = playRandom(g);
        check(problems).toEqual([]);
        check(s.outcome, 'the game ended').not.toBeNull();
        check(stateSchema.safeParse(JSON.parse(JSON.stringify(s))).success).toBe(true);
        reasons.add(s.outcome!.reason);
        let run = 1;
        for (let i = 1; i < turnPlayers.length; i++) {
          run = turnPlayers[i] === turnPlayers[i - 1] ? run + 1 : 1;
          check(run).toBeLessThanOrEqual(2);
        }
        check(replay(g.seed, players, { advanced: g.advanced }, log)).toEqual(s);
        // The game ended because the pyramid is empty, or because at most one player was left standing.
        const standing = s.players.filter((p) => !s.eliminated.includes(p) && !s.forfeits.includes(p));
        if (s.outcome!.reason === 'pyramid-empty') check(s.pyramid.flat().every((x) => x === null)).toBe(true);
        else check(standing.length).toBe(1);
        check(s.outcome!.winners.every((w) => standing.includes(w))).toBe(true);
      }),
      { numRuns: 50, seed: 20261123 },
    );
    check(reasons.has('pyramid-empty')).toBe(true);
  });
});

describe('a double written either way (issue 24)', () => {
  const DIRS = { right: 'left', down: 'up' } as const;
  it('over random positions, every listed placement of a double and its other spelling give the same state, and only one spelling is listed', () => {
    let doublesChecked = 0;
    let wildsChecked = 0;
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 2, max: 4 }), fc.integer({ min: 0, max: 120 }), fc.array(fc.nat(), { minLength: 64, maxLength: 64 }), (seed, n, stop, picks) => {
        const players = Array.from({ length: n }, (_, i) => `seat${i}`);
        let s = crystallia.setup({ seed, players, options: { advanced: false } });
        // A random position: random legal moves, then the next start of a turn from `stop` steps on.
        for (let step = 0; !s.outcome && (step < stop || s.turn?.step !== 'take'); step++) {
          const actor = crystallia.awaiting(s)[0]!;
          const moves = crystallia.legalMoves(s, actor);
          s = crystallia.apply(s, actor, moves[(picks[step % 64]! + step) % moves.length]!);
        }
        if (s.outcome) return;
        const actor = s.turn!.player;
        const listed = crystallia.legalMoves(s, actor).filter((m) => m.type === 'place');
        for (const m of listed) {
          if (m.type !== 'place') continue;
          const [a, b] = s.stones[m.stone]!;
          if (a !== b) continue;
          // legalMoves lists a double only going right or down.
          check(m.dir === 'right' || m.dir === 'down').toBe(true);
          const other = neighbour(m.square, m.dir);
          const spelled = { type: 'place' as const, stone: m.stone, square: other, dir: DIRS[m.dir as 'right' | 'down'] };
          check(listed.some((x) => x.type === 'place' && x.stone === spelled.stone && x.square === spelled.square && x.dir === spelled.dir)).toBe(false);
          check(canonicalMove(s, spelled)).toEqual(m);
          const one = crystallia.apply(s, actor, m);
          const two = crystallia.apply(s, actor, spelled);
          check(two).toEqual(one);
          // The first half is on the left or upper square.
          check(one.positions[m.stone]).toEqual([Math.min(m.square, other), Math.max(m.square, other)]);
          doublesChecked++;
          if (a === 'yellow') wildsChecked++;
        }
      }),
      { numRuns: 60, seed: 20261127 },
    );
    check(doublesChecked).toBeGreaterThan(100);
    check(wildsChecked).toBeGreaterThan(10);
  });

});
