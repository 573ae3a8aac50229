import { randomBytes } from 'node:crypto';
import type { Tx } from '../../db/client.ts';
import { rngFromSeed, type RngState } from '../../kernel/rng.ts';
import { assetsOf, type OwnedAsset } from '../../services/assets.ts';
import type { ServiceContext } from '../../services/context.ts';
import { UserError } from '../../services/errors.ts';
import { inTransaction } from '../../services/game-store.ts';
import type { Member } from '../../services/locks.ts';
import { enqueue } from '../../services/notifications.ts';
import { ensureGuild, ensurePlayers, isModerator } from '../../services/settings.ts';
import { ASSET, type Mat, type OwnedStone, type Wallet } from './assets.ts';
import {
  faceSchema,
  facePack,
  newFace,
  newStone,
  rollChances,
  rollStone as rollOnce,
  sideValue,
  sideWeight,
  slot,
  starterKit,
  unslot,
  unslotAll,
  type Face,
  type Stone,
} from './collection.ts';
import { FREE_STARTER_KITS, PRICES, STONE_KINDS, isAllowedValue, type StoneType } from './data.ts';

/**
 * The Krellstones collection service: what a player owns between games in a server (stones,
 * faces, mats, credits) and every collection command of the help file (KRELLSTONE LIST, INSPECT,
 * ROLL, ALIAS, FACE LIST, FACE, TRASH, TRADEIN, SLOT, UNSLOT), the free starter kit, the shop,
 * and moderators' grants. Each call is one transaction.
 *
 * Concurrency: every call that changes a player's collection first takes a transaction-scoped
 * advisory lock on (server, player), so a wallet is created once and aliases stay unique, then
 * locks the rows it changes (FOR UPDATE, the wallet row included): two purchases racing for the
 * same credits are decided one after the other, and only one of them finds the credits.
 *
 * Randomness: stones and faces made by a claim, a purchase or a grant, and a roll outside a game,
 * come from the kernel's seeded generator (kernel/rng.ts) seeded with 32 fresh bytes from
 * node:crypto per call (or from `ctx.seeds` in tests). Nothing outside a game needs replaying, so
 * the seed is not kept; a game snapshots the stones it uses and rolls them from its own committed
 * seed.
 *
 * A stone in a running game (its asset is locked by the game) cannot be slotted, unslotted,
 * aliased or removed: the asset store refuses with a message naming the game.
 */

export const KIND = 'krellstones';

export type StoneRef = string;

export interface Who {
  guildId: string;
  playerId: string;
}

export interface PlayerRef {
  id: string;
  name: string;
  bot?: boolean;
}

export interface StoneInfo {
  id: number;
  type: StoneType;
  alias: string | null;
  /** The values shown, side 1 first (slotted faces included). */
  values: number[];
  /** Sides holding a face. */
  slotted: number;
  /** The game using it, or null. */
  gameId: number | null;
}

export interface FaceInfo {
  /** The face's own id while it is loose (among the player's faces); null when slotted. */
  id: number | null;
  type: StoneType;
  value: number;
  weight: 0 | 1 | 2;
  promo: boolean;
  /** Where it is slotted, or null when loose. */
  slottedIn: { stoneId: number; alias: string | null; side: number; gameId: number | null } | null;
}

export interface StoneFilter {
  type?: StoneType | null;
  /** true: only stones in a running game; false: only stones free to change. */
  inGame?: boolean | null;
  /** true: only aliased stones; false: only stones without an alias. */
  hasAlias?: boolean | null;
}

export interface FaceFilter {
  type?: StoneType | null;
  promo?: boolean | null;
  /** true: only loose faces; false: only faces slotted in a stone. */
  unslotted?: boolean | null;
  /** Value at least (the help file's `>N`: "N or greater"). */
  atLeast?: number | null;
  /** Value at most (`<N`: "N or less"). */
  atMost?: number | null;
}

export type ShopItem = 'starter-kit' | 'face-pack' | 'mat';

export const SHOP: ReadonlyArray<{ item: ShopItem; name: string; price: number; contents: string }> = [
  { item: 'starter-kit', name: 'Starter kit', price: PRICES.starterKit, contents: '1 Pawn, 1 Dancer, 3 Krells, 1 Master, a Modern Krellstones mat and 2 random faces' },
  { item: 'face-pack', name: 'Face pack', price: PRICES.facePack, contents: '3 random faces' },
  { item: 'mat', name: 'Modern Krellstones mat', price: PRICES.mat, contents: 'a mat to host games on (not used up)' },
];

export const MAT_NAME = 'Modern Krellstones mat';

// ---------------------------------------------------------------------------------------------
// helpers

const store = (ctx: ServiceContext) => assetsOf(ctx, KIND);

/** 32 fresh bytes from node:crypto (tests may set `ctx.seeds` to make draws repeatable). */
function freshRng(ctx: ServiceContext): RngState {
  return rngFromSeed(ctx.seeds?.() ?? randomBytes(32).toString('hex'));
}

const stoneName = (type: StoneType) => STONE_KINDS[type].name;

export function stoneLabel(s: { id: number; type: StoneType; alias: string | null }): string {
  return `${stoneName(s.type)} #${s.id}${s.alias ? ` “${s.alias}”` : ''}`;
}

/** Serialises a player's collection changes (wallet creation, alias uniqueness) for the transaction. */
async function lockCollection(tx: Tx, who: Who): Promise<void> {
  const key = `${KIND}:${who.guildId}:${who.playerId}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

/** The player's wallet row, created if new and locked FOR UPDATE (call after lockCollection). */
async function lockWallet(tx: Tx, ctx: ServiceContext, who: Who): Promise<OwnedAsset<Wallet>> {
  const s = store(ctx);
  const [existing] = await s.list<Wallet>(tx, { ...who, type: ASSET.wallet });
  const row = existing ?? (await s.create<Wallet>(tx, { ...who, type: ASSET.wallet, data: { credits: 0, freeKitsClaimed: 0 } }));
  const [locked] = await s.lockRows<Wallet>(tx, { ...who, ids: [row.id] });
  return locked!;
}

async function readWallet(tx: Tx, ctx: ServiceContext, who: Who): Promise<Wallet> {
  const [w] = await store(ctx).list<Wallet>(tx, { ...who, type: ASSET.wallet });
  return w?.data ?? { credits: 0, freeKitsClaimed: 0 };
}

const asStone = (a: OwnedAsset<OwnedStone>): Stone => ({ type: a.data.type, sides: a.data.sides });

function info(a: OwnedAsset<OwnedStone>): StoneInfo {
  return {
    id: a.id,
    type: a.data.type,
    alias: a.data.alias,
    values: a.data.sides.map(sideValue),
    slotted: a.data.sides.filter((s) => s.face).length,
    gameId: a.lockedByGameId,
  };
}

/** `#12` or `12`: an id. */
function parseId(ref: string): number | null {
  const m = /^#?\s*(\d{1,9})$/.exec(ref.trim());
  return m ? Number(m[1]) : null;
}

/**
 * Finds a stone of the player by id (`12`, `#12`) or alias (case-insensitive). Aliases are never
 * pure numbers, so the two never clash. Refused clearly when nothing matches.
 */
export function findStone(stones: ReadonlyArray<OwnedAsset<OwnedStone>>, ref: StoneRef): OwnedAsset<OwnedStone> {
  const text = ref.trim();
  if (!text) throw new UserError('krellstones/no-stone', 'Name a stone by its alias or its number (see `/krellstone list`).');
  const id = parseId(text);
  const hit = id !== null ? stones.find((s) => s.id === id) : stones.find((s) => s.data.alias?.toLowerCase() === text.toLowerCase());
  if (!hit) {
    throw new UserError(
      'krellstones/no-stone',
      id !== null ? `You have no krellstone #${id}. \`/krellstone list\` shows yours.` : `You have no krellstone called “${clipText(text, 40)}”. \`/krellstone list\` shows yours with their aliases.`,
    );
  }
  return hit;
}

function clipText(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** Loads a stone of the player by reference and locks its row. */
async function lockStone(tx: Tx, ctx: ServiceContext, who: Who, ref: StoneRef): Promise<OwnedAsset<OwnedStone>> {
  const s = store(ctx);
  const found = findStone(await s.list<OwnedStone>(tx, { ...who, type: ASSET.stone }), ref);
  const [locked] = await s.lockRows<OwnedStone>(tx, { ...who, ids: [found.id] });
  return locked!;
}

/** Loads a loose face of the player by id and locks its row. */
async function lockFace(tx: Tx, ctx: ServiceContext, who: Who, faceId: number): Promise<OwnedAsset<Face>> {
  const s = store(ctx);
  const [row] = await s.list<Face>(tx, { ...who, type: ASSET.face, ids: [faceId] });
  if (!row) {
    throw new UserError('krellstones/no-face', `You have no loose face #${faceId}. \`/krellstone face list\` shows your faces (a slotted face is taken out with \`/krellstone unslot\`).`);
  }
  const [locked] = await s.lockRows<Face>(tx, { ...who, ids: [row.id] });
  return locked!;
}

function refuseInGame(stone: OwnedAsset<OwnedStone>, doing: string): void {
  if (stone.lockedByGameId !== null) {
    throw new UserError('krellstones/in-game', `${stoneLabel(info(stone))} is in game #${stone.lockedByGameId}: you can ${doing} it once that game ends.`);
  }
}

async function createStones(tx: Tx, ctx: ServiceContext, who: Who, stones: Stone[]): Promise<StoneInfo[]> {
  const out: StoneInfo[] = [];
  for (const st of stones) out.push(info(await store(ctx).create<OwnedStone>(tx, { ...who, type: ASSET.stone, data: { ...st, alias: null } })));
  return out;
}

async function createFaces(tx: Tx, ctx: ServiceContext, who: Who, faces: Face[]): Promise<FaceInfo[]> {
  const out: FaceInfo[] = [];
  for (const f of faces) {
    const a = await store(ctx).create<Face>(tx, { ...who, type: ASSET.face, data: f });
    out.push({ id: a.id, ...a.data, slottedIn: null });
  }
  return out;
}

async function createMats(tx: Tx, ctx: ServiceContext, who: Who, count: number, name = MAT_NAME): Promise<Array<{ id: number; name: string }>> {
  const out: Array<{ id: number; name: string }> = [];
  for (let k = 0; k < count; k++) {
    const a = await store(ctx).create<Mat>(tx, { ...who, type: ASSET.mat, data: { name } });
    out.push({ id: a.id, name: a.data.name });
  }
  return out;
}

function checkFilterRange(f: FaceFilter): void {
  if (f.atLeast != null && f.atMost != null && f.atLeast > f.atMost) {
    throw new UserError('krellstones/bad-filter', `No value is both ${f.atLeast} or more and ${f.atMost} or less: swap the two numbers.`);
  }
}

// ---------------------------------------------------------------------------------------------
// reading

export interface Collection {
  stones: StoneInfo[];
  looseFaces: number;
  mats: Array<{ id: number; name: string; gameId: number | null }>;
  credits: number;
  freeKitAvailable: boolean;
}

/** KRELLSTONE LIST [filter]: the player's stones (oldest first), filters combined, and a summary of the rest. */
export async function listStones(ctx: ServiceContext, input: Who & { filter?: StoneFilter }): Promise<Collection> {
  const f = input.filter ?? {};
  return inTransaction(ctx, async (tx) => {
    const who = { guildId: input.guildId, playerId: input.playerId };
    const all = await store(ctx).list(tx, who);
    const stones = all
      .filter((a) => a.type === ASSET.stone)
      .map((a) => info(a as OwnedAsset<OwnedStone>))
      .filter((s) => (f.type ? s.type === f.type : true))
      .filter((s) => (f.inGame == null ? true : (s.gameId !== null) === f.inGame))
      .filter((s) => (f.hasAlias == null ? true : (s.alias !== null) === f.hasAlias));
    const wallet = (all.find((a) => a.type === ASSET.wallet)?.data as Wallet | undefined) ?? { credits: 0, freeKitsClaimed: 0 };
    return {
      stones,
      looseFaces: all.filter((a) => a.type === ASSET.face).length,
      mats: all.filter((a) => a.type === ASSET.mat).map((a) => ({ id: a.id, name: (a.data as Mat).name, gameId: a.lockedByGameId })),
      credits: wallet.credits,
      freeKitAvailable: wallet.freeKitsClaimed < FREE_STARTER_KITS,
    };
  });
}

export interface StoneDetail extends StoneInfo {
  sides: Array<{ side: number; printed: number; value: number; face: Face | null; weight: number; chance: number }>;
}

function detail(a: OwnedAsset<OwnedStone>): StoneDetail {
  const chances = rollChances(asStone(a));
  return {
    ...info(a),
    sides: a.data.sides.map((s, i) => ({ side: i + 1, printed: s.printed, value: sideValue(s), face: s.face, weight: sideWeight(s), chance: chances[i]!.chance })),
  };
}

/** KRELLSTONE INSPECT <stone>: each side's printed and shown value, slotted face, weight and chance. */
export async function inspectStone(ctx: ServiceContext, input: Who & { stone: StoneRef }): Promise<StoneDetail> {
  return inTransaction(ctx, async (tx) => detail(findStone(await store(ctx).list<OwnedStone>(tx, { ...input, type: ASSET.stone }), input.stone)));
}

/** KRELLSTONE ROLL <stone>: one weighted roll outside a game (a fresh crypto seed; nothing is saved). */
export async function rollStone(ctx: ServiceContext, input: Who & { stone: StoneRef }, rng: RngState = freshRng(ctx)): Promise<{ stone: StoneInfo; side: number; value: number; chance: number }> {
  const d = await inspectStone(ctx, input);
  const [r] = rollOnce({ type: d.type, sides: d.sides.map((s) => ({ printed: s.printed, face: s.face })) }, rng);
  return { stone: d, side: r.side, value: r.value, chance: d.sides[r.side - 1]!.chance };
}

/** KRELLSTONE FACE LIST [filter]: loose faces (by id), then faces slotted in stones, filters combined. */
export async function listFaces(ctx: ServiceContext, input: Who & { filter?: FaceFilter }): Promise<FaceInfo[]> {
  const f = input.filter ?? {};
  checkFilterRange(f);
  return inTransaction(ctx, async (tx) => {
    const all = await store(ctx).list(tx, input);
    const loose: FaceInfo[] = all.filter((a) => a.type === ASSET.face).map((a) => ({ id: a.id, ...(a.data as Face), slottedIn: null }));
    const slotted: FaceInfo[] = all
      .filter((a) => a.type === ASSET.stone)
      .flatMap((a) =>
        (a.data as OwnedStone).sides.flatMap((s, i) =>
          s.face ? [{ id: null, ...s.face, slottedIn: { stoneId: a.id, alias: (a.data as OwnedStone).alias, side: i + 1, gameId: a.lockedByGameId } }] : [],
        ),
      );
    return [...loose, ...slotted]
      .filter((x) => (f.type ? x.type === f.type : true))
      .filter((x) => (f.promo == null ? true : x.promo === f.promo))
      .filter((x) => (f.unslotted == null ? true : (x.slottedIn === null) === f.unslotted))
      .filter((x) => (f.atLeast == null ? true : x.value >= f.atLeast))
      .filter((x) => (f.atMost == null ? true : x.value <= f.atMost));
  });
}

export interface FaceDetail extends FaceInfo {
  id: number;
  /** The player's stones of the face's type, each with the sides it could be slotted into now (free, no repeated value). */
  fits: Array<{ stone: StoneInfo; sides: number[] }>;
}

/** KRELLSTONE FACE <face#>: a loose face, and where it could go. */
export async function inspectFace(ctx: ServiceContext, input: Who & { faceId: number }): Promise<FaceDetail> {
  return inTransaction(ctx, async (tx) => {
    const [row] = await store(ctx).list<Face>(tx, { ...input, type: ASSET.face, ids: [input.faceId] });
    if (!row) throw new UserError('krellstones/no-face', `You have no loose face #${input.faceId}. \`/krellstone face list\` shows your faces.`);
    const stones = await store(ctx).list<OwnedStone>(tx, { ...input, type: ASSET.stone });
    const fits = stones
      .filter((s) => s.data.type === row.data.type)
      .map((s) => ({
        stone: info(s),
        sides: s.data.sides.flatMap((side, i) => (!side.face && !s.data.sides.some((o, k) => k !== i && sideValue(o) === row.data.value) ? [i + 1] : [])),
      }))
      .filter((x) => x.sides.length > 0);
    return { id: row.id, ...row.data, slottedIn: null, fits };
  });
}

// ---------------------------------------------------------------------------------------------
// changing stones and faces

const ALIAS_MAX = 32;

/** Checks an alias: 1-32 characters, not a number (ids are numbers), not a word of the commands. */
export function checkAlias(raw: string): string {
  const alias = raw.trim().replace(/\s+/g, ' ');
  if (!alias) throw new UserError('krellstones/alias-empty', 'An alias needs at least one character.');
  if (alias.length > ALIAS_MAX) throw new UserError('krellstones/alias-long', `An alias has at most ${ALIAS_MAX} characters; “${clipText(alias, 40)}” has ${alias.length}.`);
  if (/^#?\s*\d+$/.test(alias)) throw new UserError('krellstones/alias-number', `“${alias}” is a number, and numbers name stones by id: give an alias with at least one letter.`);
  if (/^(remove|all)$/i.test(alias)) throw new UserError('krellstones/alias-reserved', `“${alias}” is a word of the commands (ALIAS <stone> REMOVE, UNSLOT <stone> ALL): choose another alias.`);
  if (/[<>@`*_~|]/.test(alias)) throw new UserError('krellstones/alias-chars', 'An alias cannot hold < > @ ` * _ ~ or |, which Discord would turn into formatting or mentions.');
  return alias;
}

/** KRELLSTONE ALIAS <stone> <alias>: unique among the player's stones (case-insensitive). */
export async function setAlias(ctx: ServiceContext, input: Who & { stone: StoneRef; alias: string }): Promise<StoneInfo> {
  const alias = checkAlias(input.alias);
  return inTransaction(ctx, async (tx) => {
    await lockCollection(tx, input);
    const stone = await lockStone(tx, ctx, input, input.stone);
    refuseInGame(stone, 'rename');
    const stones = await store(ctx).list<OwnedStone>(tx, { ...input, type: ASSET.stone });
    const taken = stones.find((s) => s.id !== stone.id && s.data.alias?.toLowerCase() === alias.toLowerCase());
    if (taken) throw new UserError('krellstones/alias-taken', `Your ${stoneName(taken.data.type)} #${taken.id} is already called “${taken.data.alias}”: aliases name one stone each. Choose another, or remove that one first.`);
    return info(await store(ctx).update<OwnedStone>(tx, stone, { ...stone.data, alias }, stoneLabel(info(stone))));
  });
}

/** KRELLSTONE ALIAS <stone> REMOVE. */
export async function removeAlias(ctx: ServiceContext, input: Who & { stone: StoneRef }): Promise<{ stone: StoneInfo; removed: string }> {
  return inTransaction(ctx, async (tx) => {
    await lockCollection(tx, input);
    const stone = await lockStone(tx, ctx, input, input.stone);
    if (stone.data.alias === null) throw new UserError('krellstones/no-alias', `${stoneLabel(info(stone))} has no alias to remove.`);
    refuseInGame(stone, 'rename');
    const updated = await store(ctx).update<OwnedStone>(tx, stone, { ...stone.data, alias: null }, stoneLabel(info(stone)));
    return { stone: info(updated), removed: stone.data.alias };
  });
}

/** KRELLSTONE SLOT <stone> <side#> <face#>: the face leaves the player's loose faces and sits in the side. */
export async function slotFace(ctx: ServiceContext, input: Who & { stone: StoneRef; side: number; faceId: number }): Promise<StoneDetail> {
  return inTransaction(ctx, async (tx) => {
    await lockCollection(tx, input);
    const stone = await lockStone(tx, ctx, input, input.stone);
    refuseInGame(stone, 'slot faces into');
    const face = await lockFace(tx, ctx, input, input.faceId);
    const next = slot(asStone(stone), input.side, face.data);
    const updated = await store(ctx).update<OwnedStone>(tx, stone, { ...next, alias: stone.data.alias }, stoneLabel(info(stone)));
    await store(ctx).remove(tx, face, `Face #${face.id}`);
    return detail(updated);
  });
}

/** KRELLSTONE UNSLOT <stone> <side#|ALL>: the faces go back to the player's loose faces (each gets a new face id). */
export async function unslotFaces(ctx: ServiceContext, input: Who & { stone: StoneRef; side: number | 'all' }): Promise<{ stone: StoneDetail; faces: FaceInfo[] }> {
  return inTransaction(ctx, async (tx) => {
    await lockCollection(tx, input);
    const stone = await lockStone(tx, ctx, input, input.stone);
    refuseInGame(stone, 'unslot faces from');
    let next: Stone;
    let freed: Face[];
    if (input.side === 'all') {
      [next, freed] = unslotAll(asStone(stone));
      if (freed.length === 0) throw new UserError('krellstones/no-face', `${stoneLabel(info(stone))} holds no faces.`);
    } else {
      const [n, f] = unslot(asStone(stone), input.side);
      next = n;
      freed = [f];
    }
    const updated = await store(ctx).update<OwnedStone>(tx, stone, { ...next, alias: stone.data.alias }, stoneLabel(info(stone)));
    const faces = await createFaces(tx, ctx, input, freed);
    return { stone: detail(updated), faces };
  });
}

/** KRELLSTONE TRASH <face#> (after the confirm button): the loose face is gone for good. */
export async function trashFace(ctx: ServiceContext, input: Who & { faceId: number }): Promise<FaceInfo> {
  return inTransaction(ctx, async (tx) => {
    await lockCollection(tx, input);
    const face = await lockFace(tx, ctx, input, input.faceId);
    await store(ctx).remove(tx, face, `Face #${face.id}`);
    return { id: face.id, ...face.data, slottedIn: null };
  });
}

/** KRELLSTONE TRADEIN <face#>: a promo face for credits (RULINGS: 10). */
export async function tradeIn(ctx: ServiceContext, input: Who & { faceId: number }): Promise<{ face: FaceInfo; credits: number; gained: number }> {
  return inTransaction(ctx, async (tx) => {
    await lockCollection(tx, input);
    const face = await lockFace(tx, ctx, input, input.faceId);
    if (!face.data.promo) throw new UserError('krellstones/not-promo', `Face #${face.id} is not a promo face: only promo faces can be traded in. \`/krellstone face list promo:True\` shows yours; \`/krellstone trash\` discards a face.`);
    const wallet = await lockWallet(tx, ctx, input);
    await store(ctx).remove(tx, face, `Face #${face.id}`);
    const w = await store(ctx).update<Wallet>(tx, wallet, { ...wallet.data, credits: wallet.data.credits + PRICES.promoTradeIn });
    return { face: { id: face.id, ...face.data, slottedIn: null }, credits: w.data.credits, gained: PRICES.promoTradeIn };
  });
}

// ---------------------------------------------------------------------------------------------
// starter kits, the shop and grants

export interface Received {
  stones: StoneInfo[];
  faces: FaceInfo[];
  mats: Array<{ id: number; name: string }>;
}

async function giveKit(tx: Tx, ctx: ServiceContext, who: Who, rng: RngState): Promise<Received> {
  const [kit] = starterKit(rng);
  return { stones: await createStones(tx, ctx, who, kit.stones), mats: await createMats(tx, ctx, who, kit.mats), faces: await createFaces(tx, ctx, who, kit.faces) };
}

/** Claims the free starter kit (once per player and server). */
export async function claimStarterKit(ctx: ServiceContext, input: { guildId: string; player: PlayerRef }, rng: RngState = freshRng(ctx)): Promise<Received> {
  if (input.player.bot) throw new UserError('krellstones/bot', 'Bots do not collect krellstones.');
  const who = { guildId: input.guildId, playerId: input.player.id };
  return inTransaction(ctx, async (tx) => {
    await ensurePlayers(tx, [input.player]);
    await lockCollection(tx, who);
    const wallet = await lockWallet(tx, ctx, who);
    if (wallet.data.freeKitsClaimed >= FREE_STARTER_KITS) {
      throw new UserError('krellstones/kit-claimed', `You already claimed your free starter kit. More kits cost ${PRICES.starterKit} credits in the shop (\`/krellstone shop\`).`);
    }
    await store(ctx).update<Wallet>(tx, wallet, { ...wallet.data, freeKitsClaimed: wallet.data.freeKitsClaimed + 1 });
    return giveKit(tx, ctx, who, rng);
  });
}

/** The shop: what it sells, the player's credits, and whether their free kit is still waiting. */
export async function shop(ctx: ServiceContext, input: Who): Promise<{ items: typeof SHOP; credits: number; freeKitAvailable: boolean }> {
  return inTransaction(ctx, async (tx) => {
    const w = await readWallet(tx, ctx, input);
    return { items: SHOP, credits: w.credits, freeKitAvailable: w.freeKitsClaimed < FREE_STARTER_KITS };
  });
}

/** Buys one item with credits; refused (and nothing changes) when the credits do not cover it. */
export async function buy(ctx: ServiceContext, input: { guildId: string; player: PlayerRef; item: ShopItem }, rng: RngState = freshRng(ctx)): Promise<Received & { item: ShopItem; price: number; credits: number }> {
  const offer = SHOP.find((s) => s.item === input.item);
  if (!offer) throw new UserError('krellstones/no-such-item', `The shop sells ${SHOP.map((s) => s.name).join(', ')}.`);
  if (input.player.bot) throw new UserError('krellstones/bot', 'Bots do not collect krellstones.');
  const who = { guildId: input.guildId, playerId: input.player.id };
  return inTransaction(ctx, async (tx) => {
    await ensurePlayers(tx, [input.player]);
    await lockCollection(tx, who);
    const wallet = await lockWallet(tx, ctx, who);
    if (wallet.data.credits < offer.price) {
      const hint = wallet.data.freeKitsClaimed < FREE_STARTER_KITS ? ' Your free starter kit is still waiting: `/krellstone claim`.' : ' Trade in promo faces (`/krellstone tradein`) or ask a moderator.';
      throw new UserError('krellstones/credits', `A ${offer.name.toLowerCase()} costs ${offer.price} credits and you have ${wallet.data.credits}.${hint}`);
    }
    const w = await store(ctx).update<Wallet>(tx, wallet, { ...wallet.data, credits: wallet.data.credits - offer.price });
    let got: Received;
    if (input.item === 'starter-kit') got = await giveKit(tx, ctx, who, rng);
    else if (input.item === 'face-pack') got = { stones: [], mats: [], faces: await createFaces(tx, ctx, who, facePack(rng)[0]) };
    else got = { stones: [], faces: [], mats: await createMats(tx, ctx, who, 1) };
    return { ...got, item: input.item, price: offer.price, credits: w.data.credits };
  });
}

export type Grant =
  | { what: 'stones'; type: StoneType; count: number }
  | { what: 'faces'; count: number; type?: StoneType | null; value?: number | null; weight?: 0 | 1 | 2 | null; promo?: boolean | null }
  | { what: 'mats'; count: number; name?: string | null }
  | { what: 'credits'; amount: number };

const GRANT_MAX = 20;
const CREDITS_MAX = 100_000;

function checkGrant(g: Grant): void {
  if (g.what === 'credits') {
    if (!Number.isInteger(g.amount) || g.amount < 1 || g.amount > CREDITS_MAX) throw new UserError('krellstones/grant-count', `Grant between 1 and ${CREDITS_MAX} credits at a time.`);
    return;
  }
  if (!Number.isInteger(g.count) || g.count < 1 || g.count > GRANT_MAX) throw new UserError('krellstones/grant-count', `Grant between 1 and ${GRANT_MAX} at a time.`);
  if (g.what === 'faces' && g.value != null) {
    if (!g.type) throw new UserError('krellstones/grant-face', 'A face’s value depends on its stone type: give the type too.');
    if (!isAllowedValue(g.type, g.value)) {
      const k = STONE_KINDS[g.type];
      throw new UserError('krellstones/grant-face', `A ${k.name} face shows ${k.step === 2 ? 'an odd number' : 'a number'} from ${k.min} to ${k.max}, not ${g.value}.`);
    }
  }
  if (g.what === 'mats' && g.name != null && (g.name.trim().length < 1 || g.name.trim().length > 40)) throw new UserError('krellstones/grant-mat', 'A mat’s name has 1 to 40 characters.');
}

/**
 * Moderators: give a player stones (new, random values), faces (random, or with the type, value,
 * weight and promo flag given; the rest random), mats or credits. The player is told by DM (a
 * mention in `channelId` if their DMs are closed), written in the same transaction.
 */
export async function grant(
  ctx: ServiceContext,
  input: { guildId: string; channelId: string; member: Member; moderatorId: string; player: PlayerRef; grant: Grant },
  rng: RngState = freshRng(ctx),
): Promise<Received & { credits: number | null }> {
  const g = input.grant;
  checkGrant(g);
  if (input.player.bot) throw new UserError('krellstones/bot', `${input.player.name} is a bot and cannot own krellstones.`);
  const who = { guildId: input.guildId, playerId: input.player.id };
  return inTransaction(ctx, async (tx) => {
    const guild = await ensureGuild(tx, input.guildId);
    if (!isModerator(guild, input.member)) throw new UserError('krellstones/not-moderator', 'Only moderators (Manage Server, or the Stonehall moderator role) can grant krellstones, faces, mats and credits.');
    await ensurePlayers(tx, [input.player]);
    await lockCollection(tx, who);
    const got: Received = { stones: [], faces: [], mats: [] };
    let credits: number | null = null;
    let r = rng;
    if (g.what === 'stones') {
      const made: Stone[] = [];
      for (let k = 0; k < g.count; k++) {
        const [s, next] = newStone(g.type, r);
        made.push(s);
        r = next;
      }
      got.stones = await createStones(tx, ctx, who, made);
    } else if (g.what === 'faces') {
      const made: Face[] = [];
      for (let k = 0; k < g.count; k++) {
        const [f, next] = newFace(r, g.type ?? undefined);
        r = next;
        made.push(faceSchema.parse({ ...f, ...(g.value != null ? { value: g.value } : {}), ...(g.weight != null ? { weight: g.weight } : {}), ...(g.promo != null ? { promo: g.promo } : {}) }));
      }
      got.faces = await createFaces(tx, ctx, who, made);
    } else if (g.what === 'mats') {
      got.mats = await createMats(tx, ctx, who, g.count, g.name?.trim() || MAT_NAME);
    } else {
      const wallet = await lockWallet(tx, ctx, who);
      credits = (await store(ctx).update<Wallet>(tx, wallet, { ...wallet.data, credits: wallet.data.credits + g.amount })).data.credits;
    }
    await enqueue(tx, 'text-dm', { userId: input.player.id, fallbackChannelId: input.channelId, content: `🎁 <@${input.moderatorId}> granted you ${grantText(g, got)} for Krellstones. \`/krellstone list\` shows your collection.` }, ctx.clock.now());
    return { ...got, credits };
  });
}

/** "2 new Krells (#14, #15)", "40 credits"... */
export function grantText(g: Grant, got: Received): string {
  const ids = (xs: Array<{ id: number | null }>) => xs.map((x) => `#${x.id}`).join(', ');
  switch (g.what) {
    case 'stones':
      return `${g.count} new ${stoneName(g.type)}${g.count > 1 ? 's' : ''} (${ids(got.stones)})`;
    case 'faces':
      return `${g.count} face${g.count > 1 ? 's' : ''} (${ids(got.faces)})`;
    case 'mats':
      return `${g.count} mat${g.count > 1 ? 's' : ''} (${ids(got.mats)})`;
    case 'credits':
      return `${g.amount} credits`;
  }
}

/** For autocomplete: the player's stones and loose faces, as the menus show them (no lock, no change). */
export async function pickables(ctx: ServiceContext, input: Who): Promise<{ stones: StoneInfo[]; faces: FaceInfo[] }> {
  return inTransaction(ctx, async (tx) => {
    const all = await store(ctx).list(tx, input);
    return {
      stones: all.filter((a) => a.type === ASSET.stone).map((a) => info(a as OwnedAsset<OwnedStone>)),
      faces: all.filter((a) => a.type === ASSET.face).map((a) => ({ id: a.id, ...(a.data as Face), slottedIn: null })),
    };
  });
}


