import type { Tx } from '../db/client.ts';
import type { Cycle, Guild, Season } from '../generated/prisma/client.ts';
import { ensureGuild } from './settings.ts';

/**
 * The server and cycle locks every cycle use case takes first, in this order (guild row, then the
 * active cycle), and the names they share. Kept apart from cycles.ts so that inventories and game
 * rewards can take the same locks without importing the cycle use cases.
 */

export type PhaseKind = 'rest' | 'battle';
export type Member = { manageGuild: boolean; roleIds: string[] };
export type CycleWithSeason = Cycle & { season: Season };

export const cycleTitle = (c: { name: string; season: { name: string } }) => `${c.season.name} / ${c.name}`;

/** Locks the server row (created if new): the first lock of every cycle use case. */
export async function lockGuild(tx: Tx, guildId: string, guildName?: string): Promise<Guild> {
  await ensureGuild(tx, guildId, guildName);
  await tx.$queryRaw`SELECT id FROM guilds WHERE id = ${guildId} FOR UPDATE`;
  return tx.guild.findUniqueOrThrow({ where: { id: guildId } });
}

/** The server's active cycle, locked (call after lockGuild). */
export async function lockActiveCycle(tx: Tx, guildId: string): Promise<CycleWithSeason | null> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM cycles WHERE guild_id = ${guildId} AND status = 'active' FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.cycle.findUnique({ where: { id: rows[0]!.id }, include: { season: true } });
}
