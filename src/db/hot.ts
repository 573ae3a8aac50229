import type { CustomTypesConfig, Pool, PoolClient, QueryResultRow } from 'pg';
import type { Prisma } from '../generated/prisma/client.ts';

/** Prisma's transaction client (declared here as in client.ts, which imports this module). */
type Tx = Prisma.TransactionClient;

/**
 * Hot paths on plain node-postgres: a transaction on a client of the pool Prisma itself runs on,
 * with named prepared statements (parsed once per connection), or, where a round trip is worth
 * more than a prepared plan, a statement sent with BEGIN or with COMMIT in one simple query (its
 * values inlined as checked literals: `first`, `commitWith`). Prisma stays the schema and the
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

/**
 * On a query config whose text has values inlined (HotTx.commitWith): the same text with its `$n`
 * placeholders, which never varies. The bench's round-trip counter (src/db/sql-stats.ts) names the
 * statement by it instead of squeezing a text that differs on every call; node-postgres ignores it.
 */
export const SQL_SHAPE = Symbol.for('stonehall.sql-shape');

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
 * What a hot transaction's `fn` gets besides its client: the rows of the statement run in BEGIN's
 * own round trip (`opts.first`), and a way to end the transaction with its last statement.
 */
export interface HotTx {
  /** The rows of `opts.first`, read in BEGIN's round trip (undefined without one). */
  first: QueryResultRow[] | undefined;
  /**
   * Runs `st` with `values` inlined as literals (inlineStatement), then COMMIT, in one round trip
   * (a simple query of two statements): the transaction is over once it resolves, and `fn` must do
   * nothing after it that could fail. If `st` fails, Postgres runs no COMMIT: the transaction is
   * rolled back as for any error of `fn`.
   */
  commitWith<R extends QueryResultRow>(st: Statement, values: unknown[]): Promise<R[]>;
}

/**
 * A string as a Postgres literal, exactly as node-postgres's `escapeLiteral` writes it (quotes
 * doubled; backslashes doubled and the literal marked ` E` if there is one, so no value can end
 * the literal), with two scans of native code instead of a loop that adds one character at a time:
 * that loop allocated some 10 KB a move on the hot path's write (tests/db/hot-inline.test.ts
 * checks both give the same text).
 */
export function quoteLiteral(s: string): string {
  const quoted = s.includes("'") ? s.replaceAll("'", "''") : s;
  return s.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/**
 * A literal Postgres reads as it reads the same value bound as a text parameter: integers and
 * booleans as themselves, strings quoted (quoteLiteral), null as NULL. Anything else (a Date, an
 * object, a fraction, NaN) is refused: the hot statements pass times as ISO strings and rows as
 * JSON text.
 */
function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number' && Number.isSafeInteger(v)) return `(${v})`;
  if (typeof v === 'string') return quoteLiteral(v);
  throw new Error(`no literal for a ${typeof v} in a hot statement`);
}

/** A statement's text cut at its parameters: `parts[k]`, then parameter `params[k]` (0-based), ..., then the last part. */
interface Template {
  parts: string[];
  params: number[];
}
const templates = new WeakMap<Statement, Template>();

function templateOf(st: Statement): Template {
  let t = templates.get(st);
  if (!t) {
    const pieces = st.text.split(/\$(\d+)/);
    t = { parts: pieces.filter((_, k) => k % 2 === 0), params: pieces.filter((_, k) => k % 2 === 1).map((n) => Number(n) - 1) };
    templates.set(st, t);
  }
  return t;
}

/**
 * `st`'s text with each `$n` replaced by `values[n-1]` as a literal (every parameter of a hot
 * statement carries its cast in the text, so the literal is read as the parameter was). The texts
 * hold no `$` but their parameters (checked: a `$n` past the values throws). The text is cut at its
 * parameters once per statement; a regular expression's replace on every move allocated about
 * 70 KB a move in the bot (a sampled heap profile at 50 games, docs/performance.md).
 */
export function inlineStatement(st: Statement, values: unknown[]): string {
  const { parts, params } = templateOf(st);
  let text = parts[0]!;
  for (let k = 0; k < params.length; k++) {
    const i = params[k]!;
    if (i < 0 || i >= values.length) throw new Error(`${st.name}: no value for $${i + 1}`);
    text += literal(values[i]) + parts[k + 1]!;
  }
  return text;
}

/**
 * One transaction on one client of the pool: BEGIN, `fn`, COMMIT; ROLLBACK if anything throws (the
 * error is rethrown). A client whose ROLLBACK fails is destroyed rather than handed back.
 * `opts.first` (a statement without parameters, e.g. the lock of a row whose integer id is in its
 * text) runs in BEGIN's round trip and its rows go to `fn`; `fn` may end the transaction itself
 * with its last statement (HotTx.commitWith): a move is then two round trips instead of four.
 */
export async function pgTransaction<T>(
  pool: Pool,
  fn: (client: PoolClient, tx: HotTx) => Promise<T>,
  opts: { maxWaitMs: number; statementTimeoutMs: number; first?: string },
): Promise<T> {
  const parsers = await typeParsers();
  const client = await connectWithin(pool, opts.maxWaitMs);
  // Set when the connection's state is unknown (ROLLBACK or COMMIT failed): it is destroyed.
  let broken: Error | undefined;
  let committed = false;
  const rollback = () =>
    client.query('ROLLBACK').then(
      () => undefined,
      (e: Error) => {
        broken = e;
      },
    );
  try {
    let first: QueryResultRow[] | undefined;
    try {
      // One round trip: no statement of a hot path waits longer than Prisma's whole transaction may
      // last; and the first statement with them. A failure anywhere in it is rolled back (a ROLLBACK
      // outside a transaction, if BEGIN itself failed, only warns; one that fails marks the client broken).
      const begin = `BEGIN; SET LOCAL statement_timeout = ${Math.max(1, Math.trunc(opts.statementTimeoutMs))}${opts.first ? `; ${opts.first}` : ''}`;
      const r = (await client.query({ text: begin, types: parsers })) as unknown as Array<{ rows: QueryResultRow[] }>;
      if (opts.first) first = r[2]!.rows;
    } catch (err) {
      await rollback();
      throw err;
    }
    const tx: HotTx = {
      first,
      async commitWith<R extends QueryResultRow>(st: Statement, values: unknown[]): Promise<R[]> {
        const text = `${inlineStatement(st, values)}; COMMIT`;
        const config = { text, types: parsers, [SQL_SHAPE]: `${st.text}; COMMIT` };
        const r = (await client.query(config)) as unknown as Array<{ rows: R[] }>;
        committed = true;
        return r[0]!.rows;
      },
    };
    let result: T;
    try {
      result = await fn(client, tx);
    } catch (err) {
      // Nothing to undo once committed (fn failed after its last statement).
      if (!committed) await rollback();
      throw err;
    }
    if (!committed) {
      try {
        await client.query('COMMIT');
      } catch (err) {
        broken = err as Error;
        throw err;
      }
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
