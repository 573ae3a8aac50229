import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TellstonesState } from '../../src/engines/tellstones/index.ts';
import { UserError } from '../../src/services/errors.ts';
import { resign } from '../../src/services/games.ts';
import { joinTable, leaveTable, openTable } from '../../src/services/tables.ts';
import { challenge, acceptChallenge } from '../../src/services/challenges.ts';
import { testContext, SEED_A } from '../helpers/context.ts';
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

async function refused(fn: () => Promise<unknown>): Promise<UserError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('expected a refusal');
}

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
});
