// Crystallia engine figures: random self-play throughput, `legalMoves` in full mid-game positions,
// the autopilot's decision time and its record against a uniformly random player.
// Run alone with `npx tsx bench/crystallia.ts [seconds]`; bench/bench.ts may import `crystalliaBench`.
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { crystallia, type CrystalliaMove, type CrystalliaState } from '../src/games/crystallia/engine/index.ts';
import { renderPicture } from '../src/games/crystallia/render.ts';
import { autopilotRng } from '../src/kernel/autopilot.ts';
import { summary } from './stats.ts';

export interface CrystalliaBench {
  /** Random self-play through `legalMoves` (2, 3 and 4 players in turn, Advanced Mode on every other game). */
  gamesPerSecond: number;
  movesPerSecond: number;
  /** `legalMoves` at the start of a turn with 12 stones on the board (every placement of every available stone). */
  takeStep: { moves: number; p50us: number; p99us: number };
  /** `legalMoves` in the ability step of the same kind of position, a Move pending (every slide of every placed stone). */
  abilityStep: { moves: number; p50us: number; p99us: number };
  /** One autopilot decision at the start of a mid-game turn. */
  autopilot: { p50us: number; p99us: number };
  /** Two-player games: the autopilot against a uniformly random player, seats alternating. */
  autopilotVsRandom: { games: number; wins: number; ties: number };
}

const seedOf = (n: number) => n.toString(16).padStart(8, '0').repeat(8);

/** A small deterministic generator for the random players. */
function lcg(seed: number): () => number {
  let x = seed % 2147483647 || 1;
  return () => (x = (x * 48271) % 2147483647) / 2147483647;
}

function randomMove(s: CrystalliaState, r: () => number): { actor: string; move: CrystalliaMove } {
  const awaiting = crystallia.awaiting(s);
  const actor = awaiting[Math.floor(r() * awaiting.length)]!;
  const moves = crystallia.legalMoves(s, actor);
  return { actor, move: moves[Math.floor(r() * moves.length)]! };
}

/** Plays random moves until `stones` stones lie on the board at the start of a turn (null if the game ends first). */
function midGame(seed: string, players: number, stones: number, r: () => number): CrystalliaState | null {
  let s = crystallia.setup({ seed, players: Array.from({ length: players }, (_, i) => `p${i}`), options: { advanced: false } });
  while (!s.outcome) {
    if (s.turn?.step === 'take' && s.positions.filter(Boolean).length >= stones) return s;
    const { actor, move } = randomMove(s, r);
    s = crystallia.apply(s, actor, move);
  }
  return null;
}

function timeIt(f: () => unknown, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    f();
    out.push((performance.now() - t) * 1000);
  }
  return out;
}

export function crystalliaBench(seconds = 2): CrystalliaBench {
  const r = lcg(12345);
  // Self-play.
  let games = 0;
  let moves = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) {
    const players = 2 + (games % 3);
    let s = crystallia.setup({ seed: seedOf(games + 1), players: Array.from({ length: players }, (_, i) => `p${i}`), options: { advanced: games % 2 === 1 } });
    while (!s.outcome) {
      const { actor, move } = randomMove(s, r);
      s = crystallia.apply(s, actor, move);
      moves++;
    }
    games++;
  }
  const elapsed = (performance.now() - started) / 1000;

  // Mid-game positions: 12 stones down, a turn starting; and the same with a Move just covered.
  const takeTimes: number[] = [];
  const abilityTimes: number[] = [];
  const autoTimes: number[] = [];
  let takeMoves = 0;
  let abilityMoves = 0;
  for (let k = 0; takeTimes.length < 400 && k < 200; k++) {
    const s = midGame(seedOf(1000 + k), 2 + (k % 3), 12, r);
    if (!s) continue;
    const p = s.turn!.player;
    const listed = crystallia.legalMoves(s, p);
    takeMoves = Math.max(takeMoves, listed.length);
    takeTimes.push(...timeIt(() => crystallia.legalMoves(s, p), 20));
    autoTimes.push(...timeIt(() => crystallia.autopilot!(s, p, autopilotRng(s.rng.seed, k)), 3));
    const covering = listed.find((m) => m.type === 'place' && s.squares[m.square] === 'move');
    if (!covering) continue;
    const a = crystallia.apply(s, p, covering);
    if (a.turn?.step !== 'ability') continue;
    abilityMoves = Math.max(abilityMoves, crystallia.legalMoves(a, p).length);
    abilityTimes.push(...timeIt(() => crystallia.legalMoves(a, p), 20));
  }

  // The autopilot against a random player.
  // Its own generator: the self-play above draws a time-dependent number of values.
  const rd = lcg(777);
  let wins = 0;
  let ties = 0;
  const duel = 100;
  for (let g = 0; g < duel; g++) {
    // Seats alternate: setup draws the first player from the seed, and the names swap every game.
    let s = crystallia.setup({ seed: seedOf(5000 + g), players: g % 2 ? ['rand', 'auto'] : ['auto', 'rand'], options: { advanced: false } });
    let n = 0;
    while (!s.outcome) {
      const actor = crystallia.awaiting(s)[0]!;
      const move = actor === 'auto' ? crystallia.autopilot!(s, actor, autopilotRng(s.rng.seed, n)) : randomMove(s, rd).move;
      s = crystallia.apply(s, actor, move);
      n++;
    }
    if (s.outcome.winners.length === 2) ties++;
    else if (s.outcome.winners[0] === 'auto') wins++;
  }

  const take = summary(takeTimes);
  const ability = summary(abilityTimes);
  const auto = summary(autoTimes);
  return {
    gamesPerSecond: Math.round(games / elapsed),
    movesPerSecond: Math.round(moves / elapsed),
    takeStep: { moves: takeMoves, p50us: Math.round(take.p50), p99us: Math.round(take.p99) },
    abilityStep: { moves: abilityMoves, p50us: Math.round(ability.p50), p99us: Math.round(ability.p99) },
    autopilot: { p50us: Math.round(auto.p50), p99us: Math.round(auto.p99) },
    autopilotVsRandom: { games: duel, wins, ties },
  };
}

export interface RenderFigure {
  /** What is drawn. */
  picture: string;
  width: number;
  height: number;
  bytes: number;
  /** Drawing and PNG encoding, per picture. */
  p50ms: number;
  p99ms: number;
  /** The process's CPU time per picture (user + system): steadier than wall time on a shared machine. */
  cpuMs: number;
  /** Of which system time (page faults, the kernel zeroing fresh memory: see skia-memory.ts). */
  sysMs: number;
}

/**
 * One turn of the event loop between pictures, untimed, as the bot has between moves: Node frees a
 * picture's native buffers (the canvas read-back, 3 MB) in finalizers that run on the event loop,
 * so a synchronous loop of renders kept every one of them (3-6 MB a picture, 1.9 GB after 600) and
 * drew each picture in fresh memory.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The board picture (render.ts): time to draw and encode, and PNG size, for 2 and 4 players mid-game and a finished 4-player game. */
export async function crystalliaRenderBench(samples = 20): Promise<RenderFigure[]> {
  const r = lcg(4242);
  const names = { p0: 'Alice', p1: 'Bob 🐉', p2: 'Жанна', p3: 'Dave' };
  const cases: Array<[string, CrystalliaState]> = [];
  for (const players of [2, 4]) {
    const s = midGame(seedOf(9000 + players), players, 12, r);
    if (s) cases.push([`${players} players, 12 stones down`, s]);
  }
  let end = crystallia.setup({ seed: seedOf(9100), players: ['p0', 'p1', 'p2', 'p3'], options: { advanced: true } });
  while (!end.outcome) {
    const { actor, move } = randomMove(end, r);
    end = crystallia.apply(end, actor, move);
  }
  cases.push(['4 players, game over (final scores)', end]);
  const out: RenderFigure[] = [];
  // A game as it is sent: every version of a 4-player game drawn once, in order (each picture new,
  // as after every move; what stays the same within a game, the printed board, stones and
  // platforms, is drawn once and kept).
  {
    let g = crystallia.setup({ seed: seedOf(9200), players: ['p0', 'p1', 'p2', 'p3'], options: { advanced: false } });
    const views = [crystallia.view(g, null)];
    while (!g.outcome) {
      const { actor, move } = randomMove(g, r);
      g = crystallia.apply(g, actor, move);
      views.push(crystallia.view(g, null));
    }
    const times: number[] = [];
    let last: Buffer = Buffer.alloc(0);
    const cpu0 = process.cpuUsage();
    for (let k = 0; k < Math.max(samples, views.length); k++) {
      await turn();
      const view = views[k % views.length]!;
      const t = performance.now();
      last = renderPicture(view, { names, title: `Crystallia #${124 + Math.floor(k / views.length)}` });
      times.push(performance.now() - t);
    }
    const cpu = process.cpuUsage(cpu0);
    const t = summary(times);
    out.push({ picture: `4 players, every version of a game (${views.length}), each drawn once`, width: last.readUInt32BE(16), height: last.readUInt32BE(20), bytes: last.length, p50ms: t.p50, p99ms: t.p99, cpuMs: (cpu.user + cpu.system) / 1000 / times.length, sysMs: cpu.system / 1000 / times.length });
  }
  for (const [picture, s] of cases) {
    const view = crystallia.view(s, null);
    const png = renderPicture(view, { names, title: 'Crystallia #123' });
    const cpu0 = process.cpuUsage();
    const times: number[] = [];
    for (let k = 0; k < samples; k++) {
      await turn();
      const t = performance.now();
      renderPicture(view, { names, title: 'Crystallia #123' });
      times.push(performance.now() - t);
    }
    const cpu = process.cpuUsage(cpu0);
    const t = summary(times);
    out.push({ picture, width: png.readUInt32BE(16), height: png.readUInt32BE(20), bytes: png.length, p50ms: t.p50, p99ms: t.p99, cpuMs: (cpu.user + cpu.system) / 1000 / samples, sysMs: cpu.system / 1000 / samples });
  }
  return out;
}

export function printCrystalliaBench(b: CrystalliaBench | null, renders: RenderFigure[], out: (s: string) => void = console.log): void {
  if (b) printEngine(b, out);
  printPictures(renders, out);
}

function printEngine(b: CrystalliaBench, out: (s: string) => void): void {
  out('## Crystallia engine (one core)');
  out('| figure | value |\n| --- | ---: |');
  out(`| random self-play | ${b.gamesPerSecond.toLocaleString('en')} games/s, ${b.movesPerSecond.toLocaleString('en')} moves/s |`);
  out(`| legalMoves, start of a turn, 12 stones down (up to ${b.takeStep.moves} moves) | p50 ${b.takeStep.p50us} µs, p99 ${b.takeStep.p99us} µs |`);
  out(`| legalMoves, Move pending, 13 stones down (up to ${b.abilityStep.moves} moves) | p50 ${b.abilityStep.p50us} µs, p99 ${b.abilityStep.p99us} µs |`);
  out(`| autopilot decision, start of a turn | p50 ${b.autopilot.p50us} µs, p99 ${b.autopilot.p99us} µs |`);
  out(`| autopilot vs random, 2 players | ${b.autopilotVsRandom.wins} wins, ${b.autopilotVsRandom.ties} ties in ${b.autopilotVsRandom.games} |`);
}

function printPictures(renders: RenderFigure[], out: (s: string) => void): void {
  out('\n## Crystallia picture: draw + PNG encode per picture (@napi-rs/canvas; cached by game version, so once per move)');
  out(`Goal (issue 25): p50 ≤ 20 ms. Load average ${loadavg().map((x) => x.toFixed(1)).join(', ')}.`);
  out('| picture | size | PNG | p50 | p99 | CPU per picture | of which system |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const f of renders) out(`| ${f.picture} | ${f.width}×${f.height} | ${(f.bytes / 1024).toFixed(0)} KB | ${f.p50ms.toFixed(1)} ms | ${f.p99ms.toFixed(1)} ms | ${f.cpuMs.toFixed(1)} ms | ${f.sysMs.toFixed(1)} ms |`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // `npx tsx bench/crystallia.ts --picture [renders]`: the picture table alone (200 renders of each picture by default).
  if (process.argv[2] === '--picture') printCrystalliaBench(null, await crystalliaRenderBench(Number(process.argv[3] ?? 200)));
  else printCrystalliaBench(crystalliaBench(Number(process.argv[2] ?? 2)), await crystalliaRenderBench());
}
