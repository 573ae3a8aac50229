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
  /** Moves per second counted once every DM and board of them was delivered (the outbox drained). */
  movesPerSecond: number;
  /** Clicks answered per second, not waiting for the outbox (what the bench used to print). */
  clicksPerSecond: number;
  /** Time from the last click's answer until the outbox had nothing pending. */
  drainMs: number;
  /** REST calls bound by Discord's global limit (everything but interaction callbacks and webhooks) per move. */
  limitedPerMove: number;
  /** The bench process's CPU (bot, emulator and driver together) per delivered move. */
  cpuMsPerMove: number;
  click: ReturnType<typeof summary>;
  floor: ReturnType<typeof summary>;
}

/** Requests the global rate limit counts: all but interaction callbacks and interaction webhooks. */
const limited = (path: string) => !path.startsWith('/interactions') && !path.startsWith('/webhooks');

/**
 * The floor: a 4-statement transaction (BEGIN, lock-and-read, conditional write, COMMIT) with plain
 * pg and prepared statements, on the bot's own pool.
 */
export async function plainFloor(pool: import('pg').Pool, gameId: number): Promise<number> {
  const t = performance.now();
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const r = await c.query<{ version: number }>({ name: 'floor-read', text: 'SELECT version FROM games WHERE id = $1 FOR UPDATE', values: [gameId] });
    await c.query({ name: 'floor-write', text: 'UPDATE games SET board_version = board_version WHERE id = $1 AND version = $2', values: [gameId, r.rows[0]!.version] });
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
  return performance.now() - t;
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
  let restCalls = 0;
  bot.client.rest.on('response', (req) => {
    if (limited(String(req.path))) restCalls++;
  });
  // Undelivered rows; a board row waiting behind a click's answer that already showed its board is delivered.
  const pending = async () =>
    Number(
      (
        await reader.sql.query<{ n: string }>(
          `SELECT count(*) AS n FROM outbox o WHERE status = 'pending' AND NOT (kind = 'board' AND EXISTS (
             SELECT 1 FROM games g WHERE g.id = (o.payload->>'gameId')::int AND g.board_message_id IS NOT NULL AND g.board_version >= g.version))`,
        )
      )[0]!.n,
    );
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
      while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 20));
      samples = [];
      let clicks = 0;
      const calls0 = restCalls;
      const cpu0 = process.cpuUsage();
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
      const clicked = (performance.now() - started) / 1000;
      // A move counts once its DMs and board are out: wait for the outbox to drain.
      while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 5));
      const elapsed = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const calls = restCalls - calls0;
      const click = summary(samples);
      // The floor at the same concurrency, on the bot's pool.
      const floorSamples: number[] = [];
      await Promise.all(
        games.map(async (id) => {
          for (let k = 0; k < perGame(level); k++) floorSamples.push(await plainFloor(db.pool!, id));
        }),
      );
      if (index < 0) continue;
      results.push({
        games: level,
        clicks,
        movesPerSecond: clicks / elapsed,
        clicksPerSecond: clicks / clicked,
        drainMs: (elapsed - clicked) * 1000,
        limitedPerMove: calls / Math.max(1, clicks),
        cpuMsPerMove: (cpu.user + cpu.system) / 1000 / Math.max(1, clicks),
        click,
        floor: summary(floorSamples),
      });
    }
  } finally {
    await bot.stop();
    await emulator.close();
    await reader.close();
    await drop();
  }
  return results;
}
