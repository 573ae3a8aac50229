import type { Tx } from '../db/client.ts';
import type { Guild } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';

export async function ensureGuild(tx: Tx, guildId: string, name?: string): Promise<Guild> {
  return tx.guild.upsert({
    where: { id: guildId },
    create: { id: guildId, name: name ?? '' },
    update: name ? { name } : {},
  });
}

export async function ensurePlayers(tx: Tx, players: Array<{ id: string; name: string }>): Promise<void> {
  // In id order, so two transactions upserting the same players cannot deadlock.
  for (const p of [...players].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    await tx.player.upsert({ where: { id: p.id }, create: { id: p.id, name: p.name }, update: { name: p.name } });
  }
}

export async function getGuildSettings(ctx: ServiceContext, guildId: string): Promise<Guild> {
  return ctx.db.$transaction((tx) => ensureGuild(tx, guildId));
}

/** Who counts as a moderator: Manage Server, or the role set with /stonehall-config. */
export function isModerator(guild: Pick<Guild, 'moderatorRoleId'>, member: { manageGuild: boolean; roleIds: string[] }): boolean {
  return member.manageGuild || (guild.moderatorRoleId !== null && member.roleIds.includes(guild.moderatorRoleId));
}

/** "1 day", "3 days", "12 h", "30 min": a time per move as players read it. */
export function durationText(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440} day${minutes === 1440 ? '' : 's'}`;
  if (minutes >= 1440) return `${+(minutes / 1440).toFixed(2)} days`;
  if (minutes % 60 === 0 || minutes >= 120) return `${+(minutes / 60).toFixed(1)} h`;
  return `${minutes} min`;
}

/** The time per move a challenger chose must lie within the server's limits. */
export function requireMoveTime(guild: Pick<Guild, 'minMoveMinutes' | 'maxMoveMinutes' | 'turnLimitMinutes'>, minutes: number): void {
  if (minutes >= guild.minMoveMinutes && minutes <= guild.maxMoveMinutes) return;
  throw new UserError(
    'challenge/move-time',
    `This server allows ${durationText(guild.minMoveMinutes)} to ${durationText(guild.maxMoveMinutes)} per move. Choose \`days-per-move\` within that, or leave it out for the server's ${durationText(guild.turnLimitMinutes)}.`,
  );
}

export interface ConfigChange {
  turnLimitMinutes?: number;
  reminderMinutes?: number[];
  moderatorRoleId?: string | null;
  tableOpenMinutes?: number;
  /** Channels to add to / remove from the list where games may be started; `anywhere` empties it. */
  minMoveMinutes?: number;
  maxMoveMinutes?: number;
  vacationDays?: number;
  allowGameChannel?: string;
  disallowGameChannel?: string;
  gameChannelsAnywhere?: boolean;
}

/** The channels where games may be started, as mentions ("anywhere" when not limited). */
export function gameChannelsText(g: Pick<Guild, 'gameChannelIds'>): string {
  return g.gameChannelIds.length ? g.gameChannelIds.map((id) => `<#${id}>`).join(', ') : 'any channel';
}

/**
 * Refuses to start a game (a challenge, a table, a practice game) outside the channels the
 * moderators allowed, naming the allowed ones. No list: anywhere.
 */
export function requireGameChannel(guild: Pick<Guild, 'gameChannelIds'>, channelId: string): void {
  if (guild.gameChannelIds.length === 0 || guild.gameChannelIds.includes(channelId)) return;
  const list = guild.gameChannelIds.map((id) => `<#${id}>`).join(', ');
  throw new UserError('config/game-channel', `Games are not started in this channel. Start it in ${guild.gameChannelIds.length === 1 ? list : `one of ${list}`}.`);
}

export async function updateGuildSettings(
  ctx: ServiceContext,
  input: { guildId: string; member: { manageGuild: boolean; roleIds: string[] }; change: ConfigChange },
): Promise<Guild> {
  return ctx.db.$transaction(async (tx) => {
    const guild = await ensureGuild(tx, input.guildId);
    if (!isModerator(guild, input.member)) {
      throw new UserError('config/not-moderator', 'Only moderators (Manage Server, or the Stonehall moderator role) can change the settings.');
    }
    const c = input.change;
    if (c.turnLimitMinutes !== undefined && (c.turnLimitMinutes < 10 || c.turnLimitMinutes > 14 * 24 * 60)) {
      throw new UserError('config/turn-limit', 'The turn limit must be between 10 minutes and 14 days.');
    }
    if (c.tableOpenMinutes !== undefined && (c.tableOpenMinutes < 60 || c.tableOpenMinutes > 14 * 24 * 60)) {
      throw new UserError('config/table-time', 'A table can wait between 1 hour and 14 days for its seats to fill.');
    }
    const min = c.minMoveMinutes ?? guild.minMoveMinutes;
    const max = c.maxMoveMinutes ?? guild.maxMoveMinutes;
    if (min < 10 || max > 60 * 24 * 60) throw new UserError('config/move-time', 'The time per move can be limited to between 10 minutes and 60 days.');
    if (min > max) throw new UserError('config/move-time', `The shortest time per move (${durationText(min)}) cannot be longer than the longest (${durationText(max)}). Give both.`);
    if (c.vacationDays !== undefined && (c.vacationDays < 0 || c.vacationDays > 365)) throw new UserError('config/vacation', 'Vacation days per season must be between 0 (no vacations) and 365.');
    let channels = guild.gameChannelIds;
    if (c.gameChannelsAnywhere) channels = [];
    if (c.disallowGameChannel !== undefined) channels = channels.filter((id) => id !== c.disallowGameChannel);
    if (c.allowGameChannel !== undefined && !channels.includes(c.allowGameChannel)) {
      if (channels.length >= 25) throw new UserError('config/game-channels', 'Games may be limited to at most 25 channels. Remove one first with `disallow-channel`.');
      channels = [...channels, c.allowGameChannel];
    }
    return tx.guild.update({
      where: { id: input.guildId },
      data: {
        ...(channels !== guild.gameChannelIds ? { gameChannelIds: channels } : {}),
        ...(c.turnLimitMinutes !== undefined ? { turnLimitMinutes: c.turnLimitMinutes } : {}),
        ...(c.reminderMinutes !== undefined ? { reminderMinutes: c.reminderMinutes } : {}),
        ...(c.moderatorRoleId !== undefined ? { moderatorRoleId: c.moderatorRoleId } : {}),
        ...(c.tableOpenMinutes !== undefined ? { tableOpenMinutes: c.tableOpenMinutes } : {}),
        ...(c.minMoveMinutes !== undefined ? { minMoveMinutes: c.minMoveMinutes } : {}),
        ...(c.maxMoveMinutes !== undefined ? { maxMoveMinutes: c.maxMoveMinutes } : {}),
        ...(c.vacationDays !== undefined ? { vacationDays: c.vacationDays } : {}),
        updatedAt: ctx.clock.now(),
      },
    });
  });
}

export async function setReminders(ctx: ServiceContext, input: { userId: string; name: string; enabled: boolean }): Promise<void> {
  await ctx.db.player.upsert({
    where: { id: input.userId },
    create: { id: input.userId, name: input.name, remindersEnabled: input.enabled },
    update: { remindersEnabled: input.enabled, name: input.name },
  });
}
