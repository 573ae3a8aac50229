import { SlashCommandBuilder } from '@discordjs/builders';
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { EPHEMERAL, requireGuild } from '../src/bot/interaction-utils.ts';
import { cycleTitle } from '../src/services/cycles.ts';
import { listOwnIntents, matchPlayers, pendingMatches, withdrawIntents } from '../src/services/intents.ts';

/** Players: see and withdraw their intents; everyone: the matches made for the next Battle Phase. */

const schema = z.discriminatedUnion('subcommand', [
  z.object({ subcommand: z.literal('list') }),
  z.object({ subcommand: z.literal('withdraw'), opponent: z.string().regex(/^\d+$/).nullable() }),
  z.object({ subcommand: z.literal('matches') }),
]);
type Input = z.infer<typeof schema>;

const data = new SlashCommandBuilder()
  .setName('intents')
  .setDescription('Your intents for the next Battle Phase, and the matches made so far.')
  .setDMPermission(false)
  .addSubcommand((s) => s.setName('list').setDescription('Your intents in this Rest Phase and what became of them.'))
  .addSubcommand((s) =>
    s
      .setName('withdraw')
      .setDescription('Withdraw an open intent (during the Rest Phase).')
      .addUserOption((o) => o.setName('opponent').setDescription('Whom (leave empty: all your open intents)')),
  )
  .addSubcommand((s) => s.setName('matches').setDescription('The games that start when the next Battle Phase begins.'));

function read(i: ChatInputCommandInteraction): unknown {
  return { subcommand: i.options.getSubcommand(false), opponent: i.options.getUser('opponent')?.id ?? null };
}

const STATUS: Record<string, string> = {
  open: '⏳ waiting for them to name you',
  matched: '🤝 matched: the game starts with the Battle Phase',
  void: '➖ void (your `any` statement matched someone else)',
  withdrawn: '↩️ withdrawn',
  lapsed: '⌛ lapsed',
};

async function execute(i: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(i);
  const reply = async (content: string, ephemeral = true) =>
    void (await i.reply({ content: content.slice(0, 2000), ...(ephemeral ? { flags: EPHEMERAL } : {}), allowedMentions: { parse: [] } }));
  switch (input.subcommand) {
    case 'list': {
      const { cycle, intents } = await listOwnIntents(deps.ctx, { guildId, userId: i.user.id });
      if (!cycle) return reply('No cycle is running, so there are no intents. Watch the announcements for the next Rest Phase.');
      if (intents.length === 0) return reply(`You have stated no intent in **${cycleTitle(cycle)}**'s Rest Phase. Use ${deps.games.startHints()} in the commencement channel.`);
      const lines = intents.map((x) => `• ${deps.games.title(x.kind)}: <@${x.opponentId}> (${x.mode}): ${STATUS[x.status] ?? x.status}`);
      return reply(`Your intents in **${cycleTitle(cycle)}**:\n${lines.join('\n')}`);
    }
    case 'withdraw': {
      const gone = await withdrawIntents(deps.ctx, { guildId, userId: i.user.id, opponentId: input.opponent });
      return reply(`↩️ Withdrawn: ${gone.map((x) => `<@${x.opponentId}>`).join(', ')}.`);
    }
    case 'matches': {
      const { cycle, matches } = await pendingMatches(deps.ctx, guildId);
      if (!cycle) return reply('No cycle is running, so there are no matches.');
      if (matches.length === 0) return reply(`No matches yet for the next Battle Phase of **${cycleTitle(cycle)}**.`, false);
      const lines = matches.map((m) => `• ${deps.games.title(m.kind)}: ${matchPlayers(m).map((p) => `<@${p}>`).join(' vs ')}`);
      return reply(`🤝 Matches for the next Battle Phase of **${cycleTitle(cycle)}** (${matches.length}):\n${lines.join('\n')}`, false);
    }
  }
}

export default defineCommand<Input>({ data, schema, read, execute });
