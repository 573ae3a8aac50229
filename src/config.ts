import path from 'node:path';
import { z } from 'zod';
import { connectPostgres, openEmbedded, type Database } from './db/client.ts';

const envSchema = z.object({
  DISCORD_TOKEN: z.string().min(1).optional(),
  DISCORD_APPLICATION_ID: z.string().regex(/^\d+$/).optional(),
  DISCORD_GUILD_ID: z.string().regex(/^\d+$/).optional(),
  /** REST base for discord.js (default Discord's). Tests point a separately started bot at the emulator. */
  DISCORD_API_BASE: z.string().url().optional(),
  /** 0 = no gateway connection: this process only fires deadlines and delivers the outbox (a worker). */
  STONEHALL_GATEWAY: z.enum(['0', '1']).default('1'),
  /**
   * Sharding (Discord requires it past 2,500 servers): the total number of shards, or `auto` for
   * the count Discord recommends, all in this process. Unset: one shard. docs/deploying.md.
   */
  SHARD_COUNT: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(4096)]).optional(),
  /** The shards this process runs, e.g. `0,1` (with SHARD_COUNT=4); default all of them. */
  SHARD_IDS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'a comma-separated list of shard numbers, e.g. 0,1')
    .transform((v) => [...new Set(v.split(',').map(Number))].sort((a, b) => a - b))
    .optional(),
  /**
   * Discord's global REST limit for this bot token, requests a second (50 unless Discord granted
   * more). Every process of the bot shares it through the database (src/bot/rest-budget.ts).
   */
  DISCORD_GLOBAL_RATE: z.coerce.number().int().min(1).max(10_000).default(50),
  /**
   * The REST budget shared by processes: `auto` (on with DATABASE_URL, off with the embedded
   * database, which one process has to itself), `1` or `0`. docs/deploying.md.
   */
  STONEHALL_REST_BUDGET: z.enum(['auto', '0', '1']).default('auto'),
  /**
   * Outbox deliveries started per second while interactions are being answered (src/bot/priority.ts):
   * clicks go first, DMs wait a little. 0: the outbox does not give way.
   */
  OUTBOX_BUSY_RATE: z.coerce.number().min(0).max(100_000).default(100),
  /**
   * How late after its slot a request may still go out, ms (default 50): the budget hands out
   * limit x 1000 / (1000 + slack) requests a second, and tolerates that much delay between a slot
   * and the request reaching Discord. src/bot/rest-budget.ts.
   */
  STONEHALL_REST_BUDGET_SLACK_MS: z.coerce.number().int().min(1).max(1000).default(50),
  /** Test only: follow the emulator's clock at this address (see RemoteClock). */
  STONEHALL_CLOCK_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url().optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  STONEHALL_DATA_DIR: z.string().default('.data'),
  EMULATOR_HOST: z.string().default('127.0.0.1'),
  EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  STONEHALL_TEST_CLOCK: z.enum(['0', '1']).optional(),
  SCHEDULER_CRON: z.string().default('* * * * * *'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Measurement only: count every Postgres round trip by statement and caller, logged on SIGUSR2 (src/db/sql-stats.ts). */
  STONEHALL_SQL_STATS: z.enum(['0', '1']).default('0'),
  /** Measurement only: SIGUSR2 prints the process's memory by part (V8 heap, external, PGlite's WebAssembly memory, the emulator's records) as one `memory {json}` line. */
  STONEHALL_MEMORY_STATS: z.enum(['0', '1']).default('0'),
});
export type Env = z.infer<typeof envSchema>;

/** The discord.js shard options for this process, from SHARD_COUNT and SHARD_IDS. */
export function shardOptions(env: Pick<Env, 'SHARD_COUNT' | 'SHARD_IDS'>): { shards: number[] | 'auto'; shardCount?: number } | null {
  if (env.SHARD_COUNT === undefined) {
    if (env.SHARD_IDS) throw new Error('Invalid environment:\n  SHARD_IDS needs SHARD_COUNT (the total number of shards).\nSee .env.example.');
    return null;
  }
  if (env.SHARD_COUNT === 'auto') {
    if (env.SHARD_IDS) throw new Error('Invalid environment:\n  SHARD_IDS needs a number in SHARD_COUNT, not auto.\nSee .env.example.');
    return { shards: 'auto' };
  }
  const count = env.SHARD_COUNT;
  const ids = env.SHARD_IDS ?? Array.from({ length: count }, (_, i) => i);
  const bad = ids.filter((i) => i >= count);
  if (bad.length) throw new Error(`Invalid environment:\n  SHARD_IDS: shard ${bad.join(', ')} does not exist with SHARD_COUNT=${count} (shards are 0 to ${count - 1}).\nSee .env.example.`);
  return { shards: ids, shardCount: count };
}

/** Whether this process shares a REST budget through Postgres (STONEHALL_REST_BUDGET). */
export function restBudgetEnabled(env: Pick<Env, 'STONEHALL_REST_BUDGET' | 'DATABASE_URL'>): boolean {
  if (env.STONEHALL_REST_BUDGET === '1' && !env.DATABASE_URL) {
    throw new Error('Invalid environment:\n  STONEHALL_REST_BUDGET=1 needs DATABASE_URL (a Postgres server the processes share).\nSee .env.example.');
  }
  return env.STONEHALL_REST_BUDGET === '1' || (env.STONEHALL_REST_BUDGET === 'auto' && env.DATABASE_URL !== undefined);
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings in .env files mean "unset".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}\nSee .env.example.`);
  }
  return parsed.data;
}

/** DATABASE_URL when set, else the embedded database kept in STONEHALL_DATA_DIR/pglite. */
export async function openDatabase(env: Env = readEnv()): Promise<Database> {
  if (env.DATABASE_URL) return connectPostgres(env.DATABASE_URL, { poolSize: env.DB_POOL_SIZE, sqlStats: env.STONEHALL_SQL_STATS === '1' });
  return openEmbedded(path.resolve(env.STONEHALL_DATA_DIR, 'pglite'));
}
