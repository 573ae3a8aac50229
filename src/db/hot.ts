import type { CustomTypesConfig, Pool, PoolClient, QueryResultRow } from 'pg';
import type { Prisma } from '../generated/prisma/client.ts';

/** Prisma's transaction client (declared here as in client.ts, which imports this module). */
type Tx = Prisma.TransactionClient;

/**
 * Hot paths on plain node-postgres: a transaction on a client of the pool Prisma itself runs on,
 * with named prepared statements (parsed once per connection). Prisma stays the schema and the
 * data layer for everything else; only use cases measured to be hot (a move) come here, and only
 * on a real Postgres server (the embedded database has no pool).
 */

/** The pool under each Prisma client that runs on one (registered by connectPostgres). */
const pools = new WeakMap<object, Pool>();

export function registerPool(prisma: object, pool: Pool): void {
  pools.set(prisma, pool);
}

/** The node-postgres pool `prisma` runs on, if it runs on one (not the embedded database). */
export function poolOf(prisma: object): Pool | undefined {
  return pools.get(prisma);
}

/** A statement of a hot path: one name, one text (the text never varies, so it is prepared once per connection). */
export interface Statement {
  name: string;
  text: string;
}

/** No connection freed up in time: nothing was done. */
export class PoolBusyError extends Error {
  constructor(ms: number) {
    super(`no database connection became free within ${ms} ms`);
    this.name = 'PoolBusyError';
  }
}

/**
 * A `timestamp` (without time zone) as a UTC Date, as Prisma reads it: the database keeps UTC,
 * and node-postgres would otherwise read it in the process's local zone.
 */
function utcTimestamp(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`);
}

const TIMESTAMP_OID = 1114;
const TIMESTAMP_ARRAY_OID = 1115;

/**
 * The type parsers of hot-path reads: node-postgres's own, but `timestamp` as UTC. Built when the
 * first hot transaction starts (node-postgres is loaded lazily, as connectPostgres loads it: the
 * embedded database never needs it).
 */
let types: CustomTypesConfig | undefined;

async function typeParsers(): Promise<CustomTypesConfig> {
  if (types) return types;
  const pg = (await import('pg')).default;
  types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === TIMESTAMP_OID && format !== 'binary') return utcTimestamp;
      if (oid === TIMESTAMP_ARRAY_OID) throw new Error('timestamp arrays are not read on hot paths');
      return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
    },
  } as CustomTypesConfig;
  return types;
}

/** Runs a prepared statement on `client`. */
export async function run<R extends QueryResultRow>(client: PoolClient, st: Statement, values: unknown[]): Promise<R[]> {
  const r = await client.query<R>({ name: st.name, text: st.text, values, types: types ?? (await typeParsers()) });
  return r.rows;
}

/** Runs a prepared statement on any client of the pool (a read outside any transaction). */
export async function runOnPool<R extends QueryResultRow>(pool: Pool, st: Statement, values: unknown[]): Promise<R[]> {
  const r = await pool.query<R>({ name: st.name, text: st.text, values, types: types ?? (await typeParsers()) });
  return r.rows;
}

/**
 * A statement outside any transaction: prepared on plain pg where `db` (a Prisma client) runs on a
 * pool, else (the embedded database) the same text through Prisma. Parameters carry their casts
 * in the text, so both read them alike.
 */
export async function query<R extends QueryResultRow>(db: { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> }, st: Statement, values: unknown[]): Promise<R[]> {
  const pool = poolOf(db);
  return pool ? runOnPool<R>(pool, st, values) : db.$queryRawUnsafe<R[]>(st.text, ...values);
}

/**
 * Takes a client from the pool within `maxWaitMs` (else PoolBusyError, nothing done). A client
 * that arrives after the deadline goes straight back to the pool.
 */
async function connectWithin(pool: Pool, maxWaitMs: number): Promise<PoolClient> {
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  const connecting = pool.connect();
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(new PoolBusyError(maxWaitMs));
    }, maxWaitMs);
  });
  try {
    return await Promise.race([connecting, timeout]);
  } finally {
    clearTimeout(timer);
    if (late) connecting.then((c) => c.release(), () => {});
  }
}

/**
 * One transaction on one client of the pool: BEGIN, `fn`, COMMIT; ROLLBACK if anything throws (the
 * error is rethrown). A client whose ROLLBACK fails is destroyed rather than handed back.
 */
export async function pgTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>, opts: { maxWaitMs: number; statementTimeoutMs: number }): Promise<T> {
  await typeParsers();
  const client = await connectWithin(pool, opts.maxWaitMs);
  // Set when the connection's state is unknown (BEGIN, COMMIT or ROLLBACK failed): it is destroyed.
  let broken: Error | undefined;
  try {
    try {
      // One round trip: no statement of a hot path waits longer than Prisma's whole transaction may last.
      await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.max(1, Math.trunc(opts.statementTimeoutMs))}`);
    } catch (err) {
      broken = err as Error;
      throw err;
    }
    let result: T;
    try {
      result = await fn(client);
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw err;
    }
    try {
      await client.query('COMMIT');
    } catch (err) {
      broken = err as Error;
      throw err;
    }
    return result;
  } finally {
    client.release(broken);
  }
}

/**
 * Statements of a use case shared by both paths: run on Prisma's interactive transaction (every
 * other use case) or prepared on the hot path's client. Same text either way.
 */
export interface Sql {
  run<R extends QueryResultRow>(st: Statement, values: unknown[]): Promise<R[]>;
}

export function pgSql(client: PoolClient): Sql {
  return { run: (st, values) => run(client, st, values) };
}

export function prismaSql(tx: Tx): Sql {
  return { run: <R extends QueryResultRow>(st: Statement, values: unknown[]) => tx.$queryRawUnsafe<R[]>(st.text, ...values) };
}
