import { SlashCommandBuilder } from '@discordjs/builders';
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { joinOrIntend } from '../src/bot/cycle-commands.ts';
import { autocompleteGame, commonSubcommandSchemas, gameIdSchema, gameOptionBuilder, readCommon, readOpponent, runCommonSubcommand, withGameSubcommands } from '../src/bot/game-commands.ts';
import type { GameModule } from '../src/bot/game-module.ts';
import { EPHEMERAL, displayName, requireGuild } from '../src/bot/interaction-utils.ts';
import { knucklebones } from '../src/games/knucklebones/index.ts';
import type { KnucklebonesView } from '../src/games/knucklebones/engine/index.ts';
import { playMove, resolveOwnGame } from '../src/services/games.ts';

/** `/knucklebones`: join (a challenge, or an intent in a Rest Phase), place, and the shared subcommands. */
const module = knucklebones as GameModule;
const KIND = module.kind;

const userOption = z.object({ id: z.string().regex(/^\d+$/), name: z.string(), bot: z.boolean() });

const schema = z.discriminatedUnion('subcommand', [
  z.object({
    subcommand: z.literal('join'),
    // None: an open challenge, for anyone here to accept.
    opponent: userOption.optional(),
    more: z.array(userOption).max(4).default([]),
    mode: z.enum(['any', 'each']).nullable().default(null),
  }),
  z.object({ subcommand: z.literal('place'), column: z.union([z.literal(1), z.literal(2), z.literal(3)]), game: gameIdSchema }),
  ...commonSubcommandSchemas,
]);
type Input = z.infer<typeof schema>;

const builder = new SlashCommandBuilder()
  .setName(KIND)
  .setDescription('Play Knucklebones: roll a die, place it, crush your opponent’s matching dice.')
  .setDMPermission(false)
  .addSubcommand((s) =>
    s
      .setName('join')
      .setDescription('Challenge a player (or accept their challenge by naming them back).')
      .addUserOption((o) => o.setName('opponent').setDescription('Who you want to play (none: an open challenge anyone here may accept)'))
      .addUserOption((o) => o.setName('opponent2').setDescription('Rest Phase: another opponent you would play'))
      .addUserOption((o) => o.setName('opponent3').setDescription('Rest Phase: another opponent you would play'))
      .addUserOption((o) => o.setName('opponent4').setDescription('Rest Phase: another opponent you would play'))
      .addUserOption((o) => o.setName('opponent5').setDescription('Rest Phase: another opponent you would play'))
      .addStringOption((o) =>
        o
          .setName('mode')
          .setDescription('With several opponents: one game against any of them, or a game against each')
          .addChoices({ name: 'any: one game, whoever names me back first', value: 'any' }, { name: 'each: a game against every one who names me', value: 'each' }),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('place')
      .setDescription('Place your rolled die in a column of your grid.')
      .addIntegerOption((o) =>
        o
          .setName('column')
          .setDescription('Column 1, 2 or 3')
          .setRequired(true)
          .addChoices({ name: 'Column 1', value: 1 }, { name: 'Column 2', value: 2 }, { name: 'Column 3', value: 3 }),
      )
      .addIntegerOption(gameOptionBuilder),
  )
const data = withGameSubcommands(builder, module);

function read(interaction: ChatInputCommandInteraction): unknown {
  const subcommand = interaction.options.getSubcommand(false);
  return {
    subcommand,
    ...readOpponent(interaction),
    more: ['opponent2', 'opponent3', 'opponent4', 'opponent5']
      .map((n) => interaction.options.getUser(n))
      .filter((u) => u !== null)
      .map((u) => ({ id: u.id, name: displayName(u), bot: u.bot })),
    mode: interaction.options.getString('mode'),
    column: interaction.options.getInteger('column'),
    ...readCommon(interaction),
  };
}

async function execute(interaction: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  switch (input.subcommand) {
    case 'join':
      return joinOrIntend(interaction, deps, module, [...(input.opponent ? [input.opponent] : []), ...input.more], input.mode);
    case 'place': {
      const guildId = requireGuild(interaction);
      const gameId = await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind: KIND, gameId: input.game });
      const result = await playMove(deps.ctx, { gameId, userId: interaction.user.id, guildId, kind: KIND, move: { type: 'place', column: input.column } });
      // The die placed is the one rolled before the move.
      const roll = (result.before.view(interaction.user.id) as KnucklebonesView).roll;
      const over = result.outcome ? ' The game is over: see the board.' : '';
      await interaction.reply({ content: `🎲 You placed your ${roll ?? 'die'} in column ${input.column} of game #${gameId}.${over}`, flags: EPHEMERAL });
      return;
    }
    default:
      return runCommonSubcommand(interaction, input, deps, module);
  }
}

export default defineCommand<Input>({
  data,
  schema,
  read,
  execute,
  autocomplete: (interaction, deps) =>
    autocompleteGame(interaction, deps, module, interaction.options.getSubcommand(false) === 'view'),
});
