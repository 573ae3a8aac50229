// Does `npm start` with the embedded database (PGlite and the emulator in the bot's process) keep
// growing as games are played, or level off? Starts it exactly as `npm start` runs it, on a data
// folder of its own, plays Knucklebones practice games through the emulator's test API (as Alice,
// Bob, Carol and Dave by turns, every move a click on the board) and reads the process's resident
// memory every `every` games.
//
//   npx tsx bench/embedded-growth.ts [--games=200] [--every=20] [--crystallia]
// (--crystallia: Crystallia practice games, whose board is a picture uploaded at every change.)
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EmulatorClient } from '@stonehall/discord-emulator/client';
import type { APIMessage } from 'discord-api-types/v10';
import { startFlags } from './procs.ts';
import type { MemoryReport } from '../src/memory-report.ts';

export interface GrowthSample {
  games: number;
  rssMiB: number;
  /** Messages the bot has posted (the emulator keeps every one). */
  messages: number;
  /** Files uploaded (the emulator's copies, in its data folder) and their size. */
  files: number;
  fileMiB: number;
  seconds: number;
  /** The process's own report by part (STONEHALL_MEMORY_STATS=1, src/memory-report.ts). */
  parts: MemoryReport | null;
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

const USERS = ['alice', 'bob', 'carol', 'dave'] as const;
const CHANNEL = 'knucklebones';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Button = { type: number; custom_id?: string; disabled?: boolean };
const placeButtons = (m: APIMessage, gameId: number): Button[] =>
  (m.components ?? []).flatMap((r) => ((r as { components?: Button[] }).components ?? []).filter((c) => c.custom_id?.startsWith(`kb:place:${gameId}:`) && !c.disabled));

/** One practice game as `user`, clicked to its end. Returns the number of clicks. */
async function playPractice(emu: EmulatorClient, user: string): Promise<number> {
  const res = await emu.command({ user, channel: CHANNEL, name: 'knucklebones', options: { subcommand: 'practice' } });
  const gameId = Number(/Knucklebones #(\d+)/.exec(res.response?.message?.content ?? '')?.[1]);
  if (!gameId) throw new Error(`no practice game: ${JSON.stringify(res.response?.message?.content ?? res)}`);
  let clicks = 0;
  let lastVersion = '';
  let boardId = '';
  for (let waited = 0; ; ) {
    const { messages } = await emu.messages(CHANNEL, user, 20);
    // The board: the message whose buttons belong to this game (the newest, if it was reposted), then that message.
    const board = [...messages].reverse().find((m) => (boardId ? m.id === boardId : JSON.stringify(m.components ?? []).includes(`:${gameId}:`)));
    if (board) boardId = board.id;
    const open = board ? placeButtons(board, gameId) : [];
    const version = open[0]?.custom_id?.split(':')[3] ?? '';
    if (board && open.length && version !== lastVersion) {
      const r = await emu.click(user, board.id, open[0]!.custom_id!);
      if (r.response?.type === 7) {
        lastVersion = version;
        clicks++;
        waited = 0;
        continue;
      }
    }
    if (board && !open.length && /wins|Draw|draw/.test(board.content + JSON.stringify(board.embeds))) return clicks;
    if (++waited > 400) throw new Error(`game ${gameId} made no progress for 20 s (clicks: ${clicks}): ${JSON.stringify(board)}`);
    await sleep(50);
  }
}

type Select = { type: number; custom_id: string; options: Array<{ value: string }> };
const selectsOf = (m: APIMessage): Select[] => (m.components ?? []).flatMap((r) => ((r as { components?: Select[] }).components ?? []).filter((c) => c.type === 3));
const buttonsOf = (m: APIMessage): Button[] => (m.components ?? []).flatMap((r) => ((r as { components?: Button[] }).components ?? []).filter((c) => c.type === 2 && c.custom_id && !c.disabled));

/**
 * One Crystallia practice game as `user` (a picture uploaded at every change of the board and at
 * every preview): each turn is Take your turn, then the panel's first stone, square and direction,
 * no ability, the preview and Confirm. Returns the number of turns.
 */
async function playCrystalliaPractice(emu: EmulatorClient, user: string): Promise<number> {
  const res = await emu.command({ user, channel: 'general', name: 'crystallia', options: { subcommand: 'practice' } });
  const gameId = Number(/Crystallia #(\d+)/.exec(res.response?.message?.content ?? '')?.[1]);
  if (!gameId) throw new Error(`no practice game: ${JSON.stringify(res.response?.message?.content ?? res)}`);
  let turns = 0;
  let lastPlay = '';
  let boardId = '';
  for (let waited = 0; ; ) {
    const { messages } = await emu.messages('general', user, 20);
    const board = [...messages].reverse().find((m) => (boardId ? m.id === boardId : JSON.stringify(m.components ?? []).includes(`:${gameId}:`)));
    if (board) boardId = board.id;
    const play = board ? buttonsOf(board).find((b) => b.custom_id!.startsWith(`cr:play:${gameId}:`)) : undefined;
    if (board && play && play.custom_id !== lastPlay) {
      const opened = await emu.click(user, board.id, play.custom_id!);
      let panel = opened.response?.message;
      for (let k = 0; panel && k < 30; k++) {
        const btns = buttonsOf(panel);
        const by = (a: string) => btns.find((b) => b.custom_id!.split(':')[1] === a);
        const sel = (a: string) => selectsOf(panel!).find((x) => x.custom_id.split(':')[1] === a);
        const b = by('ok') ?? by('dir') ?? by('iso') ?? by('skip');
        const m = b ? undefined : (sel('mvto') ?? sel('rotto') ?? sel('sq') ?? sel('stone'));
        if (!b && !m) throw new Error(`the panel offers nothing to do: ${panel.content}`);
        const r = b ? await emu.click(user, panel.id, b.custom_id!) : await emu.select(user, panel.id, m!.custom_id, [m!.options[0]!.value]);
        if (b && b.custom_id!.split(':')[1] === 'ok') break;
        panel = r.response?.message;
      }
      lastPlay = play.custom_id!;
      turns++;
      waited = 0;
      continue;
    }
    if (board && !play && !JSON.stringify(board.components ?? []).includes(`cr:play:${gameId}:`) && /🏆|\bwins?\b|\bdraw\b/i.test(board.content)) return turns;
    if (++waited > 400) throw new Error(`Crystallia game ${gameId} made no progress for 20 s (turns: ${turns}): ${board?.content.slice(0, 300)}`);
    await sleep(50);
  }
}

export async function embeddedGrowth(games: number, every: number, log: (line: string) => void = () => {}, game: 'knucklebones' | 'crystallia' = 'knucklebones'): Promise<GrowthSample[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stonehall-growth-'));
  const env: NodeJS.ProcessEnv = { ...process.env, EMULATOR_PORT: '0', LOG_LEVEL: 'warn', STONEHALL_DATA_DIR: dataDir, STONEHALL_MEMORY_STATS: '1' };
  delete env.DISCORD_TOKEN;
  delete env.DATABASE_URL;
  const proc = spawn(process.execPath, [...startFlags(), 'scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not start in 180 s:\n${out.slice(-2000)}`)), 180_000);
      const on = (c: Buffer) => {
        out += c.toString();
        const m = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      proc.stdout!.on('data', on);
      proc.stderr!.on('data', on);
      proc.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out.slice(-2000)}`)));
    });
    const emu = new EmulatorClient(url);
    const t0 = performance.now();
    const samples: GrowthSample[] = [];
    // The process's own report: SIGUSR2 makes it print one `memory {...}` line.
    const report = async (): Promise<MemoryReport | null> => {
      const from = out.length;
      proc.kill('SIGUSR2');
      for (let i = 0; i < 100; i++) {
        const m = /memory (\{.*\})\n/.exec(out.slice(from));
        if (m) return JSON.parse(m[1]!) as MemoryReport;
        await sleep(50);
      }
      return null;
    };
    const sample = async (n: number) => {
      await sleep(2000); // let the outbox and the emulator's debounced save finish
      // RSS and the process's report first: listing every bot message through the test API
      // allocates in that same process, in proportion to the history, and would inflate them.
      const rss = await rssMiB(proc.pid!);
      const parts = await report();
      const messages = (await emu.messagesBy('bot')).messages.length;
      const files = await readdir(path.join(dataDir, 'emulator', 'files')).catch(() => []);
      let fileBytes = 0;
      for (const f of files) fileBytes += (await stat(path.join(dataDir, 'emulator', 'files', f))).size;
      const s = { games: n, rssMiB: rss, messages, files: files.length, fileMiB: fileBytes / 2 ** 20, seconds: (performance.now() - t0) / 1000, parts };
      samples.push(s);
      const p = s.parts;
      const shown = p
        ? `  heap ${p.heapUsed.toFixed(0)}/${p.heapTotal.toFixed(0)}  external ${p.external.toFixed(0)} (buffers ${p.arrayBuffers.toFixed(0)})  PGlite wasm ${p.pgliteWasm?.toFixed(0) ?? '-'}  native heap ${p.nativeHeap?.toFixed(0) ?? '-'}  emulator ${JSON.stringify(p.emulator)}`
        : '';
      log(`${String(n).padStart(5)} games  RSS ${s.rssMiB.toFixed(0).padStart(4)} MiB  bot messages ${String(messages).padStart(6)}  files ${files.length} (${s.fileMiB.toFixed(1)} MiB)  ${s.seconds.toFixed(0)} s${shown}`);
    };
    await sample(0);
    for (let g = 1; g <= games; g++) {
      if (game === 'crystallia') await playCrystalliaPractice(emu, USERS[g % USERS.length]!);
      else await playPractice(emu, USERS[g % USERS.length]!);
      if (g % every === 0) await sample(g);
    }
    return samples;
  } finally {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await Promise.race([exited, sleep(20_000)]);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt);
  const game = process.argv.includes('--crystallia') ? 'crystallia' : 'knucklebones';
  await embeddedGrowth(arg('games', 200), arg('every', 20), console.log, game);
}
