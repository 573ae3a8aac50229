import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/services/errors.ts';
import { inTransaction, resign, startGame } from '../../src/services/games.ts';
import { askRematch } from '../../src/services/rematch.ts';
import { SEED_A, testContext, withServiceDb } from '../helpers/context.ts';

/**
 * A rematch of a game of more than two: every seated person must ask (a team game of four: all
 * four, the one who forfeited too), and the game starts once, with the same seats and options,
 * and the result message is written with the finishing move.
 */
const GUILD = '720000000000000001';
const players = ['721000000000000001', '721000000000000002', '721000000000000003', '721000000000000004'].map((id, i) => ({ id, name: `P${i + 1}` }));

const db = withServiceDb();

describe('rematch of a four-player team game', () => {
  it('waits for all four, refuses a second ask, starts one game with the same seats and options', async () => {
    const ctx = testContext(db);
    const game = await inTransaction(ctx, (tx) =>
      startGame(tx, ctx, { guildId: GUILD, channelId: '1', kind: 'tellstones', players, options: { variant: 'kings-circle' }, seed: SEED_A }),
    );
    await expect(askRematch(ctx, { gameId: game.id, userId: players[0]!.id, guildId: GUILD })).rejects.toThrow(/is not over yet/);
    await resign(ctx, { gameId: game.id, userId: players[1]!.id, guildId: GUILD });
    expect(await db.prisma.outbox.count({ where: { kind: 'result' } })).toBe(1);

    for (const [i, p] of players.slice(0, 3).entries()) {
      const r = await askRematch(ctx, { gameId: game.id, userId: p.id, guildId: GUILD });
      expect(r).toMatchObject({ type: 'asked', waiting: players.slice(i + 1).map((x) => x.id) });
    }
    const again = askRematch(ctx, { gameId: game.id, userId: players[0]!.id, guildId: GUILD });
    await expect(again).rejects.toBeInstanceOf(UserError);
    await expect(askRematch(ctx, { gameId: game.id, userId: players[0]!.id, guildId: GUILD })).rejects.toThrow(`it starts when <@${players[3]!.id}> clicks **Rematch** too`);
    await expect(askRematch(ctx, { gameId: game.id, userId: '729999999999999999', guildId: GUILD })).rejects.toThrow(/Only the players/);

    const last = await askRematch(ctx, { gameId: game.id, userId: players[3]!.id, guildId: GUILD });
    if (last.type !== 'started') throw new Error('the rematch did not start');
    const next = await db.prisma.game.findUniqueOrThrow({ where: { id: last.game.id }, include: { seats: { orderBy: { seat: 'asc' } } } });
    expect(next.seats.map((s) => s.playerId)).toEqual(players.map((p) => p.id));
    expect(next.options).toMatchObject({ variant: 'kings-circle' });
    expect(next.status).toBe('active');
    await expect(askRematch(ctx, { gameId: game.id, userId: players[3]!.id, guildId: GUILD })).rejects.toThrow(`it is game #${next.id}`);
    expect(await db.prisma.game.count()).toBe(2);
  });
});
