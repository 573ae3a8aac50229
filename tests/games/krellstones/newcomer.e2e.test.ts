import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resign } from '../../../src/services/games.ts';
import { testContext } from '../../helpers/context.ts';
import { EPHEMERAL, expectRefused, startHarness, type Harness } from '../../helpers/harness.ts';

/**
 * The collection meets the game, through the emulator: two newcomers claim their kits
 * (`/krellstone claim`), Alice slots a face a moderator gave her, hosts on the kit's mat and Bob joins; the
 * game starts with the face as it was slotted, and while it runs the stone cannot be changed;
 * when the game ends it can.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const run = (user: string, name: string, options: Record<string, unknown>) => h.api.command({ user, channel: 'general', name, options });
type Side = { printed: number; face: { type: string; value: number; weight: number } | null };
type StoneData = { type: string; sides: Side[] };

/** Every object in `x` with this `id` and a `sides` array (the game's snapshots of a stone). */
function snapshots(x: unknown, id: string, out: Array<{ sides: Array<{ value: number; weight: number }> }> = []) {
  if (Array.isArray(x)) for (const y of x) snapshots(y, id, out);
  else if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if (o.id === id && Array.isArray(o.sides) && (o.sides as Array<Record<string, unknown>>).every((s) => 'weight' in s)) out.push(o as never);
    for (const v of Object.values(o)) snapshots(v, id, out);
  }
  return out;
}

describe('a newcomer’s kit in a game', () => {
  it('claims, slots a face, hosts on the kit’s mat; the game keeps the face; the stone is locked until the end', { timeout: 120_000 }, async () => {
    const u = h.emulator.users;
    for (const who of ['alice', 'bob']) expect((await run(who, 'krellstone', { subcommand: 'claim' })).response?.message?.content).toMatch(/Your free starter kit/);
    const mine = (type: string) => h.db.prisma.asset.findMany({ where: { playerId: u.alice, game: 'krellstones', type }, orderBy: { id: 'asc' } });

    // A moderator welcomes Alice with a heavy Pawn face of a value her Pawn does not show; she slots it.
    const stone = (await mine('stone')).find((s) => (s.data as StoneData).type === 'pawn')!;
    const printed = (stone.data as StoneData).sides.map((s) => s.printed);
    const f = { type: 'pawn', value: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].find((v) => !printed.includes(v))!, weight: 2 };
    await run('moderator', 'krellstone-grant', { subcommand: 'faces', player: 'alice', type: 'pawn', value: f.value, weight: 2, promo: false });
    const face = (await mine('face')).at(-1)!;
    expect(face.data).toMatchObject(f);
    const side = 3;
    const slotted = await run('alice', 'krellstone', { subcommand: 'slot', stone: String(stone.id), side, face: String(face.id) });
    expect(slotted.response?.message?.content).toMatch(new RegExp(`Face #${face.id} slotted into side ${side}`));

    // Alice hosts on her kit's mat, Bob joins, both ready: their kits are exactly one loadout each.
    const mat = (await mine('mat'))[0]!;
    expect((await run('alice', 'krellstones', { subcommand: 'start', mat: String(mat.id), rounds: 1 })).response?.message?.content).toMatch(/table #\d+/);
    expect((await run('bob', 'krellstones', { subcommand: 'join', host: 'alice' })).response?.message?.content).toMatch(/joins/);
    await run('alice', 'krellstones', { subcommand: 'ready' });
    await run('bob', 'krellstones', { subcommand: 'ready' });
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'krellstones' } });
    expect(await h.db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(6 + 6 + 1);

    // The game took the stone as it was: the slotted side shows the face's value and weighs 1 + 2.
    const snaps = snapshots(game.state, String(stone.id));
    expect(snaps.length).toBeGreaterThan(0);
    for (const snap of snaps) expect(snap.sides[side - 1]).toEqual({ value: f.value, weight: 1 + f.weight });

    // While it runs: listed as in the game, and no change to it.
    const listed = await run('alice', 'krellstone', { subcommand: 'list', 'in-game': true });
    expect(listed.response?.message?.flags).toBe(EPHEMERAL);
    expect(listed.response?.message?.content).toMatch(new RegExp(`Your krellstones \\(in a game\\): 6[\\s\\S]*in game #${game.id}`));
    const before = await h.db.prisma.asset.findUniqueOrThrow({ where: { id: stone.id } });
    await expectRefused(run('alice', 'krellstone', { subcommand: 'unslot', stone: String(stone.id), side: 'all' }), new RegExp(`#${stone.id} is in game #${game.id}: you can unslot faces from it once that game ends`));
    await expectRefused(run('alice', 'krellstone', { subcommand_group: 'alias', subcommand: 'set', stone: String(stone.id), alias: 'Lucky' }), new RegExp(`is in game #${game.id}`));
    expect((await h.db.prisma.asset.findUniqueOrThrow({ where: { id: stone.id } })).data).toEqual(before.data);

    // Bob gives up: the game ends, its locks are released, and the face comes out.
    await resign(testContext(h.db, h.clock), { gameId: game.id, userId: u.bob, guildId: h.emulator.guildId });
    await h.settle();
    expect(await h.db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(0);
    const un = await run('alice', 'krellstone', { subcommand: 'unslot', stone: String(stone.id), side: 'all' });
    expect(un.response?.message?.content).toMatch(new RegExp(`Back among your faces:\\n\\*\\*#\\d+\\*\\* Pawn face ${f.value}, weight ${f.weight}`));
  });
});
