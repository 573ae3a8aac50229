import { SlashCommandBuilder } from '@discordjs/builders';
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { joinOrIntend } from '../src/bot/cycle-commands.ts';
import { autocompleteGame, commonSubcommandSchemas, gameIdSchema, gameOptionBuilder, readCommon, readOpponent, runCommonSubcommand, withGameSubcommands } from '../src/bot/game-commands.ts';
import type { GameModule } from '../src/bot/game-module.ts';
import { toDiscord } from '../src/bot/game-routes.ts';
import { EPHEMERAL, displayName, requireGuild } from '../src/bot/interaction-utils.ts';
import { openTableCommand } from '../src/bot/tables.ts';
import type { TellstonesView } from '../src/games/tellstones/engine/index.ts';
import { tellstones } from '../src/games/tellstones/index.ts';
import { knowPayload, titleFor } from '../src/games/tellstones/present.ts';
import { UserError } from '../src/services/errors.ts';
import { getGame, resolveOwnGame } from '../src/services/games.ts';

/**
 * `/tellstones`: challenge one opponent (standard or Fearless Vanguard), open a King's Circle
 * table of four, and the shared forfeit / games / view; `know` is the typed "What do I know?".
 * Moves are made with the board's buttons (src/games/tellstones/routes.ts).
 */
const module = tellstones as GameModule;
const KIND = module.kind;

const userOption = z.object({ id: z.string().regex(/^\d+$/), name: z.string(), bot: z.boolean() });
const firstStone = z.enum(['random', 'scales']).nullable().transform((x) => x ?? 'random');

const schema = z.discriminatedUnion('subcommand', [
  z.object({
    subcommand: z.literal('challenge'),
    // None: an open challenge, for anyone here to accept.
    opponent: userOption.optional(),
    variant: z.enum(['standard', 'fearless-vanguard']).nullable().transform((x) => x ?? 'standard'),
    firstStone,
  }),
  z.object({ subcommand: z.literal('circle'), firstStone }),
  z.object({ subcommand: z.literal('know'), game: gameIdSchema }),
  ...commonSubcommandSchemas,
]);
type Input = z.infer<typeof schema>;

const firstStoneChoices = [
  { name: 'Random (default)', value: 'random' },
  { name: 'The Scales (Demacian tradition)', value: 'scales' },
];

const builder = new SlashCommandBuilder()
  .setName(KIND)
  .setDescription('Play Tellstones: King’s Gambit: place, hide, swap and remember the stones, then bluff.')
  .setDMPermission(false)
  .addSubcommand((s) =>
    s
      .setName('challenge')
      .setDescription('Challenge one player (they accept with the button, or by challenging you back).')
      .addUserOption((o) => o.setName('opponent').setDescription('Who you want to play (none: an open challenge anyone here may accept)'))
      .addStringOption((o) =>
        o
          .setName('variant')
          .setDescription('Standard (one line) or Fearless Vanguard (each brings a set: two lines)')
          .addChoices({ name: 'Standard', value: 'standard' }, { name: 'Fearless Vanguard', value: 'fearless-vanguard' }),
      )
      .addStringOption((o) => o.setName('first-stone').setDescription('The first stone on the line').addChoices(...firstStoneChoices)),
  )
  .addSubcommand((s) =>
    s
      .setName('circle')
      .setDescription('Open a King’s Circle table: four players in two teams; others join with the button.')
      .addStringOption((o) => o.setName('first-stone').setDescription('The first stone on the line').addChoices(...firstStoneChoices)),
  )
  .addSubcommand((s) => s.setName('know').setDescription('Show (only to you) the face-down stones you have peeked at.').addIntegerOption(gameOptionBuilder))
const data = withGameSubcommands(builder, module);

function read(interaction: ChatInputCommandInteraction): unknown {
  const subcommand = interaction.options.getSubcommand(false);
  return {
    subcommand,
    ...readOpponent(interaction),
    variant: interaction.options.getString('variant'),
    firstStone: interaction.options.getString('first-stone'),
    ...readCommon(interaction),
  };
}

async function execute(interaction: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  switch (input.subcommand) {
    case 'challenge': {
      const options = { variant: input.variant, firstStone: input.firstStone };
      // In a server running cycles this states an intent for the next Battle Phase (the same
      // mechanism as /knucklebones join); otherwise it is a challenge with these options.
      return joinOrIntend(interaction, deps, module, input.opponent ? [input.opponent] : [], null, {
        options,
        title: titleFor(options),
        nonDefaultOptions: options.variant !== 'standard' || options.firstStone !== 'random',
      });
    }
    case 'circle':
      return openTableCommand(interaction, deps, module, { variant: 'kings-circle', firstStone: input.firstStone }, 4);
    case 'know': {
      const guildId = requireGuild(interaction);
      const gameId = await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind: KIND, gameId: input.game });
      const snap = await getGame(deps.ctx, gameId, guildId);
      if (snap.game.kind !== KIND) throw new UserError('input/wrong-game', `Game #${gameId} is not a game of Tellstones.`);
      if (!snap.game.seats.some((s) => s.playerId === interaction.user.id)) {
        throw new UserError('game/not-participant', `You are not playing in game #${gameId}, so you know no hidden stone of it.`);
      }
      await interaction.reply({ ...toDiscord(knowPayload(snap.view(interaction.user.id) as TellstonesView, gameId)), flags: EPHEMERAL } as never);
      return;
    }
    default:
      return runCommonSubcommand(interaction, input, deps, module);
  }
}

export default defineCommand<Input>({
  data,
  schema: schema as unknown as z.ZodType<Input>,
  read,
  execute,
  autocomplete: (interaction, deps) => autocompleteGame(interaction, deps, module, interaction.options.getSubcommand(false) === 'view'),
});
