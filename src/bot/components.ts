import type { ButtonInteraction, MessageComponentInteraction } from 'discord.js';
import { acceptChallenge, declineChallenge } from '../services/challenges.ts';
import { UserError } from '../services/errors.ts';
import { getGame, markBoardRendered, playMove, resign, type MoveResult } from '../services/games.ts';
import { boardFor, playerNames } from './board.ts';
import type { BotDeps } from './command.ts';
import { parseCustomId, type ParsedCustomId } from './custom-id.ts';
import { mention } from './format.ts';
import { resignConfirmation } from './game-commands.ts';
import { tellstonesHandlers } from './games/tellstones-components.ts';
import { tableHandlers } from './tables.ts';
import { displayName } from './interaction-utils.ts';
import { diceHandlers } from './dice-components.ts';

/**
 * After a move made from a button: when the click came from the board itself, answer by
 * editing the board in place (type 7) and record the version shown; elsewhere (a DM, an
 * ephemeral view) acknowledge there and let the outbox refresh the board.
 */
export async function answerMove(interaction: MessageComponentInteraction, deps: BotDeps, result: MoveResult, note: string): Promise<void> {
  const game = result.after;
  if (interaction.message.id === game.boardMessageId) {
    const names = await playerNames(deps.ctx, game.seats.map((s) => s.playerId));
    await interaction.update(boardFor(game, result.engine.view(result.state, null), names) as never);
    await markBoardRendered(deps.ctx, game.id, game.version, interaction.message.id);
  } else {
    await interaction.update({ content: `${interaction.message.content ?? ''}\n✅ ${note}`.slice(0, 2000), components: [] });
  }
}

/** One handler per customId route; a game module exports its routes' handlers and is spread in below. */
export type ComponentHandlers<R extends ParsedCustomId['route'] = ParsedCustomId['route']> = {
  [K in R]: (i: MessageComponentInteraction, args: Extract<ParsedCustomId, { route: K }>['args'], deps: BotDeps) => Promise<void>;
};

const coreHandlers: ComponentHandlers<'ch:accept' | 'ch:decline' | 'kb:place' | 'g:resign' | 'g:resign-yes' | 'g:resign-no'> = {
  async 'ch:accept'(interaction, [challengeId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Challenges are answered in the server.');
    const { game } = await acceptChallenge(deps.ctx, {
      challengeId,
      userId: interaction.user.id,
      guildId: interaction.guildId,
      names: { [interaction.user.id]: displayName(interaction.user) },
      messageId: interaction.message.id,
    });
    const snap = await getGame(deps.ctx, game.id, null);
    const names = await playerNames(deps.ctx, snap.game.seats.map((s) => s.playerId));
    await interaction.update(boardFor(snap.game, snap.engine.view(snap.state, null), names) as never);
    await markBoardRendered(deps.ctx, snap.game.id, snap.game.version, interaction.message.id);
  },
  async 'ch:decline'(interaction, [challengeId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Challenges are answered in the server.');
    const ch = await declineChallenge(deps.ctx, { challengeId, userId: interaction.user.id, guildId: interaction.guildId });
    const text =
      ch.status === 'declined'
        ? `❌ ${mention(ch.opponentId)} declined ${mention(ch.challengerId)}'s challenge.`
        : `↩️ ${mention(ch.challengerId)} withdrew the challenge to ${mention(ch.opponentId)}.`;
    await interaction.update({ content: text, components: [], allowedMentions: { parse: [] } });
  },
  async 'kb:place'(interaction, [gameId, version, column], deps) {
    const result = await playMove(deps.ctx, {
      gameId,
      userId: interaction.user.id,
      guildId: interaction.guildId,
      move: { type: 'place', column },
      expectedVersion: version,
    });
    await answerMove(interaction, deps, result, `Placed in column ${column}.`);
  },
  async 'g:resign'(interaction, [gameId], deps) {
    const { game } = await getGame(deps.ctx, gameId, interaction.guildId);
    if (!game.seats.some((s) => s.playerId === interaction.user.id)) {
      throw new UserError('game/not-participant', `You are not in game #${gameId}, so there is nothing for you to forfeit.`);
    }
    if (game.status !== 'active') throw new UserError('game/over', `Game #${gameId} is already over.`);
    await interaction.reply(resignConfirmation(gameId, game.version));
  },
  async 'g:resign-yes'(interaction, [gameId], deps) {
    // The confirmation holds the version it was shown at; a move since then does not cancel a
    // forfeit the player confirmed, so the version is not enforced here.
    await resign(deps.ctx, { gameId, userId: interaction.user.id, guildId: interaction.guildId });
    await interaction.update({ content: `🏳️ You forfeited game #${gameId}.`, components: [] });
  },
  async 'g:resign-no'(interaction, [gameId]) {
    await interaction.update({ content: `Good luck in game #${gameId}!`, components: [] });
  },
};

const handlers: ComponentHandlers = { ...coreHandlers, ...tableHandlers, ...tellstonesHandlers, ...diceHandlers };

export async function handleComponent(interaction: MessageComponentInteraction | ButtonInteraction, deps: BotDeps): Promise<void> {
  const parsed = parseCustomId(interaction.customId);
  if (!parsed) {
    throw new UserError('input/unknown-component', 'That button is not one of Stonehall’s current buttons (it may be from an old version). Use the latest board.');
  }
  const handler = handlers[parsed.route] as (i: MessageComponentInteraction, args: unknown, deps: BotDeps) => Promise<void>;
  await handler(interaction, parsed.args, deps);
}

