import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectPostgres, type Database } from '../../src/db/client.ts';
import { adminUrl, dbPrefix, templateName, urlFor, withAdmin } from './pg.ts';

export interface TestDatabase extends Database {
  name: string;
  url: string;
  /** Closes connections and drops the database. */
  drop(): Promise<void>;
}

/** A fresh, migrated database of this test file's own (cloned from the run's template). */
export async function createTestDatabase(opts: { poolSize?: number } = {}): Promise<TestDatabase> {
  const name = `${dbPrefix()}_${randomBytes(5).toString('hex')}`;
  await withAdmin(async (c) => {
    await c.query(`CREATE DATABASE ${name} TEMPLATE ${templateName()}`);
    // A test database need not survive a crash of the Postgres server: commits do not wait for
    // their WAL to reach the disk (each waits for an fsync otherwise, shared with every other
    // database on the server). What other sessions see, and when, is unchanged, bot processes
    // that a test kills included; only a Postgres crash could lose the last commits.
    await c.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  });
  const url = urlFor(name);
  const db = await connectPostgres(url, { poolSize: opts.poolSize ?? 8 });
  return {
    ...db,
    name,
    url,
    async drop() {
      await db.close();
      dropLater(name);
    },
  };
}

/**
 * Drops a database whose connections are closed, without waiting: DROP DATABASE makes Postgres 15
 * checkpoint, which takes 0.1-3 s on a busy machine, time the next test file need not wait for.
 * The statement goes out once the admin connection is up (milliseconds); Postgres finishes it even
 * if the test process ends first, and the global teardown drops whatever is left of the run.
 */
function dropLater(name: string): void {
  const c = new pg.Client({ connectionString: adminUrl });
  c.on('error', () => {});
  void c
    .connect()
    .then(() => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    .catch(() => {})
    .finally(() => void c.end().catch(() => {}));
}
