import { describe, expect, it } from 'vitest';
import { gameInfo, readGame } from '../../src/services/game-store.ts';
import { getGame, playMove } from '../../src/services/games.ts';
import { alice, GUILD, SEED_A, testContext, twoPlayerGame, withServiceDb } from '../helpers/context.ts';

/**
 * A click reads its game in one statement, prepared on plain pg (READ_GAME), instead of Prisma's two
 * (the game, then its seats): it must read exactly what Prisma reads.
 */
const db = withServiceDb();

describe('readGame', () => {
  it('reads the game and its seats exactly as Prisma does, move after move', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    await db.prisma.seat.updateMany({ where: { gameId: game.id, playerId: alice.id }, data: { vacationUntil: new Date('2030-01-02T03:04:05.678Z'), dmMessageId: '42' } });
    for (let i = 0; i < 4; i++) {
      const prisma = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id }, include: { seats: { orderBy: { seat: 'asc' } } } });
      const read = await readGame(ctx, game.id);
      const { timing, ...row } = read!;
      expect(row).toEqual(prisma);
      expect(timing.turnLimitMinutes).toBeGreaterThan(0);
      const snap = await getGame(ctx, game.id, GUILD);
      expect(snap.game).toEqual(gameInfo(prisma));
      const turn = snap.awaiting[0]!;
      const move = snap.legalMoves(turn)[0];
      await playMove(ctx, { gameId: game.id, userId: turn, guildId: GUILD, move, expectedVersion: snap.game.version, kind: 'knucklebones' });
    }
    expect(await readGame(ctx, 999_999)).toBeNull();
  });
});
