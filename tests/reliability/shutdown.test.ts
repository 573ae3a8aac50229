import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function startAndStop(signal: 'SIGTERM' | 'SIGINT'): Promise<{ code: number | null; output: string; url: string; ms: number }> {
  const proc = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, DISCORD_TOKEN: '', DATABASE_URL: db.url, EMULATOR_PORT: '0', LOG_LEVEL: 'info', STONEHALL_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 60_000);
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
  });
  expect((await fetch(`${url}/_test/clock`)).ok).toBe(true);
  const sent = Date.now();
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  proc.kill(signal);
  const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
  if (code === null && proc.exitCode === null) proc.kill('SIGKILL');
  return { code, output, url, ms: Date.now() - sent };
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
