// Stonehall's entry point (npm start). See README: with DISCORD_TOKEN it connects to Discord;
// without, it starts the local Discord emulator and plays there. With DATABASE_URL it uses that
// Postgres server; without, an embedded Postgres (PGlite) under STONEHALL_DATA_DIR.
import path from 'node:path';
import { OffsetClock, RemoteClock, systemClock, type Clock } from './clock.ts';
import { openDatabase, readEnv, restBudgetEnabled, shardOptions } from './config.ts';
import { applyMigrations } from './db/migrate.ts';
import { createLogger } from './log.ts';
import { startBot, type Bot } from './bot/index.ts';
import { budgetKey, RestBudget } from './bot/rest-budget.ts';
import { commands } from '../commands/index.ts';
import { deployCommands } from '../commands/deploy.ts';
import { games } from './games/index.ts';

const env = readEnv();
const log = createLogger(env.LOG_LEVEL);

let bot: Bot | undefined;
let closeEmulator: (() => Promise<void>) | null = null;
let emulatorRecords: (() => Record<string, number>) | null = null;
let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
let startedUp!: () => void;
const started = new Promise<void>((resolve) => (startedUp = resolve));

/**
 * SIGTERM or SIGINT: stop cleanly (interactions in flight finish, the scheduler and the outbox stop
 * claiming work, then the gateway, the emulator and the database close). A second signal, or a stop
 * that takes more than 25 s, exits at once: nothing is lost, leases and jobs are picked up again.
 * Ctrl-C under `npm start` delivers SIGINT twice at once, from the terminal to the whole process
 * group and from npm, which forwards it to its script: a signal within a second of the first is
 * that same stop, not a second one.
 */
let stopping = 0;
async function shutdown(signal: string) {
  if (stopping) {
    if (Date.now() - stopping < 1000) return;
    log.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
  stopping = Date.now();
  log.info({ signal }, 'shutting down');
  setTimeout(() => {
    log.error('shutdown took too long: exiting');
    process.exit(1);
  }, 25_000).unref();
  // A signal during start-up waits for it to finish (or for the 25 s guard), so nothing half-open is left.
  await started;
  await bot?.stop().catch((err) => log.error({ err }, 'bot stop failed'));
  await closeEmulator?.().catch(() => {});
  await db?.close().catch(() => {});
  log.info('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

db = await openDatabase(env);
const applied = await applyMigrations(db.sql);
log.info({ database: db.kind, applied }, 'database ready');

if (env.DISCORD_TOKEN) {
  const remote = env.STONEHALL_CLOCK_URL ? new RemoteClock(env.STONEHALL_CLOCK_URL) : null;
  const clock: Clock = remote ?? (env.STONEHALL_TEST_CLOCK === '1' ? new OffsetClock() : systemClock);
  await remote?.sync();
  const restBudget = restBudgetEnabled(env) && db.pool
    ? new RestBudget({ pool: db.pool, perSecond: env.DISCORD_GLOBAL_RATE, key: budgetKey(env.DISCORD_TOKEN), log, slackMs: env.STONEHALL_REST_BUDGET_SLACK_MS })
    : null;
  bot = await startBot({
    ctx: { db: db.prisma, clock, log },
    games,
    commands,
    token: env.DISCORD_TOKEN,
    cron: env.SCHEDULER_CRON,
    gateway: env.STONEHALL_GATEWAY === '1',
    shards: shardOptions(env),
    globalRate: env.DISCORD_GLOBAL_RATE,
    restBudget,
    outboxBusyRate: env.OUTBOX_BUSY_RATE,
    ...(env.DISCORD_API_BASE ? { apiBase: env.DISCORD_API_BASE } : {}),
    ...(remote ? { beforeTick: () => remote.sync() } : {}),
  });
  log.info({ gateway: env.STONEHALL_GATEWAY === '1', shards: env.SHARD_IDS ?? env.SHARD_COUNT, restBudget: restBudget ? env.DISCORD_GLOBAL_RATE : false }, 'stonehall started');
} else {
  const { startDemoEmulator } = await import('./dev/demo-server.ts');
  const clock = new OffsetClock();
  // The emulator keeps its messages, DM channels and clock in the data folder, next to the embedded
  // database, so a restart of npm start is as invisible as a restart of the bot on Discord.
  const emulator = await startDemoEmulator({
    port: env.EMULATOR_PORT,
    host: env.EMULATOR_HOST,
    clock,
    logger: log.child({ component: 'emulator' }),
    dataDir: path.resolve(env.STONEHALL_DATA_DIR, 'emulator'),
  });
  closeEmulator = () => emulator.close();
  emulatorRecords = () => emulator.records();
  await deployCommands({ token: emulator.botToken, applicationId: emulator.applicationId, guildId: emulator.guildId, apiBase: emulator.apiBase });
  const demoBot = await startBot({ ctx: { db: db.prisma, clock, log }, games, commands, token: emulator.botToken, apiBase: emulator.apiBase, cron: env.SCHEDULER_CRON, outboxBusyRate: env.OUTBOX_BUSY_RATE });
  bot = demoBot;
  clock.onAdvance(() => demoBot.settle());
  const banner = [
    '',
    '  Stonehall is running against the local Discord emulator.',
    `  Open ${emulator.url} to play (act as Alice, Bob, Carol, Dave or the moderator).`,
    `  Test API: ${emulator.url}/_test  (packages/discord-emulator/README.md)`,
    `  Database: ${db.kind === 'pglite' ? `embedded Postgres in ${env.STONEHALL_DATA_DIR}/pglite` : 'DATABASE_URL'}`,
    '',
  ];
  console.log(banner.join('\n'));
}

// STONEHALL_SQL_STATS=1 (the bench): SIGUSR2 logs the Postgres round trips counted so far, and
// the process's CPU time in microseconds (/proc counts it in 10 ms ticks).
if (env.STONEHALL_SQL_STATS === '1') {
  const { sqlStatsSnapshot } = await import('./db/sql-stats.ts');
  process.on('SIGUSR2', () => log.info({ sql: sqlStatsSnapshot(), cpuUs: process.cpuUsage() }, 'sql stats'));
}
// STONEHALL_MEMORY_STATS=1 (bench/embedded-growth.ts): SIGUSR2 prints the memory by part, to tell which one grows.
if (env.STONEHALL_MEMORY_STATS === '1') {
  const { memoryReport } = await import('./memory-report.ts');
  process.on('SIGUSR2', () => console.log(`memory ${JSON.stringify(memoryReport({ wasmBytes: db.wasmMemoryBytes?.() ?? null, emulator: emulatorRecords?.() ?? null }))}`));
}
startedUp();
