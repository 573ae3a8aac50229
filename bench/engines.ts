import { randomBytes } from 'node:crypto';
import { games } from '../src/games/index.ts';
import { autopilotStones } from '../src/games/krellstones/lobby.ts';
import type { KnucklebonesState } from '../src/games/knucklebones/engine/index.ts';
import type { TellstonesState } from '../src/games/tellstones/engine/index.ts';
import { SYSTEM, type AnyEngine } from '../src/kernel/types.ts';
// The property tests' random legal player (it reads the raw state, as a bench may).
import { randomMove as tellstonesMove } from '../tests/games/tellstones/helpers.ts';

/** Faster random movers for some engines (bench self-play); every other engine plays `genericMove`. */
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

/**
 * Any engine's next random move: a random awaited player with legal moves plays a uniformly
 * random one of them; when nobody can move, a timer's default move advances the game (as the
 * scheduler would).
 */
function genericMove(engine: AnyEngine, state: unknown, r: () => number): { actor: string; move: unknown } {
  const movers = (engine.awaiting(state) as string[]).filter((p) => engine.legalMoves(state, p).length > 0);
  if (movers.length > 0) {
    const actor = movers[Math.floor(r() * movers.length)]!;
    const moves = engine.legalMoves(state, actor) as unknown[];
    return { actor, move: moves[Math.floor(r() * moves.length)] };
  }
  const timer = (engine.timers(state) as Array<{ player?: string; onExpiry: { type: string; move?: unknown } }>).find((t) => t.onExpiry.type === 'move');
  if (!timer) throw new Error(`bench: ${engine.id} waits for nobody who can move and has no timer to advance it`);
  return { actor: timer.player ?? SYSTEM, move: timer.onExpiry.move };
}

/**
 * What each player brings, for engines whose setup needs it (Krellstones' stones): the stones the
 * autopilot gets in practice, generated from the game's seed.
 */
const playerData: Record<string, (players: string[], seed: string) => Record<string, unknown>> = {
  krellstones: (players, seed) => autopilotStones(seed, players),
};

/** Player ids for a game of `n` seats. */
const playerIds = (n: number) => Array.from({ length: n }, (_, i) => `1000000000000000${String(i + 1).padStart(2, '0')}`);

/**
 * Random self-play: how many legal moves per second each engine applies (every registered engine,
 * from its legal moves unless it has a faster mover above), with as few players as it takes (two,
 * or its minimum: Keystone needs three) and its default options.
 */
export function engineThroughput(seconds = 2): Array<{ engine: string; players: number; movesPerSecond: number; gamesPerSecond: number }> {
  const out = [];
  let x = 1;
  const r = () => ((x = (x * 48271) % 2147483647) / 2147483647);
  for (const engine of games.all.map((g) => g.engine) as AnyEngine[]) {
    const mover = movers[engine.id] ?? ((s: unknown, rnd: () => number) => genericMove(engine, s, rnd));
    let moves = 0;
    let games = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    while (performance.now() < until) {
      const players = playerIds(Math.max(2, engine.minPlayers));
      const seed = randomBytes(32).toString('hex');
      const data = playerData[engine.id]?.(players, seed);
      let state = engine.setup({ players, seed, options: engine.optionsSchema.parse({}), ...(data ? { playerData: data } : {}) });
      while (engine.outcome(state) === null) {
        const { actor, move } = mover(state as never, r);
        state = engine.apply(state, actor, move);
        moves++;
      }
      games++;
    }
    const elapsed = (performance.now() - started) / 1000;
    out.push({ engine: engine.id, players: Math.max(2, engine.minPlayers), movesPerSecond: Math.round(moves / elapsed), gamesPerSecond: Math.round(games / elapsed) });
  }
  return out;
}
