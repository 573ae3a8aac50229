/**
 * Counts the round trips this process makes to Postgres, by statement and by the code that sent
 * it (STONEHALL_SQL_STATS=1, for the bench; off by default). Every statement of the process goes
 * through node-postgres's `Client.prototype.query`: Prisma's pg adapter, the hot path's prepared
 * statements (src/db/hot.ts), the REST budget and `pool.query` alike, so one wrapper there sees
 * them all. A call is one round trip; a simple query may hold several statements
 * (`BEGIN; SET LOCAL ...`), counted in `statements`.
 *
 * Who sent a statement is read from the stack (with V8's async frames) on a statement's first
 * calls and then on one call in 64, so the cost stays a map update per call.
 */

import { SQL_SHAPE } from './hot.ts';

export interface SqlStat {
  /** Round trips (Client.query calls). */
  calls: number;
  /** Statements in them (a simple query with `;` holds several). */
  statements: number;
  /** The application frames that sent it, innermost first ("DiscordDeliverer.dmTarget < DiscordDeliverer.dm"), sampled. */
  callers: Record<string, number>;
}

const stats = new Map<string, { calls: number; statements: number; callers: Map<string, number> }>();
let installed = false;

/**
 * Keys already worked out, by prepared name or statement text: the statements of a process are a
 * few dozen texts sent over and over, and squeezing a long text on every call cost the measured
 * process about 2% of its CPU at 50 games (the bench reads that CPU as the bot's).
 */
const byText = new Map<string, { key: string; statements: number }>();
const byName = new Map<string, { key: string; statements: number }>();

/** The statement as one short line: its prepared name if it has one, else its text squeezed. */
export function statementKey(config: unknown): { key: string; statements: number } {
  const c = config as { text?: unknown; name?: unknown; [SQL_SHAPE]?: unknown } | string;
  // A text with values inlined comes with its shape (its placeholders' text): named by that, once.
  const shape = typeof c === 'object' && typeof c?.[SQL_SHAPE] === 'string' ? c[SQL_SHAPE] : null;
  const text = shape ?? (typeof c === 'string' ? c : typeof c?.text === 'string' ? c.text : '?');
  const name = typeof c === 'object' && typeof c?.name === 'string' ? c.name : null;
  // A prepared statement's name stands for one text (node-postgres refuses a name reused with another).
  const cache = name === null ? byText : byName;
  const known = cache.get(name ?? text);
  if (known) return known;
  const computed = squeezeKey(text, name);
  // Texts built with values inside them would grow the map without bound: stop remembering then.
  if (cache.size < 5_000) cache.set(name ?? text, computed);
  return computed;
}

function squeezeKey(text: string, name: string | null): { key: string; statements: number } {
  const squeezed = text.replace(/\s+/g, ' ').trim();
  // Statements after the first in a simple query (no parameters): `BEGIN; SET LOCAL ...`.
  const parts = squeezed.replace(/'(?:[^']|'')*'/g, "''").split(/;\s*(?=\S)/);
  const statements = parts.length;
  if (name) return { key: `[${name}] ${squeezed.slice(0, 100)}`, statements };
  // A simple query's values are in its text (the hot path's lock by id, its write with COMMIT):
  // literals read as `?`, so one statement is one key; a simple query of several names its last.
  const shape = (t: string) => t.replace(/E?'(?:[^']|'')*'/g, '?').replace(/(?<![$\w])\d+\b/g, '?');
  const key = statements > 1 ? `${shape(squeezed).slice(0, 120)} … ${shape(parts.at(-1)!).slice(0, 40)}` : shape(squeezed).slice(0, 160);
  return { key, statements };
}

/** Frames of our own code (not node_modules, not Node's, not this file), as "Class.method" or "file:line". */
function callerOf(stack: string | undefined): string {
  const frames: string[] = [];
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const m = /^\s*at (?:async )?(?:(.+?) \()?(.+?):(\d+):\d+\)?$/.exec(line);
    if (!m) continue;
    const [, fn, file] = m;
    if (!file || file.includes('node_modules') || file.startsWith('node:') || file.includes('sql-stats') || fn === 'proto.query') continue;
    const name = fn && fn !== '<anonymous>' && !fn.startsWith('new Promise') ? fn.replace(/^Object\./, '') : `${file.split('/').pop()}:${m[3]}`;
    if (frames.at(-1) !== name) frames.push(name);
    if (frames.length === 3) break;
  }
  // Prisma's client sends its statements from its own engine: V8's async stack stops there.
  return frames.join(' < ') || '(Prisma: caller not on the stack)';
}

/** Wraps node-postgres's Client.prototype.query (once per process) to count every round trip. */
export function installSqlStats(pg: { Client: { prototype: { query: (...args: unknown[]) => unknown } } }): void {
  if (installed) return;
  installed = true;
  const proto = pg.Client.prototype;
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const { key, statements } = statementKey(args[0]);
    let s = stats.get(key);
    if (!s) stats.set(key, (s = { calls: 0, statements: 0, callers: new Map() }));
    s.calls++;
    s.statements += statements;
    if (s.calls <= 8 || s.calls % 64 === 0) {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      const caller = callerOf(new Error().stack);
      Error.stackTraceLimit = limit;
      s.callers.set(caller, (s.callers.get(caller) ?? 0) + 1);
    }
    return query.apply(this, args);
  };
}

/** Whether the counter is on in this process. */
export function sqlStatsInstalled(): boolean {
  return installed;
}

/** Everything counted since the process started (the bench takes the difference of two). */
export function sqlStatsSnapshot(): Record<string, SqlStat> {
  const out: Record<string, SqlStat> = {};
  for (const [key, s] of stats) out[key] = { calls: s.calls, statements: s.statements, callers: Object.fromEntries(s.callers) };
  return out;
}
