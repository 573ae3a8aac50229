import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What `npm start` runs: src/main.ts bundled into plain JavaScript by scripts/build.mjs. Built once
 * per test process (well under a second), into a folder of its own under dist/ that is removed when
 * the process exits, so parallel test files never start a bundle another one is writing. Starting
 * the bundle takes about 1.2 s of CPU against 2.6 s under the tsx loader, and these tests start a
 * dozen processes.
 */
let bundle: Promise<string> | null = null;
function built(): Promise<string> {
  bundle ??= (async () => {
    const dist = path.join(root, 'dist');
    mkdirSync(dist, { recursive: true });
    // Those of test processes that are gone (a worker ended by vitest does not run exit handlers).
    for (const dir of readdirSync(dist, { withFileTypes: true }).filter((d) => d.isDirectory() && /^test-\d+$/.test(d.name))) {
      if (!alive(Number(dir.name.slice(5)))) rmSync(path.join(dist, dir.name), { recursive: true, force: true });
    }
    const outdir = path.join(dist, `test-${process.pid}`);
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
    await promisify(execFile)(process.execPath, ['scripts/build.mjs', `--outdir=${outdir}`], { cwd: root });
    return path.join(outdir, 'main.js');
  })();
  return bundle;
}

/** Whether process `pid` still runs (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stonehall as a separate OS process (src/main.ts built as `npm start` builds and runs it), pointed
 * at an emulator and a database, so tests can SIGKILL it and start it again.
 */
export class BotProcess {
  private proc: ChildProcess | null = null;
  readonly log: string[] = [];
  starts = 0;

  constructor(private readonly env: Record<string, string>) {}

  /** Starts the process and resolves when it reports that it is running. */
  async start(): Promise<void> {
    if (this.proc) throw new Error('already running');
    const main = await built();
    const proc = spawn(process.execPath, [main], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'info', SCHEDULER_CRON: '* * * * * *', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc = proc;
    this.starts++;
    let buffered = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bot did not start:\n${this.log.slice(-20).join('\n')}`)), 30_000);
      const onLine = (line: string) => {
        this.log.push(line);
        if (this.log.length > 2000) this.log.splice(0, 1000);
        if (line.includes('"stonehall started"')) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        lines.forEach(onLine);
      });
      proc.stderr!.on('data', (chunk: Buffer) => this.log.push(`stderr: ${chunk.toString().trim()}`));
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (this.proc === proc) this.proc = null;
        reject(new Error(`bot exited (${code ?? signal}) before starting:\n${this.log.slice(-20).join('\n')}`));
      });
    });
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get running(): boolean {
    return this.proc !== null;
  }

  /** SIGKILL: no shutdown hooks, no flushing; whatever was in flight is cut off. */
  async kill(): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    this.proc = null;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM: the bot's clean stop (src/main.ts): interactions in flight are answered, then it exits. */
  async terminate(): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    this.proc = null;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  }

  async stop(): Promise<void> {
    await this.kill();
  }
}
