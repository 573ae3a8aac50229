import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../helpers/bot-process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * `npm start` runs scripts/start.mjs; systemd, Docker and pm2 stop it with SIGTERM, a terminal with
 * SIGINT. The signal must reach the bot, which stops cleanly and frees its port, and the process
 * that npm started must exit with it (it used to stay up, and the bot kept serving).
 */
const root = path.resolve(import.meta.dirname, '../..');
let db: TestDatabase;
// A data folder of the test's own: the embedded emulator keeps its state there (never in the checkout's .data).
const dataDir = mkdtempSync(path.join(tmpdir(), 'stonehall-shutdown-'));
beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 2 });
});
afterAll(async () => {
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Everything `proc` writes to stdout and stderr, as it comes (`output`), and the playground address
 * from its start-up banner (`url`), which fails if no banner comes within `ms` or `proc` exits first.
 */
function watchOutput(proc: ChildProcess, ms: number): { url: Promise<string>; readonly output: string } {
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), ms);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.on('exit', () => reject(new Error(`${proc.spawnargs.join(' ')} exited before its banner:\n${output}`)));
  });
  return {
    url,
    get output() {
      return output;
    },
  };
}

async function startAndStop(signal: 'SIGTERM' | 'SIGINT'): Promise<{ code: number | null; output: string; url: string; ms: number }> {
  const proc = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, DISCORD_TOKEN: '', DATABASE_URL: db.url, EMULATOR_PORT: '0', LOG_LEVEL: 'info', STONEHALL_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = watchOutput(proc, 60_000);
  const url = await log.url;
  expect((await fetch(`${url}/_test/clock`)).ok).toBe(true);
  const sent = Date.now();
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  proc.kill(signal);
  const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
  if (code === null && proc.exitCode === null) proc.kill('SIGKILL');
  return { code, output: log.output, url, ms: Date.now() - sent };
}

describe('stopping npm start', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the process npm started stops the bot cleanly and frees its port`, async () => {
      const r = await startAndStop(signal);
      expect(r.code, r.output).toBe(0);
      expect(r.output).toMatch(/shutting down/);
      expect(r.output).toMatch(/"stopped"/);
      // Nothing serves the emulator's address any more.
      await expect(fetch(`${r.url}/_test/clock`)).rejects.toThrow();
      // The emulator saved what a restart needs (the commands npm start registered) on its way out.
      const saved = path.join(dataDir, 'emulator', 'state.json');
      expect(existsSync(saved)).toBe(true);
      expect((JSON.parse(readFileSync(saved, 'utf8')) as { commands: unknown[] }).commands.length).toBeGreaterThan(0);
    }, 120_000);
  }
});

describe('a stop signal during start-up', () => {
  it('SIGTERM before the banner waits for the start to finish, then stops cleanly (it used to kill the process half-started)', async () => {
    const proc = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, DISCORD_TOKEN: '', DATABASE_URL: db.url, EMULATOR_PORT: '0', LOG_LEVEL: 'info', STONEHALL_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = watchOutput(proc, 60_000);
    log.url.catch(() => {});
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    // The database is migrated, the emulator and the bot are not started yet.
    await expect.poll(() => /database ready/.test(log.output), { timeout: 60_000, interval: 20 }).toBe(true);
    expect(log.output).not.toMatch(/Open http/);
    proc.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
    if (code === null && proc.exitCode === null) proc.kill('SIGKILL');
    expect(code, log.output).toBe(0);
    expect(log.output).toMatch(/shutting down/);
    expect(log.output).toMatch(/"stopped"/);
  }, 120_000);
});

/**
 * Every live process whose process group is `pgid` (Linux: field 5 of /proc/<pid>/stat). A zombie
 * (state Z) has exited and only waits for its parent to read its status: it serves nothing.
 */
function processGroup(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
  }
  return members;
}

/**
 * `npm start` the way systemd, Docker or pm2 run it: npm in a process group of its own, then a
 * signal to npm's pid only (`kill <pid>`), or to the whole group (Ctrl-C in a terminal). npm forwards
 * the signal to the command of the start script; when a shell ran that command and node was the
 * shell's child, the shell died of the signal, npm exited, and node, orphaned, kept serving.
 * With the embedded database in `dir`: the first case starts on a fresh folder, as on a fresh clone,
 * the second on what the first left, as a developer's next `npm start` (the embedded database's
 * first start is most of a start's CPU, and it is not what these cases are about).
 */
async function npmStartAndStop(target: 'npm' | 'group', signal: 'SIGTERM' | 'SIGINT', dir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DISCORD_TOKEN: '', EMULATOR_PORT: '0', LOG_LEVEL: 'info', STONEHALL_DATA_DIR: dir };
  delete env.DATABASE_URL;
  // Not npm's own variables of the npm that runs vitest: the npm below reads its own.
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  const npm = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const npmPid = npm.pid!;
  const log = watchOutput(npm, 90_000);
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  try {
    const url = await log.url;
    expect((await fetch(`${url}/_test/clock`)).ok).toBe(true);
    // The bot's own pid, from its log lines, and every process npm started.
    const botPid = Number(/"pid":(\d+)/.exec(log.output)?.[1]);
    const before = processGroup(npmPid);
    expect(before).toContain(npmPid);
    expect(before).toContain(botPid);

    process.kill(target === 'npm' ? npmPid : -npmPid, signal);
    const code = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 10_000))]);
    const after = processGroup(npmPid);
    return { code, output: log.output, url, before, after, botPid };
  } finally {
    // Never leave a bot behind, whatever failed above.
    try {
      process.kill(-npmPid, 'SIGKILL');
    } catch {}
  }
}

describe('stopping npm start as a process manager does', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stonehall-npm-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cases = [
    { target: 'npm', signal: 'SIGTERM', how: 'SIGTERM to npm\'s pid (systemd, Docker, pm2, kill)' },
    { target: 'group', signal: 'SIGINT', how: 'SIGINT to the process group (Ctrl-C in a terminal)' },
  ] as const;
  for (const { target, signal, how } of cases) {
    it(`${how}: every process is gone within 10 s, the bot stopped cleanly and its port is free`, async () => {
      const r = await npmStartAndStop(target, signal, dir);
      expect(r.code, r.output).toBe(0);
      expect(r.after, `still running after 10 s: ${r.after.join(', ')}\n${r.output}`).toEqual([]);
      expect(alive(r.botPid)).toBe(false);
      expect(r.output).toMatch(new RegExp(`"signal":"${signal}","msg":"shutting down"`));
      expect(r.output).toMatch(/"msg":"stopped"/);
      // Stopped once: a signal delivered twice (by the terminal and by npm) is not a second Ctrl-C.
      expect(r.output).not.toMatch(/second signal/);
      await expect(fetch(`${r.url}/_test/clock`)).rejects.toThrow();
    }, 150_000);
  }
});
