import { SlashCommandBuilder } from '@discordjs/builders';
import { ChannelType, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { EPHEMERAL, memberAuthority, requireGuild } from '../src/bot/interaction-utils.ts';
import { allGamesNeeds, channelReport, requireIn } from '../src/bot/permissions.ts';
import { UserError } from '../src/services/errors.ts';
import { durationText, gameChannelsText, getGuildSettings, isModerator, updateGuildSettings, type ConfigChange } from '../src/services/settings.ts';
import type { Guild } from '../src/generated/prisma/client.ts';

/**
 * `/stonehall-config`: the server's settings, for moderators. A command of its own (not a
 * subcommand of `/stonehall`) so that Discord hides it from players by its default member
 * permissions (Manage Server); a server may grant it to its moderator role in Server Settings →
 * Integrations, and the handler checks the member again (permissions can be overridden per server).
 */

/** "12,4,1" (hours before the deadline) or "off". */
const reminderList = z
  .string()
  .trim()
  .transform((s, ctx) => {
    if (/^(off|none)$/i.test(s)) return [] as number[];
    const parts = s.split(/[\s,]+/).filter(Boolean).map(Number);
    if (parts.length === 0 || parts.length > 6 || parts.some((h) => !Number.isFinite(h) || h <= 0 || h > 336)) {
      ctx.addIssue({ code: 'custom', message: 'Give up to six numbers of hours before the deadline, like `12, 4, 1`, or `off`.' });
      return z.NEVER;
    }
    return [...new Set(parts.map((h) => Math.round(h * 60)))].sort((a, b) => b - a);
  });

const snowflake = z.string().regex(/^\d+$/);

const schema = z.object({
  turnHours: z.number().min(0.25).max(336).nullable(),
  reminders: reminderList.nullable(),
  moderatorRole: snowflake.nullable(),
  clearModeratorRole: z.boolean().nullable(),
  tableHours: z.number().min(1).max(336).nullable(),
  allowChannel: snowflake.nullable(),
  disallowChannel: snowflake.nullable(),
  anyChannel: z.boolean().nullable(),
  minMoveDays: z.number().min(0.01).max(60).nullable(),
  maxMoveDays: z.number().min(0.01).max(60).nullable(),
  vacationDays: z.number().int().min(0).max(365).nullable(),
  check: z.boolean().nullable(),
});
type Input = z.infer<typeof schema>;

const data = new SlashCommandBuilder()
  .setName('stonehall-config')
  .setDescription('Moderators: show or change Stonehall’s settings for this server.')
  .setDMPermission(false)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addNumberOption((o) => o.setName('turn-hours').setDescription('Hours a player has to move before forfeiting (default 24)').setMinValue(0.25).setMaxValue(336))
  .addStringOption((o) => o.setName('reminders').setDescription('Hours before the deadline to remind, e.g. "12, 4, 1", or "off"').setMaxLength(60))
  .addRoleOption((o) => o.setName('moderator-role').setDescription('Members with this role may change Stonehall settings'))
  .addBooleanOption((o) => o.setName('clear-moderator-role').setDescription('Remove the moderator role (Manage Server still counts)'))
  .addNumberOption((o) => o.setName('table-hours').setDescription('Hours a table of 3+ seats waits to fill before it closes (default 72)').setMinValue(1).setMaxValue(336))
  .addChannelOption((o) => o.setName('allow-channel').setDescription('Add a channel where games may be started (then only the listed ones)').addChannelTypes(ChannelType.GuildText))
  .addChannelOption((o) => o.setName('disallow-channel').setDescription('Remove a channel from the list where games may be started').addChannelTypes(ChannelType.GuildText))
  .addBooleanOption((o) => o.setName('any-channel').setDescription('Let games be started in any channel again (clears the list)'))
  .addNumberOption((o) => o.setName('min-move-days').setDescription('Shortest time per move a challenger may choose, in days (default 1)').setMinValue(0.01).setMaxValue(60))
  .addNumberOption((o) => o.setName('max-move-days').setDescription('Longest time per move a challenger may choose, in days (default 7)').setMinValue(0.01).setMaxValue(60))
  .addIntegerOption((o) => o.setName('vacation-days').setDescription('Vacation days each player may take per season (0: none; default 14)').setMinValue(0).setMaxValue(365))
  .addBooleanOption((o) => o.setName('check').setDescription('List every channel Stonehall uses, with what it may do there and what is missing'));

function read(interaction: ChatInputCommandInteraction): unknown {
  return {
    turnHours: interaction.options.getNumber('turn-hours'),
    reminders: interaction.options.getString('reminders'),
    moderatorRole: interaction.options.getRole('moderator-role')?.id ?? null,
    clearModeratorRole: interaction.options.getBoolean('clear-moderator-role'),
    tableHours: interaction.options.getNumber('table-hours'),
    allowChannel: interaction.options.getChannel('allow-channel')?.id ?? null,
    disallowChannel: interaction.options.getChannel('disallow-channel')?.id ?? null,
    anyChannel: interaction.options.getBoolean('any-channel'),
    minMoveDays: interaction.options.getNumber('min-move-days'),
    maxMoveDays: interaction.options.getNumber('max-move-days'),
    vacationDays: interaction.options.getInteger('vacation-days'),
    check: interaction.options.getBoolean('check'),
  };
}

export function describeSettings(g: Guild): string {
  const hours = (m: number) => `${+(m / 60).toFixed(2)} h`;
  const reminders = (g.reminderMinutes ?? []).length ? g.reminderMinutes.map(hours).join(', ') + ' before the deadline' : 'off';
  return [
    '**Stonehall settings**',
    `• Turn limit: ${hours(g.turnLimitMinutes)}`,
    `• Reminders: ${reminders}`,
    `• Moderator role: ${g.moderatorRoleId ? `<@&${g.moderatorRoleId}>` : 'none (Manage Server only)'}`,
    `• Tables wait ${hours(g.tableOpenMinutes)} for their seats to fill`,
    `• Games may be started in: ${gameChannelsText(g)}`,
    `• Time per move a challenger may choose: ${durationText(g.minMoveMinutes)} to ${durationText(g.maxMoveMinutes)}`,
    `• Vacation: ${g.vacationDays ? `up to ${g.vacationDays} day${g.vacationDays === 1 ? '' : 's'} per player per season` : 'none'}`,
  ].join('\n');
}

async function execute(interaction: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(interaction);
  const member = memberAuthority(interaction);
  if (input.check) {
    const guild = await getGuildSettings(deps.ctx, guildId);
    if (!isModerator(guild, member)) throw new UserError('config/not-moderator', 'Only moderators (Manage Server, or the Stonehall moderator role) can check the channels.');
    await interaction.reply({ content: await channelReport(interaction, deps, guild), flags: EPHEMERAL, allowedMentions: { parse: [] } });
    return;
  }
  // A channel where games are to be started must take every game's board.
  if (input.allowChannel !== null) requireIn(interaction, input.allowChannel, allGamesNeeds(deps.games), `Games can't be started in <#${input.allowChannel}>`);
  const change: ConfigChange = {
    ...(input.turnHours !== null ? { turnLimitMinutes: Math.round(input.turnHours * 60) } : {}),
    ...(input.reminders !== null ? { reminderMinutes: input.reminders } : {}),
    ...(input.moderatorRole !== null ? { moderatorRoleId: input.moderatorRole } : input.clearModeratorRole ? { moderatorRoleId: null } : {}),
    ...(input.tableHours !== null ? { tableOpenMinutes: Math.round(input.tableHours * 60) } : {}),
    ...(input.allowChannel !== null ? { allowGameChannel: input.allowChannel } : {}),
    ...(input.disallowChannel !== null ? { disallowGameChannel: input.disallowChannel } : {}),
    ...(input.anyChannel ? { gameChannelsAnywhere: true } : {}),
    ...(input.minMoveDays !== null ? { minMoveMinutes: Math.round(input.minMoveDays * 1440) } : {}),
    ...(input.maxMoveDays !== null ? { maxMoveMinutes: Math.round(input.maxMoveDays * 1440) } : {}),
    ...(input.vacationDays !== null ? { vacationDays: input.vacationDays } : {}),
  };
  if (Object.keys(change).length === 0) {
    const guild = await getGuildSettings(deps.ctx, guildId);
    if (!isModerator(guild, member)) throw new UserError('config/not-moderator', 'Only moderators (Manage Server, or the Stonehall moderator role) can see and change the settings.');
    await interaction.reply({ content: describeSettings(guild), flags: EPHEMERAL, allowedMentions: { parse: [] } });
    return;
  }
  const guild = await updateGuildSettings(deps.ctx, { guildId, member, change });
  await interaction.reply({ content: `✅ Saved. New turns use these settings.\n${describeSettings(guild)}`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
}

export default defineCommand<Input>({ data, schema, read, execute });
