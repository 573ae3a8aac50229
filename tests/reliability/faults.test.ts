import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { button, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Discord misbehaving, as the emulator can make it: rate limits (429 with retry-after), server
 * errors (500), and gateway disconnects of every kind. The bot must cope: wait and retry, never
 * lose a notification, never send one twice, and keep answering clicks after reconnecting.
 */
let h: Harness;
beforeAll(async () => {
  // Discord's rate limits on: what the bot does under them (and under injected 429s) is the subject.
  h = await startHarness({ rateLimits: true });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.api.clearFaults();
});

async function newGame(a: string, b: string): Promise<number> {
  const c = await h.api.command({ user: a, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: b } });
  const msg = c.response!.message!;
  await h.api.click(b, msg.id, button(msg, (x) => x.label === 'Accept').custom_id!);
  return (await h.db.prisma.challenge.findFirstOrThrow({ where: { messageId: msg.id } })).gameId!;
}

async function finishQuietly(gameId: number) {
  const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: true } });
  const loser = Object.entries(h.emulator.users).find(([, id]) => id === g.seats[0]!.playerId)![0];
  const f = await h.api.command({ user: loser, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: gameId } });
  await h.api.click(loser, f.response!.message!.id, button(f.response!.message!, (b) => b.label === 'Yes, forfeit').custom_id!);
  await h.settle();
}

function dmNonces(): string[] {
  return [...h.emulator.state.messages.values()].filter((m) => m.authorId === h.emulator.botUserId && m.nonce !== null).map((m) => String(m.nonce));
}

describe('Discord faults', () => {
  it('a 429 with retry-after: the DM waits and arrives once', async () => {
    await h.api.addFault({ route: 'POST /channels/:id/messages', status: 429, retryAfter: 0.3, count: 2 });
    const gameId = await newGame('alice', 'bob');
    await h.settle();
    const rows = await h.db.prisma.outbox.findMany({ where: { kind: 'dm' } });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.status).toBe('sent');
      expect(dmNonces().filter((n) => n === `sh${r.id}`)).toHaveLength(1);
    }
    expect((await h.api.faults()).faults).toHaveLength(0); // both 429s were really served
    await finishQuietly(gameId);
  });

  it('500s past discord.js’s own retries: the outbox backs off, retries later, delivers once, and records the error meanwhile', async () => {
    await h.db.sql.exec('DELETE FROM outbox');
    await h.api.addFault({ route: 'POST /channels/:id/messages', status: 500, count: 6 });
    const gameId = await newGame('carol', 'dave');
    await h.settle();
    const failing = await h.db.prisma.outbox.findMany({ where: { kind: 'dm', status: 'pending' } });
    expect(failing.length).toBeGreaterThan(0);
    expect(failing[0]!.lastError).toMatch(/500/);
    await h.api.clearFaults();
    await h.api.advanceClock(60_000);
    await h.settle();
    const rows = await h.db.prisma.outbox.findMany({ where: { kind: 'dm' } });
    for (const r of rows) {
      expect(r.status).toBe('sent');
      expect(dmNonces().filter((n) => n === `sh${r.id}`)).toHaveLength(1);
    }
    await finishQuietly(gameId);
  });

  for (const mode of ['close', 'terminate', 'reconnect', 'invalidate'] as const) {
    it(`gateway ${mode}: the bot reconnects and the next click is answered`, async () => {
      const before = (await h.api.gateway()).sessions.length;
      await h.api.disconnectGateway({ mode });
      // Wait until a live session is back (resumed or re-identified).
      const end = Date.now() + 20_000;
      for (;;) {
        const s = (await h.api.gateway()).sessions.filter((x) => x.connected);
        if (s.length > 0) break;
        if (Date.now() > end) throw new Error('bot did not reconnect');
        await new Promise((r) => setTimeout(r, 50));
      }
      const res = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'games' } });
      expect(res.response?.type).toBe(4);
      expect(before).toBeGreaterThan(0);
    });
  }
});
