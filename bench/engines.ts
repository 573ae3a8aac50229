import { randomBytes } from 'node:crypto';
import { games } from '../src/games/index.ts';
import type { KnucklebonesState } from '../src/games/knucklebones/engine/index.ts';
import type { TellstonesState } from '../src/games/tellstones/engine/index.ts';
import type { AnyEngine } from '../src/kernel/types.ts';
// The property tests' random legal player (it reads the raw state, as a bench may).
import { randomMove as tellstonesMove } from '../tests/games/tellstones/helpers.ts';

/** For each engine: the next random legal move, with who makes it (bench self-play). */
const movers: Record<string, (state: never, r: () => number) => { actor: string; move: unknown }> = {
  knucklebones: (s: KnucklebonesState, r) => {
    const actor = s.turn!;
    const open = [1, 2, 3].filter((c) => s.grids[actor]![c - 1]!.length < 3);
    return { actor, move: { type: 'place', column: open[Math.floor(r() * open.length)] } };
  },
  tellstones: (s: TellstonesState, r) => {
    const e = tellstonesMove(s, r);
    if (!('move' in e)) throw new Error('bench: unexpected forfeit');
    return e;
  },
};

/** Random self-play: how many legal moves per second each engine applies. */
export function engineThroughput(seconds = 2): Array<{ engine: string; movesPerSecond: number; gamesPerSecond: number }> {
  const out = [];
  let x = 1;
  const r = () => ((x = (x * 48271) % 2147483647) / 2147483647);
  for (const engine of games.all.map((g) => g.engine) as AnyEngine[]) {
    const mover = movers[engine.id];
    if (!mover) throw new Error(`bench: no random mover for ${engine.id}`);
    let moves = 0;
    let games = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    while (performance.now() < until) {
      const players = ['100000000000000001', '100000000000000002'];
      let state = engine.setup({ players, seed: randomBytes(32).toString('hex'), options: {} });
      while (engine.outcome(state) === null) {
        const { actor, move } = mover(state as never, r);
        state = engine.apply(state, actor, move);
        moves++;
      }
      games++;
    }
    const elapsed = (performance.now() - started) / 1000;
    out.push({ engine: engine.id, movesPerSecond: Math.round(moves / elapsed), gamesPerSecond: Math.round(games / elapsed) });
  }
  return out;
}
