// Keystone engine figures: random self-play matches per second, and the autopilot's time per
// decision. Printed by `npm run bench` (bench/bench.ts); standalone: `npx tsx bench/keystone.ts [--quick]`.
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { autoPlacements, keystone, type KeystoneState } from '../src/games/keystone/engine/index.ts';
import { autopilotRng } from '../src/kernel/autopilot.ts';

const PLAYERS = [['100000000000000001', '100000000000000002', '100000000000000003'], ['100000000000000001', '100000000000000002', '100000000000000003', '100000000000000004']];

function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 48271) % 2147483647) / 2147483647;
}

const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export interface DecisionTimes {
  decisions: number;
  meanMs: number;
  p99Ms: number;
  maxMs: number;
}

export interface KeystoneFigures {
  /** Uniformly random legal moves (legalMoves, then apply) for every seat; `auto-place` is one of them. */
  random: { players: number; matchesPerSecond: number; movesPerSecond: number }[];
  /** Every seat played by the autopilot: its card choice, and its placement (the Auto-place rule). */
  autopilotPlay: DecisionTimes;
  autopilotPlace: DecisionTimes;
  /** The Auto-place rule on the tables of random players (many short lines: its hardest case). */
  autoPlaceOnRandomTables: DecisionTimes;
}

const summary = (xs: number[]): DecisionTimes => {
  const sorted = xs.slice().sort((a, b) => a - b);
  return { decisions: xs.length, meanMs: mean(xs), p99Ms: quantile(sorted, 0.99), maxMs: sorted.at(-1) ?? 0 };
};

export function keystoneBench(seconds = 2): KeystoneFigures {
  const r = lcg(12345);
  const random: KeystoneFigures['random'] = [];
  const onRandomTables: number[] = [];
  // Warm-up (the first second of a cold process runs several times slower), not measured.
  for (const warm = performance.now() + 1000; performance.now() < warm; ) {
    const players = PLAYERS[1]!;
    let s: KeystoneState = keystone.setup({ players, seed: randomBytes(32).toString('hex'), options: {} });
    while (s.outcome === null) {
      const listed = keystone.legalMoves(s, players[s.turn]!);
      s = keystone.apply(s, players[s.turn]!, listed[Math.floor(r() * listed.length)]!);
    }
  }
  for (const players of PLAYERS) {
    let matches = 0;
    let moves = 0;
    const started = performance.now();
    const until = started + (seconds * 1000) / 2;
    while (performance.now() < until) {
      let s: KeystoneState = keystone.setup({ players, seed: randomBytes(32).toString('hex'), options: {} });
      while (s.outcome === null) {
        const actor = players[s.turn]!;
        const listed = keystone.legalMoves(s, actor);
        s = keystone.apply(s, actor, listed[Math.floor(r() * listed.length)]!);
        moves++;
      }
      matches++;
    }
    const elapsed = (performance.now() - started) / 1000;
    random.push({ players: players.length, matchesPerSecond: matches / elapsed, movesPerSecond: moves / elapsed });
    // The Auto-place rule on states of random play (measured apart from the throughput above).
    for (let m = 0; m < 10; m++) {
      let s: KeystoneState = keystone.setup({ players, seed: randomBytes(32).toString('hex'), options: {} });
      while (s.outcome === null) {
        const actor = players[s.turn]!;
        if (s.phase === 'place') {
          const t = performance.now();
          autoPlacements(s.lines[s.turn]!, s.pending);
          onRandomTables.push(performance.now() - t);
        }
        const listed = keystone.legalMoves(s, actor).filter((x) => x.type !== 'auto-place');
        s = keystone.apply(s, actor, listed[Math.floor(r() * listed.length)]!);
      }
    }
  }

  const play: number[] = [];
  const place: number[] = [];
  const until = performance.now() + (seconds * 1000) / 2;
  for (let g = 0; performance.now() < until || g < 2; g++) {
    const players = PLAYERS[g % 2]!;
    const seed = randomBytes(32).toString('hex');
    let s: KeystoneState = keystone.setup({ players, seed, options: {} });
    for (let step = 0; s.outcome === null; step++) {
      const actor = players[s.turn]!;
      const t = performance.now();
      // A decision: the autopilot's move, and for a placement the Auto-place rule that carries it out.
      const move = keystone.autopilot!(s, actor, autopilotRng(seed, step));
      const next = keystone.apply(s, actor, move);
      (s.phase === 'place' ? place : play).push(performance.now() - t);
      s = next;
    }
  }
  return { random, autopilotPlay: summary(play), autopilotPlace: summary(place), autoPlaceOnRandomTables: summary(onRandomTables) };
}

export function printKeystoneBench(f: KeystoneFigures, out: (s: string) => void = console.log): void {
  const ms = (x: number) => `${x < 1 ? x.toFixed(3) : x.toFixed(1)} ms`;
  out('## Keystone: random self-play (one core)');
  out('| players | matches/s | moves/s |\n| ---: | ---: | ---: |');
  for (const r of f.random) out(`| ${r.players} | ${r.matchesPerSecond.toFixed(0)} | ${Math.round(r.movesPerSecond).toLocaleString('en')} |`);
  out('\n## Keystone: autopilot time per decision (move chosen and applied)');
  out('| decision | decisions | mean | p99 | max |\n| --- | ---: | ---: | ---: | ---: |');
  const row = (name: string, d: DecisionTimes) => out(`| ${name} | ${d.decisions} | ${ms(d.meanMs)} | ${ms(d.p99Ms)} | ${ms(d.maxMs)} |`);
  row('play a card', f.autopilotPlay);
  row('place won cards (Auto-place)', f.autopilotPlace);
  row('Auto-place on random players\' tables', f.autoPlaceOnRandomTables);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printKeystoneBench(keystoneBench(process.argv.includes('--quick') ? 1 : 4));
}
