// Krellstones engine time: a 4-player, 17-round game with rerolls and sideboards, played to its
// end by a seeded driver as the bot would drive it (SYSTEM timers fire the rolls; each player makes
// one secret selection and readies, yells when a Pup comes, and sometimes swaps between rounds).
// Only engine calls are timed: setup and apply, plus the calls a service makes around every move
// (timers, awaiting, one view). `npx tsx bench/krellstones.ts` prints the figures.
import { fileURLToPath } from 'node:url';
import { starterKit, newStone } from '../src/games/krellstones/collection.ts';
import { krellstones, type KrellstonesMove, type KrellstonesState } from '../src/games/krellstones/engine/index.ts';
import { nextInt, rngFromSeed, SYSTEM, type RngState } from '../src/kernel/index.ts';

const PLAYERS = ['100000000000000001', '100000000000000002', '100000000000000003', '100000000000000004'];

export interface KrellstonesGameTime {
  /** Median engine time of one game (setup, every apply, and timers/awaiting/view after each). */
  ms: number;
  /** Of which setup and apply alone. */
  applyMs: number;
  /** Engine calls (moves and timer firings) per game, median. */
  moves: number;
  /** Engine time per move, from the medians. */
  msPerMove: number;
  games: number;
}

function seedOf(i: number): string {
  return (i + 1).toString(16).padStart(64, '0');
}

/** One seeded game; returns its engine time and number of moves. */
function oneGame(i: number): { ms: number; applyMs: number; moves: number } {
  // Every player's stones come from the collection's own generator: a starter kit, and a sideboard
  // of a Krell and a Dancer.
  let r: RngState = rngFromSeed(seedOf(1000 + i));
  const playerData: Record<string, unknown> = {};
  for (const p of PLAYERS) {
    const [kit, r1] = starterKit(r);
    const [k, r2] = newStone('krell', r1);
    const [d, r3] = newStone('dancer', r2);
    r = r3;
    playerData[p] = {
      stones: kit.stones.map((s, n) => ({ id: `${p}-${n}`, ...s })),
      sideboard: [
        { id: `${p}-sb1`, ...k },
        { id: `${p}-sb2`, ...d },
      ],
    };
  }
  const pick = (n: number) => {
    const [v, next] = nextInt(r, n);
    r = next;
    return v;
  };
  let ms = 0;
  let applyMs = 0;
  let t = performance.now();
  let s: KrellstonesState = krellstones.setup({ players: PLAYERS, seed: seedOf(i), options: { rounds: 17, rerolls: true, sideboard: 2, pace: 'FAST' }, playerData });
  applyMs += performance.now() - t;
  let moves = 0;
  const selected = new Set<string>();
  while (s.outcome === null) {
    t = performance.now();
    const timers = krellstones.timers(s);
    const awaited = krellstones.awaiting(s);
    const lists = awaited.map((p) => [p, krellstones.legalMoves(s, p)] as const);
    ms += performance.now() - t;
    let actor = SYSTEM;
    let move: KrellstonesMove | undefined;
    for (const [p, list] of lists) {
      const key = `${s.round}:${s.phase}:${p}`;
      const yell = list.find((m) => m.type === 'yell');
      if (yell && pick(4) > 0) [actor, move] = [p, yell];
      else if (list.some((m) => m.type === 'select') && !selected.has(key)) {
        const selects = list.filter((m) => m.type === 'select');
        [actor, move] = [p, selects[pick(selects.length)]!];
        selected.add(key);
      } else if (list.some((m) => m.type === 'swap') && !selected.has(key) && pick(3) === 0) {
        const swaps = list.filter((m) => m.type === 'swap');
        [actor, move] = [p, swaps[pick(swaps.length)]!];
        selected.add(key);
      } else if (list.some((m) => m.type === 'ready')) [actor, move] = [p, { type: 'ready' }];
      if (move) break;
    }
    if (!move) {
      // Nothing to choose: the next timer fires (a roll step, the end of the rolling phase, or a window closing).
      const timer = timers.find((x) => x.player === undefined) ?? timers[0]!;
      if (timer.onExpiry.type !== 'move') throw new Error('bench: krellstones timers carry moves');
      actor = timer.player ?? SYSTEM;
      move = timer.onExpiry.move;
    }
    t = performance.now();
    s = krellstones.apply(s, actor, move);
    const dt = performance.now() - t;
    applyMs += dt;
    t = performance.now();
    krellstones.timers(s);
    krellstones.awaiting(s);
    krellstones.view(s, null);
    ms += dt + performance.now() - t;
    moves++;
  }
  if (s.outcome.reason !== 'rounds' || s.history.length !== 17) throw new Error('bench: the game did not run its 17 rounds');
  return { ms, applyMs, moves };
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The engine time of a 4-player 17-round game (median of `games` seeded games, after one warm-up game). */
export function krellstonesGameTime(games = 9): KrellstonesGameTime {
  oneGame(999);
  const runs = Array.from({ length: games }, (_, i) => oneGame(i));
  const ms = median(runs.map((x) => x.ms));
  const moves = median(runs.map((x) => x.moves));
  return { ms, applyMs: median(runs.map((x) => x.applyMs)), moves, msPerMove: ms / moves, games };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const g = krellstonesGameTime();
  console.log(`Krellstones, 4 players, 17 rounds, rerolls and sideboards: ${g.ms.toFixed(1)} ms of engine time per game (setup and apply ${g.applyMs.toFixed(1)} ms), ${g.moves} moves, ${(g.msPerMove * 1000).toFixed(0)} µs per move (median of ${g.games} games)`);
}
