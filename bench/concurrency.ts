import { commands } from '../commands/index.ts';
import { deployCommands } from '../commands/deploy.ts';
import { games } from '../src/games/index.ts';
import { startBot } from '../src/bot/index.ts';
import { OffsetClock } from '../src/clock.ts';
import { connectPostgres } from '../src/db/client.ts';
import { addMember, silentLogger as emulatorSilent } from '@stonehall/discord-emulator';
import { startDemoEmulator } from '../src/dev/demo-server.ts';
import type { KnucklebonesState } from '../src/games/knucklebones/engine/index.ts';
import { silentLogger } from '../src/log.ts';
import { acceptChallenge, challenge } from '../src/services/challenges.ts';
import { benchDatabase } from './db.ts';
import { summary } from './stats.ts';

export interface LevelResult {
  games: number;
  clicks: number;
  movesPerSecond: number;
  click: ReturnType<typeof summary>;
  floor: ReturnType<typeof summary>;
}

/**
 * Click-to-reply at several numbers of games played at once, through the emulator and the real
 * bot (interaction received -> reply accepted, measured in the bot), each beside the floor at
 * the same concurrency: one bare transaction with one read and one conditional write on the
 * bot's own pool. Every game is a closed loop: its player clicks again as soon as the board is
 * back, so `games` is also the number of clicks in flight.
 */
export async function concurrencyBench(levels: number[], clicksPerGame = 8): Promise<LevelResult[]> {
  const { db, url, drop } = await benchDatabase(10);
  const reader = await connectPostgres(url, { poolSize: 4 });
  const clock = new OffsetClock();
  const emulator = await startDemoEmulator({ clock, logger: emulatorSilent, interactionTimeoutMs: 30_000 });
  await deployCommands({ token: emulator.botToken, applicationId: emulator.applicationId, guildId: emulator.guildId, apiBase: emulator.apiBase });
  let samples: number[] = [];
  const bot = await startBot({
    ctx: { db: db.prisma, clock, log: silentLogger },
    games,
    commands,
    token: emulator.botToken,
    apiBase: emulator.apiBase,
    onHandled: (e) => {
      if (e.type === 'component' && e.ok && e.replyMs !== null) samples.push(e.replyMs);
    },
  });
  const ctx = { db: db.prisma, clock, log: silentLogger, games };
  const guildId = emulator.guildId;
  const channelId = emulator.channels.knucklebones;
  const results: LevelResult[] = [];
  let userSeq = 0;
  // Few games at once: up to a whole game each (about 20 moves), so low levels get enough samples.
  const perGame = (level: number) => (level <= 5 ? 20 : clicksPerGame);
  try {
    // The first level is a warm-up (cold caches, first JIT), not reported.
    for (const [index, level] of [[-1, 1] as const, ...levels.map((l, i) => [i, l] as const)]) {
      const games: number[] = [];
      for (let i = 0; i < level; i++) {
        const a = addMember(emulator.state, guildId, `p${userSeq++}`);
        const b = addMember(emulator.state, guildId, `p${userSeq++}`);
        const c = await challenge(ctx, { guildId, channelId, kind: 'knucklebones', from: { id: a, name: a, bot: false }, to: { id: b, name: b, bot: false } });
        games.push((await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: b, guildId })).game.id);
      }
      // Wait until every board has been posted by the outbox.
      for (;;) {
        const posted = await reader.prisma.game.count({ where: { id: { in: games }, boardVersion: { gte: 0 } } });
        if (posted === games.length) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      samples = [];
      let clicks = 0;
      const started = performance.now();
      await Promise.all(
        games.map(async (id) => {
          for (let k = 0; k < perGame(level); k++) {
            const g = await reader.prisma.game.findUniqueOrThrow({ where: { id } });
            const st = g.state as unknown as KnucklebonesState;
            if (st.outcome) return;
            const col = st.grids[st.turn!]!.findIndex((c) => c.length < 3) + 1;
            const res = await emulator.client.click(st.turn!, g.boardMessageId!, `kb:place:${id}:${g.version}:${col}`);
            if (res.response?.type !== 7) throw new Error(`click not answered with the board: ${JSON.stringify(res).slice(0, 300)}`);
            clicks++;
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      const click = summary(samples);
      // The floor at the same concurrency, on the bot's pool.
      const floorSamples: number[] = [];
      await Promise.all(
        games.map(async (id) => {
          for (let k = 0; k < perGame(level); k++) {
            const t = performance.now();
            await db.prisma.$transaction(async (tx) => {
              const g = await tx.game.findUniqueOrThrow({ where: { id }, select: { version: true } });
              await tx.game.updateMany({ where: { id, version: g.version }, data: { boardVersion: { increment: 0 } } });
            });
            floorSamples.push(performance.now() - t);
          }
        }),
      );
      if (index < 0) continue;
      results.push({ games: level, clicks, movesPerSecond: clicks / elapsed, click, floor: summary(floorSamples) });
    }
  } finally {
    await bot.stop();
    await emulator.close();
    await reader.close();
    await drop();
  }
  return results;
}
