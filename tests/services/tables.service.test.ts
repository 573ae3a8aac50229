import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TellstonesState } from '../../src/games/tellstones/engine/index.ts';
import { UserError } from '../../src/services/errors.ts';
import { resign } from '../../src/services/games.ts';
import { joinTable, leaveTable, openTable } from '../../src/services/tables.ts';
import { updateGuildSettings } from '../../src/services/settings.ts';
import { Scheduler } from '../../src/scheduler/index.ts';
import { challenge, acceptChallenge } from '../../src/services/challenges.ts';
import { refused, testContext, SEED_A } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/** Tables (lobbies) for games of more than two seats, on real Postgres. */
let db: TestDatabase;
let ctx: ReturnType<typeof testContext>;
const G = '900000000000000001';
const CH = '900000000000000002';
const p = (n: number) => ({ id: `8000000000000000${String(n).padStart(2, '0')}`, name: `P${n}` });

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = testContext(db);
});
afterAll(async () => {
  await db?.drop();
});

const open = (host = p(1)) =>
  openTable(ctx, { guildId: G, channelId: CH, kind: 'tellstones', options: { variant: 'kings-circle' }, seatCount: 4, host });

describe('tables', () => {
  it('seats players in join order and starts the game when full, teams A1 B1 A2 B2', async () => {
    const t = await open();
    expect(t.seats.map((s) => s.playerId)).toEqual([p(1).id]);
    const r2 = await joinTable(ctx, { tableId: t.id, guildId: G, user: p(2) });
    expect(r2.game).toBeNull();
    expect((await refused(() => joinTable(ctx, { tableId: t.id, guildId: G, user: p(2) }))).code).toBe('table/already-seated');
    expect((await refused(() => joinTable(ctx, { tableId: t.id, guildId: G, user: p(1) }))).code).toBe('table/already-seated');
    await joinTable(ctx, { tableId: t.id, guildId: G, user: p(3) });
    const full = await joinTable(ctx, { tableId: t.id, guildId: G, user: p(4), seed: SEED_A });
    expect(full.game).not.toBeNull();
    expect(full.table.status).toBe('started');
    expect(full.table.gameId).toBe(full.game!.id);
    const game = await db.prisma.game.findUniqueOrThrow({ where: { id: full.game!.id }, include: { seats: { orderBy: { seat: 'asc' } } } });
    expect(game.seats.map((s) => s.playerId)).toEqual([p(1).id, p(2).id, p(3).id, p(4).id]);
    expect(game.options).toEqual({ variant: 'kings-circle', firstStone: 'random' });
    const state = game.state as unknown as TellstonesState;
    expect(state.variant).toBe('kings-circle');
    expect(state.seats).toEqual([p(1).id, p(2).id, p(3).id, p(4).id]);
    // The first player is waited on: a deadline and a turn DM.
    expect(await db.prisma.seat.count({ where: { gameId: game.id, deadlineAt: { not: null } } })).toBe(1);
    expect((await refused(() => joinTable(ctx, { tableId: t.id, guildId: G, user: p(5) }))).code).toBe('table/started');

    // A forfeit: the forfeiting player's team loses; partners share the result.
    await resign(ctx, { gameId: game.id, userId: p(2).id, guildId: G });
    const seats = await db.prisma.seat.findMany({ where: { gameId: game.id }, orderBy: { seat: 'asc' } });
    expect(seats.map((s) => s.result)).toEqual(['win', 'forfeit', 'win', 'loss']);
  });

  it('refuses bad seat counts, unknown tables, other servers; leaving closes gaps, the host leaving closes the table', async () => {
    expect(
      (await refused(() => openTable(ctx, { guildId: G, channelId: CH, kind: 'tellstones', options: {}, seatCount: 5, host: p(1) }))).code,
    ).toBe('table/seats');
    expect(
      (await refused(() => openTable(ctx, { guildId: G, channelId: CH, kind: 'tellstones', options: { variant: 'nope' }, seatCount: 4, host: p(1) })))
        .code,
    ).toBe('table/bad-options');
    const t = await open();
    expect((await refused(() => joinTable(ctx, { tableId: t.id, guildId: '1', user: p(2) }))).code).toBe('table/unknown');
    await joinTable(ctx, { tableId: t.id, guildId: G, user: p(2) });
    await joinTable(ctx, { tableId: t.id, guildId: G, user: p(3) });
    const left = await leaveTable(ctx, { tableId: t.id, guildId: G, userId: p(2).id });
    expect(left.seats.map((s) => [s.seat, s.playerId])).toEqual([
      [0, p(1).id],
      [1, p(3).id],
    ]);
    expect((await refused(() => leaveTable(ctx, { tableId: t.id, guildId: G, userId: p(9).id }))).code).toBe('table/not-seated');
    const closed = await leaveTable(ctx, { tableId: t.id, guildId: G, userId: p(1).id });
    expect(closed.status).toBe('cancelled');
    expect((await refused(() => joinTable(ctx, { tableId: t.id, guildId: G, user: p(4) }))).code).toBe('table/closed');
  });

  it('concurrent joins for the last seat: exactly one game, one of the racers seated', async () => {
    for (let round = 0; round < 3; round++) {
      const t = await open(p(10));
      await joinTable(ctx, { tableId: t.id, guildId: G, user: p(11) });
      await joinTable(ctx, { tableId: t.id, guildId: G, user: p(12) });
      const racers = [p(20), p(21), p(22), p(23)];
      const results = await Promise.allSettled(racers.map((u) => joinTable(ctx, { tableId: t.id, guildId: G, user: u })));
      const ok = results.filter((r) => r.status === 'fulfilled');
      expect(ok).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as UserError).code).toBe('table/started');
      const games = await db.prisma.game.findMany({ where: { seats: { some: { playerId: p(10).id } }, status: 'active' }, include: { seats: true } });
      expect(games).toHaveLength(1);
      expect(await db.prisma.tableSeat.count({ where: { tableId: t.id } })).toBe(4);
      await resign(ctx, { gameId: games[0]!.id, userId: p(10).id, guildId: G });
    }
  });

  it('a two-player challenge carries its options into the game', async () => {
    const c = await challenge(ctx, {
      guildId: G,
      channelId: CH,
      kind: 'tellstones',
      from: { ...p(30), bot: false },
      to: { ...p(31), bot: false },
      options: { variant: 'fearless-vanguard', firstStone: 'scales' },
    });
    expect(c.type).toBe('challenge');
    if (c.type !== 'challenge') return;
    const { game } = await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: p(31).id, guildId: G });
    const state = (await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } })).state as unknown as TellstonesState;
    expect(state.variant).toBe('fearless-vanguard');
    expect(state.lines.map((l) => l[0]!.symbol)).toEqual(['scales', 'scales']);
    expect(
      (
        await refused(() =>
          challenge(ctx, { guildId: G, channelId: CH, kind: 'tellstones', from: { ...p(32), bot: false }, to: { ...p(33), bot: false }, options: { variant: 'x' } }),
        )
      ).code,
    ).toBe('challenge/bad-options');
  });

  it('a table not full in time expires once: message edited, seated players told, later joins refused', async () => {
    const HOUR = 3_600_000;
    const scheduler = new Scheduler(ctx);
    await scheduler.sweep(); // whatever earlier tests left due
    const waiting = await open(p(40));
    await joinTable(ctx, { tableId: waiting.id, guildId: G, user: p(41) });
    expect(waiting.expiresAt!.getTime() - waiting.createdAt.getTime()).toBe(72 * HOUR);
    const filled = await open(p(50));
    for (const n of [51, 52, 53]) await joinTable(ctx, { tableId: filled.id, guildId: G, user: p(n) });
    const closed = await open(p(60));
    await leaveTable(ctx, { tableId: closed.id, guildId: G, userId: p(60).id });
    const outboxBefore = await db.prisma.outbox.count();

    await ctx.clock.advance(72 * HOUR - 60_000);
    await scheduler.sweep();
    expect((await db.prisma.gameTable.findUniqueOrThrow({ where: { id: waiting.id } })).status).toBe('open');

    // A join racing the expiry: the row lock orders them; either the join lands first (and its
    // player is told of the expiry too) or it is refused as expired. Never both, never neither.
    await ctx.clock.advance(2 * 60_000);
    const [join] = await Promise.allSettled([joinTable(ctx, { tableId: waiting.id, guildId: G, user: p(42) }), scheduler.sweep()]);
    const joined = join.status === 'fulfilled';
    if (!joined) expect((join.reason as UserError).code).toBe('table/expired');

    const tables = await db.prisma.gameTable.findMany({ where: { id: { in: [waiting.id, filled.id, closed.id] } }, orderBy: { id: 'asc' }, include: { seats: true } });
    expect(tables.map((t) => t.status)).toEqual(['expired', 'started', 'cancelled']);
    expect(tables[0]!.closedAt!.getTime()).toBeGreaterThanOrEqual(tables[0]!.expiresAt!.getTime());
    expect(tables[0]!.closedAt!.getTime()).toBeLessThanOrEqual(ctx.clock.now().getTime());
    expect(tables[0]!.seats).toHaveLength(joined ? 3 : 2);
    const rows = await db.prisma.outbox.findMany({ where: { id: { gt: BigInt(0) } }, orderBy: { id: 'asc' }, skip: outboxBefore });
    const tableRows = rows.filter((r) => r.kind === 'table');
    expect(tableRows.map((r) => r.payload)).toEqual([{ tableId: waiting.id }]);
    const dms = rows.filter((r) => r.kind === 'text-dm' && /Table #\d+/.test((r.payload as { content: string }).content));
    expect(dms.map((r) => (r.payload as { userId: string }).userId).sort()).toEqual([p(40).id, p(41).id, ...(joined ? [p(42).id] : [])].sort());
    expect((dms[0]!.payload as { content: string }).content).toMatch(new RegExp(`Table #${waiting.id} \\(Tellstones\\) closed: only ${joined ? 3 : 2} of 4 seats`));
    const jobs = await db.prisma.job.findMany({ where: { kind: 'table-expiry' } });
    expect(jobs.every((j) => j.status === 'done')).toBe(true);
    expect((await refused(() => joinTable(ctx, { tableId: waiting.id, guildId: G, user: p(43) }))).code).toBe('table/expired');
    expect((await refused(() => leaveTable(ctx, { tableId: waiting.id, guildId: G, userId: p(40).id }))).code).toBe('table/expired');

    // Nothing fires twice.
    const count = await db.prisma.outbox.count();
    await ctx.clock.advance(72 * HOUR);
    await scheduler.sweep();
    expect(await db.prisma.outbox.count({ where: { kind: 'table' } })).toBe(1);
    expect(await db.prisma.outbox.count({ where: { kind: 'text-dm' } })).toBe(dms.length);
    expect(await db.prisma.outbox.count()).toBeGreaterThanOrEqual(count);
  });

  it('moderators set how long tables wait', async () => {
    const mod = { manageGuild: true, roleIds: [] };
    expect((await refused(() => updateGuildSettings(ctx, { guildId: G, member: mod, change: { tableOpenMinutes: 30 } }))).code).toBe('config/table-time');
    expect((await refused(() => updateGuildSettings(ctx, { guildId: G, member: { manageGuild: false, roleIds: [] }, change: { tableOpenMinutes: 120 } }))).code).toBe('config/not-moderator');
    await updateGuildSettings(ctx, { guildId: G, member: mod, change: { tableOpenMinutes: 120 } });
    const t = await open(p(70));
    expect(t.expiresAt!.getTime() - t.createdAt.getTime()).toBe(2 * 3_600_000);
    await updateGuildSettings(ctx, { guildId: G, member: mod, change: { tableOpenMinutes: 72 * 60 } });
  });
});
