import { SlashCommandBuilder } from '@discordjs/builders';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { autocompleteGame, commonSubcommandSchemas, gameIdSchema, gameOptionBuilder, readCommon, runCommonSubcommand, withGameSubcommands } from '../src/bot/game-commands.ts';
import type { GameModule } from '../src/bot/game-module.ts';
import { EPHEMERAL, requireGuild, respondChoices } from '../src/bot/interaction-utils.ts';
import { PACES, YELL } from '../src/games/krellstones/data.ts';
import type { KrellstonesView } from '../src/games/krellstones/engine/index.ts';
import { krellstones } from '../src/games/krellstones/index.ts';
import { UserError } from '../src/services/errors.ts';
import { getGame, playMove, resolveOwnGame } from '../src/services/games.ts';

/**
 * `/krellstones`: the game (the collection is `/krellstone`). Host a game on one of your mats,
 * join a host, choose your stones, and the typed moves for those who prefer them to buttons: the
 * yell and the pace. Buttons and menus live in src/games/krellstones/routes.ts.
 */
const module = krellstones as GameModule;
const KIND = module.kind;

const schema = z.discriminatedUnion('subcommand', [
  z.object({ subcommand: z.literal('yell'), text: z.string().min(1).max(200), game: gameIdSchema }),
  z.object({ subcommand: z.literal('pace'), pace: z.enum(PACES), game: gameIdSchema }),
  ...commonSubcommandSchemas,
]);
type Input = z.infer<typeof schema>;

const builder = new SlashCommandBuilder()
  .setName(KIND)
  .setDescription('Play Krellstones: bring your own stones, roll, reroll in secret, and yell in time.')
  .setDMPermission(false)
  .addSubcommand((s) =>
    s
      .setName('yell')
      .setDescription('Pup in the Hangar: yell for your Master (only KRELLSTONES! exactly counts).')
      .addStringOption((o) => o.setName('text').setDescription('Your yell').setRequired(true).setMaxLength(200))
      .addIntegerOption(gameOptionBuilder),
  )
  .addSubcommand((s) =>
    s
      .setName('pace')
      .setDescription('The host: change the pace of a game (FAST, NORMAL, SLOW), at any time.')
      .addStringOption((o) => o.setName('pace').setDescription('The pace').setRequired(true).addChoices(...PACES.map((p) => ({ name: p, value: p }))))
      .addIntegerOption(gameOptionBuilder),
  );
const data = withGameSubcommands(builder, module);

function read(interaction: ChatInputCommandInteraction): unknown {
  return {
    subcommand: interaction.options.getSubcommand(false),
    text: interaction.options.getString('text'),
    pace: interaction.options.getString('pace'),
    ...readCommon(interaction),
  };
}

/** The invoker's running Krellstones game (the option, or their only one), as a seated player. */
async function ownGame(interaction: ChatInputCommandInteraction, deps: BotDeps, game: number | null) {
  const guildId = requireGuild(interaction);
  const gameId = await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind: KIND, gameId: game });
  const snap = await getGame(deps.ctx, gameId, guildId);
  if (snap.game.kind !== KIND) throw new UserError('game/wrong-kind', `Game #${gameId} is not a game of Krellstones.`);
  if (!snap.game.seats.some((s) => s.playerId === interaction.user.id && !s.autopilot)) {
    throw new UserError('game/not-participant', `You are not playing in game #${gameId}.`);
  }
  return { guildId, gameId, snap, view: snap.view(interaction.user.id) as KrellstonesView };
}

async function execute(interaction: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  switch (input.subcommand) {
    case 'yell': {
      const { guildId, gameId, snap } = await ownGame(interaction, deps, input.game);
      await playMove(deps.ctx, { gameId, userId: interaction.user.id, guildId, kind: KIND, move: { type: 'yell', text: input.text }, expectedVersion: snap.game.version });
      await interaction.reply({ content: `📢 **${YELL}** Captain on Deck: your Master turns to its highest side (game #${gameId}).`, allowedMentions: { parse: [] } });
      return;
    }
    case 'pace': {
      const { guildId, gameId, snap } = await ownGame(interaction, deps, input.game);
      await playMove(deps.ctx, { gameId, userId: interaction.user.id, guildId, kind: KIND, move: { type: 'pace', pace: input.pace }, expectedVersion: snap.game.version });
      await interaction.reply({ content: `⏱️ Game #${gameId} now runs at **${input.pace}** pace (the steps already running keep their deadlines).`, flags: EPHEMERAL });
      return;
    }
    default:
      return runCommonSubcommand(interaction, input, deps, module);
  }
}

async function autocomplete(interaction: AutocompleteInteraction, deps: BotDeps): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const sub = interaction.options.getSubcommand(false);
  if (focused.name === 'game') return autocompleteGame(interaction, deps, module, sub === 'view');
  return respondChoices(interaction, []);
}

export default defineCommand<Input>({
  data,
  schema: schema as unknown as z.ZodType<Input>,
  read,
  execute,
  autocomplete,
});
