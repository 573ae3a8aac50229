import { mkdtemp, rm } from 'node:fs/promises';
import { games } from '../../src/games/index.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OffsetClock } from '../../src/clock.ts';
import { EMBEDDED_SHARED_BUFFERS, openEmbedded } from '../../src/db/client.ts';
import { applyMigrations, readMigrations } from '../../src/db/migrate.ts';
import { silentLogger } from '../../src/log.ts';
import { Scheduler } from '../../src/scheduler/index.ts';
import { acceptChallenge, challenge } from '../../src/services/challenges.ts';
import { markBoardRendered } from '../../src/services/board-marks.ts';
import { getGame, playMove } from '../../src/services/games.ts';

/** `npm start` without DATABASE_URL runs on PGlite: the same migrations and services must work there and keep data. */
describe('embedded Postgres (PGlite)', () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('migrates, plays moves, fires a deadline, and keeps the data across a restart', { timeout: 90_000 }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'stonehall-pglite-'));
    const clock = new OffsetClock();
    let db = await openEmbedded(dir);
    // A small buffer cache: it lives in WebAssembly memory that never shrinks, so at Postgres's
    // default (128MB) the process grew as games were played (issue 23, point 18).
    expect(EMBEDDED_SHARED_BUFFERS).toBe('32MB');
    expect(await db.sql.query<{ shared_buffers: string }>('SHOW shared_buffers')).toEqual([{ shared_buffers: EMBEDDED_SHARED_BUFFERS }]);
    // Every migration applies on PGlite too (the list grows as the schema does).
    expect(await applyMigrations(db.sql)).toEqual((await readMigrations()).map((m) => m.name));
    const ctx = { db: db.prisma, clock, log: silentLogger, games };
    const alice = { id: '1', name: 'Alice', bot: false };
    const bob = { id: '2', name: 'Bob', bot: false };
    const c = await challenge(ctx, { guildId: 'g', channelId: 'c', kind: 'knucklebones', from: alice, to: bob });
    const { game } = await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: bob.id, guildId: 'g' });
    const first = (await getGame(ctx, game.id, 'g')).view(null) as { turn: string };
    await playMove(ctx, { gameId: game.id, userId: first.turn, guildId: 'g', move: { type: 'place', column: 2 }, expectedVersion: 0 });
    // A statement prepared on plain pg where there is a pool runs its same text through Prisma here.
    await markBoardRendered(ctx, game.id, 1, '777');
    expect((await getGame(ctx, game.id, 'g')).game).toMatchObject({ boardVersion: 1, boardMessageId: '777' });
    await db.close();

    db = await openEmbedded(dir);
    expect(await applyMigrations(db.sql)).toEqual([]);
    const ctx2 = { db: db.prisma, clock, log: silentLogger, games };
    const snap = await getGame(ctx2, game.id, 'g');
    expect(snap.game.version).toBe(1);
    await clock.advance(25 * 3_600_000);
    expect(await new Scheduler(ctx2).sweep()).toBeGreaterThanOrEqual(1);
    expect((await getGame(ctx2, game.id, 'g')).game.status).toBe('finished');
    await db.close();
  });
});
