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
});
export type Env = z.infer<typeof envSchema>;

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
  if (env.DATABASE_URL) return connectPostgres(env.DATABASE_URL, { poolSize: env.DB_POOL_SIZE });
  return openEmbedded(path.resolve(env.STONEHALL_DATA_DIR, 'pglite'));
}
