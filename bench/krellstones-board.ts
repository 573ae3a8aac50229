// Krellstones through the real bot: the time from an automatic roll's timer falling due to the
// board edited in place (the scheduler claims the job, the engine rolls, the change commits with
// its outbox row, the deliverer renders the board and Discord, here the emulator, accepts the
// edit). Printed by `npm run bench`; standalone: `npx tsx bench/krellstones-board.ts`.
import { pathToFileURL } from 'node:url';
import { commands } from '../commands/index.ts';
import { deployCommands } from '../commands/deploy.ts';
import { startBot } from '../src/bot/index.ts';
import { OffsetClock } from '../src/clock.ts';
import { addMember, silentLogger as emulatorSilent } from '@stonehall/discord-emulator';
import { startDemoEmulator } from '../src/dev/demo-server.ts';
import { games } from '../src/games/index.ts';
import type { KrellstonesState } from '../src/games/krellstones/engine/index.ts';
import { autopilotStones } from '../src/games/krellstones/lobby.ts';
import { silentLogger } from '../src/log.ts';
import { inTransaction, playMove, startGame } from '../src/services/games.ts';
import { benchDatabase } from './db.ts';
import { summary } from './stats.ts';

export async function krellstonesTimerToBoard(rounds = 3): Promise<{ steps: number; ms: ReturnType<typeof summary> }> {
  const { db, drop } = await benchDatabase(10);
  const clock = new OffsetClock();
  const emulator = await startDemoEmulator({ clock, logger: emulatorSilent, interactionTimeoutMs: 30_000 });
  await deployCommands({ token: emulator.botToken, applicationId: emulator.applicationId, guildId: emulator.guildId, apiBase: emulator.apiBase });
  const bot = await startBot({ ctx: { db: db.prisma, clock, log: silentLogger }, games, commands, token: emulator.botToken, apiBase: emulator.apiBase, ticks: false });
  const ctx = { db: db.prisma, clock, log: silentLogger, games };
  const samples: number[] = [];
  try {
    const players = [0, 1, 2, 3].map((i) => addMember(emulator.state, emulator.guildId, `k${i}`));
    const seed = '7'.repeat(64);
    // Four players with generated stones (as the autopilot gets in practice), FAST pace.
    const playerData = autopilotStones(seed, players);
    const game = await inTransaction(ctx, (tx) =>
      startGame(tx, ctx, { guildId: emulator.guildId, channelId: emulator.channels.general!, kind: 'krellstones', players: players.map((id) => ({ id, name: id })), options: { rounds, pace: 'FAST', rerolls: true }, playerData, seed }),
    );
    await bot.settle();
    for (let guard = 0; guard < 2000; guard++) {
      const row = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      if (row.status !== 'active') break;
      const s = row.state as unknown as KrellstonesState;
      const waiting = players.find((p) => s.seats[p]!.choice === 'pending');
      if (waiting) {
        await playMove(ctx, { gameId: game.id, userId: waiting, guildId: emulator.guildId, move: { type: 'ready' } });
        await bot.settle();
        continue;
      }
      if (s.windows.length) {
        await playMove(ctx, { gameId: game.id, userId: s.windows[0]!, guildId: emulator.guildId, move: { type: 'timeout', key: `yell:r${s.round}` } });
        await bot.settle();
        continue;
      }
      // A roll falls due: from the clock reaching it to the board edited (settle returns once the outbox is empty).
      await clock.advance(2_000);
      const t = performance.now();
      await bot.settle();
      const after = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      if (after.boardVersion === after.version) samples.push(performance.now() - t);
    }
  } finally {
    await bot.stop();
    await emulator.close();
    await drop();
  }
  return { steps: samples.length, ms: summary(samples) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await krellstonesTimerToBoard();
  console.log(`Krellstones, a roll's timer due -> board edited: ${r.steps} steps, p50 ${r.ms.p50.toFixed(1)} ms, p99 ${r.ms.p99.toFixed(1)} ms`);
}
