import { beforeEach, describe, expect, it } from 'vitest';
import { OffsetClock } from '../../src/clock.ts';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { playMove } from '../../src/services/games.ts';
import { CHANNEL, GUILD, SEED_A, testContext, twoPlayerGame, withServiceDb } from '../helpers/context.ts';

/**
 * A move that ends a player's turn writes the row retiring their turn DM's buttons (`dm-edit`,
 * mode `retire`) only when there can be buttons to retire: their DM shows some (`dm_live`), or a
 * DM of theirs in this game is still pending (its delivery may yet show some). Otherwise the row
 * would cost the dispatcher a claim, a read and a mark for nothing (src/services/changes.ts).
 */

const T0 = new Date('2026-03-01T12:00:00.000Z');

const db = withServiceDb();
beforeEach(async () => {
  await db.sql.exec('TRUNCATE guilds, players, challenges, games, seats, moves, jobs, outbox, ratings, assets RESTART IDENTITY CASCADE');
});

const column = (st: KnucklebonesState) => st.grids[st.turn!]!.findIndex((c) => c.length < 3) + 1;

describe('the retire row of a turn that ends', () => {
  it('is written when the DM shows buttons or a DM of the player in the game is pending, and only then', async () => {
    const ctx = testContext(db, new OffsetClock({ frozenAt: T0 }));
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    const move = async () => {
      const [g] = await db.sql.query<{ state: KnucklebonesState; version: number }>('SELECT state, version FROM games WHERE id = $1', [game.id]);
      const mover = g!.state.turn!;
      await playMove(ctx, { gameId: game.id, userId: mover, guildId: GUILD, move: { type: 'place', column: column(g!.state) }, expectedVersion: g!.version, kind: 'knucklebones', fromBoard: true, via: 'board' });
      return mover;
    };
    const retires = async (userId: string) =>
      (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE kind = 'dm-edit' AND payload->>'mode' = 'retire' AND payload->>'userId' = $1`, [userId]))[0]!.n;
    const allSent = () => db.sql.exec(`UPDATE outbox SET status = 'sent'`);

    // Nothing pending, no live DM: no retire row.
    await allSent();
    let mover = await move();
    expect(await retires(mover)).toBe(0);

    // The next mover's DM shows buttons: retired.
    await allSent();
    const [next] = await db.sql.query<{ turn: string }>(`SELECT state->>'turn' AS turn FROM games WHERE id = $1`, [game.id]);
    await db.sql.query(`UPDATE seats SET dm_live = true, dm_message_id = '300000000000000001' WHERE game_id = $1 AND player_id = $2`, [game.id, next!.turn]);
    mover = await move();
    expect(mover).toBe(next!.turn);
    expect(await retires(mover)).toBe(1);

    // No live DM, but the turn DM written by the last move is still pending (not delivered): retired.
    const [pending] = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox WHERE status = 'pending' AND kind = 'dm' AND payload->>'userId' <> $1`,
      [mover],
    );
    expect(pending!.n).toBeGreaterThan(0);
    const before = mover;
    mover = await move();
    expect(mover).not.toBe(before);
    expect(await retires(mover)).toBe(1);

    // A pending DM of the player in another game does not count. (Their DM of step two is no
    // longer live: its retire row, here marked sent, did that.)
    await allSent();
    await db.sql.query(`UPDATE seats SET dm_live = false WHERE game_id = $1 AND player_id = $2`, [game.id, before]);
    const earlier = await retires(before);
    await db.sql.query(`INSERT INTO outbox (kind, payload, available_at, created_at) VALUES ('dm', $1::jsonb, now(), now())`, [
      JSON.stringify({ userId: before, fallbackChannelId: CHANNEL, notification: { type: 'turn', gameId: game.id + 1000, kind: 'knucklebones' } }),
    ]);
    mover = await move();
    expect(mover).toBe(before);
    expect(await retires(mover)).toBe(earlier);
  });
});
