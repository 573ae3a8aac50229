// Goals 1 and 2 under load: the emulator and the bot each in a process of their own
// (bench/procs.ts), this process the load driver: it starts games through the services, clicks
// over the emulator's test API, and measures.
import type { ServerDefinition } from '@stonehall/discord-emulator';
import type { KnucklebonesState } from '../src/games/knucklebones/engine/index.ts';
import { acceptChallenge, challenge } from '../src/services/challenges.ts';
import { benchContext, benchDatabase } from './db.ts';
import { botProblems, sqlDiff, sqlStats, startBots, startEmulatorProcess, type BotProc } from './procs.ts';
import { plainMove, type PlainMoveStatements } from './plain-move.ts';
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
  /** The bot process's CPU per delivered move. */
  cpuMsPerMove: number;
  /** Of which in the kernel (system time: sockets, timers, memory), the rest in the process itself. */
  systemMsPerMove: number;
  /** The emulator process's CPU per delivered move (Discord's side, for scale). */
  emulatorCpuMsPerMove: number;
  click: ReturnType<typeof summary>;
  floor: ReturnType<typeof summary>;
  /** The bot's Postgres round trips from the first click until the outbox drained (idle work included), by statement. */
  sql: ReturnType<typeof sqlDiff>;
  /** The level's window on the monotonic clock (µs), to cut a CPU profile of the bot to it. */
  windowUs: [number, number];
}

/** Goal 2 in steady state: rate-limited calls of moves in the middle of games, by route. */
export interface SteadyResult {
  games: number;
  moves: number;
  calls: number;
  byRoute: Record<string, number>;
}

/** The levels a clicks run plays: a 1-game warm-up first (cold caches, first JIT; index -1, not reported), then each level with its index. */
export const withWarmUp = (levels: number[]): Array<readonly [number, number]> => [[-1, 1] as const, ...levels.map((l, i) => [i, l] as const)];

/** Clicks per game at a level: few games at once play up to a whole game each (about 20 moves), so low levels get enough samples. */
export const clicksPer = (level: number, clicksPerGame: number): number => (level <= 5 ? 20 : clicksPerGame);

/** Requests the global rate limit counts: all but interaction callbacks and interaction webhooks ("POST /interactions/..."). */
const limited = (route: string) => !/ \/(interactions|webhooks)\//.test(route);

const FLOOR: PlainMoveStatements = {
  read: { name: 'floor-read', text: 'SELECT version FROM games WHERE id = $1 FOR UPDATE' },
  write: { name: 'floor-write', text: 'UPDATE games SET board_version = board_version WHERE id = $1 AND version = $2' },
};

/**
 * The floor: a 4-statement transaction (BEGIN, lock-and-read, conditional write, COMMIT) with plain
 * pg and prepared statements, on a pool of the bot's size.
 */
export async function plainFloor(pool: import('pg').Pool, gameId: number): Promise<number> {
  const t = performance.now();
  await plainMove(pool, FLOOR, gameId);
  return performance.now() - t;
}

/**
 * Click-to-reply at several numbers of games played at once, through the emulator and the real bot
 * in their own processes (interaction received -> reply accepted, measured in the bot and read
 * from its log), each beside the floor at the same concurrency: one bare transaction with one
 * read and one conditional write on a pool of the bot's size, from this process. Every game is a
 * closed loop: its player clicks again as soon as the board is back, so `games` is also the
 * number of clicks in flight.
 */
/** How long the bot's idle CPU is read for. */
const IDLE_MS = 15_000;

export async function concurrencyBench(
  levels: number[],
  clicksPerGame = 8,
  steadyGames = 5,
  /** Node flags for the bot process (e.g. --cpu-prof). */
  botNodeArgs: string[] = [],
): Promise<{ levels: LevelResult[]; steady: SteadyResult | null; idleCpuMsPerSecond: [number, number] }> {
  /** The bot's idle CPU (ms a second) in the 15 s after the load and the 15 s after those. */
  let idleCpuMsPerSecond: [number, number] = [0, 0];
  const pairs = 1 + levels.reduce((a, b) => a + b, 0) + steadyGames;
  const server: ServerDefinition = {
    bot: { username: 'Stonehall' },
    users: Array.from({ length: 2 * pairs }, (_, i) => ({ alias: `p${i}`, username: `player${i}` })),
    guilds: [{ name: 'Clicks', owner: 'p0', channels: [{ name: 'knucklebones' }] }],
  };
  // Discord gives 3 s to answer; the shared bench machine may be slower than that under load.
  const emulator = await startEmulatorProcess(server, { interactionTimeoutMs: 30_000 });
  const { db, url, drop } = await benchDatabase(10);
  let bots: BotProc[] = [];
  try {
    // The bot logs each interaction's reply time at debug level: one line per click.
    // It also counts its Postgres round trips by statement (src/db/sql-stats.ts), read over SIGUSR2.
    bots = await startBots(emulator, url, 1, { LOG_LEVEL: 'debug', DB_POOL_SIZE: '10', STONEHALL_SQL_STATS: '1' }, botNodeArgs);
    const bot = bots[0]!;
    let samples: number[] = [];
    bot.child.onLine((line) => {
      if (!line.includes('"interaction handled"')) return;
      const e = JSON.parse(line) as { type: string; ok: boolean; replyMs: number | null };
      if (e.type === 'component' && e.ok && e.replyMs !== null) samples.push(e.replyMs);
    });
    const ctx = benchContext(db);
    // Undelivered rows; a board row waiting behind a click's answer that already showed its board is delivered.
    const pending = async () =>
      Number(
        (
          await db.sql.query<{ n: string }>(
            `SELECT count(*) AS n FROM outbox o WHERE status = 'pending' AND NOT (kind = 'board' AND EXISTS (
               SELECT 1 FROM games g WHERE g.id = (o.payload->>'gameId')::int AND g.board_message_id IS NOT NULL AND g.board_version >= g.version))`,
          )
        )[0]!.n,
      );
    const guildId = emulator.guildId;
    const channelId = emulator.channels.knucklebones!;
    const results: LevelResult[] = [];
    let userSeq = 0;
    const player = () => {
      const i = userSeq++;
      return { id: emulator.users[`p${i}`]!, name: `player${i}`, bot: false };
    };
    /** `n` Knucklebones games between fresh players, challenged and accepted through the services. */
    const newGames = async (n: number): Promise<number[]> => {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) {
        const a = player();
        const b = player();
        const c = await challenge(ctx, { guildId, channelId, kind: 'knucklebones', from: a, to: b });
        ids.push((await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: b.id, guildId })).game.id);
      }
      return ids;
    };
    const perGame = (level: number) => clicksPer(level, clicksPerGame);
    for (const [index, level] of withWarmUp(levels)) {
      const games = await newGames(level);
      // Wait until every board has been posted by the outbox.
      for (;;) {
        const posted = await db.prisma.game.count({ where: { id: { in: games }, boardVersion: { gte: 0 }, boardMessageId: { not: null } } });
        if (posted === games.length) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 20));
      samples = [];
      let clicks = 0;
      await emulator.read.resetRestStats();
      const sql0 = await sqlStats(bot);
      const emuCpu0 = emulator.child.usage().cpuMs;
      const started = performance.now();
      const from = Number(process.hrtime.bigint() / 1000n);
      await Promise.all(
        games.map(async (id) => {
          for (let k = 0; k < perGame(level); k++) {
            const g = await db.prisma.game.findUniqueOrThrow({ where: { id } });
            const st = g.state as unknown as KnucklebonesState;
            if (st.outcome) return;
            const col = st.grids[st.turn!]!.findIndex((c) => c.length < 3) + 1;
            const res = await emulator.client.click(st.turn!, g.boardMessageId!, `kb:place:${id}:${g.version}:${col}`);
            if (res.response?.type !== 7) throw new Error(`click not answered with the board: ${JSON.stringify(res).slice(0, 300)}\n${botProblems(bots).slice(-5).join('\n')}`);
            clicks++;
          }
        }),
      );
      const clicked = (performance.now() - started) / 1000;
      // A move counts once its DMs and board are out: wait for the outbox to drain.
      while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 5));
      const elapsed = (performance.now() - started) / 1000;
      const emuCpuMs = emulator.child.usage().cpuMs - emuCpu0;
      const to = Number(process.hrtime.bigint() / 1000n);
      const sql1 = await sqlStats(bot);
      // The bot's own CPU clock, read with its round trips (to the microsecond; /proc ticks in 10 ms).
      const cpuMs = sql1.cpuMs - sql0.cpuMs;
      const sql = sqlDiff(sql0.sql, sql1.sql);
      const stats = await emulator.read.restStats();
      const calls = Object.entries(stats.routes).reduce((n, [route, r]) => (limited(route) ? n + r.requests : n), 0);
      // The bot's log line may trail its reply by a moment.
      for (let t = Date.now(); samples.length < clicks && Date.now() - t < 2_000; ) await new Promise((r) => setTimeout(r, 20));
      const click = summary(samples);
      // The floor at the same concurrency, on this process's pool (the bot's size).
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
        cpuMsPerMove: cpuMs / Math.max(1, clicks),
        systemMsPerMove: (sql1.systemMs - sql0.systemMs) / Math.max(1, clicks),
        emulatorCpuMsPerMove: emuCpuMs / Math.max(1, clicks),
        click,
        floor: summary(floorSamples),
        sql,
        windowUs: [from, to],
      });
    }
    // The bot's CPU while nothing happens (the outbox's and the scheduler's ticks, timers, the
    // gateway's heartbeat): counted in each level's CPU per move for as long as its outbox drains.
    while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 2_000));
    // Two windows: right after the load V8's memory reducer collects its garbage (full collections
    // 10 s or so after the allocation stops, issue 25's sixth session), then only the ticks remain.
    const idleRate = async () => {
      const idle0 = (await sqlStats(bot)).cpuMs;
      const idleStarted = performance.now();
      await new Promise((r) => setTimeout(r, IDLE_MS));
      return (((await sqlStats(bot)).cpuMs - idle0) * 1000) / (performance.now() - idleStarted);
    };
    idleCpuMsPerSecond = [await idleRate(), await idleRate()];
    // Goal 2 in steady state: each player of `steadyGames` games moves on the board once (their
    // DM channel opened, their first DM's buttons retired, their seat now a board mover's), then
    // moves 3 to 14 of every game are counted. A Knucklebones game cannot end before move 18 (each
    // grid takes 9 dice), so no game-over DMs or result message fall in the count.
    if (steadyGames === 0) return { levels: results, steady: null, idleCpuMsPerSecond };
    const steadyIds = await newGames(steadyGames);
    const clickAll = async (from: number, to: number) => {
      await Promise.all(
        steadyIds.map(async (id) => {
          for (let k = from; k < to; k++) {
            // The first board is posted by the outbox after the game starts.
            let g = await db.prisma.game.findUniqueOrThrow({ where: { id } });
            while (!g.boardMessageId) {
              await new Promise((r) => setTimeout(r, 20));
              g = await db.prisma.game.findUniqueOrThrow({ where: { id } });
            }
            const st = g.state as unknown as KnucklebonesState;
            if (st.outcome) throw new Error(`steady-state game ${id} ended at move ${k}`);
            const col = st.grids[st.turn!]!.findIndex((c) => c.length < 3) + 1;
            const res = await emulator.client.click(st.turn!, g.boardMessageId, `kb:place:${id}:${g.version}:${col}`);
            if (res.response?.type !== 7) throw new Error(`click not answered with the board: ${JSON.stringify(res).slice(0, 300)}`);
            // As people play: the next move comes once this one's DM is out (a DM queued behind a
            // newer turn of its player is skipped, which a closed loop would count as a saving).
            while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 20));
          }
        }),
      );
    };
    await clickAll(0, 2);
    await emulator.read.resetRestStats();
    await clickAll(2, 14);
    const steadyStats = await emulator.read.restStats();
    const byRoute = Object.fromEntries(Object.entries(steadyStats.routes).filter(([route, r]) => limited(route) && r.requests > 0).map(([route, r]) => [route, r.requests]));
    const steady = { games: steadyGames, moves: steadyGames * 12, calls: Object.values(byRoute).reduce((a, b) => a + b, 0), byRoute };
    return { levels: results, steady, idleCpuMsPerSecond };
  } finally {
    await Promise.all(bots.map((b) => b.stop()));
    await emulator.stop();
    await drop();
  }
}
