import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OffsetClock } from '../../src/clock.ts';
import { PrismaClient } from '../../src/db/client.ts';
import { pgTransaction, poolOf } from '../../src/db/hot.ts';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { pgStore } from '../../src/services/changes.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { UserError } from '../../src/services/errors.ts';
import { inPgTransaction, lockGamePg } from '../../src/services/game-store.ts';
import { playMove } from '../../src/services/games.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { alice, bob, GUILD, SEED_A, testContext, twoPlayerGame, userError } from '../helpers/context.ts';

/**
 * A move's hot path (src/db/hot.ts: a plain pg transaction with prepared statements on Prisma's
 * own pool) against the Prisma path it replaces: the same game played on two databases, one
 * through each, writes the same rows. Both pools hold one connection, so what the hot path
 * prepared is visible to the next query, and a connection it failed to hand back would block the
 * next move.
 */

const T0 = new Date('2026-03-01T12:00:00.000Z');

let fast: TestDatabase;
let slow: TestDatabase;
/** A Prisma client on `slow`'s pool that no hot path knows of: every move goes through Prisma. */
let slowPrisma: PrismaClient;

beforeAll(async () => {
  fast = await createTestDatabase({ poolSize: 1 });
  slow = await createTestDatabase({ poolSize: 1 });
  slowPrisma = new PrismaClient({ adapter: new PrismaPg(slow.pool!, { disposeExternalPool: false }) });
});
afterAll(async () => {
  await slowPrisma?.$disconnect();
  await fast?.drop();
  await slow?.drop();
});

const TABLES = 'guilds, players, challenges, games, seats, moves, jobs, outbox, ratings, assets';
beforeEach(async () => {
  for (const d of [fast, slow]) {
    await d.sql.exec(`DROP TRIGGER IF EXISTS outbox_fails ON outbox`);
    await d.sql.exec(`TRUNCATE ${TABLES} RESTART IDENTITY CASCADE`);
  }
});

function contexts(): { f: ServiceContext & { clock: OffsetClock }; s: ServiceContext & { clock: OffsetClock } } {
  const f = testContext(fast, new OffsetClock({ frozenAt: T0 }));
  const s = { ...testContext(slow, new OffsetClock({ frozenAt: T0 })), db: slowPrisma };
  return { f, s };
}

async function start(ctx: ServiceContext): Promise<number> {
  return (await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A })).id;
}

/** Every row a move writes, as stored (ids, times and JSON included). */
async function dump(d: TestDatabase) {
  const q = (t: string, order: string) => d.sql.query<Record<string, unknown>>(`SELECT * FROM ${t} ORDER BY ${order}`);
  return {
    games: await q('games', 'id'),
    seats: await q('seats', 'game_id, seat'),
    moves: await q('moves', 'game_id, seq'),
    jobs: await q('jobs', 'id'),
    outbox: await q('outbox', 'id'),
    ratings: await q('ratings', 'guild_id, player_id'),
  };
}

async function current(d: TestDatabase, gameId: number) {
  const [g] = await d.sql.query<{ state: KnucklebonesState; version: number; status: string }>('SELECT state, version, status FROM games WHERE id = $1', [gameId]);
  return g!;
}

/** The statements this connection has prepared (the pool has one connection: the hot path's). */
async function prepared(d: TestDatabase): Promise<string[]> {
  return (await d.sql.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).map((r) => r.name);
}

const column = (st: KnucklebonesState) => st.grids[st.turn!]!.findIndex((c) => c.length < 3) + 1;

describe('a move on the hot path', () => {
  it('runs only where Prisma runs on a pool (a server, not the embedded database)', () => {
    expect(poolOf(fast.prisma)).toBe(fast.pool);
    expect(poolOf(slowPrisma)).toBeUndefined();
  });

  it('writes the same rows as the Prisma path, move after move, to the game over with its ratings', async () => {
    const { f, s } = contexts();
    expect(await start(f)).toBe(await start(s));
    const id = 1;
    expect(await dump(fast)).toEqual(await dump(slow));
    let moves = 0;
    for (;;) {
      const g = await current(fast, id);
      if (g.status !== 'active') break;
      const input = { gameId: id, userId: g.state.turn!, guildId: GUILD, move: { type: 'place', column: column(g.state) }, expectedVersion: g.version, kind: 'knucklebones', fromBoard: moves % 2 === 0 };
      await f.clock.advance(61_000);
      await s.clock.advance(61_000);
      // Every round trip of the process while the hot path moves (node-postgres's Client.query).
      const sent = vi.spyOn(pg.Client.prototype, 'query');
      let a: Awaited<ReturnType<typeof playMove>>;
      let texts: string[];
      try {
        a = await playMove(f, input);
      } finally {
        texts = sent.mock.calls.map((c) => (typeof c[0] === 'string' ? c[0] : (c[0] as { text: string }).text));
        sent.mockRestore();
      }
      const b = await playMove(s, input);
      expect(a.outcome).toEqual(b.outcome);
      expect(a.after.game).toEqual(b.after.game);
      expect(a.after.view(alice.id)).toEqual(b.after.view(alice.id));
      expect(await dump(fast)).toEqual(await dump(slow));
      // It ran on the hot path: BEGIN and the game's lock in one round trip; a move that does not
      // end the game writes and commits in a second, and that is all; the game's end writes with
      // its prepared statements (and the ratings': a game outside any cycle ends on the hot path).
      expect(texts[0]).toMatch(/^BEGIN; SET LOCAL statement_timeout = \d+; SELECT g\.\*.* FOR UPDATE OF g$/s);
      if (a.outcome === null) {
        expect(texts).toHaveLength(2);
        expect(texts[1]).toMatch(/^WITH logged AS .*; COMMIT$/s);
      } else {
        expect(texts.at(-1)).toBe('COMMIT');
      }
      const names = await prepared(fast);
      expect(names.includes('stonehall-write-change')).toBe(a.outcome !== null);
      expect(names.some((n) => n.startsWith('stonehall-ratings'))).toBe(a.outcome !== null);
      expect(await prepared(slow)).toEqual([]);
      moves++;
    }
    expect(moves).toBeGreaterThan(5);
    const end = await dump(fast);
    expect(end.games[0]!.status).toBe('finished');
    expect(end.seats.map((x) => x.result).sort()).not.toContain(null);
    expect(end.ratings).toHaveLength(2);
    expect(end.outbox.filter((o) => o.kind === 'result')).toHaveLength(1);
  });

  it('refuses a stale version and changes nothing', async () => {
    const { f } = contexts();
    const id = await start(f);
    const g = await current(fast, id);
    const input = { gameId: id, userId: g.state.turn!, guildId: GUILD, move: { type: 'place', column: column(g.state) }, expectedVersion: g.version };
    await playMove(f, input);
    const before = await dump(fast);
    await expect(playMove(f, input)).rejects.toSatisfy(userError('game/stale'));
    expect(await dump(fast)).toEqual(before);
  });

  it('refuses a write whose game moved since it was read, and rolls back what the statement began', async () => {
    const { f } = contexts();
    const id = await start(f);
    const before = await dump(fast);
    const write = inPgTransaction(f, fast.pool!, async (client) => {
      const game = (await lockGamePg(client, id))!;
      const steps = [{ actor: alice.id, entry: { type: 'move' as const, move: { type: 'place', column: 1 } } }];
      const w = { seats: [], cancelTimers: [], jobs: [], outbox: [{ kind: 'board' as const, payload: { gameId: id } }], releaseAssets: false };
      await pgStore(client).write({ id, version: game.version - 1, cycleId: null, practice: false }, { version: game.version + 1, steps, state: game.state, outcome: null }, w, f.clock.now());
    });
    await expect(write).rejects.toSatisfy(userError('game/stale'));
    expect(await dump(fast)).toEqual(before);
  });

  it('refuses a write-and-commit whose game moved since it was read: no COMMIT runs, nothing is written', async () => {
    const { f } = contexts();
    const id = await start(f);
    const before = await dump(fast);
    const write = inPgTransaction(f, fast.pool!, async (client, tx) => {
      const game = (await lockGamePg(client, id))!;
      const steps = [{ actor: alice.id, entry: { type: 'move' as const, move: { type: 'place', column: 1 } } }];
      const w = { seats: [], cancelTimers: [], jobs: [], outbox: [{ kind: 'board' as const, payload: { gameId: id } }], releaseAssets: false };
      await pgStore(client, tx).write({ id, version: game.version - 1, cycleId: null, practice: false }, { version: game.version + 1, steps, state: game.state, outcome: null }, w, f.clock.now());
    });
    await expect(write).rejects.toSatisfy(userError('game/stale'));
    expect(await dump(fast)).toEqual(before);
    // The pool's one connection is back and out of any transaction.
    expect(await fast.sql.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
  });

  it('inlines a write-and-commit\'s values as literals Postgres reads exactly as the bound parameters', async () => {
    const nasty = `it's a \\ back'slash'' "quote" $1 ; COMMIT; -- é 🎲`;
    const json = JSON.stringify([{ name: nasty, n: -3 }]);
    const st = { name: 'stonehall-test-inline', text: 'SELECT $1::text AS a, $2::int AS b, $3::boolean AS c, $4::jsonb AS d, $5::text AS e, $6::int AS f' };
    const values = [nasty, -42, true, json, null, 7];
    const inlined = await pgTransaction(fast.pool!, (_client, tx) => tx.commitWith(st, values), { maxWaitMs: 1_000, statementTimeoutMs: 1_000 });
    const bound = await fast.sql.query(st.text, values);
    expect(inlined).toEqual(bound);
    expect(inlined[0]).toMatchObject({ a: nasty, b: -42, c: true, d: [{ name: nasty, n: -3 }], e: null, f: 7 });
    // What it cannot write as a literal it refuses (nothing is sent, the transaction rolls back).
    await expect(pgTransaction(fast.pool!, (_client, tx) => tx.commitWith({ name: 'x', text: 'SELECT $1::float8' }, [0.5]), { maxWaitMs: 1_000, statementTimeoutMs: 1_000 })).rejects.toThrow(/no literal/);
    await expect(pgTransaction(fast.pool!, (_client, tx) => tx.commitWith({ name: 'x', text: 'SELECT $2::int' }, [1]), { maxWaitMs: 1_000, statementTimeoutMs: 1_000 })).rejects.toThrow(/no value for \$2/);
  });

  it('rolls back everything when a statement fails midway, and hands its connection back', async () => {
    const { f } = contexts();
    const id = await start(f);
    await fast.sql.exec(`
      CREATE OR REPLACE FUNCTION outbox_fails() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'outbox refused'; END $$;
      CREATE TRIGGER outbox_fails BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_fails();`);
    const g = await current(fast, id);
    const input = { gameId: id, userId: g.state.turn!, guildId: GUILD, move: { type: 'place', column: column(g.state) }, expectedVersion: g.version };
    const before = await dump(fast);
    await expect(playMove(f, input)).rejects.toThrow(/outbox refused/);
    expect(await dump(fast)).toEqual(before);
    // A refusal after the lock (not their turn) rolls back too.
    const other = g.state.turn === alice.id ? bob.id : alice.id;
    await expect(playMove(f, { ...input, userId: other })).rejects.toBeInstanceOf(UserError);
    expect(await dump(fast)).toEqual(before);
    // The one connection came back each time: the move goes through once the trigger is gone.
    await fast.sql.exec('DROP TRIGGER outbox_fails ON outbox');
    const r = await playMove(f, input);
    expect(r.after.game.version).toBe(g.version + 1);
    expect((await dump(fast)).moves).toHaveLength(1);
  });

  it('tells the player to try again when no connection frees up, and changes nothing', async () => {
    const { f } = contexts();
    const id = await start(f);
    const g = await current(fast, id);
    const input = { gameId: id, userId: g.state.turn!, guildId: GUILD, move: { type: 'place', column: column(g.state) }, expectedVersion: g.version };
    const held = await fast.pool!.connect();
    try {
      // The one connection is held throughout, so no wait would see it free up: 1 s instead of the
      // bot's 10 s shows the refusal as well (the setting is the product's, ServiceContext.connectionWaitMs).
      await expect(playMove({ ...f, connectionWaitMs: 1_000 }, input)).rejects.toSatisfy(userError('system/busy'));
    } finally {
      held.release();
    }
    expect((await current(fast, id)).version).toBe(g.version);
    const r = await playMove(f, input);
    expect(r.after.game.version).toBe(g.version + 1);
  }, 30_000);

  it('cancels a statement that runs past the timeout, rolls back, and leaves no setting on the connection', async () => {
    const { f } = contexts();
    const id = await start(f);
    const before = await dump(fast);
    const slowWrite = pgTransaction(
      fast.pool!,
      async (client) => {
        await client.query('UPDATE games SET board_version = board_version + 1 WHERE id = $1', [id]);
        await client.query('SELECT pg_sleep(5)');
      },
      { maxWaitMs: 1_000, statementTimeoutMs: 200 },
    );
    await expect(slowWrite).rejects.toMatchObject({ code: '57014' });
    expect(await dump(fast)).toEqual(before);
    // The pool's one connection is back, without the transaction's timeout.
    expect(await fast.sql.query<{ statement_timeout: string }>('SHOW statement_timeout')).toEqual([{ statement_timeout: '0' }]);
  });
});
