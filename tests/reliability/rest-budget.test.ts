import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, startEmulator, type Emulator } from '@stonehall/discord-emulator';
import type { BotProcess } from '../helpers/bot-process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { botProcess, until } from './support.ts';

/**
 * Two Stonehall processes delivering one burst of outbox rows against an emulator that enforces a
 * low global limit (10 requests a second per bot token, as Discord counts it: across processes).
 * Per-route buckets are made generous so that only the global limit binds. With the shared budget
 * the emulator answers no global 429; without it (each process held only by discord.js's own
 * limiter) the same burst draws them. Either way every row arrives exactly once.
 */
const server = {
  bot: { username: 'Stonehall' },
  users: [{ alias: 'owner', username: 'owner', globalName: 'Owner' }],
  guilds: [{ name: 'Budget', owner: 'owner', channels: [{ name: 'announcements' }] }],
} as const;

const LIMIT = 10;
const ROWS = 40;

let db: TestDatabase;
let emulator: Emulator<typeof server>;
let channelId: string;
const procs: BotProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  emulator = await startEmulator({
    server,
    logger: silentLogger,
    rateLimits: { globalPerSecond: LIMIT, routes: [], fallback: { limit: 1_000, windowMs: 1_000 } },
  });
  channelId = emulator.guilds[0]!.channels.announcements;
});
afterAll(async () => {
  for (const p of procs) await p.stop();
  await emulator?.close();
  await db?.drop();
});

/** Two worker processes (deadlines and deliveries only, no gateway) with this budget setting. */
async function workers(budget: '0' | '1'): Promise<BotProcess[]> {
  // A slack of 250 ms (50 in production): the emulator counts a request when it arrives, and on a
  // loaded machine a request released on time by the budget reached it more than 50 ms later, in
  // the next second's window beside the one booked after it (one global 429 at load 16). The budget
  // under test is the same; it tolerates 250 ms on the way and hands out 8 requests a second of 10.
  const ps = [0, 1].map(() => botProcess(emulator, db, { STONEHALL_GATEWAY: '0', DISCORD_GLOBAL_RATE: String(LIMIT), STONEHALL_REST_BUDGET: budget, STONEHALL_REST_BUDGET_SLACK_MS: '250' }));
  procs.push(...ps);
  await Promise.all(ps.map((p) => p.start()));
  return ps;
}

/** A burst of channel posts written at once (as a Battle Phase's announcements would be). */
async function burst(tag: string): Promise<bigint[]> {
  const rows = await db.sql.query<{ id: string }>(
    `INSERT INTO outbox (kind, payload)
     SELECT 'channel-message', jsonb_build_object('channelId', $1::text, 'content', $2::text || ' ' || n, 'allowedUserIds', '[]'::jsonb)
     FROM generate_series(1, $3::int) n RETURNING id`,
    [channelId, tag, ROWS],
  );
  return rows.map((r) => BigInt(r.id));
}

async function delivered(ids: bigint[]): Promise<void> {
  await until(async () => (await db.prisma.outbox.count({ where: { id: { in: ids }, status: { not: 'sent' } } })) === 0, 'the burst to be delivered', 60_000);
  const messages = [...emulator.state.messages.values()].filter((m) => m.channelId === channelId);
  for (const id of ids) {
    expect(messages.filter((m) => m.nonce === `sh${id}`), `outbox row ${id} posted exactly once`).toHaveLength(1);
  }
}

describe('two processes, one global limit', () => {
  it('share the budget: a burst from both draws no global 429, and each row arrives once', async () => {
    const ps = await workers('1');
    expect(ps.every((p) => p.log.some((l) => l.includes('"stonehall started"') && l.includes(`"restBudget":${LIMIT}`)))).toBe(true);
    const ids = await burst('with the budget');
    await delivered(ids);
    expect(emulator.rateLimiter!.counts.global).toBe(0);
    // One row for the bot's token, whichever process booked from it.
    const budgetRows = await db.sql.query<{ n: string }>('SELECT count(*) AS n FROM rest_budget');
    expect(Number(budgetRows[0]!.n)).toBe(1);
    for (const p of ps) await p.stop();
  }, 60_000);

  it('without it, the same burst from two processes draws global 429s (what the budget prevents)', async () => {
    const before = emulator.rateLimiter!.counts.global;
    await workers('0');
    const ids = await burst('without the budget');
    await delivered(ids);
    expect(emulator.rateLimiter!.counts.global).toBeGreaterThan(before);
  }, 60_000);
});
