import { connectPostgres } from '../../src/db/client.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { dbPrefix, templateName as template, urlFor, withAdmin } from './pg.ts';

/**
 * Once per run: build a template database with every migration applied. Test files clone it
 * (CREATE DATABASE ... TEMPLATE), which takes a fraction of a second, so each file has its own
 * database and files run in parallel safely.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // A run of its own: another run on the same server (a second checkout, CI) never drops our template.
  process.env.STONEHALL_TEST_DB_PREFIX ??= `stonehall_t${process.pid}`;
  const templateName = template();
  // Both io projects (vitest.config.ts) name this setup; vitest runs each project's before any
  // file starts, and every teardown at the end. The first builds the template and drops it.
  if (process.env.STONEHALL_TEST_TEMPLATE_BUILT === templateName) return async () => {};
  process.env.STONEHALL_TEST_TEMPLATE_BUILT = templateName;
  try {
    await withAdmin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${templateName}`);
    });
  } catch (err) {
    throw new Error(
      `Postgres is needed for the tests (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres): ${(err as Error).message}`,
    );
  }
  const db = await connectPostgres(urlFor(templateName), { poolSize: 2 });
  try {
    await applyMigrations(db.sql);
  } finally {
    await db.close();
  }
  return async () => {
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`)).catch(() => {});
    // Databases of files that were killed before they could drop their own.
    await withAdmin(async (c) => {
      const left = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${dbPrefix()}\\_%`]);
      for (const r of left.rows) await c.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
    }).catch(() => {});
  };
}
