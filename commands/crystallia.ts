import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { playerNames } from '../src/bot/board.ts';
import type { BotDeps } from '../src/bot/command.ts';
import { joinOrIntend } from '../src/bot/cycle-commands.ts';
import { mention } from '../src/bot/format.ts';
import { gameCommand, subcommand, userOption } from '../src/bot/game-command.ts';
import { gameIdSchema, gameOptionBuilder } from '../src/bot/game-commands.ts';
import type { GameModule } from '../src/bot/game-module.ts';
import { toDiscord } from '../src/bot/game-routes.ts';
import { EPHEMERAL, requireGuild, respondChoices } from '../src/bot/interaction-utils.ts';
import { openTableCommand } from '../src/bot/tables.ts';
import { parseSquare, type CrystalliaMove, type CrystalliaView } from '../src/games/crystallia/engine/index.ts';
import { crystallia } from '../src/games/crystallia/index.ts';
import { nextPanel, placementMove, stoneLabel } from '../src/games/crystallia/turn.ts';
import { UserError } from '../src/services/errors.ts';
import { getGame, listActiveGames, previewMoves, resolveOwnGame } from '../src/services/games.ts';

/**
 * `/crystallia`: join (one opponent: a challenge; two or three: an invited table; in a Rest Phase:
 * intents), table (an open table of 2-4 with a Join button), the typed turn (`place`, `talisman`:
 * they lead to the same preview and Confirm as the board's panel), and the shared subcommands.
 */
const module = crystallia as GameModule;
const KIND = module.kind;

const colour = z.enum(['red', 'blue', 'green', 'purple']);

/**
 * The typed turn: checks the game and the turn, previews the move (the engine refuses exactly as
 * a play would, and nothing is saved), then shows the panel's next step or the preview with
 * Confirm, as the board's buttons do.
 */
async function typedTurn(interaction: ChatInputCommandInteraction, deps: BotDeps, gameId: number | null, move: (view: CrystalliaView, legal: readonly CrystalliaMove[]) => CrystalliaMove): Promise<void> {
  const guildId = requireGuild(interaction);
  const me = interaction.user.id;
  const id = await resolveOwnGame(deps.ctx, { guildId, userId: me, kind: KIND, gameId });
  const snap = await getGame(deps.ctx, id, guildId);
  if (snap.game.kind !== KIND) throw new UserError('game/wrong-kind', `Game #${id} is not a game of Crystallia.`);
  if (!snap.game.seats.some((s) => s.playerId === me && !s.autopilot)) throw new UserError('game/not-participant', `You are not playing in game #${id}.`);
  if (snap.game.status !== 'active') throw new UserError('game/over', `Game #${id} is already over.`);
  const before = snap.view(me) as CrystalliaView;
  if (before.phase === 'flip') throw new UserError('crystallia/flips-first', 'First everyone chooses their flips: use **Choose my flips** on the board.');
  if (before.turn?.player !== me) throw new UserError('game/not-your-turn', `It is not your turn in game #${id}: the game waits for ${before.turn ? mention(before.turn.player) : 'nobody'}.`);
  if (before.turn.step !== 'take') throw new UserError('crystallia/mid-turn', 'Your turn is under way: finish it with **Take your turn** on the board.');
  const m = move(before, snap.legalMoves(me) as CrystalliaMove[]);
  let after;
  try {
    after = await previewMoves(deps.ctx, { gameId: id, userId: me, guildId, moves: [m], expectedVersion: snap.game.version });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    throw new UserError(err.code, `${err.message} Nothing was played: try another, or use **Take your turn** on the board, which offers only what is legal.`);
  }
  const payload = nextPanel({
    before,
    me,
    meta: { gameId: id, version: snap.game.version },
    moves: [m],
    after: after as { view: CrystalliaView; legal: CrystalliaMove[] },
    names: await playerNames(deps.ctx, before.players),
  });
  await interaction.reply({ ...toDiscord(payload), flags: EPHEMERAL } as never);
}

/** The join: 1 opponent (a challenge), 2-3 (an invited table) or none (an open challenge), in a Rest Phase intents with their mode; Advanced Mode. */
const join = subcommand({
  name: 'join',
  description: 'Challenge 1 player, or invite 2-3 to a table (in a Rest Phase: your intent).',
  options: (s) =>
    s
      .addUserOption((o) => o.setName('opponent').setDescription('Who you want to play (none: an open challenge anyone here may accept)'))
      .addUserOption((o) => o.setName('opponent2').setDescription('A second opponent (a game of three or four)'))
      .addUserOption((o) => o.setName('opponent3').setDescription('A third opponent (a game of four)'))
      .addBooleanOption((o) => o.setName('advanced').setDescription('Advanced Mode: each player may flip platforms in secret before the first turn'))
      .addStringOption((o) =>
        o
          .setName('mode')
          .setDescription('Rest Phase, several opponents: one table with all, one game with any, or a game with each')
          .addChoices(
            { name: 'together: one table with all of them', value: 'together' },
            { name: 'any: one game, whoever names me back first', value: 'any' },
            { name: 'each: a game against every one who names me', value: 'each' },
          ),
      ),
  schema: {
    subcommand: z.literal('join'),
    // None: an open challenge, for anyone here to accept.
    opponent: userOption.optional(),
    opponent2: userOption.nullable(),
    opponent3: userOption.nullable(),
    advanced: z.boolean().nullable().transform((x) => x ?? false),
    mode: z.enum(['any', 'each', 'together']).nullable().default(null),
  },
  run(interaction, input, deps) {
    const options = { advanced: input.advanced };
    const more = [input.opponent2, input.opponent3].filter((u) => u !== null);
    return joinOrIntend(interaction, deps, module, [...(input.opponent ? [input.opponent] : []), ...more], input.mode, {
      options,
      title: input.advanced ? 'Crystallia (Advanced Mode)' : 'Crystallia',
      nonDefaultOptions: input.advanced,
    });
  },
});

const table = subcommand({
  name: 'table',
  description: 'Open a table: others take the seats with Join; it starts when full (or early, by you).',
  options: (s) =>
    s
      .addIntegerOption((o) => o.setName('seats').setDescription('Seats at the table (2-4, default 4)').setMinValue(2).setMaxValue(4))
      .addIntegerOption((o) => o.setName('min-seats').setDescription('You may start early with this many seated (default 2)').setMinValue(2).setMaxValue(4))
      .addBooleanOption((o) => o.setName('advanced').setDescription('Advanced Mode: each player may flip platforms in secret before the first turn')),
  schema: {
    subcommand: z.literal('table'),
    seats: z.number().int().min(2).max(4).nullable().transform((x) => x ?? 4),
    minSeats: z.number().int().min(2).max(4).nullable().transform((x) => x ?? 2),
    advanced: z.boolean().nullable().transform((x) => x ?? false),
  },
  run(interaction, input, deps) {
    if (input.minSeats > input.seats) throw new UserError('table/seats', `\`min-seats\` (${input.minSeats}) cannot be more than \`seats\` (${input.seats}).`);
    return openTableCommand(interaction, deps, module, { advanced: input.advanced }, input.seats, { minSeats: input.minSeats });
  },
});

const place = subcommand({
  name: 'place',
  description: 'Your turn, typed: take stone #n and place it; a preview asks you to confirm.',
  options: (s) =>
    s
      .addIntegerOption((o) => o.setName('stone').setDescription('The stone’s number (#n under it in the picture)').setRequired(true).setMinValue(1).setMaxValue(24).setAutocomplete(true))
      .addStringOption((o) => o.setName('at').setDescription('The square of its first half: row A-F and column 1-9, e.g. C4').setRequired(true).setMaxLength(10))
      .addStringOption((o) =>
        o
          .setName('dir')
          .setDescription('Where its second half goes from there')
          .setRequired(true)
          .addChoices({ name: 'right', value: 'right' }, { name: 'down', value: 'down' }, { name: 'left', value: 'left' }, { name: 'up', value: 'up' }),
      )
      .addIntegerOption(gameOptionBuilder),
  schema: {
    subcommand: z.literal('place'),
    stone: z.number().int().min(1).max(24),
    at: z.string().max(10),
    dir: z.enum(['right', 'down', 'left', 'up']),
    game: gameIdSchema,
  },
  run(interaction, input, deps) {
    const square = parseSquare(input.at);
    if (square === null) throw new UserError('crystallia/bad-square', `"${input.at}" is not a square: give a row letter A-F and a column 1-9, e.g. \`at:C4\`.`);
    // In the listed spelling when it is a legal placement (a double typed `dir:left` is the same
    // placement going right from the other square), so the preview, Confirm and the stored log
    // hold the move the board's buttons would have sent; otherwise as typed, for the engine to refuse.
    return typedTurn(interaction, deps, input.game, (view, legal) => placementMove(view, legal, input.stone - 1, square, input.dir) ?? { type: 'place', stone: input.stone - 1, square, dir: input.dir });
  },
});

const talisman = subcommand({
  name: 'talisman',
  description: 'Your turn, typed: use a talisman instead of a stone; a preview asks you to confirm.',
  options: (s) =>
    s
      .addStringOption((o) =>
        o
          .setName('colour')
          .setDescription('The colour of the crystal it gives (one no talisman took yet)')
          .setRequired(true)
          .addChoices({ name: 'red', value: 'red' }, { name: 'blue', value: 'blue' }, { name: 'green', value: 'green' }, { name: 'purple', value: 'purple' }),
      )
      .addIntegerOption(gameOptionBuilder),
  schema: { subcommand: z.literal('talisman'), colour, game: gameIdSchema },
  run: (interaction, input, deps) => typedTurn(interaction, deps, input.game, () => ({ type: 'talisman', colour: input.colour })),
});

/** `stone`: the available stones of the invoker's game (the one in `game`, or their only one). */
async function autocompleteStone(interaction: AutocompleteInteraction, deps: BotDeps): Promise<void> {
  if (!interaction.inGuild()) return respondChoices(interaction, []);
  const gameId = interaction.options.getInteger('game');
  const own = await listActiveGames(deps.ctx, { guildId: interaction.guildId, userId: interaction.user.id, kind: KIND });
  const snap = gameId ? own.find((g) => g.game.id === gameId) : own.length === 1 ? own[0] : undefined;
  if (!snap) return respondChoices(interaction, []);
  const view = snap.view(interaction.user.id) as CrystalliaView;
  const legal = snap.legalMoves(interaction.user.id) as CrystalliaMove[];
  const typed = String(interaction.options.getFocused()).trim();
  const choices = view.available.map((id) => {
    const card = view.pyramid.flat().find((c) => c?.faceUp && c.id === id) as { halves: ['red', 'red'] } | undefined;
    const n = legal.filter((m) => m.type === 'place' && m.stone === id).length;
    return { name: `${stoneLabel(id, card!.halves)}: fits in ${n} place${n === 1 ? '' : 's'}`, value: id + 1 };
  });
  await respondChoices(interaction, choices.filter((c) => typed === '' || String(c.value).startsWith(typed)));
}

export default gameCommand(module, {
  description: 'Play Crystallia: lay crystal stones on the Board of Opportunity; never 13 of one colour.',
  join: false,
  subcommands: [join, table, place, talisman],
  // The only option suggested but the game: the stone.
  autocomplete: autocompleteStone,
});
