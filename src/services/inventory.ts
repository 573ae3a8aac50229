import type { Tx } from '../db/client.ts';
import type { Outcome } from '../kernel/types.ts';
import type { Game, InventoryItem } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { inTransaction } from './game-store.ts';
import { cycleTitle, lockActiveCycle, lockGuild, type CycleWithSeason, type Member } from './locks.ts';
import { enqueue } from './notifications.ts';
import type { ItemDef } from './registry.ts';
import { ensurePlayers, isModerator } from './settings.ts';

/**
 * Inventories: a player's items per cycle (RULINGS.md). Items never carry over: a new cycle
 * starts with empty inventories until moderators grant items or games are won.
 */

/** The rewards every cycle game's winner gains (RULINGS.md), before every game's own items. */
export const REWARD_ITEMS: ItemDef[] = [
  { id: 'handy-pack', name: 'Handy Pack', emoji: '🎒', description: 'Won with a cycle game.' },
  { id: 'chip', name: 'Chip', emoji: '🪙', description: 'Won with a cycle game.' },
];

/** Every item a server's inventories may hold: the rewards, then each game's items. */
export function itemCatalogue(ctx: Pick<ServiceContext, 'games'>): ItemDef[] {
  return [...REWARD_ITEMS, ...ctx.games.items()];
}

export function itemName(ctx: Pick<ServiceContext, 'games'>, item: string): string {
  return itemCatalogue(ctx).find((i) => i.id === item)?.name ?? item;
}

async function requireCycle(tx: Tx, guildId: string): Promise<CycleWithSeason> {
  const cycle = await lockActiveCycle(tx, guildId);
  if (!cycle) throw new UserError('inventory/no-cycle', 'No cycle is running: inventories belong to a cycle. A moderator starts one with `/cycle start`.');
  return cycle;
}

function requireMod(guild: { moderatorRoleId: string | null }, member: Member): void {
  if (!isModerator(guild, member)) throw new UserError('inventory/not-moderator', 'Only moderators can grant, revoke or list other players’ items.');
}

function requireItem(ctx: ServiceContext, item: string): void {
  const all = itemCatalogue(ctx);
  if (!all.some((i) => i.id === item)) throw new UserError('inventory/unknown-item', `There is no item "${item}". Items: ${all.map((i) => i.name).join(', ')}.`);
}

async function addItem(tx: Tx, cycleId: number, playerId: string, item: string, delta: number, now: Date): Promise<InventoryItem> {
  return tx.inventoryItem.upsert({
    where: { cycleId_playerId_item: { cycleId, playerId, item } },
    create: { cycleId, playerId, item, count: delta, updatedAt: now },
    update: { count: { increment: delta }, updatedAt: now },
  });
}

/** Moderators: give a player `count` of an item for the current cycle. */
export async function grantItem(
  ctx: ServiceContext,
  input: { guildId: string; member: Member; player: { id: string; name: string; bot?: boolean }; item: string; count: number },
): Promise<{ cycle: CycleWithSeason; row: InventoryItem }> {
  requireItem(ctx, input.item);
  if (input.player.bot) throw new UserError('inventory/bot', `${input.player.name} is a bot and cannot hold items.`);
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > 99) throw new UserError('inventory/count', 'Grant between 1 and 99 at a time.');
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId);
    requireMod(guild, input.member);
    const cycle = await requireCycle(tx, guild.id);
    await ensurePlayers(tx, [input.player]);
    const row = await addItem(tx, cycle.id, input.player.id, input.item, input.count, ctx.clock.now());
    return { cycle, row };
  });
}

/** Moderators: take items away (never below zero: asking for more than held is refused). */
export async function revokeItem(
  ctx: ServiceContext,
  input: { guildId: string; member: Member; player: { id: string; name: string }; item: string; count: number },
): Promise<{ cycle: CycleWithSeason; row: InventoryItem }> {
  requireItem(ctx, input.item);
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > 99) throw new UserError('inventory/count', 'Revoke between 1 and 99 at a time.');
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId);
    requireMod(guild, input.member);
    const cycle = await requireCycle(tx, guild.id);
    const held = await tx.inventoryItem.findUnique({ where: { cycleId_playerId_item: { cycleId: cycle.id, playerId: input.player.id, item: input.item } } });
    if (!held || held.count < input.count) {
      throw new UserError('inventory/not-enough', `${input.player.name} holds ${held?.count ?? 0} × ${itemName(ctx, input.item)}; you cannot revoke ${input.count}.`);
    }
    const row = await addItem(tx, cycle.id, input.player.id, input.item, -input.count, ctx.clock.now());
    return { cycle, row };
  });
}

/** A player's items for the current cycle (anyone may see their own; moderators anyone's). */
export async function getInventory(
  ctx: ServiceContext,
  input: { guildId: string; viewerId: string; member: Member; playerId: string },
): Promise<{ cycle: CycleWithSeason; items: Array<{ item: string; count: number }> }> {
  const cycle = await ctx.db.cycle.findFirst({ where: { guildId: input.guildId, status: 'active' }, include: { season: true } });
  if (!cycle) throw new UserError('inventory/no-cycle', 'No cycle is running: inventories belong to a cycle.');
  if (input.playerId !== input.viewerId) {
    const guild = await ctx.db.guild.findUnique({ where: { id: input.guildId } });
    requireMod(guild ?? { moderatorRoleId: null }, input.member);
  }
  const rows = await ctx.db.inventoryItem.findMany({ where: { cycleId: cycle.id, playerId: input.playerId, count: { gt: 0 } } });
  const ids = itemCatalogue(ctx).map((i) => i.id);
  const order = (i: string) => ids.indexOf(i);
  return { cycle, items: rows.map((r) => ({ item: r.item, count: r.count })).sort((a, b) => order(a.item) - order(b.item)) };
}

/** The cycle whose inventory a game's items come from: the game's own cycle, else the active one. */
export async function itemCycleId(tx: Tx, game: Pick<Game, 'guildId' | 'cycleId'>): Promise<number | null> {
  if (game.cycleId !== null) return game.cycleId;
  const active = await tx.cycle.findFirst({ where: { guildId: game.guildId, status: 'active' }, select: { id: true } });
  return active?.id ?? null;
}

/** Whether the player holds `item` for the game's cycle (checked in a move's transaction). */
export async function holdsItem(tx: Tx, game: Pick<Game, 'guildId' | 'cycleId'>, playerId: string, item: string): Promise<boolean> {
  const cycleId = await itemCycleId(tx, game);
  if (cycleId === null) return false;
  const row = await tx.inventoryItem.findUnique({ where: { cycleId_playerId_item: { cycleId, playerId, item } } });
  return (row?.count ?? 0) > 0;
}

/** Of `items`, those the player holds for the game's cycle. */
export async function heldItems(ctx: ServiceContext, game: Pick<Game, 'guildId' | 'cycleId'>, playerId: string, items: string[]): Promise<string[]> {
  const cycleId = await itemCycleId(ctx.db as unknown as Tx, game);
  if (cycleId === null) return [];
  const rows = await ctx.db.inventoryItem.findMany({ where: { cycleId, playerId, count: { gt: 0 }, item: { in: items } } });
  return items.filter((i) => rows.some((r) => r.item === i));
}

/**
 * Called from the game's finishing transaction: each winner of a cycle game (a forfeit win and a
 * shared win included) gains one Handy Pack and one Chip for that cycle and is told by DM. A draw
 * rewards nobody.
 */
export async function grantCycleRewards(
  tx: Tx,
  ctx: Pick<ServiceContext, 'games'>,
  game: Pick<Game, 'id' | 'kind' | 'cycleId' | 'channelId'>,
  outcome: Outcome,
  now: Date,
): Promise<void> {
  if (game.cycleId === null || outcome.winners.length === 0) return;
  const cycle = await tx.cycle.findUniqueOrThrow({ where: { id: game.cycleId }, include: { season: true } });
  for (const winner of outcome.winners) {
    await addItem(tx, cycle.id, winner, 'handy-pack', 1, now);
    await addItem(tx, cycle.id, winner, 'chip', 1, now);
    await enqueue(
      tx,
      'text-dm',
      {
        userId: winner,
        fallbackChannelId: game.channelId,
        content: `🎁 You won ${ctx.games.title(game.kind)} #${game.id} in **${cycleTitle(cycle)}**: one 🎒 Handy Pack and one 🪙 Chip are in your inventory (\`/inventory show\`).`,
      },
      now,
    );
  }
}
