import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import type { BotDeps } from '../src/bot/command.ts';
import { joinOrIntend } from '../src/bot/cycle-commands.ts';
import { mention } from '../src/bot/format.ts';
import { gameCommand, subcommand, userOption } from '../src/bot/game-command.ts';
import { gameIdSchema, gameOptionBuilder } from '../src/bot/game-commands.ts';
import type { GameModule } from '../src/bot/game-module.ts';
import { toDiscord } from '../src/bot/game-routes.ts';
import { EPHEMERAL, requireGuild, respondChoices } from '../src/bot/interaction-utils.ts';
import { openTableCommand } from '../src/bot/tables.ts';
import { card as cardData, type KeystoneView } from '../src/games/keystone/engine/index.ts';
import { keystone } from '../src/games/keystone/index.ts';
import { parseCard, parseLine } from '../src/games/keystone/input.ts';
import { cardName, cardText, cardTextOf, handPanel, handText } from '../src/games/keystone/present.ts';
import { UserError } from '../src/services/errors.ts';
import { getGame, playMove, resolveOwnGame } from '../src/services/games.ts';

/**
 * `/keystone`: open a table (3 or 4 seats; with 4 the host may start at 3), join (2 or 3 named
 * players: an invited table, or in a Rest Phase an intent for a whole table), and the typed
 * moves for those who prefer them to the board's buttons: play a card, place a won card, see the
 * hand. Moves by button live in src/games/keystone/routes.ts.
 */
const module = keystone as GameModule;
const KIND = module.kind;

const table = subcommand({
  name: 'table',
  description: 'Open a table here; others take a seat with the Join button.',
  options: (s) =>
    s.addIntegerOption((o) =>
      o
        .setName('seats')
        .setDescription('4 (default; you may start once 3 are seated) or 3')
        .addChoices({ name: '4 seats (start with 3 if you like)', value: 4 }, { name: '3 seats', value: 3 }),
    ),
  schema: { subcommand: z.literal('table'), seats: z.union([z.literal(3), z.literal(4)]).nullable().transform((x) => x ?? 4) },
  run: (interaction, input, deps) => openTableCommand(interaction, deps, module, {}, input.seats, input.seats === 4 ? { minSeats: 3 } : {}),
});

/** The join: 2 or 3 named players (an invited table, or in a Rest Phase an intent for a whole table). */
const join = subcommand({
  name: 'join',
  description: 'Name 2 or 3 players for a table (in a Rest Phase: your intent for that table).',
  options: (s) =>
    s
      .addUserOption((o) => o.setName('opponent').setDescription('A player you want at your table').setRequired(true))
      .addUserOption((o) => o.setName('opponent2').setDescription('Another player (2 are needed)').setRequired(true))
      .addUserOption((o) => o.setName('opponent3').setDescription('A third player, for a table of four')),
  schema: {
    subcommand: z.literal('join'),
    opponent: userOption,
    opponent2: userOption.nullable(),
    opponent3: userOption.nullable(),
  },
  run: (interaction, input, deps) => joinOrIntend(interaction, deps, module, [input.opponent, ...[input.opponent2, input.opponent3].filter((u) => u !== null)], null),
});

/** The invoker's Keystone game (the option, or their only one) and their view of it. */
async function ownView(interaction: ChatInputCommandInteraction | AutocompleteInteraction, deps: BotDeps, game: number | null) {
  const guildId = requireGuild(interaction);
  const gameId = await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind: KIND, gameId: game });
  const snap = await getGame(deps.ctx, gameId, guildId);
  if (snap.game.kind !== KIND) throw new UserError('game/wrong-kind', `Game #${gameId} is not a game of Keystone.`);
  if (!snap.game.seats.some((s) => s.playerId === interaction.user.id && !s.autopilot)) {
    throw new UserError('game/not-participant', `You are not playing in game #${gameId}: only its players have hands.`);
  }
  return { guildId, gameId, snap, view: snap.view(interaction.user.id) as KeystoneView };
}

const hand = subcommand({
  name: 'hand',
  description: 'Show your hand (only to you).',
  options: (s) => s.addIntegerOption(gameOptionBuilder),
  schema: { subcommand: z.literal('hand'), game: gameIdSchema },
  async run(interaction, input, deps) {
    const { gameId, snap, view } = await ownView(interaction, deps, input.game);
    await interaction.reply({ ...toDiscord(handPanel(view, interaction.user.id, { gameId, version: snap.game.version })), flags: EPHEMERAL } as never);
  },
});

const play = subcommand({
  name: 'play',
  description: 'Play a card from your hand (the same as the menu in My hand).',
  options: (s) =>
    s.addStringOption((o) => o.setName('card').setDescription('The card, e.g. red-7 or god').setRequired(true).setAutocomplete(true)).addIntegerOption(gameOptionBuilder),
  schema: { subcommand: z.literal('play'), card: z.string().min(1).max(40), game: gameIdSchema },
  async run(interaction, input, deps) {
    const { guildId, gameId, snap, view } = await ownView(interaction, deps, input.game);
    const hand = (view.hand ?? []).map((c) => c.id);
    const id = parseCard(input.card, hand);
    if (!id) {
      throw new UserError('keystone/not-in-hand', `You hold no card “${input.card}”. Your hand: ${handText(view.hand ?? [])}. Name a card like \`red-7\` or \`god\` (the menu lists yours).`);
    }
    const result = await playMove(deps.ctx, { gameId, userId: interaction.user.id, guildId, kind: KIND, move: { type: 'play', card: id }, expectedVersion: snap.game.version });
    const after = result.after.view(interaction.user.id) as KeystoneView;
    const next = after.outcome ? ' The match is over: see the board.' : after.turn ? ` Next: ${mention(after.turn)}.` : '';
    await interaction.reply({ content: `🃏 You played ${cardTextOf(id)} in game #${gameId}.${next}`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
  },
});

const place = subcommand({
  name: 'place',
  description: 'Place one of the cards you won: on top of one of your lines, or as a new line.',
  options: (s) =>
    s
      .addStringOption((o) => o.setName('card').setDescription('A won card waiting to be placed').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('line').setDescription('The line number, or "new"').setRequired(true).setAutocomplete(true))
      .addIntegerOption(gameOptionBuilder),
  schema: { subcommand: z.literal('place'), card: z.string().min(1).max(40), line: z.string().min(1).max(20), game: gameIdSchema },
  async run(interaction, input, deps) {
    const { guildId, gameId, snap, view } = await ownView(interaction, deps, input.game);
    const waiting = view.waiting?.player === interaction.user.id ? view.waiting.cards.map((c) => c.card.id) : [];
    if (waiting.length === 0) throw new UserError('keystone/nothing-to-place', 'You have no won cards waiting to be placed now.');
    const id = parseCard(input.card, waiting);
    if (!id) throw new UserError('keystone/not-waiting', `“${input.card}” is not one of your won cards waiting to be placed: ${waiting.map(cardTextOf).join(' ')}.`);
    const line = parseLine(input.line);
    if (line === null) throw new UserError('keystone/bad-line', 'Give a line by its number (as on the board) or `new` for a new line.');
    const result = await playMove(deps.ctx, { gameId, userId: interaction.user.id, guildId, kind: KIND, move: { type: 'place', card: id, line }, expectedVersion: snap.game.version });
    const after = result.after.view(interaction.user.id) as KeystoneView;
    const left = after.waiting?.player === interaction.user.id ? ` Still to place: ${after.waiting.cards.map((c) => cardText(c.card)).join(' ')}.` : '';
    await interaction.reply({ content: `📥 You placed ${cardTextOf(id)} ${line === 'new' ? 'as a new line' : `on line ${line + 1}`} in game #${gameId}.${left}`, flags: EPHEMERAL });
  },
});

/** Suggestions: your playable cards (or your hand), your waiting cards, the lines a card fits. */
async function autocomplete(interaction: AutocompleteInteraction, deps: BotDeps): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const sub = interaction.options.getSubcommand(false);
  let view: KeystoneView;
  try {
    ({ view } = await ownView(interaction, deps, interaction.options.getInteger('game')));
  } catch {
    return respondChoices(interaction, []);
  }
  const typed = String(focused.value).toLowerCase();
  const me = interaction.user.id;
  if (sub === 'play' && focused.name === 'card') {
    const cards = (view.hand ?? []).filter((c) => view.playable.length === 0 || view.playable.includes(c.id));
    const choices = cards.map((c) => ({ name: `${cardName(c)}${c.god ? '' : ` (keystone ${c.keystone})`}${view.playable.length ? '' : ': not your turn'}`, value: c.id }));
    return respondChoices(interaction, choices.filter((c) => c.name.toLowerCase().includes(typed) || c.value.includes(typed)));
  }
  const waiting = view.waiting?.player === me ? view.waiting.cards : [];
  if (sub === 'place' && focused.name === 'card') {
    return respondChoices(interaction, waiting.map((c) => ({ name: cardName(c.card), value: c.card.id })).filter((c) => c.name.toLowerCase().includes(typed) || c.value.includes(typed)));
  }
  if (sub === 'place' && focused.name === 'line') {
    const chosen = waiting.find((c) => c.card.id === interaction.options.getString('card')) ?? waiting[0];
    if (!chosen) return respondChoices(interaction, []);
    const lines = view.seats.find((s) => s.player === me)?.lines ?? [];
    const choices = chosen.targets.map((t) => {
      if (t === 'new') return { name: `A new line for ${cardName(chosen.card)}`, value: 'new' };
      const top = lines[t]?.cards.at(-1);
      const topText = top ? (top.card.god ? `God card counting ${top.number}` : cardName(cardData(top.card.id))) : '';
      return { name: `Line ${t + 1} (${lines[t]?.direction ?? 'open'}, top ${topText})`, value: String(t + 1) };
    });
    return respondChoices(interaction, choices);
  }
  return respondChoices(interaction, []);
}

export default gameCommand(module, {
  description: 'Play Keystone: 3-4 players, tricks with hidden hands, your own lines, and the Sun.',
  join: false,
  subcommands: [table, join, play, place, hand],
  autocomplete,
});
