import { describe, expect, it } from 'vitest';
import { connectPostgres } from '../../src/db/client.ts';
import { getGame, playMove } from '../../src/services/games.ts';
import { recentHistory } from '../../src/services/history.ts';
import { GameRegistry } from '../../src/services/registry.ts';
import { alice, bob, GUILD, SEED_A, testContext, twoPlayerGame, withServiceDb } from '../helpers/context.ts';

/**
 * The recent moves drawn on the board and in the turn DM come from a cache (the log's tail by game
 * and version, fed by committed moves, and the replayed states): whatever it holds, it must tell
 * exactly what a process that never saw the game reads from the database.
 */
const db = withServiceDb();

describe('recent moves cache', () => {
  it('tells what a cold process reads, after every move, for the board and each player, at the version drawn and the one before', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    let cached = 0;
    for (let i = 0; i < 30; i++) {
      const snap = await getGame(ctx, game.id, GUILD);
      if (snap.game.status !== 'active') break;
      const turn = snap.awaiting[0]!;
      const legal = snap.legalMoves(turn);
      await playMove(ctx, { gameId: game.id, userId: turn, guildId: GUILD, move: legal[i % legal.length], expectedVersion: snap.game.version, kind: 'knucklebones' });
      const version = snap.game.version + 1;
      // A process that never saw the game: its own Prisma client, so none of the caches.
      const cold = await connectPostgres(db.url, { poolSize: 1 });
      try {
        const coldCtx = { ...ctx, db: cold.prisma };
        for (const v of [version, version - 1]) {
          for (const opts of [{ max: 8 }, { since: alice.id, max: 16 }, { since: bob.id, max: 16 }]) {
            const warm = await recentHistory(ctx, game.id, { ...opts, version: v });
            expect(warm).toEqual(await recentHistory(coldCtx, game.id, { ...opts, version: v }));
            if (warm) cached++;
          }
        }
      } finally {
        await cold.close();
      }
    }
    expect(cached).toBeGreaterThan(40);
  });

  it('takes one spectator view a move for the board drawn after it: the view before is the last replay\'s, the latest is the one after', async () => {
    let views = 0;
    const base = testContext(db);
    // The same games, Knucklebones's engine counting its views.
    const counted = new GameRegistry(
      base.games.all.map((g) => (g.kind === 'knucklebones' ? { ...g, engine: { ...g.engine, view: (...a: Parameters<typeof g.engine.view>) => (views++, g.engine.view(...a)) } } : g)),
    );
    const ctx = { ...base, games: counted };
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    const perMove: number[] = [];
    for (let i = 0; i < 12; i++) {
      const snap = await getGame(ctx, game.id, GUILD);
      const turn = snap.awaiting[0]!;
      await playMove(ctx, { gameId: game.id, userId: turn, guildId: GUILD, move: snap.legalMoves(turn)[0], expectedVersion: snap.game.version, kind: 'knucklebones' });
      views = 0;
      const recent = await recentHistory(ctx, game.id, { max: 8, version: snap.game.version + 1 });
      expect(recent?.steps.at(-1)?.after).toEqual(recent?.latest);
      perMove.push(views);
    }
    // The first render replays from the setup (its view before is taken too); each later one applies one entry.
    expect(perMove.slice(1)).toEqual(perMove.slice(1).map(() => 1));
  });
});

