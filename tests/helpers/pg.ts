import pg from 'pg';

/** The Postgres server tests use (a real server: concurrency needs real connections). */
export const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
/**
 * Prefix for this run's databases, so two runs on one server never share one (CI sets its own;
 * otherwise the global setup picks one per run, stonehall_t<pid>, and the test workers inherit it).
 */
export const dbPrefix = () => (process.env.STONEHALL_TEST_DB_PREFIX ?? 'stonehall_test').replace(/[^a-z0-9_]/g, '_');
export const templateName = () => `${dbPrefix()}_template`;

export function urlFor(database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
