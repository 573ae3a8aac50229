import { z } from 'zod';
import { gameOptionBuilder, gameIdSchema } from '../src/bot/game-commands.ts';
import { gameCommand, subcommand } from '../src/bot/game-command.ts';
import type { GameModule } from '../src/bot/game-module.ts';
import { EPHEMERAL, requireGuild } from '../src/bot/interaction-utils.ts';
import { knucklebones } from '../src/games/knucklebones/index.ts';
import type { KnucklebonesView } from '../src/games/knucklebones/engine/index.ts';
import { playMove, resolveOwnGame } from '../src/services/games.ts';

/** `/knucklebones`: join (a challenge, or an intent in a Rest Phase), place, and the shared subcommands (src/bot/game-command.ts). */
const module = knucklebones as GameModule;
const KIND = module.kind;

const place = subcommand({
  name: 'place',
  description: 'Place your rolled die in a column of your grid.',
  options: (s) =>
    s
      .addIntegerOption((o) =>
        o
          .setName('column')
          .setDescription('Column 1, 2 or 3')
          .setRequired(true)
          .addChoices({ name: 'Column 1', value: 1 }, { name: 'Column 2', value: 2 }, { name: 'Column 3', value: 3 }),
      )
      .addIntegerOption(gameOptionBuilder),
  schema: { subcommand: z.literal('place'), column: z.union([z.literal(1), z.literal(2), z.literal(3)]), game: gameIdSchema },
  async run(interaction, input, deps) {
    const guildId = requireGuild(interaction);
    const gameId = await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind: KIND, gameId: input.game });
    const result = await playMove(deps.ctx, { gameId, userId: interaction.user.id, guildId, kind: KIND, move: { type: 'place', column: input.column } });
    // The die placed is the one rolled before the move.
    const roll = (result.before.view(interaction.user.id) as KnucklebonesView).roll;
    const over = result.outcome ? ' The game is over: see the board.' : '';
    await interaction.reply({ content: `🎲 You placed your ${roll ?? 'die'} in column ${input.column} of game #${gameId}.${over}`, flags: EPHEMERAL });
  },
});

export default gameCommand(module, {
  description: 'Play Knucklebones: roll a die, place it, crush your opponent’s matching dice.',
  subcommands: [place],
});
