import { SlashCommandBuilder } from '@discordjs/builders';
import { ChannelType, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import cron from 'node-cron';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { EPHEMERAL, memberAuthority, requireGuild } from '../src/bot/interaction-utils.ts';
import { configureCycles, cycleTitle, endCycle, endSeason, findActiveCycle, openPhase, postLeaderboard, startCycle, startSeason } from '../src/services/cycles.ts';
import { resolveCycle } from '../src/services/leaderboard.ts';
import { getGuildSettings, isModerator } from '../src/services/settings.ts';
import { UserError } from '../src/services/errors.ts';
import { games } from '../src/games/index.ts';
import { grantItem, itemCatalogue, revokeItem } from '../src/services/inventory.ts';
import { displayName } from '../src/bot/interaction-utils.ts';
import { allGamesNeeds, POSTING_NEEDS, requireIn, type ChannelNeed } from '../src/bot/permissions.ts';
import type { Guild } from '../src/generated/prisma/client.ts';

/**
 * Moderators run seasons, cycles, phases and the cycle's items (RULINGS.md, Commencement). The
 * whole command is for moderators, so Discord hides it from players (default member permissions:
 * Manage Server); the services check the member again, as a server may override who sees it.
 * Players see the season with `/stonehall cycle` and their items with `/inventory show`.
 */

const ITEMS = Object.fromEntries(itemCatalogue({ games }).map((i) => [i.id, i]));
const ITEM_IDS = Object.keys(ITEMS);
const itemChoices = ITEM_IDS.map((id) => ({ name: ITEMS[id]!.name, value: id }));
const userOption = z.object({ id: z.string().regex(/^\d+$/), name: z.string(), bot: z.boolean() });
const item = z.string().refine((s) => ITEM_IDS.includes(s), 'choose an item from the list');
const count = z.number().int().min(1).max(99).nullable().transform((n) => n ?? 1);

const name = z.string().trim().min(1).max(60);
const snowflake = z.string().regex(/^\d+$/);

const schema = z.discriminatedUnion('subcommand', [
  z.object({ subcommand: z.literal('status') }),
  z.object({ subcommand: z.literal('season-start'), name }),
  z.object({ subcommand: z.literal('season-end') }),
  z.object({ subcommand: z.literal('start'), name }),
  z.object({ subcommand: z.literal('phase'), kind: z.enum(['rest', 'battle']) }),
  z.object({ subcommand: z.literal('end') }),
  z.object({ subcommand: z.literal('leaderboard'), cycle: z.string().trim().max(100).nullable() }),
  z.object({ subcommand: z.literal('grant'), player: userOption, item, count }),
  z.object({ subcommand: z.literal('revoke'), player: userOption, item, count }),
  z.object({
    subcommand: z.literal('config'),
    commencement: snowflake.nullable(),
    announcements: snowflake.nullable(),
    leaderboard: snowflake.nullable(),
    timeZone: z.string().trim().max(64).nullable(),
    restSchedule: z.string().trim().max(100).nullable(),
    battleSchedule: z.string().trim().max(100).nullable(),
    clearSchedule: z.boolean().nullable(),
  }),
]);
type Input = z.infer<typeof schema>;

const data = new SlashCommandBuilder()
  .setName('cycle')
  .setDescription('Moderators: seasons, cycles, Rest and Battle phases, items.')
  .setDMPermission(false)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) => s.setName('status').setDescription('The current season, cycle, phase and schedule.'))
  .addSubcommand((s) =>
    s
      .setName('season-start')
      .setDescription('Start a season: from now on /knucklebones join states intents.')
      .addStringOption((o) => o.setName('name').setDescription('e.g. Season 4').setRequired(true).setMaxLength(60)),
  )
  .addSubcommand((s) => s.setName('season-end').setDescription('End the season (challenges work as outside cycles again).'))
  .addSubcommand((s) =>
    s
      .setName('start')
      .setDescription('Start a cycle of the season; it opens with a Rest Phase.')
      .addStringOption((o) => o.setName('name').setDescription('e.g. Cycle 16').setRequired(true).setMaxLength(60)),
  )
  .addSubcommand((s) =>
    s
      .setName('phase')
      .setDescription('Open a Rest or a Battle phase now.')
      .addStringOption((o) =>
        o.setName('kind').setDescription('Which phase').setRequired(true).addChoices({ name: 'Rest', value: 'rest' }, { name: 'Battle', value: 'battle' }),
      ),
  )
  .addSubcommand((s) => s.setName('end').setDescription('End the cycle: open intents lapse, the leaderboard is posted.'))
  .addSubcommand((s) =>
    s
      .setName('leaderboard')
      .setDescription('Post a cycle’s leaderboard to the leaderboard channel.')
      .addStringOption((o) => o.setName('cycle').setDescription('Cycle name (default: the current or last one)').setMaxLength(100)),
  )
  .addSubcommand((s) =>
    s
      .setName('grant')
      .setDescription('Give a player items for the current cycle.')
      .addUserOption((o) => o.setName('player').setDescription('Who').setRequired(true))
      .addStringOption((o) => o.setName('item').setDescription('Which item').setRequired(true).addChoices(...itemChoices))
      .addIntegerOption((o) => o.setName('count').setDescription('How many (default 1)').setMinValue(1).setMaxValue(99)),
  )
  .addSubcommand((s) =>
    s
      .setName('revoke')
      .setDescription('Take items away from a player.')
      .addUserOption((o) => o.setName('player').setDescription('Who').setRequired(true))
      .addStringOption((o) => o.setName('item').setDescription('Which item').setRequired(true).addChoices(...itemChoices))
      .addIntegerOption((o) => o.setName('count').setDescription('How many (default 1)').setMinValue(1).setMaxValue(99)),
  )
  .addSubcommand((s) =>
    s
      .setName('config')
      .setDescription('Channels, time zone and phase schedule.')
      .addChannelOption((o) => o.setName('commencement').setDescription('Where intents are taken (default #battle-commencement)').addChannelTypes(ChannelType.GuildText))
      .addChannelOption((o) => o.setName('announcements').setDescription('Where phase changes are announced').addChannelTypes(ChannelType.GuildText))
      .addChannelOption((o) => o.setName('leaderboard').setDescription('Where leaderboards are posted').addChannelTypes(ChannelType.GuildText))
      .addStringOption((o) => o.setName('time-zone').setDescription('IANA time zone of the schedule, e.g. Europe/Berlin').setMaxLength(64))
      .addStringOption((o) => o.setName('rest-schedule').setDescription('cron: when a Rest Phase opens, e.g. "0 6 * * 1" (Mondays 06:00)').setMaxLength(100))
      .addStringOption((o) => o.setName('battle-schedule').setDescription('cron: when a Battle Phase opens, e.g. "0 18 * * 5" (Fridays 18:00)').setMaxLength(100))
      .addBooleanOption((o) => o.setName('clear-schedule').setDescription('Remove the schedule (phases by hand only)')),
  );

function read(i: ChatInputCommandInteraction): unknown {
  const u = i.options.getUser('player');
  return {
    player: u ? { id: u.id, name: displayName(u), bot: u.bot } : null,
    item: i.options.getString('item'),
    count: i.options.getInteger('count'),
    subcommand: i.options.getSubcommand(false),
    name: i.options.getString('name'),
    kind: i.options.getString('kind'),
    cycle: i.options.getString('cycle'),
    commencement: i.options.getChannel('commencement')?.id ?? null,
    announcements: i.options.getChannel('announcements')?.id ?? null,
    leaderboard: i.options.getChannel('leaderboard')?.id ?? null,
    timeZone: i.options.getString('time-zone'),
    restSchedule: i.options.getString('rest-schedule'),
    battleSchedule: i.options.getString('battle-schedule'),
    clearSchedule: i.options.getBoolean('clear-schedule'),
  };
}

const ch = (id: string | null, fallback: string) => (id ? `<#${id}>` : fallback);

export function describeCycleSettings(g: Guild): string {
  const schedule = g.restCron || g.battleCron ? `Rest \`${g.restCron ?? '—'}\`, Battle \`${g.battleCron ?? '—'}\` (${g.timeZone})` : `by hand only (time zone ${g.timeZone})`;
  return [
    `• Commencement channel: ${ch(g.commencementChannelId, '#battle-commencement')}`,
    `• Announcements: ${ch(g.announcementChannelId, 'not set (#announcements is used when a cycle starts)')}`,
    `• Leaderboards: ${ch(g.leaderboardChannelId, 'not set (#leaderboard is used when a cycle starts)')}`,
    `• Schedule: ${schedule}`,
  ].join('\n');
}

/** Channels the bot finds by their usual names, used for whatever is not configured. */
function defaultsByName(i: ChatInputCommandInteraction) {
  const find = (n: string) => i.guild?.channels.cache.find((c) => c.name === n)?.id ?? null;
  return { commencementChannelId: find('battle-commencement'), announcementChannelId: find('announcements'), leaderboardChannelId: find('leaderboard') };
}

async function execute(i: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(i);
  const member = memberAuthority(i);
  const ok = async (content: string): Promise<void> => void (await i.reply({ content: content.slice(0, 2000), flags: EPHEMERAL, allowedMentions: { parse: [] } }));
  // Discord hides /cycle from players, but a server may show it to anyone: every subcommand is
  // for moderators (the use cases check again in their transactions).
  if (!isModerator(await getGuildSettings(deps.ctx, guildId), member)) {
    throw new UserError('cycle/not-moderator', 'Only moderators (Manage Server, or the Stonehall moderator role) run seasons and cycles. See the current one with `/stonehall cycle`.');
  }
  switch (input.subcommand) {
    case 'status': {
      const cycle = await findActiveCycle(deps.ctx, guildId);
      const guild = await getGuildSettings(deps.ctx, guildId);
      const head = cycle ? `**${cycleTitle(cycle)}**: ${cycle.phase === 'battle' ? '⚔️ Battle Phase' : '🌙 Rest Phase'}.` : 'No cycle is running.';
      return ok(`${head}\n${describeCycleSettings(guild)}`);
    }
    case 'season-start': {
      const s = await startSeason(deps.ctx, { guildId, guildName: i.guild?.name ?? '', member, name: input.name });
      return ok(`📜 **${s.name}** started. Start its first cycle with \`/cycle start name:"Cycle 1"\`.`);
    }
    case 'season-end': {
      const s = await endSeason(deps.ctx, { guildId, member });
      return ok(`📕 **${s.name}** ended.`);
    }
    case 'start': {
      const { cycle } = await startCycle(deps.ctx, { guildId, guildName: i.guild?.name ?? '', member, name: input.name, defaults: defaultsByName(i) });
      return ok(`🌅 **${cycleTitle(cycle)}** started with a Rest Phase; announced.`);
    }
    case 'phase': {
      const r = await openPhase(deps.ctx, { guildId, kind: input.kind, member, source: 'command' });
      const label = input.kind === 'battle' ? 'Battle Phase' : 'Rest Phase';
      if (!r.changed) return ok(`The ${label} of **${cycleTitle(r.cycle)}** is already open: nothing changed.`);
      const skipped = r.skipped?.length ? `\n⚠️ Passed over ${r.skipped.map((x) => `<#${x.channelId}> (${x.missing})`).join(', ')}: I can't post games there. Allow what is missing for Stonehall there; \`/stonehall-config check:True\` lists every channel.` : '';
      return ok(`✅ ${label} of **${cycleTitle(r.cycle)}** opened and announced.${input.kind === 'battle' ? ` ${r.games.length} game${r.games.length === 1 ? '' : 's'} started.` : ''}${skipped}`);
    }
    case 'end': {
      const c = await endCycle(deps.ctx, { guildId, member });
      return ok(`🏁 **${cycleTitle(c)}** ended; the leaderboard is being posted.`);
    }
    case 'leaderboard': {
      const cycle = await resolveCycle(deps.ctx, guildId, input.cycle);
      const channelId = await postLeaderboard(deps.ctx, { guildId, member, cycleId: cycle.id });
      return ok(`🏆 The leaderboard of **${cycleTitle(cycle)}** is being posted in <#${channelId}>.`);
    }
    case 'grant': {
      const { cycle, row } = await grantItem(deps.ctx, { guildId, member, player: input.player, item: input.item, count: input.count });
      return ok(`✅ Granted ${input.count} × ${ITEMS[input.item]!.name} to <@${input.player.id}> for **${cycleTitle(cycle)}** (now ${row.count}).`);
    }
    case 'revoke': {
      const { cycle, row } = await revokeItem(deps.ctx, { guildId, member, player: input.player, item: input.item, count: input.count });
      return ok(`✅ Revoked ${input.count} × ${ITEMS[input.item]!.name} from <@${input.player.id}> in **${cycleTitle(cycle)}** (now ${row.count}).`);
    }
    case 'config': {
      // Each channel named must take what Stonehall posts there; the commencement channel also a
      // match's game when no game channels are listed (the Battle Phase starts it there).
      const settings = await getGuildSettings(deps.ctx, guildId);
      const named: Array<[string | null, readonly ChannelNeed[], string]> = [
        [input.commencement, settings.gameChannelIds.length ? POSTING_NEEDS : allGamesNeeds(deps.games), 'Intents can’t be taken there'],
        [input.announcements, POSTING_NEEDS, 'Phases can’t be announced there'],
        [input.leaderboard, POSTING_NEEDS, 'Leaderboards can’t be posted there'],
      ];
      for (const [channelId, needs, what] of named) if (channelId) requireIn(i, channelId, needs, what);
      const change = {
        ...(input.commencement ? { commencementChannelId: input.commencement } : {}),
        ...(input.announcements ? { announcementChannelId: input.announcements } : {}),
        ...(input.leaderboard ? { leaderboardChannelId: input.leaderboard } : {}),
        ...(input.timeZone ? { timeZone: input.timeZone } : {}),
        ...(input.restSchedule ? { restCron: input.restSchedule } : {}),
        ...(input.battleSchedule ? { battleCron: input.battleSchedule } : {}),
        ...(input.clearSchedule ? { restCron: null, battleCron: null } : {}),
      };
      const guild = await configureCycles(deps.ctx, {
        guildId,
        guildName: i.guild?.name ?? '',
        member,
        change,
        validateCron: (expr) => cron.validate(expr),
      });
      if (Object.keys(change).length === 0) {
        return ok(`Nothing to change (give an option to change it). The current settings:\n${describeCycleSettings(guild)}`);
      }
      await deps.phaseSchedule?.reload();
      return ok(`✅ Saved.\n${describeCycleSettings(guild)}`);
    }
  }
}

export default defineCommand<Input>({ data, schema, read, execute });
