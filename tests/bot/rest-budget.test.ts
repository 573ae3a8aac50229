import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { budgetKey, countsAgainstGlobal, RestBudget } from '../../src/bot/rest-budget.ts';
import { readEnv, restBudgetEnabled } from '../../src/config.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * The REST budget on a real Postgres: several budgets (as several processes would, each with its
 * own pool) book slots from one row, and no second ever sees more than the limit go out.
 */
let db: TestDatabase;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 4 });
});
afterAll(async () => {
  for (const p of pools) await p.end();
  await db?.drop();
});
beforeEach(async () => {
  await db.sql.exec('DELETE FROM rest_budget');
});

function pool(): pg.Pool {
  const p = new pg.Pool({ connectionString: db.url, max: 2 });
  // As the app's pool (src/db/client.ts): a connection the server ends (the database dropped with
  // FORCE at the end) is the pool's to replace, not an uncaught exception.
  p.on('error', () => {});
  pools.push(p);
  return p;
}

/**
 * A pool that records every reservation the database granted: its slots' start, how many, and
 * the database's clock then. What a booking depends on, so a test can check each one exactly,
 * whatever the machine's load (a busy machine fires a slot's timer late: the request gives the
 * slot up and books again, a second reservation).
 */
function recordingPool(granted: Array<{ start_ms: number; db_now_ms: number; n: number }> = []): { pool: pg.Pool; granted: Array<{ start_ms: number; db_now_ms: number; n: number }> } {
  const recording = new Proxy(pool(), {
    get(target, key) {
      if (key !== 'query') return Reflect.get(target, key);
      return async (text: string, values: unknown[]) => {
        const r = await target.query(text, values);
        const row = r.rows[0] as { start_ms?: number; db_now_ms?: number } | undefined;
        if (text.includes('INSERT INTO rest_budget') && row) granted.push({ start_ms: Number(row.start_ms), db_now_ms: Number(row.db_now_ms), n: Number(values[1]) });
        return r;
      };
    },
  });
  return { pool: recording, granted };
}

/** Each reservation after the first starts where the row stood, or at the database's present if that was later. */
function expectBookedInTurn(granted: Array<{ start_ms: number; db_now_ms: number; n: number }>, interval: number): void {
  for (let i = 1; i < granted.length; i++) {
    const prev = granted[i - 1]!;
    expect(granted[i]!.start_ms).toBeCloseTo(Math.max(prev.start_ms + prev.n * interval, granted[i]!.db_now_ms), 3);
  }
}

const now = () => performance.timeOrigin + performance.now();
const dbNowMs = async () => Number((await db.sql.query<{ ms: number }>('SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms'))[0]!.ms);
const nextSlot = async (key: string) => Number((await db.sql.query<{ next_slot_ms: number }>('SELECT next_slot_ms FROM rest_budget WHERE key = $1', [key]))[0]!.next_slot_ms);

/** The most requests that went out within any one second (half-open), from sorted send times. */
function busiestSecond(times: number[]): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j]! - t[i]! >= 1000) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

describe('which requests count against the global limit', () => {
  it.each([
    ['https://discord.com/api/v10/channels/1/messages', true],
    ['https://discord.com/api/v10/users/@me/channels', true],
    ['https://discord.com/api/v10/webhooks/123', true],
    ['https://discord.com/api/v10/interactions/1/tok/callback', false],
    ['https://discord.com/api/v10/webhooks/123/tok', false],
    ['https://discord.com/api/v10/webhooks/123/tok/messages/@original', false],
    ['http://127.0.0.1:8787/api/v10/interactions/99/abc/callback?with_response=true', false],
  ])('%s: %s', (url, counts) => {
    expect(countsAgainstGlobal(url)).toBe(counts);
  });

  it("keys the budget by the token's bot id", () => {
    const token = `${Buffer.from('123456789012345678').toString('base64')}.abc.def`;
    expect(budgetKey(token)).toBe('123456789012345678');
    expect(budgetKey('not-a-token')).toBe('bot');
  });
});

describe('configuration', () => {
  const url = 'postgresql://postgres@127.0.0.1:5432/x';
  it.each([
    [{}, false, 50],
    [{ DATABASE_URL: url }, true, 50],
    [{ DATABASE_URL: url, STONEHALL_REST_BUDGET: '0', DISCORD_GLOBAL_RATE: '120' }, false, 120],
    [{ DATABASE_URL: url, STONEHALL_REST_BUDGET: '1' }, true, 50],
  ])('%j: budget %s at %i/s', (vars, on, rate) => {
    const env = readEnv(vars);
    expect(restBudgetEnabled(env)).toBe(on);
    expect(env.DISCORD_GLOBAL_RATE).toBe(rate);
  });

  it('refuse a budget without a shared database, and a rate that is not a positive number', () => {
    expect(() => restBudgetEnabled(readEnv({ STONEHALL_REST_BUDGET: '1' }))).toThrow(/STONEHALL_REST_BUDGET=1 needs DATABASE_URL/);
    expect(() => readEnv({ DISCORD_GLOBAL_RATE: '0' })).toThrow(/DISCORD_GLOBAL_RATE/);
    expect(() => readEnv({ DISCORD_GLOBAL_RATE: 'fast' })).toThrow(/DISCORD_GLOBAL_RATE/);
  });
});

describe('several budgets on one row', () => {
  it('never let more than the limit through in any second, and book the row without gaps', async () => {
    const limit = 20;
    // Every reservation of the three budgets, as the row answered it.
    const granted: Array<{ start_ms: number; db_now_ms: number; n: number }> = [];
    // Each budget's clock, and the time it last read it: a request resumes right after the timer
    // callback that released it (Node runs the microtasks between timer callbacks), so that is the
    // moment the budget decided the request could go. The limit is the budget's promise at that
    // moment; the test's own clock, read when the request resumes, may be later on a loaded machine
    // (a busy run counted 21 in a second by it).
    const decided: Array<() => number> = [];
    const budgets = [0, 1, 2].map(() => {
      let last = 0;
      decided.push(() => last);
      return new RestBudget({ pool: recordingPool(granted).pool, perSecond: limit, key: 'hammer', slackMs: 100, now: () => (last = now()) });
    });
    const sent: number[] = [];
    const perBudget = 25;
    // Each budget has more requests waiting than the limit allows: they compete for every slot.
    await Promise.all(
      budgets.flatMap((b, i) =>
        Array.from({ length: perBudget }, async () => {
          await b.acquire();
          sent.push(decided[i]!());
        }),
      ),
    );
    expect(sent).toHaveLength(budgets.length * perBudget);
    expect(busiestSecond(sent)).toBeLessThanOrEqual(limit);
    // The row is booked in turn: each reservation (in the row's order) starts exactly where the one
    // before it ended, or, if that lies in the database's past (every budget's process was held up
    // longer than the slots it had booked ahead: a loaded machine), at the database's present. No
    // slot is booked twice and none is skipped while the row is ahead of the clock; the row ends
    // where the last reservation ends. (On an idle machine the row never falls behind: its end is
    // then as many intervals after the first slot as slots were booked. That equality was asserted
    // here until a busy run held the test's process up for 103 ms; a run's load cannot change this.)
    const reserved = budgets.reduce((s, b) => s + b.stats.reserved, 0);
    const first = Math.min(...budgets.map((b) => b.stats.firstStartMs));
    expect(reserved).toBeGreaterThanOrEqual(budgets.length * perBudget);
    const inOrder = [...granted].sort((a, b) => a.start_ms - b.start_ms);
    expect(inOrder.reduce((n, g) => n + g.n, 0)).toBe(reserved);
    expect(inOrder[0]!.start_ms).toBe(first);
    expectBookedInTurn(inOrder, budgets[0]!.interval);
    const last = inOrder.at(-1)!;
    expect(await nextSlot('hammer')).toBeCloseTo(last.start_ms + last.n * budgets[0]!.interval, 3);
    expect((await nextSlot('hammer')) - first).toBeGreaterThanOrEqual(reserved * budgets[0]!.interval - 0.001);
    // Every budget got a share, and every request a slot of its own.
    for (const b of budgets) expect(b.stats.granted).toBe(perBudget);
    expect(reserved).toBe(budgets.length * perBudget + budgets.reduce((s, b) => s + b.stats.late, 0));
  }, 30_000);

  it('bank no burst over idle time: after a quiet spell the next slot starts now', async () => {
    const { pool: p, granted } = recordingPool();
    const b = new RestBudget({ pool: p, perSecond: 10, key: 'idle', maxBatch: 3 });
    // The row was last used ten seconds ago.
    const before = await dbNowMs();
    await db.sql.query('INSERT INTO rest_budget (key, next_slot_ms) VALUES ($1, $2)', ['idle', before - 10_000]);
    await Promise.all([b.acquire(), b.acquire(), b.acquire()]);
    // One reservation of three slots, from the database's present on: three intervals, not ten
    // seconds of credit. (A slot whose timer fired late was given up and booked again after them.)
    const first = granted[0]!;
    expect(first.n).toBe(3);
    expect(first.start_ms).toBeCloseTo(first.db_now_ms, 3);
    expect(first.start_ms).toBeGreaterThanOrEqual(before);
    expect(b.stats.firstStartMs).toBe(first.start_ms);
    expect(b.stats.granted).toBe(3);
    expect(granted.reduce((sum, g) => sum + g.n, 0)).toBe(3 + b.stats.late);
    expectBookedInTurn(granted, b.interval);
    const last = granted.at(-1)!;
    expect(await nextSlot('idle')).toBeCloseTo(last.start_ms + last.n * b.interval, 6);
  });

  it('wait when the next free slot is beyond the horizon, then book the slot after it', async () => {
    const { pool: p, granted } = recordingPool();
    const b = new RestBudget({ pool: p, perSecond: 10, key: 'full', horizonMs: 500 });
    // Another process booked the next 1.5 s: a second beyond the horizon.
    const booked = (await dbNowMs()) + 1_500;
    await db.sql.query('INSERT INTO rest_budget (key, next_slot_ms) VALUES ($1, $2)', ['full', booked]);
    await b.acquire();
    expect(b.stats.refusals).toBeGreaterThanOrEqual(1);
    expect(b.stats.granted).toBe(1);
    // The first slot it booked is the one right after the other process's: never earlier, never
    // beyond the horizon, and no later than the database's present when it booked (normally
    // exactly `booked`: the budget wakes a horizon before it).
    const first = granted[0]!;
    expect(b.stats.firstStartMs).toBe(first.start_ms);
    expect(first.start_ms).toBeCloseTo(Math.max(booked, first.db_now_ms), 3);
    expect(first.start_ms - first.db_now_ms).toBeLessThanOrEqual(500);
    // One slot per reservation; a slot given up late (its timer fired after its send window, on a
    // busy machine) is booked again from where the row then stood, and the row ends one interval
    // after the last slot booked.
    expect(granted.map((g) => g.n)).toEqual(Array(1 + b.stats.late).fill(1));
    expectBookedInTurn(granted, b.interval);
    expect(await nextSlot('full')).toBeCloseTo(granted.at(-1)!.start_ms + b.interval, 6);
  });

  it('let requests out (and say so) when the database cannot be reached', async () => {
    const unreachable = new pg.Pool({ connectionString: db.url.replace(/\/[^/]*$/, '/no_such_database'), max: 1 });
    unreachable.on('error', () => {});
    pools.push(unreachable);
    const warnings: string[] = [];
    const b = new RestBudget({ pool: unreachable, perSecond: 10, key: 'down', log: { warn: (_o, msg) => warnings.push(msg) } });
    await Promise.all([b.acquire(), b.acquire()]);
    expect(b.stats.failOpen).toBe(2);
    expect(b.stats.granted).toBe(0);
    expect(warnings).toEqual(['REST budget unavailable: sending under discord.js limits only']);
  });

  it('let an aborted request go without sending it, and serve the next one', async () => {
    const b = new RestBudget({ pool: pool(), perSecond: 10, key: 'abort', horizonMs: 5_000 });
    await db.sql.query('INSERT INTO rest_budget (key, next_slot_ms) VALUES ($1, $2)', ['abort', (await dbNowMs()) + 1_000]);
    const controller = new AbortController();
    const waiting = b.acquire(controller.signal);
    // Its slot is a second away: abort it (discord.js's timeout does this) before then.
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await b.acquire();
    expect(b.stats.granted).toBe(1);
  });
});
