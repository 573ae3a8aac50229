import { z } from 'zod';
import type { SlashCommandIntegerOption, SlashCommandSubcommandsOnlyBuilder } from '@discordjs/builders';
import { ButtonStyle, ComponentType, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { challenge, setChallengeMessage } from '../services/challenges.ts';
import { UserError } from '../services/errors.ts';
import { getGame, listActiveGames, resolveOwnGame } from '../services/games.ts';
import { boardFor, boardUrl, playerNames } from './board.ts';
import type { BotDeps } from './command.ts';
import { customId } from './custom-id.ts';
import { mention, ts } from './format.ts';
import { presenterFor } from './games/index.ts';
import { EPHEMERAL, displayName, requireGuild, respondChoices } from './interaction-utils.ts';

/**
 * The subcommands every game shares (join, forfeit, games, view). Each game's command module
 * calls these with its kind; the game-specific parts (moves) stay in the module.
 */

/** The `game` option of subcommands that act on one of the invoker's games, and its zod schema. */
export const gameIdSchema = z.number().int().positive().max(2_147_483_647).nullable();
export const gameOptionBuilder = (o: SlashCommandIntegerOption) =>
  o.setName('game').setDescription('Which game (if you have several)').setAutocomplete(true).setMinValue(1);

/** Adds the subcommands every game has (forfeit, games, view) to a game's slash command. */
export function withGameSubcommands(b: SlashCommandSubcommandsOnlyBuilder, forfeitDescription: string): SlashCommandSubcommandsOnlyBuilder {
  return b
    .addSubcommand((s) => s.setName('forfeit').setDescription(forfeitDescription).addIntegerOption(gameOptionBuilder))
    .addSubcommand((s) => s.setName('games').setDescription('List your games in progress, whose turn it is, and the deadlines.'))
    .addSubcommand((s) =>
      s
        .setName('view')
        .setDescription('Look at a game (anyone may watch).')
        .addIntegerOption((o) => o.setName('game').setDescription('Game number').setAutocomplete(true).setMinValue(1)),
    );
}

export async function joinCommand(
  interaction: ChatInputCommandInteraction,
  deps: BotDeps,
  kind: string,
  opponent: { id: string; name: string; bot: boolean },
  /** Setup options for the game, what to call it ("Tellstones: Fearless Vanguard"), and the subcommand that challenges back. */
  extra: { options?: unknown; title?: string; subcommand?: string; nonDefaultOptions?: boolean } = {},
): Promise<void> {
  const guildId = requireGuild(interaction);
  const from = { id: interaction.user.id, name: displayName(interaction.user), bot: interaction.user.bot };
  const result = await challenge(deps.ctx, {
    guildId,
    guildName: interaction.guild?.name ?? '',
    channelId: interaction.channelId,
    kind,
    from,
    to: opponent,
    ...(extra.options !== undefined ? { options: extra.options } : {}),
  });
  const title = extra.title ?? presenterTitle(kind);
  if (result.type === 'started') {
    const url = boardUrl(result.game);
    await interaction.reply({
      content: `⚔️ ${mention(from.id)} accepted ${mention(opponent.id)}'s challenge: ${title} #${result.game.id} is on!${url ? ` Board: ${url}` : ''}`,
      allowedMentions: { users: [opponent.id] },
    });
    return;
  }
  const response = await interaction.reply({
    content: `⚔️ ${mention(opponent.id)}, ${mention(from.id)} challenges you to **${title}**! Accept with the button, or challenge them back with \`/${kind} ${extra.subcommand ?? 'join'}\`.`,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: customId('ch:accept', result.challenge.id), label: 'Accept' },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('ch:decline', result.challenge.id), label: 'Decline' },
        ],
      },
    ],
    allowedMentions: { users: [opponent.id] },
    withResponse: true,
  });
  const messageId = response.resource?.message?.id;
  if (!messageId) return;
  const now = await setChallengeMessage(deps.ctx, result.challenge.id, messageId);
  // Accepted by a challenge back before this message was recorded: the game's board is another
  // message, so this one must not keep live Accept/Decline buttons. (An Accept click on this very
  // message makes it the board; a Decline click edits it itself.)
  if (now?.challenge.status === 'accepted' && now.boardMessageId !== messageId) {
    await interaction.editReply({
      content: `⚔️ ${mention(opponent.id)} accepted ${mention(from.id)}'s challenge by challenging back: ${title} #${now.challenge.gameId} is on! The board is in this channel.`,
      components: [],
      allowedMentions: { parse: [] },
    });
  }
}

export function presenterTitle(kind: string): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

export async function forfeitCommand(interaction: ChatInputCommandInteraction, deps: BotDeps, kind: string, gameId: number | null): Promise<void> {
  const guildId = requireGuild(interaction);
  const id = await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind, gameId });
  const { game } = await getGame(deps.ctx, id, guildId);
  if (!game.seats.some((s) => s.playerId === interaction.user.id)) {
    throw new UserError('game/not-participant', `You are not in game #${id}.`);
  }
  if (game.status !== 'active') throw new UserError('game/over', `Game #${id} is already over.`);
  await interaction.reply(resignConfirmation(game.id, game.version));
}

export function resignConfirmation(gameId: number, version: number) {
  return {
    content: `Really forfeit game #${gameId}? You lose (your whole team, in a team game), and this cannot be undone.`,
    flags: EPHEMERAL,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Danger, custom_id: customId('g:resign-yes', gameId, version), label: 'Yes, forfeit' },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('g:resign-no', gameId), label: 'Keep playing' },
        ],
      },
    ],
  } as const;
}

export async function gamesCommand(interaction: ChatInputCommandInteraction, deps: BotDeps, kind: string): Promise<void> {
  const guildId = requireGuild(interaction);
  const games = await listActiveGames(deps.ctx, { guildId, userId: interaction.user.id, kind });
  if (games.length === 0) {
    await interaction.reply({ content: `You have no ${presenterTitle(kind)} game in progress. Start one with \`/${kind}\`.`, flags: EPHEMERAL });
    return;
  }
  const names = await playerNames(deps.ctx, [...new Set(games.flatMap((g) => g.game.seats.map((s) => s.playerId)))]);
  const lines = games.slice(0, 20).map(({ game, engine, state }) => {
    const line = presenterFor(game.kind).summary(engine.view(state, interaction.user.id), interaction.user.id, { gameId: game.id, names });
    const deadline = game.seats.find((s) => s.deadlineAt)?.deadlineAt;
    const url = boardUrl(game);
    return `• ${line}${deadline ? `, deadline ${ts(deadline)}` : ''}${url ? ` · [board](${url})` : ''}`;
  });
  if (games.length > 20) lines.push(`…and ${games.length - 20} more.`);
  await interaction.reply({ content: `Your ${presenterTitle(kind)} games:\n${lines.join('\n')}`.slice(0, 2000), flags: EPHEMERAL });
}

export async function viewCommand(interaction: ChatInputCommandInteraction, deps: BotDeps, kind: string, gameId: number | null): Promise<void> {
  const guildId = requireGuild(interaction);
  const id = gameId ?? (await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind }));
  const { game, engine, state } = await getGame(deps.ctx, id, guildId);
  // A spectator view for everyone (participants included): the viewer-specific view is for DMs.
  const payload = boardFor(game, engine.view(state, null), await playerNames(deps.ctx, game.seats.map((s) => s.playerId)));
  await interaction.reply({ ...payload, components: [], flags: EPHEMERAL } as never);
}

/** Autocomplete for a `game` option: the invoker's games first, then (for view) others in the server. */
export async function autocompleteGame(interaction: AutocompleteInteraction, deps: BotDeps, kind: string, everyone: boolean): Promise<void> {
  if (!interaction.inGuild()) return respondChoices(interaction, []);
  const typed = String(interaction.options.getFocused()).replace(/^#/, '').trim();
  const own = await listActiveGames(deps.ctx, { guildId: interaction.guildId, userId: interaction.user.id, kind });
  const names = await playerNames(deps.ctx, [...new Set(own.flatMap((g) => g.game.seats.map((s) => s.playerId)))]);
  const choices = own.map(({ game, engine, state }) => ({
    name: presenterFor(kind).summary(engine.view(state, interaction.user.id), interaction.user.id, { gameId: game.id, names }),
    value: game.id,
  }));
  if (everyone && choices.length < 25) {
    const others = await deps.ctx.db.game.findMany({
      where: { guildId: interaction.guildId, kind, status: 'active', id: { notIn: choices.map((c) => c.value) } },
      include: { seats: true },
      orderBy: { id: 'desc' },
      take: 25 - choices.length,
    });
    const otherNames = await playerNames(deps.ctx, [...new Set(others.flatMap((g) => g.seats.map((s) => s.playerId)))]);
    for (const g of others) choices.push({ name: `#${g.id}: ${g.seats.map((s) => otherNames[s.playerId] ?? 'player').join(' vs ')}`, value: g.id });
  }
  await respondChoices(interaction, choices.filter((c) => typed === '' || String(c.value).startsWith(typed) || c.name.toLowerCase().includes(typed.toLowerCase())));
}

