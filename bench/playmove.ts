import type { KnucklebonesState } from '../src/games/knucklebones/engine/index.ts';
import { playMove } from '../src/services/games.ts';
import { plainFloor } from './concurrency.ts';
import { benchContext, benchDatabase, startGames } from './db.ts';
import { summary } from './stats.ts';

export interface PlayMoveResult {
  moves: number;
  move: ReturnType<typeof summary>;
  floor: ReturnType<typeof summary>;
  /** Node CPU (this process: the service, Prisma, pg) per move and per floor transaction. */
  moveCpuMs: number;
  floorCpuMs: number;
}

/**
 * Goal 1 without Discord: `playMove` (a Knucklebones column, as a click makes it; on a server its
 * transaction runs on the hot path, plain pg with prepared statements, src/db/hot.ts) one at a time,
 * each followed by the floor (a 4-statement plain-pg transaction on the same pool), so both see
 * the same machine at the same moment. Wall time and this process's CPU, per call.
 */
export async function playMoveBench(moves = 300): Promise<PlayMoveResult> {
  const { db, drop } = await benchDatabase(10);
  try {
    const ctx = benchContext(db);
    let games = await startGames(ctx, 10);
    const moveSamples: number[] = [];
    const floorSamples: number[] = [];
    let moveCpu = 0;
    let floorCpu = 0;
    for (let i = 0, warm = 40; i < moves + warm; i++) {
      const id = games[i % games.length]!;
      const g = await db.prisma.game.findUniqueOrThrow({ where: { id } });
      const st = g.state as unknown as KnucklebonesState;
      if (st.outcome) {
        games = games.map((x) => (x === id ? -1 : x));
        games[games.indexOf(-1)] = (await startGames(ctx, 1))[0]!;
        continue;
      }
      const col = st.grids[st.turn!]!.findIndex((c) => c.length < 3);
      let c0 = process.cpuUsage();
      let t = performance.now();
      await playMove(ctx, { gameId: id, userId: st.turn!, guildId: g.guildId, move: { type: 'place', column: col + 1 }, expectedVersion: g.version, kind: 'knucklebones', fromBoard: true });
      const moveMs = performance.now() - t;
      let c = process.cpuUsage(c0);
      const mc = (c.user + c.system) / 1000;
      c0 = process.cpuUsage();
      t = performance.now();
      await plainFloor(db.pool!, id);
      const floorMs = performance.now() - t;
      c = process.cpuUsage(c0);
      if (i < warm) continue;
      moveSamples.push(moveMs);
      floorSamples.push(floorMs);
      moveCpu += mc;
      floorCpu += (c.user + c.system) / 1000;
    }
    return { moves: moveSamples.length, move: summary(moveSamples), floor: summary(floorSamples), moveCpuMs: moveCpu / moveSamples.length, floorCpuMs: floorCpu / floorSamples.length };
  } finally {
    await drop();
  }
}
