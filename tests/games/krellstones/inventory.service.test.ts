import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../../../src/kernel/rng.ts';
import { ASSET } from '../../../src/games/krellstones/assets.ts';
import { PRICES, STONE_KINDS } from '../../../src/games/krellstones/data.ts';
import {
  buy,
  claimStarterKit,
  grant,
  inspectFace,
  inspectStone,
  listFaces,
  listStones,
  removeAlias,
  rollStone,
  setAlias,
  shop,
  slotFace,
  tradeIn,
  trashFace,
  unslotFaces,
  type Grant,
} from '../../../src/games/krellstones/inventory.ts';
import { UserError } from '../../../src/services/errors.ts';
import { inTransaction, startGame } from '../../../src/services/games.ts';
import { testContext, withServiceDb } from '../../helpers/context.ts';

/**
 * The Krellstones collection on real Postgres: every collection command of the help file, the
 * starter kit, the shop and grants; a stone in a running game refused; purchases racing for the
 * same credits.
 */
const db = withServiceDb();

const GUILD = '720000000000000001';
const CHANNEL = '720000000000000099';
const MOD = { manageGuild: true, roleIds: [] };
const NOBODY = { manageGuild: false, roleIds: [] };
let n = 0;
/** A fresh player per test, so tests do not share collections. */
const newPlayer = () => {
  n += 1;
  return { id: `72100000000000${String(n).padStart(4, '0')}`, name: `P${n}` };
};
const ctx = () => testContext(db);
const who = (p: { id: string }) => ({ guildId: GUILD, playerId: p.id });
const seed = (c: string) => rngFromSeed(c.repeat(64));

const refusedWith = (code: string, message?: RegExp) => (e: unknown) =>
  e instanceof UserError && e.code === code && (message ? message.test(e.message) : true);
const ruleRefused = (code: string) => (e: unknown) => (e as { code?: string }).code === code;

async function assetsOfPlayer(playerId: string) {
  return db.prisma.asset.findMany({ where: { guildId: GUILD, playerId, game: 'krellstones' }, orderBy: { id: 'asc' } });
}

async function give(p: { id: string; name: string }, g: Grant) {
  return grant(ctx(), { guildId: GUILD, channelId: CHANNEL, member: MOD, moderatorId: 'mod', player: p, grant: g }, seed('5'));
}

describe('the starter kit', () => {
  it('is claimed once: 1 Pawn, 1 Dancer, 3 Krells, 1 Master, a mat and 2 faces; a second claim changes nothing', async () => {
    const p = newPlayer();
    const kit = await claimStarterKit(ctx(), { guildId: GUILD, player: p }, seed('1'));
    expect(kit.stones.map((s) => s.type)).toEqual(['pawn', 'dancer', 'krell', 'krell', 'krell', 'master']);
    for (const s of kit.stones) {
      expect(s.values).toHaveLength(STONE_KINDS[s.type].sides);
      expect(new Set(s.values).size).toBe(s.values.length);
    }
    expect(kit.mats).toHaveLength(1);
    expect(kit.faces).toHaveLength(2);
    const before = await assetsOfPlayer(p.id);
    await expect(claimStarterKit(ctx(), { guildId: GUILD, player: p })).rejects.toSatisfy(refusedWith('krellstones/kit-claimed', /already claimed.*100 credits/));
    expect(await assetsOfPlayer(p.id)).toEqual(before);
    const c = await listStones(ctx(), who(p));
    expect(c.stones).toHaveLength(6);
    expect(c.looseFaces).toBe(2);
    expect(c.mats).toHaveLength(1);
    expect(c.freeKitAvailable).toBe(false);
    // Another server is another collection: the kit may be claimed there.
    const elsewhere = await claimStarterKit(ctx(), { guildId: '720000000000000002', player: p }, seed('1'));
    expect(elsewhere.stones).toHaveLength(6);
  });

  it('draws from ctx.seeds when a test sets it (else fresh crypto bytes): the same seed, the same kit', async () => {
    const seeded = { ...ctx(), seeds: () => '8'.repeat(64) };
    const [a, b] = [newPlayer(), newPlayer()];
    const values = async (p: { id: string; name: string }, c: typeof seeded | ReturnType<typeof ctx>) => (await claimStarterKit(c, { guildId: GUILD, player: p })).stones.map((s) => s.values);
    const kitA = await values(a, seeded);
    expect(await values(b, seeded)).toEqual(kitA);
    expect(await values(newPlayer(), ctx())).not.toEqual(kitA);
  });

  it('claimed twice at the same moment: exactly one kit', async () => {
    const p = newPlayer();
    const results = await Promise.allSettled([claimStarterKit(ctx(), { guildId: GUILD, player: p }), claimStarterKit(ctx(), { guildId: GUILD, player: p })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toSatisfy(refusedWith('krellstones/kit-claimed'));
    const rows = await assetsOfPlayer(p.id);
    expect(rows.filter((r) => r.type === ASSET.stone)).toHaveLength(6);
    expect(rows.filter((r) => r.type === ASSET.wallet)).toHaveLength(1);
  });
});

describe('stones', () => {
  it('list with every filter, combined; inspect; roll; alias and alias remove', async () => {
    const p = newPlayer();
    const kit = await claimStarterKit(ctx(), { guildId: GUILD, player: p }, seed('2'));
    const [pawn, dancer, k1, k2, , master] = kit.stones;

    // Aliases: unique per player (case-insensitive), never a number, found by alias or id.
    expect((await setAlias(ctx(), { ...who(p), stone: String(k1!.id), alias: '  Lucky   Krell ' })).alias).toBe('Lucky Krell');
    expect((await setAlias(ctx(), { ...who(p), stone: `#${dancer!.id}`, alias: 'Twirl' })).alias).toBe('Twirl');
    await expect(setAlias(ctx(), { ...who(p), stone: String(k2!.id), alias: 'lucky krell' })).rejects.toSatisfy(refusedWith('krellstones/alias-taken', new RegExp(`#${k1!.id} is already called “Lucky Krell”`)));
    await expect(setAlias(ctx(), { ...who(p), stone: String(k2!.id), alias: '#42' })).rejects.toSatisfy(refusedWith('krellstones/alias-number'));
    await expect(setAlias(ctx(), { ...who(p), stone: String(k2!.id), alias: 'ALL' })).rejects.toSatisfy(refusedWith('krellstones/alias-reserved'));
    await expect(setAlias(ctx(), { ...who(p), stone: 'nope', alias: 'x' })).rejects.toSatisfy(refusedWith('krellstones/no-stone', /no krellstone called “nope”/));
    // Someone else's stone is not found by its id.
    const q = newPlayer();
    await expect(setAlias(ctx(), { ...who(q), stone: String(k2!.id), alias: 'mine' })).rejects.toSatisfy(refusedWith('krellstones/no-stone', new RegExp(`no krellstone #${k2!.id}`)));
    // Renaming a stone to its own alias in another case is fine.
    expect((await setAlias(ctx(), { ...who(p), stone: 'lucky krell', alias: 'LUCKY KRELL' })).alias).toBe('LUCKY KRELL');

    const ids = async (filter: Parameters<typeof listStones>[1]['filter']) => (await listStones(ctx(), { ...who(p), filter })).stones.map((s) => s.id);
    expect(await ids({})).toEqual(kit.stones.map((s) => s.id));
    expect(await ids({ type: 'krell' })).toEqual(kit.stones.filter((s) => s.type === 'krell').map((s) => s.id));
    expect(await ids({ hasAlias: true })).toEqual([dancer!.id, k1!.id]);
    expect(await ids({ hasAlias: false })).toEqual([pawn!.id, k2!.id, kit.stones[4]!.id, master!.id]);
    expect(await ids({ type: 'krell', hasAlias: true })).toEqual([k1!.id]);
    expect(await ids({ inGame: true })).toEqual([]);
    // In a game: the master is used by a real running game.
    const game = await inTransaction(ctx(), (tx) =>
      startGame(tx, ctx(), { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', players: [p, q], seed: '3'.repeat(64) }),
    );
    await db.prisma.asset.update({ where: { id: master!.id }, data: { lockedByGameId: game.id } });
    expect(await ids({ inGame: true })).toEqual([master!.id]);
    expect(await ids({ inGame: true, type: 'master', hasAlias: false })).toEqual([master!.id]);
    expect(await ids({ inGame: true, hasAlias: true })).toEqual([]);
    expect(await ids({ inGame: false, type: 'master' })).toEqual([]);
    await expect(setAlias(ctx(), { ...who(p), stone: String(master!.id), alias: 'Boss' })).rejects.toSatisfy(refusedWith('krellstones/in-game', new RegExp(`in game #${game.id}`)));

    // Inspect: each side's value, no face, weight 1, equal chances.
    const d = await inspectStone(ctx(), { ...who(p), stone: 'twirl' });
    expect(d.id).toBe(dancer!.id);
    expect(d.sides.map((s) => s.value)).toEqual(dancer!.values);
    expect(d.sides.every((s) => s.face === null && s.weight === 1 && s.chance === 1 / 5)).toBe(true);

    // Roll: a side of the stone, the same for the same seed.
    const r1 = await rollStone(ctx(), { ...who(p), stone: 'Twirl' }, seed('9'));
    const r2 = await rollStone(ctx(), { ...who(p), stone: 'Twirl' }, seed('9'));
    expect(r1.value).toBe(dancer!.values[r1.side - 1]);
    expect([r2.side, r2.value]).toEqual([r1.side, r1.value]);
    expect(r1.chance).toBe(1 / 5);

    // Alias remove.
    expect(await removeAlias(ctx(), { ...who(p), stone: 'twirl' })).toMatchObject({ removed: 'Twirl', stone: { id: dancer!.id, alias: null } });
    await expect(removeAlias(ctx(), { ...who(p), stone: String(dancer!.id) })).rejects.toSatisfy(refusedWith('krellstones/no-alias'));
    await expect(inspectStone(ctx(), { ...who(p), stone: 'twirl' })).rejects.toSatisfy(refusedWith('krellstones/no-stone'));
  });
});

describe('faces', () => {
  it('slot and unslot (one side, all), the chances follow the weights, and a repeat is refused', async () => {
    const p = newPlayer();
    const [pawn] = (await give(p, { what: 'stones', type: 'pawn', count: 1 })).stones;
    const values = pawn!.values;
    const free = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((v) => !values.includes(v));
    const [heavy] = (await give(p, { what: 'faces', count: 1, type: 'pawn', value: free[0]!, weight: 1, promo: false })).faces;
    const [repeat] = (await give(p, { what: 'faces', count: 1, type: 'pawn', value: values[1]!, weight: 2, promo: false })).faces;
    const [other] = (await give(p, { what: 'faces', count: 1, type: 'pawn', value: free[1]!, weight: 0, promo: true })).faces;
    const [krellFace] = (await give(p, { what: 'faces', count: 1, type: 'krell', value: 20, weight: 0, promo: false })).faces;

    // Face inspect says where it fits: every side of the pawn for `heavy`; not side 2's neighbours for `repeat`.
    expect((await inspectFace(ctx(), { ...who(p), faceId: heavy!.id! })).fits).toEqual([{ stone: expect.objectContaining({ id: pawn!.id }), sides: [1, 2, 3, 4] }]);
    expect((await inspectFace(ctx(), { ...who(p), faceId: repeat!.id! })).fits).toEqual([{ stone: expect.objectContaining({ id: pawn!.id }), sides: [2] }]);
    expect((await inspectFace(ctx(), { ...who(p), faceId: krellFace!.id! })).fits).toEqual([]);

    const slotted = await slotFace(ctx(), { ...who(p), stone: String(pawn!.id), side: 1, faceId: heavy!.id! });
    expect(slotted.sides[0]).toMatchObject({ side: 1, printed: values[0], value: free[0], weight: 2, chance: 2 / 5 });
    expect(slotted.sides.slice(1).map((s) => s.chance)).toEqual([1 / 5, 1 / 5, 1 / 5]);
    // The face left the loose faces.
    await expect(inspectFace(ctx(), { ...who(p), faceId: heavy!.id! })).rejects.toSatisfy(refusedWith('krellstones/no-face'));
    // Refusals: a value another side shows, a side holding a face, another stone type, no such side.
    await expect(slotFace(ctx(), { ...who(p), stone: String(pawn!.id), side: 3, faceId: repeat!.id! })).rejects.toSatisfy(ruleRefused('krellstones/value-repeats'));
    await expect(slotFace(ctx(), { ...who(p), stone: String(pawn!.id), side: 1, faceId: other!.id! })).rejects.toSatisfy(ruleRefused('krellstones/side-has-face'));
    await expect(slotFace(ctx(), { ...who(p), stone: String(pawn!.id), side: 2, faceId: krellFace!.id! })).rejects.toSatisfy(ruleRefused('krellstones/wrong-stone-type'));
    await expect(slotFace(ctx(), { ...who(p), stone: String(pawn!.id), side: 5, faceId: other!.id! })).rejects.toSatisfy(ruleRefused('krellstones/no-such-side'));
    // The refused faces are still loose.
    expect((await listFaces(ctx(), { ...who(p), filter: { unslotted: true } })).map((f) => f.id)).toEqual([repeat!.id, other!.id, krellFace!.id]);

    // Slot a second, then unslot side 1 alone: the face comes back (with a new id), same data.
    await slotFace(ctx(), { ...who(p), stone: String(pawn!.id), side: 2, faceId: repeat!.id! });
    expect((await inspectStone(ctx(), { ...who(p), stone: String(pawn!.id) })).sides.map((s) => s.weight)).toEqual([2, 3, 1, 1]);
    const one = await unslotFaces(ctx(), { ...who(p), stone: String(pawn!.id), side: 1 });
    expect(one.faces).toEqual([{ id: expect.any(Number), type: 'pawn', value: free[0], weight: 1, promo: false, slottedIn: null }]);
    expect(one.stone.sides[0]).toMatchObject({ value: values[0], face: null, weight: 1 });
    await expect(unslotFaces(ctx(), { ...who(p), stone: String(pawn!.id), side: 1 })).rejects.toSatisfy(ruleRefused('krellstones/no-face'));
    await slotFace(ctx(), { ...who(p), stone: String(pawn!.id), side: 4, faceId: one.faces[0]!.id! });
    // Unslot all: both faces back, the stone shows its printed values again.
    const all = await unslotFaces(ctx(), { ...who(p), stone: String(pawn!.id), side: 'all' });
    expect(all.faces.map((f) => [f.value, f.weight])).toEqual([
      [values[1], 2],
      [free[0], 1],
    ]);
    expect(all.stone.sides.map((s) => s.value)).toEqual(values);
    await expect(unslotFaces(ctx(), { ...who(p), stone: String(pawn!.id), side: 'all' })).rejects.toSatisfy(refusedWith('krellstones/no-face'));
  });

  it('face list with every filter, combined (>N and <N inclusive), loose and slotted', async () => {
    const p = newPlayer();
    const [krell] = (await give(p, { what: 'stones', type: 'krell', count: 1 })).stones;
    const free = Array.from({ length: 18 }, (_, i) => i + 3).filter((v) => !krell!.values.includes(v));
    const f = async (type: 'krell' | 'master', value: number, promo: boolean) => (await give(p, { what: 'faces', count: 1, type, value, weight: 0, promo })).faces[0]!.id!;
    const a = await f('krell', free[0]!, true);
    const b = await f('krell', free[1]!, false);
    const c = await f('master', 21, true);
    const d = await f('master', 41, false);
    await slotFace(ctx(), { ...who(p), stone: String(krell!.id), side: 1, faceId: a });
    const list = async (filter: Parameters<typeof listFaces>[1]['filter']) => (await listFaces(ctx(), { ...who(p), filter })).map((x) => x.id ?? `${x.slottedIn!.stoneId}/${x.slottedIn!.side}`);
    const slottedA = `${krell!.id}/1`;
    expect(await list({})).toEqual([b, c, d, slottedA]);
    expect(await list({ type: 'master' })).toEqual([c, d]);
    expect(await list({ promo: true })).toEqual([c, slottedA]);
    expect(await list({ promo: false })).toEqual([b, d]);
    expect(await list({ unslotted: true })).toEqual([b, c, d]);
    expect(await list({ unslotted: false })).toEqual([slottedA]);
    expect(await list({ atLeast: 21 })).toEqual([c, d]);
    expect(await list({ atMost: 21, atLeast: 21 })).toEqual([c]);
    expect(await list({ type: 'master', promo: true, unslotted: true, atLeast: 20, atMost: 40 })).toEqual([c]);
    expect(await list({ type: 'krell', promo: true })).toEqual([slottedA]);
    await expect(listFaces(ctx(), { ...who(p), filter: { atLeast: 40, atMost: 20 } })).rejects.toSatisfy(refusedWith('krellstones/bad-filter'));
  });

  it('trash and trade-in: trade-in takes promo faces only, for 10 credits; someone else’s face is refused', async () => {
    const p = newPlayer();
    const q = newPlayer();
    const [promo] = (await give(p, { what: 'faces', count: 1, type: 'dancer', value: 30, weight: 0, promo: true })).faces;
    const [plain] = (await give(p, { what: 'faces', count: 1, type: 'dancer', value: 31, weight: 1, promo: false })).faces;
    await expect(tradeIn(ctx(), { ...who(p), faceId: plain!.id! })).rejects.toSatisfy(refusedWith('krellstones/not-promo', /only promo faces/));
    await expect(tradeIn(ctx(), { ...who(q), faceId: promo!.id! })).rejects.toSatisfy(refusedWith('krellstones/no-face'));
    const t = await tradeIn(ctx(), { ...who(p), faceId: promo!.id! });
    expect(t).toMatchObject({ gained: PRICES.promoTradeIn, credits: PRICES.promoTradeIn });
    expect((await shop(ctx(), who(p))).credits).toBe(10);
    await expect(tradeIn(ctx(), { ...who(p), faceId: promo!.id! })).rejects.toSatisfy(refusedWith('krellstones/no-face'));
    await expect(trashFace(ctx(), { ...who(q), faceId: plain!.id! })).rejects.toSatisfy(refusedWith('krellstones/no-face'));
    expect(await trashFace(ctx(), { ...who(p), faceId: plain!.id! })).toMatchObject({ id: plain!.id, value: 31 });
    expect(await listFaces(ctx(), who(p))).toEqual([]);
    expect((await shop(ctx(), who(p))).credits).toBe(10);
  });
});

describe('a stone in a running game', () => {
  it('cannot be slotted, unslotted, renamed or rid of its alias; nothing changes; after the game it can', async () => {
    const p = newPlayer();
    const q = newPlayer();
    const [krell] = (await give(p, { what: 'stones', type: 'krell', count: 1 })).stones;
    const free = Array.from({ length: 18 }, (_, i) => i + 3).filter((v) => !krell!.values.includes(v));
    const [f1] = (await give(p, { what: 'faces', count: 1, type: 'krell', value: free[0]!, weight: 2, promo: false })).faces;
    const [f2] = (await give(p, { what: 'faces', count: 1, type: 'krell', value: free[1]!, weight: 0, promo: false })).faces;
    await slotFace(ctx(), { ...who(p), stone: String(krell!.id), side: 3, faceId: f1!.id! });
    await setAlias(ctx(), { ...who(p), stone: String(krell!.id), alias: 'Rocky' });
    const game = await inTransaction(ctx(), (tx) =>
      startGame(tx, ctx(), { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', players: [p, q], seed: '4'.repeat(64) }),
    );
    await db.prisma.asset.update({ where: { id: krell!.id }, data: { lockedByGameId: game.id } });
    const before = await assetsOfPlayer(p.id);
    const inGame = refusedWith('krellstones/in-game', new RegExp(`Krell #${krell!.id} “Rocky” is in game #${game.id}: you can .* once that game ends`));
    await expect(slotFace(ctx(), { ...who(p), stone: 'rocky', side: 1, faceId: f2!.id! })).rejects.toSatisfy(inGame);
    await expect(unslotFaces(ctx(), { ...who(p), stone: 'rocky', side: 3 })).rejects.toSatisfy(inGame);
    await expect(unslotFaces(ctx(), { ...who(p), stone: 'rocky', side: 'all' })).rejects.toSatisfy(inGame);
    await expect(setAlias(ctx(), { ...who(p), stone: 'rocky', alias: 'Pebble' })).rejects.toSatisfy(inGame);
    await expect(removeAlias(ctx(), { ...who(p), stone: 'rocky' })).rejects.toSatisfy(inGame);
    expect(await assetsOfPlayer(p.id)).toEqual(before);
    // Reading it still works, and says so.
    expect((await inspectStone(ctx(), { ...who(p), stone: 'rocky' })).gameId).toBe(game.id);
    expect((await listFaces(ctx(), { ...who(p), filter: { unslotted: false } }))[0]!.slottedIn).toEqual({ stoneId: krell!.id, alias: 'Rocky', side: 3, gameId: game.id });
    // The game ends (the platform releases its locks): the stone can change again.
    await db.prisma.asset.update({ where: { id: krell!.id }, data: { lockedByGameId: null } });
    expect((await slotFace(ctx(), { ...who(p), stone: 'rocky', side: 1, faceId: f2!.id! })).sides[0]!.value).toBe(free[1]);
  });
});

describe('the shop', () => {
  it('lists prices; buys a face pack, a mat and a starter kit with credits; refuses what the credits do not cover', async () => {
    const p = newPlayer();
    const s = await shop(ctx(), who(p));
    expect(s.items.map((i) => [i.item, i.price])).toEqual([
      ['starter-kit', 100],
      ['face-pack', 30],
      ['mat', 50],
    ]);
    expect(s).toMatchObject({ credits: 0, freeKitAvailable: true });
    await expect(buy(ctx(), { guildId: GUILD, player: p, item: 'face-pack' })).rejects.toSatisfy(refusedWith('krellstones/credits', /costs 30 credits and you have 0\. Your free starter kit is still waiting/));
    expect(await assetsOfPlayer(p.id)).toEqual([]); // nothing, not even an empty wallet
    expect((await give(p, { what: 'credits', amount: 185 })).credits).toBe(185);
    const pack = await buy(ctx(), { guildId: GUILD, player: p, item: 'face-pack' }, seed('6'));
    expect(pack).toMatchObject({ price: 30, credits: 155 });
    expect(pack.faces).toHaveLength(3);
    const mat = await buy(ctx(), { guildId: GUILD, player: p, item: 'mat' });
    expect(mat).toMatchObject({ credits: 105, mats: [{ name: 'Modern Krellstones mat' }] });
    const kit = await buy(ctx(), { guildId: GUILD, player: p, item: 'starter-kit' }, seed('7'));
    expect(kit).toMatchObject({ credits: 5 });
    expect(kit.stones).toHaveLength(6);
    expect(kit.faces).toHaveLength(2);
    expect(kit.mats).toHaveLength(1);
    // Buying a kit is not claiming the free one.
    expect((await shop(ctx(), who(p))).freeKitAvailable).toBe(true);
    const before = await assetsOfPlayer(p.id);
    await expect(buy(ctx(), { guildId: GUILD, player: p, item: 'mat' })).rejects.toSatisfy(refusedWith('krellstones/credits', /costs 50 credits and you have 5/));
    expect(await assetsOfPlayer(p.id)).toEqual(before);
    const c = await listStones(ctx(), who(p));
    expect(c).toMatchObject({ credits: 5, looseFaces: 5 });
    expect(c.mats).toHaveLength(2);
  });

  it('two purchases at once with credits for one: exactly one succeeds', async () => {
    for (let round = 0; round < 3; round++) {
      const p = newPlayer();
      await give(p, { what: 'credits', amount: PRICES.facePack + 10 });
      const results = await Promise.allSettled([buy(ctx(), { guildId: GUILD, player: p, item: 'face-pack' }), buy(ctx(), { guildId: GUILD, player: p, item: 'face-pack' })]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toSatisfy(refusedWith('krellstones/credits', /you have 10/));
      expect((await shop(ctx(), who(p))).credits).toBe(10);
      expect(await listFaces(ctx(), who(p))).toHaveLength(3);
    }
  });
});

describe('moderators', () => {
  it('grant stones, faces, mats and credits; the player is told by DM; others are refused', async () => {
    const p = newPlayer();
    const base = { guildId: GUILD, channelId: CHANNEL, moderatorId: '729999999999999999', player: p };
    await expect(grant(ctx(), { ...base, member: NOBODY, grant: { what: 'credits', amount: 50 } })).rejects.toSatisfy(refusedWith('krellstones/not-moderator'));
    // The server's moderator role counts too.
    await db.prisma.guild.update({ where: { id: GUILD }, data: { moderatorRoleId: '777' } });
    const masters = await grant(ctx(), { ...base, member: { manageGuild: false, roleIds: ['777'] }, grant: { what: 'stones', type: 'master', count: 2 } });
    expect(masters.stones.map((s) => s.type)).toEqual(['master', 'master']);
    for (const s of masters.stones) expect(s.values.every((v) => v % 2 === 1 && v >= 1 && v <= 67)).toBe(true);
    const faces = await grant(ctx(), { ...base, member: MOD, grant: { what: 'faces', count: 2, type: 'master', value: 67, weight: 2, promo: true } });
    expect(faces.faces.map((f) => [f.type, f.value, f.weight, f.promo])).toEqual([
      ['master', 67, 2, true],
      ['master', 67, 2, true],
    ]);
    const random = await grant(ctx(), { ...base, member: MOD, grant: { what: 'faces', count: 3 } });
    expect(random.faces).toHaveLength(3);
    expect((await grant(ctx(), { ...base, member: MOD, grant: { what: 'mats', count: 1, name: 'Velvet mat' } })).mats).toEqual([{ id: expect.any(Number), name: 'Velvet mat' }]);
    expect((await grant(ctx(), { ...base, member: MOD, grant: { what: 'credits', amount: 70 } })).credits).toBe(70);
    await expect(grant(ctx(), { ...base, member: MOD, grant: { what: 'faces', count: 1, type: 'master', value: 4 } })).rejects.toSatisfy(refusedWith('krellstones/grant-face', /odd number from 1 to 67, not 4/));
    await expect(grant(ctx(), { ...base, member: MOD, grant: { what: 'faces', count: 1, value: 4 } })).rejects.toSatisfy(refusedWith('krellstones/grant-face'));
    await expect(grant(ctx(), { ...base, member: MOD, grant: { what: 'stones', type: 'pawn', count: 0 } })).rejects.toSatisfy(refusedWith('krellstones/grant-count'));
    await expect(grant(ctx(), { ...base, member: MOD, player: { id: '1', name: 'Bot', bot: true }, grant: { what: 'credits', amount: 1 } })).rejects.toSatisfy(refusedWith('krellstones/bot'));
    const dms = (await db.prisma.outbox.findMany({ where: { kind: 'text-dm' }, orderBy: { id: 'asc' } }))
      .map((r) => r.payload as { userId: string; content: string; fallbackChannelId: string })
      .filter((x) => x.userId === p.id);
    expect(dms.map((d) => d.content)).toEqual([
      expect.stringMatching(/granted you 2 new Masters \(#\d+, #\d+\)/),
      expect.stringMatching(/granted you 2 faces/),
      expect.stringMatching(/granted you 3 faces/),
      expect.stringMatching(/granted you 1 mat \(#\d+\)/),
      expect.stringMatching(/granted you 70 credits/),
    ]);
    expect(dms.every((d) => d.fallbackChannelId === CHANNEL)).toBe(true);
    await db.prisma.guild.update({ where: { id: GUILD }, data: { moderatorRoleId: null } });
  });
});
