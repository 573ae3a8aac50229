import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { checkHost, selectStone, setRules, sideboardAdd, unselectStone } from '../../../src/games/krellstones/lobby.ts';
import { present } from '../../../src/games/krellstones/present.ts';
import { resign } from '../../../src/services/games.ts';
import { joinTable, leaveTable, openTable, readySeat } from '../../../src/services/tables.ts';
import { refused, SEED_A, testContext } from '../../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';
import { giveStones } from './owned.ts';

/**
 * The Krellstones lobby on real Postgres: a table of the tables service whose seats carry the
 * stones each player brings; choosing, refusals, READY's random fill, and the start that snapshots
 * the stones into the game and locks them (and the host's mat) until the game ends.
 */
let db: TestDatabase;
let ctx: ReturnType<typeof testContext>;
const G = '910000000000000001';
const CH = '910000000000000002';
const p = (n: number) => ({ id: `8100000000000000${String(n).padStart(2, '0')}`, name: `P${n}` });

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = testContext(db);
});
afterAll(async () => {
  await db?.drop();
});

describe('the Krellstones lobby', () => {
  it('hosts on a mat, checks every choice, fills READY at random, starts when all are ready and locks what is used', async () => {
    const [a, b, c] = [p(1), p(2), p(3)];
    // No mat, no hosting.
    await giveStones(ctx, { guildId: G, player: c, seed: 'c', types: ['pawn', 'dancer'] });
    expect((await refused(() => checkHost(ctx, G, c.id, null))).code).toBe('krellstones/no-mat');
    const A = await giveStones(ctx, { guildId: G, player: a, seed: 'a', mat: true, aliases: [null, null, 'Lucky', null, null, 'Boss'] });
    const B = await giveStones(ctx, { guildId: G, player: b, seed: 'b', types: ['pawn', 'dancer', 'krell', 'krell', 'krell', 'krell', 'master'] });
    expect((await refused(() => checkHost(ctx, G, a.id, 'Velvet'))).code).toBe('krellstones/no-such-mat');
    const { mat } = await checkHost(ctx, G, a.id, 'modern krellstones');
    expect(mat.id).toBe(A.mat!.id);

    const table = await openTable(ctx, { guildId: G, channelId: CH, kind: 'krellstones', options: { rounds: 3 }, seatCount: 4, minSeats: 2, host: a, hostData: { mat: mat.id } });
    expect(table.seats[0]!.data).toEqual({ stones: [], sideboard: [], mat: mat.id });
    expect(present.table!.seatNote!({ playerId: a.id, data: table.seats[0]!.data, ready: false, host: true }, table.options)).toBe(`0 of 6 stones chosen · on a mat (#${mat.id})`);
    // The shop's mat is called "Modern Krellstones mat": said once, not "… mat mat".
    for (const [matName, shown] of [['Modern Krellstones mat', 'the Modern Krellstones mat'], ['Velvet', 'the Velvet mat']] as const) {
      expect(present.table!.seatNote!({ playerId: a.id, data: { ...(table.seats[0]!.data as object), matName }, ready: false, host: true }, table.options)).toBe(`0 of 6 stones chosen · on ${shown} (#${mat.id})`);
    }
    const joined = await joinTable(ctx, { tableId: table.id, guildId: G, user: b });
    expect(joined.game).toBeNull();
    // Carol lacks Krells and a Master: she could never be ready, so Join refuses her at once, with the fix.
    const lacking = await refused(() => joinTable(ctx, { tableId: table.id, guildId: G, user: c }));
    expect(lacking.code).toBe('krellstones/missing-stones');
    expect(lacking.message).toMatch(/You lack 3 Krells, 1 Master: every player brings .*`\/krellstone claim`/);

    // Choices by alias or number; refusals change nothing.
    expect((await selectStone(ctx, { guildId: G, userId: a.id, stone: 'lucky' })).stone).toBe(`Krell “Lucky” #${A.stones[2]!.id}`);
    await selectStone(ctx, { guildId: G, userId: a.id, stone: `#${A.stones[5]!.id}` });
    expect((await refused(() => selectStone(ctx, { guildId: G, userId: a.id, stone: 'Lucky' }))).code).toBe('krellstones/already-selected');
    expect((await refused(() => selectStone(ctx, { guildId: G, userId: a.id, stone: String(B.stones[0]!.id) }))).code).toBe('krellstones/no-such-stone');
    expect((await refused(() => selectStone(ctx, { guildId: G, userId: a.id, stone: 'Nobody' }))).message).toMatch(/You have no stone “Nobody”/);
    for (const k of [2, 3, 4]) await selectStone(ctx, { guildId: G, userId: b.id, stone: String(B.stones[k]!.id) });
    const tooMany = await refused(() => selectStone(ctx, { guildId: G, userId: b.id, stone: String(B.stones[5]!.id) }));
    expect(tooMany.code).toBe('krellstones/too-many');
    expect(tooMany.message).toMatch(/A game takes 3 Krells and you selected 3: unselect one first/);
    await unselectStone(ctx, { guildId: G, userId: b.id, stone: String(B.stones[4]!.id) });
    await selectStone(ctx, { guildId: G, userId: b.id, stone: String(B.stones[5]!.id) });
    expect((await refused(() => selectStone(ctx, { guildId: G, userId: p(4).id, stone: '1' }))).code).toBe('krellstones/no-table');

    // The sideboard is the host's to turn on, and is limited to its size.
    expect((await refused(() => sideboardAdd(ctx, { guildId: G, userId: b.id, stone: String(B.stones[4]!.id) }))).code).toBe('krellstones/no-sideboard');
    expect((await refused(() => setRules(ctx, { guildId: G, userId: b.id, sideboard: 1 }))).code).toBe('table/not-host');
    await setRules(ctx, { guildId: G, userId: a.id, sideboard: 1, pace: 'FAST' });
    await sideboardAdd(ctx, { guildId: G, userId: b.id, stone: String(B.stones[4]!.id) });
    expect((await refused(() => sideboardAdd(ctx, { guildId: G, userId: b.id, stone: String(B.stones[0]!.id) }))).code).toBe('krellstones/sideboard-full');


    // Alice is ready with 2 chosen: the rest is drawn from her stones; Bob's READY starts the game.
    const ra = await readySeat(ctx, { tableId: table.id, guildId: G, userId: a.id });
    expect(ra.game).toBeNull();
    const aData = ra.table.seats.find((s) => s.playerId === a.id)!.data as { stones: string[] };
    expect([...aData.stones].sort()).toEqual(A.stones.map((s) => String(s.id)).sort());
    expect((await refused(() => readySeat(ctx, { tableId: table.id, guildId: G, userId: a.id }))).code).toBe('table/already-ready');
    const rb = await readySeat(ctx, { tableId: table.id, guildId: G, userId: b.id, seed: SEED_A });
    expect(rb.game).not.toBeNull();
    expect(rb.table.status).toBe('started');
    const game = await db.prisma.game.findUniqueOrThrow({ where: { id: rb.game!.id } });
    const state = game.state as unknown as KrellstonesState;
    expect(state.host).toBe(a.id);
    expect(state.rounds).toBe(3);
    expect(state.pace).toBe('FAST');
    expect(state.sideboard).toBe(1);
    expect(state.seats[b.id]!.sideboard.map((s) => s.id)).toEqual([String(B.stones[4]!.id)]);
    expect(state.seats[a.id]!.active.find((s) => s.id === String(A.stones[2]!.id))?.alias).toBe('Lucky');
    // The snapshot is the stones as they were: sides and weights.
    const lucky = state.seats[a.id]!.active.find((s) => s.id === String(A.stones[2]!.id))!;
    expect(lucky.sides.map((x) => x.value)).toEqual(A.stones[2]!.data.sides.map((x) => x.printed));
    // Everything used is locked by the game: six stones each, Bob's sideboard stone, Alice's mat.
    const locked = await db.prisma.asset.findMany({ where: { lockedByGameId: game.id } });
    expect(locked.length).toBe(6 + 6 + 1 + 1);
    expect(locked.some((x) => x.id === mat.id)).toBe(true);
    expect(await db.prisma.asset.count({ where: { playerId: b.id, lockedByGameId: null } })).toBe(0);

    // A stone in a running game cannot be brought to another table.
    const t2 = await openTable(ctx, { guildId: G, channelId: CH, kind: 'krellstones', options: {}, seatCount: 4, minSeats: 2, host: c, hostData: {} });
    // One lobby at a time: Dan sits at another open table, so he cannot join this one too.
    const t3 = await openTable(ctx, { guildId: G, channelId: CH, kind: 'krellstones', options: {}, seatCount: 4, minSeats: 2, host: p(5), hostData: {} });
    await giveStones(ctx, { guildId: G, player: p(4), seed: 'd' });
    await joinTable(ctx, { tableId: t3.id, guildId: G, user: p(4) });
    expect((await refused(() => joinTable(ctx, { tableId: t2.id, guildId: G, user: p(4) }))).code).toBe('table/elsewhere');
    // Bob owns stones, all busy in the running game: he may sit (it may end first); Ready says what is missing.
    await joinTable(ctx, { tableId: t2.id, guildId: G, user: b });
    expect((await refused(() => selectStone(ctx, { guildId: G, userId: b.id, stone: String(B.stones[0]!.id) }))).code).toBe('krellstones/stone-in-game');
    expect((await refused(() => readySeat(ctx, { tableId: t2.id, guildId: G, userId: b.id }))).code).toBe('krellstones/missing-stones');

    // The end of the game releases the locks.
    await resign(ctx, { gameId: game.id, userId: b.id, guildId: G });
    expect(await db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(0);
  });
});
