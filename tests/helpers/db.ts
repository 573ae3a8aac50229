import { randomBytes } from 'node:crypto';
import { connectPostgres, type Database } from '../../src/db/client.ts';
import { dbPrefix, templateName, urlFor, withAdmin } from './pg.ts';

export interface TestDatabase extends Database {
  name: string;
  url: string;
  /** Closes connections and drops the database. */
  drop(): Promise<void>;
}

/** A fresh, migrated database of this test file's own (cloned from the run's template). */
export async function createTestDatabase(opts: { poolSize?: number } = {}): Promise<TestDatabase> {
  const name = `${dbPrefix()}_${randomBytes(5).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${templateName()}`));
  const url = urlFor(name);
  const db = await connectPostgres(url, { poolSize: opts.poolSize ?? 8 });
  return {
    ...db,
    name,
    url,
    async drop() {
      await db.close();
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
