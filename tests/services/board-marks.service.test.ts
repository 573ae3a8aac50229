import pg, { type Pool } from 'pg';
import { describe, expect, it } from 'vitest';
import { poolOf } from '../../src/db/hot.ts';
import { markBoardRendered } from '../../src/services/board-marks.ts';
import { getGame } from '../../src/services/games.ts';
import { takeVacation } from '../../src/services/vacations.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { alice, GUILD, testContext, twoPlayerGame, withServiceDb } from '../helpers/context.ts';

/**
 * Board marks are written together: marks made while one is in flight share the next statement,
 * and each caller learns when its own mark is written.
 */
const db = withServiceDb();

/**
 * Runs `fn` with every mark statement the pool sends passed to `onMark` first, which may answer it
 * instead (a promise) or let it through (undefined); the pool is restored after.
 */
async function withMarksSeen<T>(onMark: () => Promise<unknown> | undefined, fn: () => Promise<T>): Promise<T> {
  const pool = poolOf(db.prisma)!;
  const original = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  pool.query = ((...args: unknown[]) => ((args[0] as { name?: string })?.name === 'stonehall-mark-boards' ? onMark() : undefined) ?? original(...args)) as Pool['query'];
  try {
    return await fn();
  } finally {
    pool.query = original as Pool['query'];
  }
}

/** `n` games, each in a server of its own (one pair of players has one game of a kind per server). */
async function newGames(ctx: ServiceContext, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await twoPlayerGame(ctx, 'knucklebones', { guildId: `${GUILD.slice(0, -3)}${String(next++).padStart(3, '0')}` }));
  return out;
}
let next = 100;

async function shown(gameId: number): Promise<{ boardVersion: number; boardMessageId: string | null }> {
  return db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, select: { boardVersion: true, boardMessageId: true } });
}

describe('board marks', () => {
  it('marks made while one is in flight go out together, and each caller waits for its own', async () => {
    const ctx = testContext(db);
    const games = await newGames(ctx, 4);
    let statements = 0;
    await withMarksSeen(
      () => void statements++,
      async () => {
        // The first goes out alone; the other six (two of one game) wait for it and share one statement.
        const marks = [
          markBoardRendered(ctx, games[0]!.id, 1, 'm0'),
          markBoardRendered(ctx, games[1]!.id, 1, 'm1'),
          markBoardRendered(ctx, games[2]!.id, 2, 'm2'),
          markBoardRendered(ctx, games[2]!.id, 1, 'm2'),
          markBoardRendered(ctx, games[3]!.id, 3, 'm3'),
          markBoardRendered(ctx, games[3]!.id, 4, 'm3'),
          markBoardRendered(ctx, games[1]!.id, 1, 'm1'),
        ];
        await Promise.all(marks);
      },
    );
    expect(statements).toBe(2);
    // The newest version of each game is recorded, whatever the order of its marks.
    expect(await shown(games[0]!.id)).toEqual({ boardVersion: 1, boardMessageId: 'm0' });
    expect(await shown(games[1]!.id)).toEqual({ boardVersion: 1, boardMessageId: 'm1' });
    expect(await shown(games[2]!.id)).toEqual({ boardVersion: 2, boardMessageId: 'm2' });
    expect(await shown(games[3]!.id)).toEqual({ boardVersion: 4, boardMessageId: 'm3' });
    // A lone mark goes out at once, on its own.
    await markBoardRendered(ctx, games[0]!.id, 2, 'm0');
    expect(await shown(games[0]!.id)).toEqual({ boardVersion: 2, boardMessageId: 'm0' });
  });

  it('never moves a board back, never records another message, and skips a game a move holds', async () => {
    const ctx = testContext(db);
    const [a, b, c] = await newGames(ctx, 3);
    await Promise.all([markBoardRendered(ctx, a!.id, 3, 'ma'), markBoardRendered(ctx, b!.id, 1, 'mb')]);
    // Older than what is recorded; another message than the board's.
    await Promise.all([markBoardRendered(ctx, a!.id, 2, 'ma'), markBoardRendered(ctx, b!.id, 2, 'other')]);
    expect(await shown(a!.id)).toEqual({ boardVersion: 3, boardMessageId: 'ma' });
    expect(await shown(b!.id)).toEqual({ boardVersion: 1, boardMessageId: 'mb' });

    // A transaction holds c's row (as a move does): the batch does not wait for it, and still
    // records the other game it carries.
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM games WHERE id = $1 FOR UPDATE', [c!.id]);
      await Promise.all([markBoardRendered(ctx, c!.id, 1, 'mc'), markBoardRendered(ctx, a!.id, 4, 'ma')]);
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    expect(await shown(c!.id)).toEqual({ boardVersion: -1, boardMessageId: null });
    expect(await shown(a!.id)).toEqual({ boardVersion: 4, boardMessageId: 'ma' });
    expect((await getGame(ctx, c!.id, c!.guildId)).game.boardVersion).toBe(-1);
  });

  it('a mark that arrives after a vacation asked for the board to be drawn again does not stop that', async () => {
    const ctx = testContext(db);
    const [game] = await newGames(ctx, 1);
    await markBoardRendered(ctx, game!.id, 0, 'mv');
    expect(await shown(game!.id)).toEqual({ boardVersion: 0, boardMessageId: 'mv' });
    // A click answered with the board of version 1, and its mark is still on its way when the
    // player takes a vacation (which the board must show: a board row is written).
    await db.prisma.game.update({ where: { id: game!.id }, data: { version: 1 } });
    await takeVacation(ctx, { guildId: game!.guildId, player: alice, days: 2 });
    const rows = () => db.prisma.outbox.count({ where: { kind: 'board', status: 'pending', payload: { path: ['gameId'], equals: game!.id } } });
    expect(await rows()).toBeGreaterThan(0);
    await markBoardRendered(ctx, game!.id, 1, 'mv');
    // The board row still finds the board not current (board_version below the version), and draws it.
    const after = await shown(game!.id);
    expect(after.boardVersion).toBeLessThan(1);
    const claimable = await db.sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM outbox o JOIN games g ON g.id = (o.payload->>'gameId')::int
       WHERE o.kind = 'board' AND o.status = 'pending' AND g.id = $1 AND g.board_version < g.version`,
      [game!.id],
    );
    expect(Number(claimable[0]!.n)).toBeGreaterThan(0);
  });

  it('a failed statement fails every mark it carried, and the next marks go out again', async () => {
    const ctx = testContext(db);
    const [game] = await newGames(ctx, 1);
    let failures = 1;
    await withMarksSeen(
      () => (failures-- > 0 ? Promise.reject(new Error('connection lost')) : undefined),
      async () => {
        await expect(markBoardRendered(ctx, game!.id, 1, 'm')).rejects.toThrow('connection lost');
        await markBoardRendered(ctx, game!.id, 1, 'm');
      },
    );
    expect(await shown(game!.id)).toEqual({ boardVersion: 1, boardMessageId: 'm' });
  });
});
