import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { registerPool } from './hot.ts';
import type { SqlRunner } from './migrate.ts';

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
export { PrismaClient };

export interface Database {
  prisma: PrismaClient;
  /** Raw SQL for the migration runner and tests. */
  sql: SqlRunner;
  kind: 'postgres' | 'pglite';
  /** The node-postgres pool Prisma runs on (Postgres only): for plain-pg measurements and hot paths. */
  pool?: import('pg').Pool;
  /** The embedded database's WebAssembly memory, in bytes (it grows and never shrinks): for the memory report. */
  wasmMemoryBytes?(): number;
  close(): Promise<void>;
}

/** Connects to a Postgres server through node-postgres and Prisma's pg adapter. */
export async function connectPostgres(url: string, opts: { poolSize?: number; sqlStats?: boolean } = {}): Promise<Database> {
  const pg = await import('pg');
  // Measurement only (the bench): every round trip counted by statement and caller.
  if (opts.sqlStats) (await import('./sql-stats.ts')).installSqlStats(pg.default as never);
  // An idle connection is kept a minute (pg-pool's default is 10 s): a bot whose clicks come a few
  // seconds apart, or a burst after a pause, would otherwise open connections again and again, each
  // a TCP handshake, a session start and its prepared statements parsed again (src/db/hot.ts); a
  // third of the bot's CPU in the bench's 1-game level went there. TCP keepalive lets a connection
  // cut by the network while idle be noticed and replaced.
  const pool = new pg.default.Pool({ connectionString: url, max: opts.poolSize ?? 10, idleTimeoutMillis: 60_000, keepAlive: true });
  // An idle connection dropped by the server (restart, failover) must not crash the process;
  // the pool replaces it on next use.
  pool.on('error', () => {});
  const adapter = new PrismaPg(pool, { disposeExternalPool: false });
  const prisma = new PrismaClient({ adapter });
  // Hot paths (a move) run plain pg on this same pool: src/db/hot.ts.
  registerPool(prisma, pool);
  const sql: SqlRunner = {
    async exec(text) {
      await pool.query(text);
    },
    async query<T>(text: string, params: unknown[] = []) {
      const r = await pool.query(text, params);
      return r.rows as T[];
    },
    async withLock(fn) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(72707369)');
        return await fn({
          exec: async (t) => void (await client.query(t)),
          query: async <T,>(t: string, p: unknown[] = []) => (await client.query(t, p)).rows as T[],
        });
      } finally {
        await client.query('SELECT pg_advisory_unlock(72707369)').catch(() => {});
        client.release();
      }
    },
  };
  return {
    prisma,
    sql,
    kind: 'postgres',
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * An embedded Postgres (PGlite, Postgres compiled to WebAssembly) keeping its data in `dataDir`.
 * Used by `npm start` when no DATABASE_URL is set. It is a single connection: fine for one local
 * bot, not for the concurrency tests, which run on a real server.
 */
/** The embedded Postgres's buffer cache (Postgres's default is 128MB). */
export const EMBEDDED_SHARED_BUFFERS = '32MB';

export async function openEmbedded(dataDir: string): Promise<Database> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dataDir, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  // Postgres's buffer cache lives in PGlite's WebAssembly memory, which never shrinks: at the
  // default 128 MB it filled as games were played and the process grew with it. 32 MB holds a
  // local server's working set (the files stay in the OS's cache besides): bench/embedded-growth.ts
  // measured 40 Crystallia games at about 440-480 MiB instead of 730-920 (docs/performance.md).
  const lite = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`] });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  const sql: SqlRunner = {
    exec: async (t) => void (await lite.exec(t)),
    query: async <T,>(t: string, p: unknown[] = []) => (await lite.query<T>(t, p)).rows,
    withLock: async (fn) => fn(sql),
  };
  return {
    prisma,
    sql,
    kind: 'pglite',
    wasmMemoryBytes: () => (lite as unknown as { mod?: { wasmMemory?: { buffer: ArrayBuffer } } }).mod?.wasmMemory?.buffer.byteLength ?? 0,
    async close() {
      await prisma.$disconnect();
      await lite.close();
    },
  };
}
