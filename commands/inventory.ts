import { SlashCommandBuilder } from '@discordjs/builders';
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { EPHEMERAL, displayName, memberAuthority, requireGuild } from '../src/bot/interaction-utils.ts';
import { cycleTitle } from '../src/services/cycles.ts';
import { games } from '../src/games/index.ts';
import { getInventory, itemCatalogue, REWARD_ITEMS } from '../src/services/inventory.ts';

const ITEMS = Object.fromEntries(itemCatalogue({ games }).map((i) => [i.id, i]));
const ITEM_IDS = Object.keys(ITEMS);

/** Items per cycle: players see theirs; moderators look at anyone's (they grant and revoke with `/cycle`). */

const userOption = z.object({ id: z.string().regex(/^\d+$/), name: z.string(), bot: z.boolean() });

const schema = z.discriminatedUnion('subcommand', [
  z.object({ subcommand: z.literal('show'), player: userOption.nullable() }),
]);
type Input = z.infer<typeof schema>;

const data = new SlashCommandBuilder()
  .setName('inventory')
  .setDescription('Your items for this cycle (moderators: look at anyone’s; /cycle grant gives items).')
  .setDMPermission(false)
  .addSubcommand((s) =>
    s
      .setName('show')
      .setDescription('Items for the current cycle, with each die’s effect.')
      .addUserOption((o) => o.setName('player').setDescription('Moderators: whose inventory (default: yours)')),
  );

function read(i: ChatInputCommandInteraction): unknown {
  const u = i.options.getUser('player');
  return {
    subcommand: i.options.getSubcommand(false),
    player: u ? { id: u.id, name: displayName(u), bot: u.bot } : null,
  };
}

export function inventoryText(title: string, who: string, items: Array<{ item: string; count: number }>): string {
  if (items.length === 0) return `${who} hold${who === 'You' ? '' : 's'} no items in **${title}**. Win cycle games to earn a Handy Pack and a Chip; moderators grant dice.`;
  const lines = items.map(({ item, count }) => {
    const info = ITEMS[item];
    // A game's item (a die) says what it does; the rewards are just counted.
    const gameItem = info && !REWARD_ITEMS.some((r) => r.id === item);
    const die = gameItem ? `\n  ${info.description} (once per game, one die per turn; "Use a die…" on your turn)` : '';
    return `• ${info?.emoji ?? ''} **${info?.name ?? item}** × ${count}${die}`;
  });
  return `🎒 ${who === 'You' ? 'Your' : `${who}'s`} items in **${title}**:\n${lines.join('\n')}`;
}

async function execute(i: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(i);
  const member = memberAuthority(i);
  const reply = async (content: string) => void (await i.reply({ content: content.slice(0, 2000), flags: EPHEMERAL, allowedMentions: { parse: [] } }));
  switch (input.subcommand) {
    case 'show': {
      const playerId = input.player?.id ?? i.user.id;
      const { cycle, items } = await getInventory(deps.ctx, { guildId, viewerId: i.user.id, member, playerId });
      return reply(inventoryText(cycleTitle(cycle), playerId === i.user.id ? 'You' : `<@${playerId}>`, items));
    }
  }
}

export default defineCommand<Input>({ data, schema, read, execute });
