import type { Tx } from '../db/client.ts';
import type { Asset } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import type { GameDefinition } from './registry.ts';

/**
 * Owned assets: what a player keeps between games in a server (Krellstones' stones, faces, mats,
 * credits). One generic store; each asset's `data` is validated with its game's schema for its
 * type whenever it is read or written, and an asset locked by a running game cannot be changed or
 * removed until that game ends (the game's end releases its locks, src/services/changes.ts).
 * Every function takes the caller's transaction, so a game changes assets in the same
 * transaction as the move or start that causes it.
 */

export interface OwnedAsset<T = unknown> {
  id: number;
  guildId: string;
  playerId: string;
  game: string;
  type: string;
  data: T;
  lockedByGameId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

function schemaOf(def: GameDefinition, type: string) {
  const schema = def.assets?.[type];
  if (!schema) throw new Error(`${def.kind} has no asset type ${type}`);
  return schema;
}

function parse<T>(def: GameDefinition, row: Asset): OwnedAsset<T> {
  const parsed = schemaOf(def, row.type).safeParse(row.data);
  if (!parsed.success) throw new Error(`asset ${row.id} (${row.game}/${row.type}) does not match its schema: ${parsed.error.message}`);
  return { ...row, data: parsed.data as T };
}

function lockedRefusal(a: Pick<Asset, 'id' | 'lockedByGameId'>, what: string): UserError {
  return new UserError('asset/in-use', `${what} is in use in game #${a.lockedByGameId}; it can be changed, traded or removed once that game ends.`);
}

/** The assets API of one game (what its module and its services use). */
export function assetsOf(ctx: Pick<ServiceContext, 'games' | 'clock'>, kind: string) {
  const def = ctx.games.require(kind);
  return {
    /** A player's assets of this game, optionally of one type or these ids, oldest first. */
    async list<T = unknown>(tx: Tx, input: { guildId: string; playerId: string; type?: string; ids?: number[] }): Promise<Array<OwnedAsset<T>>> {
      const rows = await tx.asset.findMany({
        where: { guildId: input.guildId, playerId: input.playerId, game: kind, ...(input.type ? { type: input.type } : {}), ...(input.ids ? { id: { in: input.ids } } : {}) },
        orderBy: { id: 'asc' },
      });
      return rows.map((r) => parse<T>(def, r));
    },

    /** Locks these rows (FOR UPDATE) and returns them, refusing ids that are not the player's. */
    async lockRows<T = unknown>(tx: Tx, input: { guildId: string; playerId: string; ids: number[] }): Promise<Array<OwnedAsset<T>>> {
      const ids = [...new Set(input.ids)].sort((a, b) => a - b);
      if (ids.length === 0) return [];
      await tx.$queryRaw`SELECT id FROM assets WHERE id = ANY(${ids}::int[]) ORDER BY id FOR UPDATE`;
      const rows = await tx.asset.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } });
      const mine = rows.filter((r) => r.guildId === input.guildId && r.playerId === input.playerId && r.game === kind);
      if (mine.length !== ids.length) throw new UserError('asset/unknown', 'You do not own that (anymore). List what you own and pick again.');
      return mine.map((r) => parse<T>(def, r));
    },

    async create<T>(tx: Tx, input: { guildId: string; playerId: string; type: string; data: T }): Promise<OwnedAsset<T>> {
      const data = schemaOf(def, input.type).parse(input.data);
      const now = ctx.clock.now();
      const row = await tx.asset.create({
        data: { guildId: input.guildId, playerId: input.playerId, game: kind, type: input.type, data: data as object, createdAt: now, updatedAt: now },
      });
      return parse<T>(def, row);
    },

    /** Changes an asset (locked first by the caller with lockRows); refused while a game uses it. */
    async update<T>(tx: Tx, asset: OwnedAsset<unknown>, data: T, what = 'That'): Promise<OwnedAsset<T>> {
      if (asset.lockedByGameId !== null) throw lockedRefusal(asset, what);
      const parsed = schemaOf(def, asset.type).parse(data);
      const row = await tx.asset.update({ where: { id: asset.id }, data: { data: parsed as object, updatedAt: ctx.clock.now() } });
      return parse<T>(def, row);
    },

    /** Removes an asset (trashed, traded in, spent); refused while a game uses it. */
    async remove(tx: Tx, asset: OwnedAsset<unknown>, what = 'That'): Promise<void> {
      if (asset.lockedByGameId !== null) throw lockedRefusal(asset, what);
      await tx.asset.delete({ where: { id: asset.id } });
    },

    /** Marks assets as in use by `gameId` (in the transaction that starts the game); refused if another game uses one. */
    async lockFor(tx: Tx, assets: Array<OwnedAsset<unknown>>, gameId: number): Promise<void> {
      const busy = assets.find((a) => a.lockedByGameId !== null && a.lockedByGameId !== gameId);
      if (busy) throw lockedRefusal(busy, 'One of them');
      if (assets.length === 0) return;
      await tx.asset.updateMany({ where: { id: { in: assets.map((a) => a.id) } }, data: { lockedByGameId: gameId, updatedAt: ctx.clock.now() } });
    },
  };
}
