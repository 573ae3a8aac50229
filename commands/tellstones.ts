import { z } from 'zod';
import { joinOrIntend } from '../src/bot/cycle-commands.ts';
import { gameCommand, subcommand, userOption } from '../src/bot/game-command.ts';
import { gameIdSchema, gameOptionBuilder } from '../src/bot/game-commands.ts';
import type { GameModule } from '../src/bot/game-module.ts';
import { toDiscord } from '../src/bot/game-routes.ts';
import { EPHEMERAL, requireGuild } from '../src/bot/interaction-utils.ts';
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

const firstStone = z.enum(['random', 'scales']).nullable().transform((x) => x ?? 'random');

const firstStoneChoices = [
  { name: 'Random (default)', value: 'random' },
  { name: 'The Scales (Demacian tradition)', value: 'scales' },
];

/** The join, with the variant and the first stone: in a server running cycles an intent (standard rules only), else a challenge. */
const challenge = subcommand({
  name: 'challenge',
  description: 'Challenge one player (they accept with the button, or by challenging you back).',
  options: (s) =>
    s
      .addUserOption((o) => o.setName('opponent').setDescription('Who you want to play (none: an open challenge anyone here may accept)'))
      .addStringOption((o) =>
        o
          .setName('variant')
          .setDescription('Standard (one line) or Fearless Vanguard (each brings a set: two lines)')
          .addChoices({ name: 'Standard', value: 'standard' }, { name: 'Fearless Vanguard', value: 'fearless-vanguard' }),
      )
      .addStringOption((o) => o.setName('first-stone').setDescription('The first stone on the line').addChoices(...firstStoneChoices)),
  schema: {
    subcommand: z.literal('challenge'),
    // None: an open challenge, for anyone here to accept.
    opponent: userOption.optional(),
    variant: z.enum(['standard', 'fearless-vanguard']).nullable().transform((x) => x ?? 'standard'),
    firstStone,
  },
  run(interaction, input, deps) {
    const options = { variant: input.variant, firstStone: input.firstStone };
    return joinOrIntend(interaction, deps, module, input.opponent ? [input.opponent] : [], null, {
      options,
      title: titleFor(options),
      nonDefaultOptions: options.variant !== 'standard' || options.firstStone !== 'random',
    });
  },
});

const circle = subcommand({
  name: 'circle',
  description: 'Open a King’s Circle table: four players in two teams; others join with the button.',
  options: (s) => s.addStringOption((o) => o.setName('first-stone').setDescription('The first stone on the line').addChoices(...firstStoneChoices)),
  schema: { subcommand: z.literal('circle'), firstStone },
  run: (interaction, input, deps) => openTableCommand(interaction, deps, module, { variant: 'kings-circle', firstStone: input.firstStone }, 4),
});

const know = subcommand({
  name: 'know',
  description: 'Show (only to you) the face-down stones you have peeked at.',
  options: (s) => s.addIntegerOption(gameOptionBuilder),
  schema: { subcommand: z.literal('know'), game: gameIdSchema },
  async run(interaction, input, deps) {
    const guildId = requireGuild(interaction);
    const gameId = await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind: KIND, gameId: input.game });
    const snap = await getGame(deps.ctx, gameId, guildId);
    if (snap.game.kind !== KIND) throw new UserError('input/wrong-game', `Game #${gameId} is not a game of Tellstones.`);
    if (!snap.game.seats.some((s) => s.playerId === interaction.user.id)) {
      throw new UserError('game/not-participant', `You are not playing in game #${gameId}, so you know no hidden stone of it.`);
    }
    await interaction.reply({ ...toDiscord(knowPayload(snap.view(interaction.user.id) as TellstonesView, gameId)), flags: EPHEMERAL } as never);
  },
});

export default gameCommand(module, {
  description: 'Play Tellstones: King’s Gambit: place, hide, swap and remember the stones, then bluff.',
  join: false,
  subcommands: [challenge, circle, know],
});
