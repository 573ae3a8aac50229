import { SlashCommandBuilder } from '@discordjs/builders';
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { EPHEMERAL, displayName, memberAuthority, requireGuild } from '../src/bot/interaction-utils.ts';
import { UserError } from '../src/services/errors.ts';
import { getGame } from '../src/services/games.ts';
import { verifyGame } from '../src/services/replay.ts';
import { getGuildSettings, isModerator, setReminders, updateGuildSettings } from '../src/services/settings.ts';
import type { Guild } from '../src/generated/prisma/client.ts';

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

const schema = z.discriminatedUnion('subcommand', [
  z.object({
    subcommand: z.literal('config'),
    turnHours: z.number().min(0.25).max(336).nullable(),
    reminders: reminderList.nullable(),
    moderatorRole: z.string().regex(/^\d+$/).nullable(),
    clearModeratorRole: z.boolean().nullable(),
    tableHours: z.number().min(1).max(336).nullable(),
  }),
  z.object({ subcommand: z.literal('reminders'), enabled: z.boolean() }),
  z.object({ subcommand: z.literal('verify'), game: z.number().int().positive().max(2_147_483_647) }),
]);
type Input = z.infer<typeof schema>;

const data = new SlashCommandBuilder()
  .setName('stonehall')
  .setDescription('Stonehall settings for this server and for you.')
  .setDMPermission(false)
  .addSubcommand((s) =>
    s
      .setName('config')
      .setDescription('Show or change this server’s settings (moderators change them).')
      .addNumberOption((o) => o.setName('turn-hours').setDescription('Hours a player has to move before forfeiting (default 24)').setMinValue(0.25).setMaxValue(336))
      .addStringOption((o) => o.setName('reminders').setDescription('Hours before the deadline to remind, e.g. "12, 4, 1", or "off"').setMaxLength(60))
      .addRoleOption((o) => o.setName('moderator-role').setDescription('Members with this role may change Stonehall settings'))
      .addBooleanOption((o) => o.setName('clear-moderator-role').setDescription('Remove the moderator role (Manage Server still counts)'))
      .addNumberOption((o) => o.setName('table-hours').setDescription('Hours a table of 3+ seats waits to fill before it closes (default 72)').setMinValue(1).setMaxValue(336)),
  )
  .addSubcommand((s) =>
    s
      .setName('reminders')
      .setDescription('Turn your own turn reminders on or off (turn pings still arrive).')
      .addBooleanOption((o) => o.setName('enabled').setDescription('Receive reminders before your deadlines').setRequired(true)),
  )
  .addSubcommand((s) =>
    s
      .setName('verify')
      .setDescription('Check a finished game’s fair dice: its seed against the commitment, and every move replayed.')
      .addIntegerOption((o) => o.setName('game').setDescription('Game number').setRequired(true).setMinValue(1)),
  );

function read(interaction: ChatInputCommandInteraction): unknown {
  return {
    subcommand: interaction.options.getSubcommand(false),
    turnHours: interaction.options.getNumber('turn-hours'),
    reminders: interaction.options.getString('reminders'),
    moderatorRole: interaction.options.getRole('moderator-role')?.id ?? null,
    clearModeratorRole: interaction.options.getBoolean('clear-moderator-role'),
    tableHours: interaction.options.getNumber('table-hours'),
    enabled: interaction.options.getBoolean('enabled'),
    game: interaction.options.getInteger('game'),
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
  ].join('\n');
}

async function execute(interaction: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  if (input.subcommand === 'reminders') {
    await setReminders(deps.ctx, { userId: interaction.user.id, name: displayName(interaction.user), enabled: input.enabled });
    await interaction.reply({
      content: input.enabled ? '⏰ Reminders are on: you will be reminded before your deadlines.' : '🔕 Reminders are off. You still get a DM when your turn begins.',
      flags: EPHEMERAL,
    });
    return;
  }
  const guildId = requireGuild(interaction);
  if (input.subcommand === 'verify') {
    const { game } = await getGame(deps.ctx, input.game, guildId);
    if (game.status !== 'finished') {
      throw new UserError('verify/running', `Game #${game.id} is still being played: its seed stays secret until it ends. Its commitment is \`${game.seedCommitment}\`.`);
    }
    const r = await verifyGame(deps.ctx, game.id);
    const ok = r.commitmentOk && r.stateOk;
    const lines = [
      `${ok ? '✅' : '❌'} **${deps.games.title(game.kind)} #${game.id}**: ${ok ? 'fair: every random draw (dice, shuffles) came from the seed committed at the start.' : 'something does not match: tell a moderator.'}`,
      `• Seed \`${game.seed}\``,
      `• SHA-256 of the seed ${r.commitmentOk ? 'matches' : '**does not match**'} the commitment shown from the first move (\`${game.seedCommitment}\`).`,
      `• Replaying the game from that seed, ${r.moves} logged move${r.moves === 1 ? '' : 's'} in order, ${r.stateOk ? 'gives exactly the final position' : '**does not give** the final position'}.`,
      'How to recompute it yourself: README, “Fair dice”.',
    ];
    await interaction.reply({ content: lines.join('\n'), flags: EPHEMERAL });
    return;
  }
  const member = memberAuthority(interaction);
  const change = {
    ...(input.turnHours !== null ? { turnLimitMinutes: Math.round(input.turnHours * 60) } : {}),
    ...(input.reminders !== null ? { reminderMinutes: input.reminders } : {}),
    ...(input.moderatorRole !== null ? { moderatorRoleId: input.moderatorRole } : input.clearModeratorRole ? { moderatorRoleId: null } : {}),
    ...(input.tableHours !== null ? { tableOpenMinutes: Math.round(input.tableHours * 60) } : {}),
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
