import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIRS, startGame, startWorld, until, type World } from './support.ts';

/**
 * Two Stonehall processes on one database and one emulator: the bot (gateway) and a worker
 * (STONEHALL_GATEWAY=0) both sweep deadlines and deliver the outbox every second. Each deadline
 * must fire once and each outbox row must be delivered once.
 */
let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w?.close();
});

describe('several processes', () => {
  it('fire each deadline once and deliver each outbox row once', async () => {
    const bot = w.bot();
    const worker = w.bot({ STONEHALL_GATEWAY: '0' });
    await Promise.all([bot.start(), worker.start()]);
    const games: number[] = [];
    for (const [a, b] of PAIRS) games.push(await startGame(w, a, b));
    // Reminders at 12 h, 4 h, 1 h, then the deadline: 24 jobs racing between the two processes.
    // Each step waits for its jobs: a reminder swept late, together with a later one, is dropped.
    for (const hours of [12, 8, 3, 2]) {
      // Deliveries in flight finish first: a jump of hours would lapse their 30 s leases (and the
      // emulator's 5-minute memory of nonces) at once, which real time never does mid-delivery.
      await until(async () => (await w.db.prisma.outbox.count({ where: { status: 'pending', availableAt: { lte: w.emulator.clock.now() } } })) === 0, 'the outbox to drain before the clock moves', 30_000);
      const { now } = await w.emulator.client.advanceClock(hours * 3_600_000 + 1000);
      const due = { gameId: { in: games }, status: 'pending', dueAt: { lte: new Date(now) } };
      await until(async () => (await w.db.prisma.job.count({ where: due })) === 0, `the jobs due after +${hours} h`, 30_000);
    }
    await until(async () => (await w.db.prisma.game.count({ where: { id: { in: games }, status: 'active' } })) === 0, 'every deadline', 30_000);
    await until(async () => (await w.db.prisma.outbox.count({ where: { status: 'pending' } })) === 0, 'the outbox to drain').catch(async (e) => {
      const pending = await w.db.prisma.outbox.findMany({ where: { status: 'pending' } });
      console.log(JSON.stringify(pending.map((r) => ({ id: String(r.id), kind: r.kind, attempts: r.attempts, lastError: r.lastError, lease: r.leaseUntil }))));
      console.log([...bot.log, ...worker.log].filter((l) => /"level":(40|50)/.test(l)).slice(0, 3).join('\n'));
      throw e;
    });

    const jobs = await w.db.prisma.job.findMany({ where: { gameId: { in: games } } });
    expect(jobs.filter((j) => j.status === 'done')).toHaveLength(games.length * 4);
    for (const id of games) expect(await w.db.prisma.move.count({ where: { gameId: id } })).toBe(1);

    const rows = await w.db.prisma.outbox.findMany({ where: { kind: 'dm' } });
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    const nonces = [...w.emulator.state.messages.values()].filter((m) => m.authorId === w.emulator.botUserId).map((m) => String(m.nonce));
    for (const r of rows) expect(nonces.filter((n) => n === `sh${r.id}` || n === `sh${r.id}f`), `row ${r.id}`).toHaveLength(1);
    // Reminder DMs: 3 per game for the idle player, game-over notes: 2 per game, turn DMs: 1 per game.
    const types = rows.map((r) => (r.payload as { notification: { type: string } }).notification.type);
    expect(types.filter((t) => t === 'reminder')).toHaveLength(3 * games.length);
    expect(types.filter((t) => t === 'game-over')).toHaveLength(2 * games.length);
    const fired = (p: { log: string[] }) => p.log.filter((l) => l.includes('"job fired"')).length;
    expect(fired(bot) + fired(worker)).toBe(games.length * 4);
  }, 120_000);
});
