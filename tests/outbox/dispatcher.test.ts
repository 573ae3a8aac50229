import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Outbox } from '../../src/generated/prisma/client.ts';
import { DeliveryError, Dispatcher, type ClaimHints, type Deliverer } from '../../src/outbox/dispatcher.ts';
import { inTransaction, startGame } from '../../src/services/games.ts';
import { enqueue } from '../../src/services/notifications.ts';
import { connectPostgres } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { testContext } from '../helpers/context.ts';

/**
 * The dispatcher's bookkeeping on real Postgres: retries with backoff, a final failure recorded,
 * a lost lease redelivered, two dispatchers never delivering one row twice. (Delivery to Discord
 * itself is exercised through the emulator in tests/bot.)
 */
class Recorder implements Deliverer {
  delivered: bigint[] = [];
  constructor(private readonly behaviour: (row: Outbox, attempt: number) => 'ok' | DeliveryError | 'hang' = () => 'ok') {}
  private attempts = new Map<bigint, number>();
  async deliver(row: Outbox): Promise<string> {
    const n = (this.attempts.get(row.id) ?? 0) + 1;
    this.attempts.set(row.id, n);
    const b = this.behaviour(row, n);
    if (b instanceof DeliveryError) throw b;
    await new Promise((r) => setTimeout(r, 5));
    this.delivered.push(row.id);
    return `msg-${row.id}`;
  }
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});
beforeEach(async () => {
  await db.sql.exec('TRUNCATE outbox RESTART IDENTITY');
});

async function put(ctx: ReturnType<typeof testContext>, n: number) {
  await db.prisma.$transaction(async (tx) => {
    for (let i = 0; i < n; i++) await enqueue(tx, 'channel-message', { channelId: '1', content: `m${i}`, allowedUserIds: [] }, ctx.clock.now());
  });
}

describe('outbox dispatcher', () => {
  it('a board row is claimed with the board message when the board already shows the game, so delivery reads nothing more', async () => {
    const ctx = testContext(db);
    const guildId = '720000000000000077';
    await db.prisma.guild.upsert({ where: { id: guildId }, create: { id: guildId }, update: {} });
    const players = [{ id: '720000000000000101', name: 'ann' }, { id: '720000000000000102', name: 'ben' }];
    const shown = await inTransaction(ctx, (tx) => startGame(tx, ctx, { guildId, channelId: '1', kind: 'knucklebones', players }));
    const behind = await inTransaction(ctx, (tx) => startGame(tx, ctx, { guildId, channelId: '1', kind: 'knucklebones', players }));
    // The first game's board shows its version (a click's answer edited it); the second's is not posted yet.
    await db.prisma.game.update({ where: { id: shown.id }, data: { boardMessageId: '999', boardVersion: shown.version } });
    await db.sql.exec(`DELETE FROM outbox WHERE kind <> 'board'`);
    const hints = new Map<number, ClaimHints | undefined>();
    const rec: Deliverer = {
      async deliver(row, h) {
        hints.set((row.payload as { gameId: number }).gameId, h);
        return 'ok';
      },
    };
    await new Dispatcher(ctx, rec).drain();
    expect(hints.get(shown.id)).toEqual({ boardShown: '999' });
    expect(hints.get(behind.id)).toEqual({ boardShown: null });
  });

  it('a retire row is claimed as idle only when the seat shows no live DM and no earlier DM of the player in the game is pending', async () => {
    const ctx = testContext(db);
    const guildId = '720000000000000077';
    await db.prisma.guild.upsert({ where: { id: guildId }, create: { id: guildId }, update: {} });
    const ann = '720000000000000101';
    const players = [{ id: ann, name: 'ann' }, { id: '720000000000000102', name: 'ben' }];
    const start = () => inTransaction(ctx, (tx) => startGame(tx, ctx, { guildId, channelId: '1', kind: 'knucklebones', players }));
    const [played, live, waiting] = [await start(), await start(), await start()];
    await db.sql.exec('DELETE FROM outbox');
    // Ann's DM of `played` was a Play here (no buttons); of `live`, a turn DM with buttons; of `waiting`, still on its way.
    await db.prisma.seat.updateMany({ where: { playerId: ann, gameId: { in: [played.id, waiting.id] } }, data: { dmMessageId: 'old', dmLive: false } });
    await db.prisma.seat.updateMany({ where: { playerId: ann, gameId: live.id }, data: { dmMessageId: 'old', dmLive: true } });
    const dm = (gameId: number) => db.prisma.outbox.create({ data: { kind: 'dm', payload: { userId: ann, notification: { type: 'turn', gameId } }, availableAt: ctx.clock.now() } });
    const retire = (gameId: number) => db.prisma.$transaction((tx) => enqueue(tx, 'dm-edit', { gameId, userId: ann, mode: 'retire', version: 1 }, ctx.clock.now()));
    await dm(waiting.id);
    for (const g of [played, live, waiting]) await retire(g.id);
    // A later DM of `played` (a later change's) does not hold its retire back: that DM retires the one before it itself.
    await dm(played.id);
    const hints = new Map<string, ClaimHints | undefined>();
    const rec: Deliverer = {
      async deliver(row, h) {
        const p = row.payload as { gameId?: number; notification?: { gameId: number } };
        hints.set(`${row.kind} ${p.gameId ?? p.notification?.gameId}`, h);
        return 'ok';
      },
    };
    await new Dispatcher(ctx, rec).drain();
    expect(hints.get(`dm-edit ${played.id}`)).toEqual({ retireIdle: true });
    expect(hints.get(`dm-edit ${live.id}`)).toEqual({ retireIdle: false });
    expect(hints.get(`dm-edit ${waiting.id}`)).toEqual({ retireIdle: false });
    // A turn DM with no newer one of Ann's in its game: not superseded at the claim.
    expect(hints.get(`dm ${waiting.id}`)).toEqual({ superseded: false });
  });

  it("a turn or reminder DM is claimed as superseded only when a newer turn DM of the same player in the same game is pending", async () => {
    const ctx = testContext(db);
    const guildId = '720000000000000077';
    await db.prisma.guild.upsert({ where: { id: guildId }, create: { id: guildId }, update: {} });
    const [ann, ben] = ['720000000000000101', '720000000000000102'];
    const players = [{ id: ann, name: 'ann' }, { id: ben, name: 'ben' }];
    const start = () => inTransaction(ctx, (tx) => startGame(tx, ctx, { guildId, channelId: '1', kind: 'knucklebones', players }));
    const [one, two] = [await start(), await start()];
    await db.sql.exec('DELETE FROM outbox');
    const dm = async (userId: string, gameId: number, type: string) =>
      (await db.prisma.outbox.create({ data: { kind: 'dm', payload: { userId, notification: { type, gameId } }, availableAt: ctx.clock.now() } })).id;
    const rows = {
      annTurn1: await dm(ann, one.id, 'turn'),
      annReminder1: await dm(ann, one.id, 'reminder'),
      // Ben's newer turn in game one and Ann's in game two supersede nothing of Ann's in game one.
      benTurn1: await dm(ben, one.id, 'turn'),
      annTurn2: await dm(ann, two.id, 'turn'),
      annUpdate1: await dm(ann, one.id, 'update'),
      annTurn1Newest: await dm(ann, one.id, 'turn'),
      // A newer game-over DM is no newer turn: Ben's turn above stays unsuperseded.
      benOver1: await dm(ben, one.id, 'game-over'),
    };
    const hints = new Map<bigint, ClaimHints | undefined>();
    const reads: bigint[] = [];
    const rec: Deliverer = {
      async deliver(row, h) {
        hints.set(row.id, h);
        reads.push(row.id);
        return 'ok';
      },
    };
    await new Dispatcher(ctx, rec).drain();
    expect(reads).toHaveLength(7);
    expect(hints.get(rows.annTurn1)).toEqual({ superseded: true });
    expect(hints.get(rows.annReminder1)).toEqual({ superseded: true });
    expect(hints.get(rows.benTurn1)).toEqual({ superseded: false });
    expect(hints.get(rows.annTurn2)).toEqual({ superseded: false });
    expect(hints.get(rows.annTurn1Newest)).toEqual({ superseded: false });
    // Other DMs (an update, a game-over note) are never skipped as superseded.
    expect(hints.get(rows.annUpdate1)).toEqual({});
    expect(hints.get(rows.benOver1)).toEqual({});
  });

  it('delivers every row once and records what was sent', async () => {
    const ctx = testContext(db);
    await put(ctx, 30);
    const rec = new Recorder();
    expect(await new Dispatcher(ctx, rec).drain()).toBe(30);
    expect(rec.delivered).toHaveLength(30);
    const rows = await db.prisma.outbox.findMany();
    expect(rows.every((r) => r.status === 'sent' && r.result === `msg-${r.id}` && r.sentAt)).toBe(true);
  });

  it('a stopped dispatcher finishes the batch it is delivering and leases nothing more', async () => {
    const ctx = testContext(db);
    await put(ctx, 5);
    const rec = new Recorder();
    const d = new Dispatcher(ctx, rec, { batch: 2 });
    const draining = d.drain();
    await d.stop();
    await draining;
    // The batch in flight was delivered; nothing else was leased, and kicks after the stop do nothing.
    d.kick();
    expect(await d.drain()).toBe(0);
    const rows = await db.prisma.outbox.findMany({ orderBy: { id: 'asc' } });
    expect(rows.filter((r) => r.status === 'sent').length).toBe(rec.delivered.length);
    expect(rec.delivered.length).toBeLessThan(5);
    expect(rows.filter((r) => r.status === 'pending' && r.leaseUntil === null).length).toBe(5 - rec.delivered.length);
  });

  it('retries a retriable failure after a backoff, and gives up on a final one with the error recorded', async () => {
    const ctx = testContext(db);
    await put(ctx, 2);
    const rec = new Recorder((row, attempt) =>
      row.id === 1n ? (attempt === 1 ? new DeliveryError('Discord 500', true) : 'ok') : new DeliveryError('Discord 400 50035: Invalid Form Body', false),
    );
    const d = new Dispatcher(ctx, rec);
    await d.drain();
    let rows = await db.prisma.outbox.findMany({ orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.status)).toEqual(['pending', 'failed']);
    expect(rows[1]!.lastError).toContain('50035');
    expect(rows[0]!.availableAt.getTime()).toBeGreaterThan(ctx.clock.now().getTime());
    // Not before the backoff has passed...
    expect(await d.drain()).toBe(0);
    await ctx.clock.advance(5_000);
    await d.drain();
    rows = await db.prisma.outbox.findMany({ orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.status)).toEqual(['sent', 'failed']);
    expect(rows[0]!.attempts).toBe(2);
  });

  it('marks a row failed after the last attempt', async () => {
    const ctx = testContext(db);
    await put(ctx, 1);
    const d = new Dispatcher(ctx, new Recorder(() => new DeliveryError('Discord 503', true)));
    for (let i = 0; i < 12; i++) {
      await d.drain();
      await ctx.clock.advance(16 * 60_000);
    }
    const row = await db.prisma.outbox.findFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(8);
  });

  it('two dispatchers on separate pools never deliver the same row twice', async () => {
    const ctx = testContext(db);
    await put(ctx, 60);
    const other = await connectPostgres(db.url, { poolSize: 4 });
    try {
      const a = new Recorder();
      const b = new Recorder();
      await Promise.all([new Dispatcher(ctx, a).drain(), new Dispatcher({ ...ctx, db: other.prisma }, b).drain()]);
      const all = [...a.delivered, ...b.delivered].map(String).sort();
      expect(all).toHaveLength(60);
      expect(new Set(all).size).toBe(60);
    } finally {
      await other.close();
    }
  });

  it('a row whose delivery was cut off (lease taken, never marked) is delivered again after the lease', async () => {
    const ctx = testContext(db);
    await put(ctx, 1);
    // Simulate a process that claimed the row and died: lease set, status still pending.
    await db.sql.query(`UPDATE outbox SET lease_until = $1, attempts = 1`, [new Date(ctx.clock.now().getTime() + 30_000)]);
    const rec = new Recorder();
    const d = new Dispatcher(ctx, rec);
    expect(await d.drain()).toBe(0);
    await ctx.clock.advance(31_000);
    expect(await d.drain()).toBe(1);
    expect(rec.delivered).toEqual([1n]);
  });
});
