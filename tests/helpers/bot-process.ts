import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Stonehall as a separate OS process (src/main.ts, exactly what `npm start` runs), pointed at an
 * emulator and a database, so tests can SIGKILL it and start it again.
 */
export class BotProcess {
  private proc: ChildProcess | null = null;
  readonly log: string[] = [];
  starts = 0;

  constructor(private readonly env: Record<string, string>) {}

  /** Starts the process and resolves when it reports that it is running. */
  async start(): Promise<void> {
    if (this.proc) throw new Error('already running');
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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

  async stop(): Promise<void> {
    await this.kill();
  }
}
