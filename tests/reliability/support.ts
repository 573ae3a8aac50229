import type { APIMessage } from 'discord.js';
import { deployCommands } from '../../commands/deploy.ts';
import { silentLogger } from '@stonehall/discord-emulator';
import { startDemoEmulator, type DemoEmulator } from '../../src/dev/demo-server.ts';
import { outboxRowGame } from '../../src/services/notifications.ts';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { BotProcess } from '../helpers/bot-process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

export interface World {
  db: TestDatabase;
  emulator: DemoEmulator;
  alias: Record<string, string>;
  bot(extra?: Record<string, string>): BotProcess;
  /** Kills every bot process started so far (after a failed test, so the next one starts alone). */
  stopBots(): Promise<void>;
  close(): Promise<void>;
}

/** A database and an emulator that outlive the bot processes started against them. */
export async function startWorld(): Promise<World> {
  const db = await createTestDatabase();
  // Without rate limits (see tests/helpers/harness.ts): crash.test.ts plays six games as fast as the
  // clicks go, writing 200-400 notifications faster than Discord's per-channel buckets (5 messages
  // per 5 s in a DM channel, 5 edits per 5 s of the one game channel's boards) let them out; with
  // the limits on, draining them takes 27-30 s of its 30 s wait.
  const emulator = await startDemoEmulator({ logger: silentLogger, interactionTimeoutMs: 10_000, rateLimits: false });
  await deployCommands({ token: emulator.botToken, applicationId: emulator.applicationId, guildId: emulator.guildId, apiBase: emulator.apiBase });
  const procs: BotProcess[] = [];
  return {
    db,
    emulator,
    alias: Object.fromEntries(Object.entries(emulator.users).map(([k, v]) => [v, k])),
    bot(extra = {}) {
      const p = botProcess(emulator, db, extra);
      procs.push(p);
      return p;
    },
    async stopBots() {
      for (const p of procs) await p.stop();
    },
    async close() {
      for (const p of procs) await p.stop();
      await emulator.close();
      await db.drop();
    },
  };
}

/** Stonehall as its own process against this emulator and database (what `npm start` runs with a token). */
export function botProcess(emulator: Pick<DemoEmulator, 'botToken' | 'apiBase' | 'url'>, db: Pick<TestDatabase, 'url'>, extra: Record<string, string> = {}): BotProcess {
  return new BotProcess({
    DISCORD_TOKEN: emulator.botToken,
    DISCORD_API_BASE: emulator.apiBase,
    DATABASE_URL: db.url,
    DB_POOL_SIZE: '4',
    STONEHALL_CLOCK_URL: emulator.url,
    ...extra,
  });
}

export async function until(cond: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Six games among the four demo players, each pair once. */
export const PAIRS: ReadonlyArray<[string, string]> = [
  ['alice', 'bob'],
  ['carol', 'dave'],
  ['alice', 'carol'],
  ['bob', 'dave'],
  ['alice', 'dave'],
  ['bob', 'carol'],
];

/** Challenges and accepts through the test API; returns the game id. */
export async function startGame(w: World, a: string, b: string): Promise<number> {
  const api = w.emulator.client;
  const c = await api.command({ user: a, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: b } });
  const msg = c.response?.message;
  if (!msg) throw new Error(`challenge not answered: ${c.error}`);
  const accept = (msg.components?.[0] as { components: Array<{ custom_id: string }> }).components[0]!.custom_id;
  const acc = await api.click(b, msg.id, accept);
  if (acc.response?.type !== 7) throw new Error(`accept not answered: ${JSON.stringify(acc).slice(0, 500)}`);
  const ch = await w.db.prisma.challenge.findFirstOrThrow({ where: { messageId: msg.id } });
  return ch.gameId!;
}

/** The buttons of a board's first row (a Knucklebones board's columns). */
function firstRow(board: { components: unknown[] }): Array<{ custom_id?: string; disabled?: boolean }> {
  return (board.components[0] as { components?: Array<{ custom_id?: string; disabled?: boolean }> } | undefined)?.components ?? [];
}

/**
 * One click by whoever is to move, on the current board. Returns the emulator's answer type or null.
 * `moveOn`, when it settles before the answer, ends the wait: the answer is then `late` (a click
 * whose bot process was killed waits out the answer window).
 */
export async function clickOnce(w: World, gameId: number, pickSeed: number, moveOn?: Promise<void>): Promise<{ type: number | null; over: boolean; late?: Promise<number | null> }> {
  const g = await w.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  const st = g.state as unknown as KnucklebonesState;
  if (st.outcome) return { type: null, over: true };
  const board = [...w.emulator.state.messages.values()].find((m) => m.id === g.boardMessageId);
  if (!board) return { type: null, over: false };
  const open = firstRow(board).filter((b) => b.custom_id?.startsWith('kb:place') && !b.disabled);
  if (open.length === 0) return { type: null, over: false };
  const pick = open[pickSeed % open.length]!;
  const answer = w.emulator.client.click(w.alias[st.turn!]!, board.id, pick.custom_id!).then(
    (res) => res.response?.type ?? null,
    () => null, // e.g. the board changed under us: a stale button
  );
  if (!moveOn) return { type: await answer, over: false };
  const first = await Promise.race([answer.then((type) => ({ type })), moveOn.then(() => null)]);
  return first ? { type: first.type, over: false } : { type: null, over: false, late: answer };
}

export function botMessages(w: World): Array<APIMessage & { nonce: string | number | null; channelId: string }> {
  return [...w.emulator.state.messages.values()]
    .filter((m) => m.authorId === w.emulator.botUserId)
    .map((m) => ({ id: m.id, content: m.content, nonce: m.nonce, channelId: m.channelId }) as never);
}

/**
 * What a stuck game looks like, for a failure message: each unfinished game's version and whose turn
 * it is, the version its board shows (from its buttons), and its outbox rows not yet sent, with the
 * bot's last log lines. A game that stops taking clicks is otherwise a mystery after the fact.
 */
export async function stuckReport(w: World, gameIds: number[], log: string[]): Promise<string> {
  const lines: string[] = [];
  for (const id of gameIds) {
    const g = await w.db.prisma.game.findUniqueOrThrow({ where: { id } });
    if (g.status !== 'active') continue;
    const board = g.boardMessageId ? w.emulator.state.messages.get(g.boardMessageId) : undefined;
    const ids = (board ? firstRow(board) : []).map((b) => `${b.custom_id}${b.disabled ? ' (disabled)' : ''}`);
    const rows = await w.db.sql.query<Record<string, unknown>>(
      `SELECT id::text, kind, status, attempts, available_at::text, lease_until::text, result, last_error FROM outbox
        WHERE status <> 'sent' AND ${outboxRowGame('outbox')} = $1 ORDER BY id`,
      [String(id)],
    );
    lines.push(`game ${id}: version ${g.version}, board_version ${g.boardVersion}, turn ${w.alias[(g.state as { turn?: string }).turn ?? ''] ?? '?'}; board ${g.boardMessageId ?? 'none'} shows ${ids.join(', ') || 'no buttons'}`);
    for (const r of rows) lines.push(`  outbox ${JSON.stringify(r)}`);
  }
  return [...lines, 'the bot process\'s last log lines:', ...log.slice(-30)].join('\n');
}

