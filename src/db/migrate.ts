import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SqlRunner {
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn on one connection holding the migration advisory lock (the one Prisma uses). */
  withLock<T>(fn: (conn: Omit<SqlRunner, 'withLock'>) => Promise<T>): Promise<T>;
}

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prisma/migrations');

// The bookkeeping table exactly as Prisma Migrate creates it.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  /** SHA-256 of the file, hex: what Prisma stores in _prisma_migrations.checksum. */
  checksum: string;
}

export async function readMigrations(dir = migrationsDir): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const buf = await readFile(path.join(dir, name, 'migration.sql'));
      return { name, sql: buf.toString('utf8'), checksum: createHash('sha256').update(buf).digest('hex') };
    }),
  );
}

/**
 * Applies pending migrations in name order, each in its own transaction, recording each in
 * _prisma_migrations as `prisma migrate deploy` does (so a later `prisma migrate deploy` on a
 * connected machine sees them as applied). Refuses to continue when an applied migration's file
 * changed (checksum mismatch) or a previous attempt failed, as Prisma does.
 */
export async function applyMigrations(runner: SqlRunner, dir = migrationsDir): Promise<string[]> {
  const files = await readMigrations(dir);
  return runner.withLock(async (db) => {
    await db.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const applied = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    const done: string[] = [];
    for (const f of files) {
      const prev = applied.get(f.name);
      if (prev) {
        if (prev.finished_at === null) throw new Error(`migration ${f.name} failed earlier; resolve it by hand (see docs/database.md)`);
        if (prev.checksum !== f.checksum) throw new Error(`migration ${f.name} was modified after it was applied`);
        continue;
      }
      const id = randomUUID();
      await db.exec('BEGIN');
      try {
        await db.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
          [id, f.checksum, f.name],
        );
        await db.exec(f.sql);
        await db.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        await db.exec('COMMIT');
      } catch (err) {
        await db.exec('ROLLBACK');
        throw new Error(`migration ${f.name} failed: ${(err as Error).message}`);
      }
      done.push(f.name);
    }
    return done;
  });
}
