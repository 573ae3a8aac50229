import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '@stonehall/discord-emulator';
import { startDemoEmulator } from '../src/dev/demo-server.ts';
import { benchContext, benchDatabase, startGames } from './db.ts';
import { startFlags } from './procs.ts';

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

/** The process `npm start` runs the bot in: scripts/start.mjs's child (or start.mjs itself if it runs the bot in-process). */
async function botPid(startPid: number): Promise<number> {
  const children = (await readFile(`/proc/${startPid}/task/${startPid}/children`, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean);
  return children.length ? Number(children[0]) : startPid;
}

export interface MemoryResult {
  label: string;
  games: number;
  rssMiB: number;
  startMs: number;
}

/**
 * Idle resident memory of the bot process exactly as `npm start` runs it with the embedded
 * emulator (no DISCORD_TOKEN): the median of five readings a second apart, from `settleMs` after it
 * printed its banner. `database`: 'postgres' (a
 * fresh bench database holding `games` active games, cloned in SQL from a real one) or 'embedded'
 * (PGlite, in the same process: what a fresh clone's `npm install && npm start` runs).
 */
export async function startMemory(database: 'postgres' | 'embedded' | 'bot-alone', games = 0, settleMs = 5000): Promise<MemoryResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stonehall-bench-'));
  const bench = database !== 'embedded' ? await benchDatabase(4) : null;
  // 'bot-alone': the bot as it runs against Discord (DISCORD_TOKEN), the emulator in this process.
  const emulator = database === 'bot-alone' ? await startDemoEmulator({ logger: silentLogger }) : null;
  try {
    if (bench && games > 0) {
      const { db } = bench;
      const [template] = await startGames(benchContext(db), 1);
      await db.sql.query(
        `INSERT INTO games (guild_id, channel_id, kind, status, options, state, version, seed, seed_commitment, board_version, created_at, updated_at)
         SELECT guild_id, channel_id, kind, status, options, state, version, seed, seed_commitment, -1, now(), now()
         FROM games, generate_series(2, $1::int) WHERE id = $2`,
        [games, template],
      );
      await db.sql.query(
        `INSERT INTO seats (game_id, seat, player_id, turn_version, turn_started_at, deadline_at)
         SELECT g.id, s.seat, s.player_id, s.turn_version, s.turn_started_at, s.deadline_at FROM games g CROSS JOIN seats s WHERE s.game_id = $1 AND g.id <> $1`,
        [template],
      );
      await db.sql.query(
        `INSERT INTO jobs (kind, game_id, due_at, payload, status)
         SELECT j.kind, g.id, j.due_at, j.payload, 'pending' FROM games g CROSS JOIN jobs j WHERE j.game_id = $1 AND g.id <> $1 AND j.status = 'pending'`,
        [template],
      );
      await db.sql.exec(`UPDATE outbox SET status = 'sent', sent_at = now()`);
    }
    const env: NodeJS.ProcessEnv = { ...process.env, EMULATOR_PORT: '0', LOG_LEVEL: 'warn', STONEHALL_DATA_DIR: dataDir };
    delete env.DISCORD_TOKEN;
    delete env.DATABASE_URL;
    if (bench) env.DATABASE_URL = bench.url;
    if (emulator) Object.assign(env, { DISCORD_TOKEN: emulator.botToken, DISCORD_API_BASE: emulator.apiBase, LOG_LEVEL: 'info' });
    // The embedded database is created on the first start (initdb): measure a later start, as a
    // server runs most of its life.
    if (database === 'embedded') await runStart(env, 0);
    const label = {
      postgres: 'npm start, emulator in-process, DATABASE_URL',
      embedded: 'npm start, emulator and PGlite in-process (second start)',
      'bot-alone': 'npm start with DISCORD_TOKEN (emulator in another process), DATABASE_URL',
    }[database];
    return { ...(await runStart(env, settleMs, emulator ? '"stonehall started"' : 'Stonehall is running')), label, games };
  } finally {
    await emulator?.close();
    await bench?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function runStart(env: NodeJS.ProcessEnv, settleMs: number, ready = 'Stonehall is running'): Promise<{ rssMiB: number; startMs: number }> {
  const t = performance.now();
  const proc = spawn(process.execPath, [...startFlags(), 'scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not start in 120 s:\n${out.slice(-2000)}`)), 120_000);
      proc.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes(ready)) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}):\n${out.slice(-2000)}`));
      });
    });
    const startMs = performance.now() - t;
    await new Promise((r) => setTimeout(r, settleMs));
    // The median of five readings a second apart: one reading lands before or after a collection.
    const pid = await botPid(proc.pid!);
    const readings: number[] = [];
    for (let i = 0; i < (settleMs > 0 ? 5 : 1); i++) {
      readings.push(await rssMiB(pid));
      if (settleMs > 0) await new Promise((r) => setTimeout(r, 1000));
    }
    return { rssMiB: readings.sort((a, b) => a - b)[Math.floor(readings.length / 2)]!, startMs };
  } finally {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (proc.exitCode === null) proc.kill('SIGKILL');
  }
}
