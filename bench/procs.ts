// The bench's processes: the Discord emulator and the bot each in a process of their own, the
// bench (this process) only the load driver. The emulator runs its standalone entry
// (packages/discord-emulator/src/main.ts, through tsx: it is a test tool, not shipped) with
// Discord's rate limits on; the bot runs as `npm start` runs it: src/main.ts built by
// scripts/build.mjs into dist/main.js and started with plain node (no tsx loader in the bot's CPU
// or memory), against a fresh database.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmulatorClient, type ServerDefinition } from '@stonehall/discord-emulator';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TICKS_PER_SECOND = 100; // Linux USER_HZ, what /proc/<pid>/stat counts in

/** CPU time (user + system, ms) and resident set (MiB) of a process, read from /proc. */
export function procUsage(pid: number): { cpuMs: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, inside parentheses): state is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuMs, rssMiB: rss ? Number(rss[1]) / 1024 : 0 };
}

/** A child process whose output is kept (the last lines, for an error message). */
class Child {
  readonly log: string[] = [];
  private exited: Promise<void>;

  constructor(readonly name: string, readonly proc: ChildProcess) {
    const keep = (prefix: string) => {
      let buf = '';
      return (chunk: Buffer) => {
        buf += chunk.toString();
        const lines = buf.split('\n');
        buf = lines.pop() ?? '';
        for (const l of lines) this.line(prefix + l);
      };
    };
    proc.stdout?.on('data', keep(''));
    proc.stderr?.on('data', keep('stderr: '));
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
  }

  private waiters: Array<(line: string) => boolean> = [];
  private listeners: Array<(line: string) => void> = [];
  /** Calls `fn` with every line of output from now on. */
  onLine(fn: (line: string) => void): void {
    this.listeners.push(fn);
  }
  private line(l: string): void {
    // BENCH_BOT_OUT=<file>: every line the bots print, kept (e.g. with --bot-node-args=--trace-gc).
    if (process.env.BENCH_BOT_OUT && this.name.startsWith('bot')) appendFileSync(process.env.BENCH_BOT_OUT, `${this.name}: ${l}\n`);
    for (const fn of this.listeners) fn(l);
    this.log.push(l);
    if (this.log.length > 400) this.log.splice(0, 200);
    this.waiters = this.waiters.filter((w) => !w(l));
  }

  get pid(): number {
    return this.proc.pid!;
  }

  /** Resolves with the first line `match` accepts; rejects if the process exits first or after `ms`. */
  waitForLine(match: (line: string) => boolean, ms = 60_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} did not start in ${ms} ms:\n${this.log.slice(-20).join('\n')}`)), ms);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited (${code}) before it was ready:\n${this.log.slice(-20).join('\n')}`));
      };
      this.proc.once('exit', onExit);
      this.waiters.push((l) => {
        if (!match(l)) return false;
        clearTimeout(timer);
        this.proc.off('exit', onExit);
        resolve(l);
        return true;
      });
    });
  }

  usage(): { cpuMs: number; rssMiB: number } {
    return procUsage(this.pid);
  }

  /** SIGTERM (a clean shutdown), SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

export interface RouteStats {
  requests: number;
  ok: number;
  limited: number;
  failed: number;
}

/**
 * What the driver reads over the emulator's test API beyond EmulatorClient's actions (plain
 * requests: the routes are the emulator's, `GET|DELETE /_test/rest-stats`, `GET /_test/messages`).
 */
export class TestApiReader {
  constructor(private readonly url: string) {}

  private async call<T>(method: string, path: string): Promise<T> {
    const res = await fetch(`${this.url}/_test${path}`, { method });
    if (!res.ok) throw new Error(`${method} /_test${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** The bot's REST requests per route ("POST /channels/:channelId/messages") and the limiter's 429s. */
  restStats(): Promise<{ routes: Record<string, RouteStats>; total: RouteStats; rateLimited: { global: number; route: number } | null }> {
    return this.call('GET', '/rest-stats');
  }

  async resetRestStats(): Promise<void> {
    await this.call('DELETE', '/rest-stats');
  }

  /** Every message the bot wrote, compact. */
  async botMessages(): Promise<Array<{ id: string; channelId: string; dmRecipientId: string | null; nonce: string | number | null; content: string }>> {
    return (await this.call<{ messages: Array<{ id: string; channelId: string; dmRecipientId: string | null; nonce: string | number | null; content: string }> }>('GET', '/messages?author=bot')).messages;
  }
}

/** What the emulator's process prints when it is ready (EMULATOR_READY_JSON=1). */
interface ReadyLine {
  url: string;
  apiBase: string;
  botToken: string;
  botUserId: string;
  guildId: string;
  users: Record<string, string>;
  guilds: Array<{ channels: Record<string, string> }>;
}

export interface EmulatorProcess extends Omit<ReadyLine, 'guilds'> {
  channels: Record<string, string>;
  client: EmulatorClient;
  read: TestApiReader;
  child: Child;
  stop(): Promise<void>;
}

/** The emulator as its own process, serving `server`, Discord's rate limits on (their default figures). */
export async function startEmulatorProcess(server: ServerDefinition, opts: { interactionTimeoutMs?: number } = {}): Promise<EmulatorProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'stonehall-bench-'));
  const file = path.join(dir, 'server.json');
  writeFileSync(file, JSON.stringify(server));
  const child = new Child(
    'emulator',
    spawn(process.execPath, ['--import', 'tsx', 'packages/discord-emulator/src/main.ts'], {
      cwd: root,
      env: { ...process.env, EMULATOR_PORT: '0', EMULATOR_SERVER_FILE: file, EMULATOR_RATE_LIMITS: 'on', EMULATOR_READY_JSON: '1', ...(opts.interactionTimeoutMs ? { EMULATOR_INTERACTION_TIMEOUT_MS: String(opts.interactionTimeoutMs) } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const ready = JSON.parse(await child.waitForLine((l) => l.startsWith('{"ready":true'))) as ReadyLine;
  return {
    url: ready.url,
    apiBase: ready.apiBase,
    botToken: ready.botToken,
    botUserId: ready.botUserId,
    guildId: ready.guildId,
    users: ready.users,
    channels: ready.guilds[0]!.channels,
    client: new EmulatorClient(ready.url),
    read: new TestApiReader(ready.url),
    child,
    async stop() {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const built = new Set<string>();
/**
 * Builds dist/main.js (scripts/build.mjs, what `npm start` does first), or with `entry` that file
 * into dist/<its name>.js (the floor bot), once per bench run.
 */
function buildBot(entry?: string): void {
  if (built.has(entry ?? '')) return;
  const r = spawnSync(process.execPath, ['scripts/build.mjs', ...(entry ? [`--entry=${entry}`] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`scripts/build.mjs${entry ? ` --entry=${entry}` : ''} failed:\n${r.stdout}\n${r.stderr}`);
  built.add(entry ?? '');
}

export interface BotProc {
  child: Child;
  usage(): { cpuMs: number; rssMiB: number };
  stop(): Promise<void>;
}

/** Node's flags in package.json's start script (`exec node <flags> scripts/start.mjs`): the bench runs the bot as `npm start` does. */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const m = /^(?:exec\s+)?node\s+(.*?)\s*scripts\/start\.mjs$/.exec(pkg.scripts.start.trim());
  if (!m) throw new Error(`package.json's start script is not "exec node [flags] scripts/start.mjs": ${pkg.scripts.start}`);
  return m[1] ? m[1].split(/\s+/) : [];
}

/**
 * `count` bot processes against the emulator and the database, each started and ready ("stonehall
 * started" logged). Several processes split the gateway's shards (SHARD_COUNT) and share the
 * outbox (each claims its own rows). `extra` adds environment variables (e.g. the pool size).
 */
export async function startBots(emulator: Pick<EmulatorProcess, 'botToken' | 'apiBase'>, databaseUrl: string, count: number, extra: Record<string, string> = {}, nodeArgs: string[] = []): Promise<BotProc[]> {
  buildBot();
  // Node's flags as `npm start` gives them (its young-generation cap changes the bot's GC work), then the caller's.
  const flags = [...startFlags(), ...nodeArgs];
  const bots: BotProc[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const child = new Child(
        `bot ${i + 1}`,
        spawn(process.execPath, [...flags, 'dist/main.js'], {
          cwd: root,
          env: {
            ...process.env,
            DISCORD_TOKEN: emulator.botToken,
            DISCORD_API_BASE: emulator.apiBase,
            DATABASE_URL: databaseUrl,
            LOG_LEVEL: 'info',
            SCHEDULER_CRON: '* * * * * *',
            ...(count > 1 ? { SHARD_COUNT: String(count), SHARD_IDS: String(i) } : {}),
            ...extra,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      bots.push({ child, usage: () => child.usage(), stop: () => child.stop() });
      await child.waitForLine((l) => l.includes('"stonehall started"'));
    }
  } catch (err) {
    await Promise.all(bots.map((b) => b.stop()));
    throw err;
  }
  return bots;
}

/** What the bot has counted of its Postgres round trips (it runs with STONEHALL_SQL_STATS=1): src/db/sql-stats.ts. */
export type SqlStats = Record<string, { calls: number; statements: number; callers: Record<string, number> }>;

/**
 * Asks a bot started with STONEHALL_SQL_STATS=1 for its counts (SIGUSR2; it logs them on one line)
 * and its own CPU time so far (process.cpuUsage(), user + system, all threads), in ms to the microsecond.
 */
export async function sqlStats(bot: BotProc): Promise<{ sql: SqlStats; cpuMs: number; systemMs: number; pending: number; replies: number[] }> {
  const line = bot.child.waitForLine((l) => l.includes('"sql stats"'), 10_000);
  bot.child.proc.kill('SIGUSR2');
  const e = JSON.parse(await line) as { sql: SqlStats; cpuUs: { user: number; system: number }; pending?: number; replies?: number[] };
  // The floor bot's (bench/floor-bot-main.ts): its turn DMs not yet sent, and its clicks' answer times
  // since the last read. Stonehall's bot has its DMs in the outbox and logs each click's time.
  return { sql: e.sql, cpuMs: (e.cpuUs.user + e.cpuUs.system) / 1000, systemMs: e.cpuUs.system / 1000, pending: e.pending ?? 0, replies: e.replies ?? [] };
}

/** The round trips between two snapshots, per statement (with its most frequent caller), most first. */
export function sqlDiff(before: SqlStats, after: SqlStats): { calls: number; statements: number; rows: Array<{ key: string; calls: number; caller: string }> } {
  const rows: Array<{ key: string; calls: number; caller: string }> = [];
  let calls = 0;
  let statements = 0;
  for (const [key, a] of Object.entries(after)) {
    const b = before[key];
    const n = a.calls - (b?.calls ?? 0);
    if (n <= 0) continue;
    calls += n;
    statements += a.statements - (b?.statements ?? 0);
    const caller = Object.entries(a.callers).sort((x, y) => y[1] - x[1])[0]?.[0] ?? '?';
    rows.push({ key, calls: n, caller });
  }
  rows.sort((x, y) => y.calls - x.calls);
  return { calls, statements, rows };
}

/** Warnings and errors the bot processes logged (pino JSON lines at level ≥ 40), for the bench to report. */
export function botProblems(bots: BotProc[]): string[] {
  return bots.flatMap((b) =>
    b.child.log.filter((l) => {
      if (l.startsWith('stderr: ')) return true;
      const m = /"level":(\d+)/.exec(l);
      return m !== null && Number(m[1]) >= 40;
    }),
  );
}

/**
 * The floor bot (bench/floor-bot-main.ts: a bare discord.js client doing the least a move needs),
 * built as the bot is (scripts/build.mjs, into dist/floor-bot-main.js) and started with the Node
 * flags `npm start` gives Stonehall's bot, then `nodeArgs`. Ready once it has logged in.
 */
export async function startFloorBot(emulator: Pick<EmulatorProcess, 'botToken' | 'apiBase'>, databaseUrl: string, nodeArgs: string[] = []): Promise<BotProc> {
  buildBot('bench/floor-bot-main.ts');
  const child = new Child(
    'floor bot',
    spawn(process.execPath, [...startFlags(), ...nodeArgs, 'dist/floor-bot-main.js'], {
      cwd: root,
      env: { ...process.env, DISCORD_TOKEN: emulator.botToken, DISCORD_API_BASE: emulator.apiBase, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const bot = { child, usage: () => child.usage(), stop: () => child.stop() };
  try {
    await child.waitForLine((l) => l.includes('"floor bot ready"'));
  } catch (err) {
    await child.stop();
    throw err;
  }
  return bot;
}
