import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import { rngFromSeed } from '../../kernel/rng.ts';
import { RuleError, type PlayerId } from '../../kernel/types.ts';
import { assetsOf, type OwnedAsset } from '../../services/assets.ts';
import type { ServiceContext } from '../../services/context.ts';
import { UserError } from '../../services/errors.ts';
import { inTransaction } from '../../services/games.ts';
import type { LobbyHooks, LobbySeat } from '../../services/registry.ts';
import { changeSeat, changeTableOptions, findOpenTable, type TableWithSeats } from '../../services/tables.ts';
import { ASSET, type Mat, type OwnedStone } from './assets.ts';
import { completeSelection, starterKit } from './collection.ts';
import { LOADOUT, STONE_KINDS, STONE_TYPES, type StoneType } from './data.ts';
import { optionsSchema, type BroughtStone, type KrellstonesOptions } from './engine/index.ts';

/**
 * Krellstones before the start, and what each player brings to a game from their collection.
 *
 * The lobby is a table of the platform's tables service (src/services/tables.ts) whose seats carry
 * data (GameDefinition.lobby): each seat's chosen stones (asset ids, selection order) and sideboard,
 * and the host's mat. The table's options are the engine's options (rounds, rerolls, sideboard,
 * pace). Stones are checked when chosen (owned, not in a running game, not chosen twice, at most the
 * loadout of a type), again at READY (which fills the loadout at random) and once more at the start,
 * in the start's transaction, where every stone used (sideboards and the host's mat too) is locked by
 * the game: it cannot be slotted, trashed or traded until the game ends.
 */

const KIND = 'krellstones';

export const seatDataSchema = z.object({
  stones: z.array(z.string()).max(6).default([]),
  sideboard: z.array(z.string()).max(10).default([]),
  /** The host's mat (asset id) and its name, for the table message. */
  mat: z.number().int().optional(),
  matName: z.string().optional(),
});
export type SeatData = z.infer<typeof seatDataSchema>;

export const seatData = (raw: unknown): SeatData => seatDataSchema.parse(raw ?? {});

type Stone = OwnedAsset<OwnedStone>;

const typeName = (t: StoneType, n = 1) => `${STONE_KINDS[t].name}${n === 1 ? '' : 's'}`;

/** "Krell “Lucky” #12". */
export function ownedStoneName(s: Stone): string {
  return `${STONE_KINDS[s.data.type].name}${s.data.alias ? ` “${s.data.alias}”` : ''} #${s.id}`;
}

/** A player's stones in this server, oldest first. */
export async function stonesOf(tx: Tx, ctx: ServiceContext, guildId: string, playerId: string): Promise<Stone[]> {
  return assetsOf(ctx, KIND).list<OwnedStone>(tx, { guildId, playerId, type: ASSET.stone });
}

/** A player's mats. */
export async function matsOf(tx: Tx, ctx: ServiceContext, guildId: string, playerId: string): Promise<Array<OwnedAsset<Mat>>> {
  return assetsOf(ctx, KIND).list<Mat>(tx, { guildId, playerId, type: ASSET.mat });
}

/**
 * A stone named by a player: its id (`12` or `#12`) or its alias (any case), among their own.
 * Refused clearly when nothing matches.
 */
export function findStone(stones: readonly Stone[], name: string): Stone {
  const raw = name.trim();
  const id = /^#?(\d{1,12})$/.exec(raw);
  const hit = id ? stones.find((s) => s.id === Number(id[1])) : stones.find((s) => s.data.alias?.toLowerCase() === raw.toLowerCase());
  if (!hit) throw new UserError('krellstones/no-such-stone', `You have no stone “${raw.slice(0, 40)}”. Name one of yours by its number or alias (the menu lists them; \`/krellstone list\` shows all).`);
  return hit;
}

function requireFree(s: Stone): void {
  if (s.lockedByGameId !== null) throw new UserError('krellstones/stone-in-game', `Your ${ownedStoneName(s)} is in use in game #${s.lockedByGameId}: choose another.`);
}

function asUserError(err: unknown): never {
  if (err instanceof RuleError) throw new UserError(err.code, err.message);
  throw err;
}

// ---------------------------------------------------------------------------------------------
// the lobby's hooks (GameDefinition.lobby)

/** READY: checks the chosen stones and fills the loadout at random from the player's free stones. */
async function ready(tx: Tx, ctx: ServiceContext, input: { guildId: string; options: unknown; seat: LobbySeat }): Promise<SeatData> {
  const data = seatData(input.seat.data);
  const options = optionsSchema.parse(input.options);
  const stones = await stonesOf(tx, ctx, input.guildId, input.seat.playerId);
  const byId = new Map(stones.map((s) => [String(s.id), s]));
  for (const id of [...data.stones, ...data.sideboard]) {
    const s = byId.get(id);
    if (!s) throw new UserError('krellstones/not-owned', `You no longer own stone #${id}: unselect it and choose another.`);
    requireFree(s);
  }
  const size = options.sideboard === 'off' ? 0 : options.sideboard;
  if (data.sideboard.length > size) {
    throw new UserError('krellstones/sideboard-full', size === 0 ? 'This game has no sideboard: remove your sideboard stones (`/krellstones sideboard remove`).' : `This game's sideboard holds ${size}: remove ${data.sideboard.length - size}.`);
  }
  const owned = stones.filter((s) => s.lockedByGameId === null && !data.sideboard.includes(String(s.id))).map((s) => ({ id: String(s.id), type: s.data.type }));
  let ids: string[];
  try {
    [ids] = completeSelection(owned, data.stones, rngFromSeed(randomBytes(32).toString('hex')));
  } catch (err) {
    if (err instanceof RuleError && err.code === 'krellstones/missing-stones') {
      throw new UserError(err.code, `${err.message} Claim a free starter kit with \`/krellstone claim\`, or buy one in \`/krellstone shop\`.`);
    }
    asUserError(err);
  }
  // The stones drawn at random take their slots in the order of their numbers, after the chosen ones.
  const chosen = new Set(data.stones);
  const typeOf = (id: string) => byId.get(id)!.data.type;
  const ordered = STONE_TYPES.flatMap((t) => [...ids.filter((id) => typeOf(id) === t && chosen.has(id)), ...ids.filter((id) => typeOf(id) === t && !chosen.has(id)).sort((x, y) => Number(x) - Number(y))]);
  return { ...data, stones: ordered };
}

/** A stone as the engine takes it (its id is the asset id). */
const brought = (s: Stone): BroughtStone => ({ id: String(s.id), ...(s.data.alias ? { alias: s.data.alias } : {}), type: s.data.type, sides: s.data.sides });

/** Locks the rows of what a player brings, checks them, and returns the engine's player data. */
async function bring(tx: Tx, ctx: ServiceContext, guildId: string, playerId: string, data: SeatData): Promise<{ playerData: { stones: BroughtStone[]; sideboard: BroughtStone[] }; assets: Array<OwnedAsset<unknown>> }> {
  const ids = [...data.stones, ...data.sideboard].map(Number);
  const rows = (await assetsOf(ctx, KIND).lockRows<OwnedStone>(tx, { guildId, playerId, ids })) as Stone[];
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  for (const r of rows) {
    if (r.type !== ASSET.stone) throw new UserError('krellstones/not-a-stone', `#${r.id} is not a stone.`);
    requireFree(r);
  }
  return { playerData: { stones: data.stones.map((id) => brought(byId.get(id)!)), sideboard: data.sideboard.map((id) => brought(byId.get(id)!)) }, assets: rows };
}

async function prepareStart(tx: Tx, ctx: ServiceContext, input: { guildId: string; hostId: PlayerId; options: unknown; seats: LobbySeat[] }) {
  const playerData: Record<PlayerId, unknown> = {};
  const assets: Array<OwnedAsset<unknown>> = [];
  for (const seat of input.seats) {
    const data = seatData(seat.data);
    const b = await bring(tx, ctx, input.guildId, seat.playerId, data);
    playerData[seat.playerId] = b.playerData;
    assets.push(...b.assets);
    if (seat.playerId === input.hostId) {
      if (data.mat === undefined) throw new UserError('krellstones/no-mat', 'The host has no mat for this game.');
      const [mat] = await assetsOf(ctx, KIND).lockRows(tx, { guildId: input.guildId, playerId: seat.playerId, ids: [data.mat] });
      assets.push(mat!);
    }
  }
  const options: KrellstonesOptions = { ...optionsSchema.parse(input.options), host: input.hostId };
  return { options, playerData, afterStart: (t: Tx, gameId: number) => assetsOf(ctx, KIND).lockFor(t, assets, gameId) };
}

/**
 * Join: a player who does not own a full loadout (1 Pawn, 1 Dancer, 3 Krells, 1 Master) could never
 * be ready: refused at once, with the way to get stones (a stone busy in another game is Ready's
 * business: that game may end first).
 */
async function checkJoinStones(tx: Tx, ctx: ServiceContext, input: { guildId: string; playerId: PlayerId }): Promise<void> {
  const stones = await stonesOf(tx, ctx, input.guildId, input.playerId);
  const missing = STONE_TYPES.filter((t) => stones.filter((s) => s.data.type === t).length < LOADOUT[t]);
  if (missing.length === 0) return;
  const need = STONE_TYPES.map((t) => `${LOADOUT[t]} ${typeName(t, LOADOUT[t])}`).join(', ');
  const what = stones.length === 0 ? 'You have no krellstones yet' : `You lack ${missing.map((t) => `${LOADOUT[t] - stones.filter((s) => s.data.type === t).length} ${typeName(t, LOADOUT[t] - stones.filter((s) => s.data.type === t).length)}`).join(', ')}`;
  throw new UserError('krellstones/missing-stones', `${what}: every player brings ${need}. Claim your free starter kit with \`/krellstone claim\` (or buy one in \`/krellstone shop\`), then join again.`);
}

export const lobby: LobbyHooks = {
  checkJoin: checkJoinStones,
  initialData: ({ host, hostData }) => {
    const h = (hostData ?? {}) as { mat?: number; matName?: string };
    return { stones: [], sideboard: [], ...(host && h.mat !== undefined ? { mat: h.mat, ...(h.matName ? { matName: h.matName } : {}) } : {}) };
  },
  ready,
  prepareStart,
};

// ---------------------------------------------------------------------------------------------
// cycles and practice

/**
 * A match of intents starts: the host is the player who stated the intent first and owns a mat
 * (else the next such player in the order the intents were stated); each player brings a loadout
 * drawn at random from their free stones (no sideboard in a cycle game); everything is locked.
 */
export async function prepareMatch(tx: Tx, ctx: ServiceContext, input: { guildId: string; players: Array<{ id: PlayerId; name: string }>; matchId: number }) {
  const intents = await tx.intent.findMany({ where: { matchId: input.matchId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const order = [...new Set([...intents.map((i) => i.playerId), ...input.players.map((p) => p.id)])].filter((p) => input.players.some((x) => x.id === p));
  let host = order[0]!;
  const assets: Array<OwnedAsset<unknown>> = [];
  for (const p of order) {
    const mats = (await matsOf(tx, ctx, input.guildId, p)).filter((m) => m.lockedByGameId === null);
    if (mats.length) {
      host = p;
      assets.push(mats[0]!);
      break;
    }
  }
  const playerData: Record<PlayerId, unknown> = {};
  for (const p of order) {
    let seat: SeatData;
    try {
      seat = await ready(tx, ctx, { guildId: input.guildId, options: {}, seat: { playerId: p, data: { stones: [], sideboard: [] }, ready: false } });
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      throw new UserError(err.code, `<@${p}> has not enough free stones to bring (1 Pawn, 1 Dancer, 3 Krells, 1 Master not in another game).`);
    }
    const b = await bring(tx, ctx, input.guildId, p, seat);
    playerData[p] = b.playerData;
    assets.push(...b.assets);
  }
  const players = [input.players.find((x) => x.id === host)!, ...input.players.filter((x) => x.id !== host)];
  return { players, options: { host }, playerData, afterStart: (t: Tx, gameId: number) => assetsOf(ctx, KIND).lockFor(t, assets, gameId) };
}

/** Intents: every player needs a full loadout of free stones, and the first to state (the host) a mat. */
export async function checkIntent(tx: Tx, ctx: ServiceContext, input: { guildId: string; playerId: PlayerId; first: boolean }): Promise<void> {
  const stones = (await stonesOf(tx, ctx, input.guildId, input.playerId)).filter((s) => s.lockedByGameId === null);
  const missing = STONE_TYPES.filter((t) => stones.filter((s) => s.data.type === t).length < LOADOUT[t]);
  if (missing.length) {
    throw new UserError('krellstones/missing-stones', `You need ${missing.map((t) => `${LOADOUT[t]} ${typeName(t, LOADOUT[t])}`).join(', ')} free to play Krellstones. Claim a free starter kit with \`/krellstone claim\`.`);
  }
  if (input.first && (await matsOf(tx, ctx, input.guildId, input.playerId)).length === 0) {
    throw new UserError(
      'krellstones/no-mat',
      'You state this intent first, so you would host the game, and a host needs a Modern Krellstones mat: you have none. Get one with a starter kit (`/krellstone claim`) or in `/krellstone shop`, or let another player state theirs first.',
    );
  }
}

/** The autopilot's stones for a practice game: starter kits drawn from the game's seed (so anyone can check them once it is revealed). */
export function autopilotStones(seed: string, bots: readonly string[]): Record<PlayerId, { stones: BroughtStone[]; sideboard: BroughtStone[] }> {
  let r = rngFromSeed(createHash('sha256').update(`krellstones-autopilot:${seed}`).digest('hex'));
  const out: Record<PlayerId, { stones: BroughtStone[]; sideboard: BroughtStone[] }> = {};
  bots.forEach((b, k) => {
    const [kit, next] = starterKit(r);
    r = next;
    out[b] = { stones: kit.stones.map((s, i) => ({ id: `a${k + 1}-${i + 1}`, type: s.type, sides: s.sides })), sideboard: [] };
  });
  return out;
}

/** Practice: the player brings a random loadout of their free stones; the autopilot seats bring stones generated from the seed. */
export async function preparePractice(tx: Tx, ctx: ServiceContext, input: { guildId: string; player: { id: PlayerId; name: string }; bots: Array<{ id: PlayerId; name: string }>; seed: string }) {
  const seat = await ready(tx, ctx, { guildId: input.guildId, options: {}, seat: { playerId: input.player.id, data: { stones: [], sideboard: [] }, ready: false } });
  const b = await bring(tx, ctx, input.guildId, input.player.id, seat);
  const playerData: Record<PlayerId, unknown> = { [input.player.id]: b.playerData, ...autopilotStones(input.seed, input.bots.map((x) => x.id)) };
  return { options: { pace: 'FAST' as const }, playerData, afterStart: (t: Tx, gameId: number) => assetsOf(ctx, KIND).lockFor(t, b.assets, gameId) };
}

// ---------------------------------------------------------------------------------------------
// the lobby's commands

/** The open Krellstones table the player sits at, or a refusal saying how to get one. */
export async function ownTable(ctx: ServiceContext, guildId: string, playerId: string): Promise<TableWithSeats> {
  const table = await findOpenTable(ctx, { guildId, kind: KIND, playerId });
  if (!table) throw new UserError('krellstones/no-table', 'You are not at a Krellstones table waiting to start. Host one with `/krellstones start`, or join one with `/krellstones join host:@…`.');
  return table;
}

/** Before hosting: the mat (by id or name, among the host's own) and no other open table of theirs. */
export async function checkHost(ctx: ServiceContext, guildId: string, playerId: string, mat: string | null): Promise<{ mat: OwnedAsset<Mat> }> {
  if (await findOpenTable(ctx, { guildId, kind: KIND, playerId })) {
    throw new UserError('krellstones/already-at-table', 'You are already at a Krellstones table waiting to start: play that one, or leave it first (`/krellstones abandon`).');
  }
  const mats = await inTransaction(ctx, (tx) => matsOf(tx, ctx, guildId, playerId));
  if (mats.length === 0) throw new UserError('krellstones/no-mat', 'A host needs a Modern Krellstones mat, and you have none. Get one with a starter kit (`/krellstone claim`) or in `/krellstone shop`.');
  if (mat === null) return { mat: mats[0]! };
  const id = /^#?(\d{1,12})$/.exec(mat.trim());
  const hit = id ? mats.find((m) => m.id === Number(id[1])) : mats.find((m) => m.data.name.toLowerCase() === mat.trim().toLowerCase());
  if (!hit) throw new UserError('krellstones/no-such-mat', `You have no mat “${mat.slice(0, 40)}”. Your mats: ${mats.map((m) => `${m.data.name} (#${m.id})`).join(', ')}.`);
  return { mat: hit };
}

/** Before joining: not at another open Krellstones table. */
export async function checkJoin(ctx: ServiceContext, guildId: string, playerId: string, tableId: number): Promise<void> {
  const other = await findOpenTable(ctx, { guildId, kind: KIND, playerId });
  if (other && other.id !== tableId) throw new UserError('krellstones/already-at-table', `You are already at table #${other.id}: leave it first (\`/krellstones abandon\`).`);
}

/**
 * Changes what the player brings at `table` about one of their stones, named by number or alias
 * (`free`: refused while a game uses it): `change` gets the seat's data, the stone, its id and name,
 * and every stone the player owns (read once). Returns the table and the stone's name.
 */
async function changeForStone(
  ctx: ServiceContext,
  input: { guildId: string; userId: string; stone: string },
  table: TableWithSeats,
  free: boolean,
  change: (data: SeatData, stone: Stone, id: string, name: string, stones: Stone[]) => SeatData,
): Promise<{ table: TableWithSeats; stone: string }> {
  let name = '';
  const updated = await changeSeat(ctx, {
    tableId: table.id,
    guildId: input.guildId,
    userId: input.userId,
    async change(tx, seat) {
      const stones = await stonesOf(tx, ctx, input.guildId, input.userId);
      const s = findStone(stones, input.stone);
      if (free) requireFree(s);
      name = ownedStoneName(s);
      return change(seatData(seat.data), s, String(s.id), name, stones);
    },
  });
  return { table: updated, stone: name };
}

/** `select`: adds a stone to what the player brings (refused: not theirs, in a game, already chosen, the type full). */
export async function selectStone(ctx: ServiceContext, input: { guildId: string; userId: string; stone: string }): Promise<{ table: TableWithSeats; stone: string }> {
  return changeForStone(ctx, input, await ownTable(ctx, input.guildId, input.userId), true, (data, s, id, name, stones) => {
    if (data.stones.includes(id)) throw new UserError('krellstones/already-selected', `Your ${name} is already selected.`);
    if (data.sideboard.includes(id)) throw new UserError('krellstones/on-sideboard', `Your ${name} is on your sideboard: remove it from there first.`);
    const sameType = data.stones.filter((x) => stones.find((t) => String(t.id) === x)?.data.type === s.data.type);
    const max = LOADOUT[s.data.type];
    if (sameType.length >= max) throw new UserError('krellstones/too-many', `A game takes ${max} ${typeName(s.data.type, max)} and you selected ${sameType.length}: unselect one first.`);
    return { ...data, stones: [...data.stones, id] };
  });
}

/** `unselect`: removes a chosen stone (or one from the sideboard). */
export async function unselectStone(ctx: ServiceContext, input: { guildId: string; userId: string; stone: string }): Promise<{ table: TableWithSeats; stone: string }> {
  return changeForStone(ctx, input, await ownTable(ctx, input.guildId, input.userId), false, (data, _s, id, name) => {
    if (!data.stones.includes(id) && !data.sideboard.includes(id)) throw new UserError('krellstones/not-selected', `Your ${name} is not selected.`);
    return { ...data, stones: data.stones.filter((x) => x !== id), sideboard: data.sideboard.filter((x) => x !== id) };
  });
}

/** Replaces the selection of one type (the menus by type): `ids` are asset ids of the player's stones. */
export async function setSelectionOfType(ctx: ServiceContext, input: { guildId: string; userId: string; tableId: number; type: StoneType; ids: string[] }): Promise<TableWithSeats> {
  return setSelectionOfTypes(ctx, { ...input, types: [input.type] });
}

/**
 * Replaces the selection of several types at once (one menu for the Pawn, the Dancer and the
 * Master): `ids` are asset ids of the player's stones, each of one of `types`, at most the loadout
 * of each type.
 */
export async function setSelectionOfTypes(ctx: ServiceContext, input: { guildId: string; userId: string; tableId: number; types: StoneType[]; ids: string[] }): Promise<TableWithSeats> {
  return changeSeat(ctx, {
    tableId: input.tableId,
    guildId: input.guildId,
    userId: input.userId,
    async change(tx, seat) {
      const data = seatData(seat.data);
      const stones = await stonesOf(tx, ctx, input.guildId, input.userId);
      const picked = input.ids.map((id) => {
        const s = stones.find((x) => String(x.id) === id);
        if (!s || !input.types.includes(s.data.type)) throw new UserError('krellstones/no-such-stone', `You have no ${input.types.map((t) => STONE_KINDS[t].name).join(' or ')} #${id}.`);
        requireFree(s);
        if (data.sideboard.includes(id)) throw new UserError('krellstones/on-sideboard', `Your ${ownedStoneName(s)} is on your sideboard: remove it from there first.`);
        return s;
      });
      for (const t of input.types) {
        if (picked.filter((s) => s.data.type === t).length > LOADOUT[t]) throw new UserError('krellstones/too-many', `A game takes ${LOADOUT[t]} ${typeName(t, LOADOUT[t])}.`);
      }
      const others = data.stones.filter((x) => {
        const t = stones.find((s) => String(s.id) === x)?.data.type;
        return t === undefined || !input.types.includes(t);
      });
      return { ...data, stones: [...others, ...input.ids] };
    },
  });
}

/** `sideboard add`: a stone to the player's sideboard (the host's size limits it). */
export async function sideboardAdd(ctx: ServiceContext, input: { guildId: string; userId: string; stone: string }): Promise<{ table: TableWithSeats; stone: string }> {
  const table = await ownTable(ctx, input.guildId, input.userId);
  const options = optionsSchema.parse(table.options);
  if (options.sideboard === 'off') throw new UserError('krellstones/no-sideboard', `The host has not turned the sideboard on for table #${table.id}${table.hostId === input.userId ? ' (you can: `/krellstones rules sideboard:`)' : ''}.`);
  const size = options.sideboard;
  return changeForStone(ctx, input, table, true, (data, _s, id, name) => {
    if (data.sideboard.includes(id)) throw new UserError('krellstones/already-selected', `Your ${name} is already on your sideboard.`);
    if (data.stones.includes(id)) throw new UserError('krellstones/already-selected', `Your ${name} is selected to play: unselect it first to put it on your sideboard.`);
    if (data.sideboard.length >= size) throw new UserError('krellstones/sideboard-full', `Your sideboard is full (${size} stones).`);
    return { ...data, sideboard: [...data.sideboard, id] };
  });
}

/** The host's rules before the start (any of them; the others stay). */
export async function setRules(
  ctx: ServiceContext,
  input: { guildId: string; userId: string; rounds?: number | null; rerolls?: boolean | null; sideboard?: 'off' | number | null; pace?: KrellstonesOptions['pace'] | null },
): Promise<TableWithSeats> {
  const table = await ownTable(ctx, input.guildId, input.userId);
  return changeTableOptions(ctx, {
    tableId: table.id,
    guildId: input.guildId,
    userId: input.userId,
    change: (o) => ({
      ...(o as object),
      ...(input.rounds != null ? { rounds: input.rounds } : {}),
      ...(input.rerolls != null ? { rerolls: input.rerolls } : {}),
      ...(input.sideboard != null ? { sideboard: input.sideboard } : {}),
      ...(input.pace != null ? { pace: input.pace } : {}),
    }),
  });
}
