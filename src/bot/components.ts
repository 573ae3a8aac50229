import { ButtonStyle, ComponentType, MessageFlags, type ButtonInteraction, type MessageComponentInteraction } from 'discord.js';
import { acceptChallenge, declineChallenge } from '../services/challenges.ts';
import { askRematch } from '../services/rematch.ts';
import { UserError } from '../services/errors.ts';
import { markBoardRendered } from '../services/board-marks.ts';
import { getGame, resign } from '../services/games.ts';
import { nudge } from '../services/nudges.ts';
import { boardWithRecent, playerNames } from './board.ts';
import type { BotDeps } from './command.ts';
import { parseCustomId, type ComponentHandlers } from './custom-id.ts';
import { mention } from './format.ts';
import { resignConfirmation } from './game-commands.ts';
import { handleCollectionComponent, handleGameComponent, toDiscord, updateOwned } from './game-routes.ts';
import { historyMessage } from './history.ts';
import { playHere } from './dm-moves.ts';
import { tableHandlers } from './tables.ts';
import { displayName, EPHEMERAL } from './interaction-utils.ts';
import { gameNeeds, requireHere } from './permissions.ts';

/** The resign confirmation is an ephemeral message of its own. */
const ephemeral = (i: MessageComponentInteraction) => i.message.flags.has(MessageFlags.Ephemeral);


const coreHandlers: ComponentHandlers<'ch:accept' | 'ch:decline' | 'g:resign' | 'g:resign-yes' | 'g:resign-no' | 'g:history' | 'g:rematch' | 'g:nudge' | 'g:here'> = {
  /** Play here, in a turn DM without move buttons (the player moved on the board last time). */
  async 'g:here'(interaction, [gameId], deps) {
    await playHere(interaction, gameId, deps);
  },
  async 'g:nudge'(interaction, [gameId], deps) {
    const nudged = await nudge(deps.ctx, { gameId, guildId: interaction.guildId, userId: interaction.user.id });
    await interaction.reply({ content: `👋 Nudged ${nudged.map(mention).join(', ')}: a DM reminds them it is their move.`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
  },
  /**
   * Rematch, on a finished game's result message: a player asks (the others are pinged to click it
   * too), or, once every seated person has asked, the same game starts again; its board follows in
   * the channel.
   */
  async 'g:rematch'(interaction, [gameId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'A rematch is asked for in the server.');
    // The rematch's board follows in this channel: refused (nothing asked) where it cannot be posted.
    const finished = await deps.ctx.db.game.findUnique({ where: { id: gameId }, select: { kind: true, channelId: true } });
    if (finished?.channelId === interaction.channelId) requireHere(interaction, gameNeeds(deps.games.get(finished.kind) ?? null));
    const r = await askRematch(deps.ctx, { gameId, userId: interaction.user.id, guildId: interaction.guildId });
    const title = deps.games.title(r.kind);
    if (r.type === 'asked') {
      await interaction.reply({
        content: `🔁 ${mention(interaction.user.id)} wants a rematch of ${title} #${gameId}. ${r.waiting.map(mention).join(', ')}: click **Rematch** on the result to accept.`,
        allowedMentions: { users: r.waiting },
      });
      return;
    }
    const text = `🔁 Rematch: **${title} #${r.game.id}** is on, with the same players; its board follows in this channel.`;
    // The result message itself (it carries this very button) loses its Rematch button.
    const own = interaction.message.components.some((row) => 'components' in row && row.components.some((c) => 'customId' in c && c.customId === interaction.customId));
    if (own && !ephemeral(interaction)) {
      // Its link to the old board stays; the Rematch button goes.
      const links = interaction.message.components
        .map((row) => row.toJSON() as { type: number; components?: Array<{ type: number; style?: number }> })
        .map((row) => ({ ...row, components: (row.components ?? []).filter((c) => c.type === ComponentType.Button && c.style === ButtonStyle.Link) }))
        .filter((row) => row.components.length > 0);
      await interaction.update({ content: `${interaction.message.content}\n${text}`.slice(0, 2000), components: links as never, allowedMentions: { parse: [] } });
    } else {
      await interaction.reply({ content: text, allowedMentions: { parse: [] } });
    }
  },
  /** Another page of `/<game> history` (an ephemeral message: anyone who has it may turn its pages). */
  async 'g:history'(interaction, [gameId, page], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'A game’s history is read in its server.');
    const payload = await historyMessage(deps.ctx, deps.games, gameId, interaction.guildId, interaction.user.id, (ids) => playerNames(deps.ctx, ids), page);
    await updateOwned(interaction, ephemeral(interaction), toDiscord(payload));
  },
  async 'ch:accept'(interaction, [challengeId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Challenges are answered in the server.');
    // The game starts in the challenge's channel: refused (nothing accepted) where its board cannot be posted.
    const pending = await deps.ctx.db.challenge.findUnique({ where: { id: challengeId }, select: { kind: true, channelId: true } });
    if (pending?.channelId === interaction.channelId) requireHere(interaction, gameNeeds(deps.games.get(pending.kind) ?? null));
    const { game } = await acceptChallenge(deps.ctx, {
      challengeId,
      userId: interaction.user.id,
      guildId: interaction.guildId,
      names: { [interaction.user.id]: displayName(interaction.user) },
      messageId: interaction.message.id,
    });
    const snap = await getGame(deps.ctx, game.id, null);
    if (snap.game.boardMessageId !== interaction.message.id) {
      // Clicked somewhere else than the challenge itself: the board is the challenge's message.
      await interaction.reply({ content: `⚔️ You accepted: game #${game.id} is on; its board is the challenge's message.`, flags: EPHEMERAL });
      return;
    }
    const names = await playerNames(deps.ctx, snap.game.seats.map((s) => s.playerId));
    await interaction.update(toDiscord(await boardWithRecent(deps.ctx, deps.games, snap, names)) as never);
    await markBoardRendered(deps.ctx, snap.game.id, snap.game.version, interaction.message.id);
  },
  async 'ch:decline'(interaction, [challengeId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Challenges are answered in the server.');
    const ch = await declineChallenge(deps.ctx, { challengeId, userId: interaction.user.id, guildId: interaction.guildId });
    const text =
      ch.opponentId === null
        ? `↩️ ${mention(ch.challengerId)} withdrew their open challenge.`
        : ch.status === 'declined'
          ? `❌ ${mention(ch.opponentId)} declined ${mention(ch.challengerId)}'s challenge.`
          : `↩️ ${mention(ch.challengerId)} withdrew the challenge to ${mention(ch.opponentId)}.`;
    await updateOwned(interaction, ch.messageId === null || ch.messageId === interaction.message.id, { content: text, components: [], allowedMentions: { parse: [] } });
  },
  async 'g:resign'(interaction, [gameId], deps) {
    const { game } = await getGame(deps.ctx, gameId, interaction.guildId);
    if (!game.seats.some((s) => s.playerId === interaction.user.id && !s.autopilot)) {
      throw new UserError('game/not-participant', `You are not in game #${gameId}, so there is nothing for you to forfeit.`);
    }
    if (game.status !== 'active') throw new UserError('game/over', `Game #${gameId} is already over.`);
    await interaction.reply(resignConfirmation(gameId, game.version, game.seats.length, !deps.games.require(game.kind).engine.out));
  },
  async 'g:resign-yes'(interaction, [gameId], deps) {
    // The confirmation holds the version it was shown at; a move since then does not cancel a
    // forfeit the player confirmed, so the version is not enforced here.
    const r = await resign(deps.ctx, { gameId, userId: interaction.user.id, guildId: interaction.guildId });
    const goesOn = r.outcome === null;
    await updateOwned(interaction, ephemeral(interaction), {
      content: goesOn ? `🏳️ You left game #${gameId}: the autopilot plays your seat from now on.` : `🏳️ You forfeited game #${gameId}.`,
      components: [],
    });
  },
  async 'g:resign-no'(interaction, [gameId]) {
    await updateOwned(interaction, ephemeral(interaction), { content: `Good luck in game #${gameId}!`, components: [] });
  },
};

const handlers: ComponentHandlers = { ...coreHandlers, ...tableHandlers };

export async function handleComponent(interaction: MessageComponentInteraction | ButtonInteraction, deps: BotDeps): Promise<void> {
  const parsed = parseCustomId(interaction.customId);
  if (parsed) {
    const handler = handlers[parsed.route] as (i: MessageComponentInteraction, args: unknown, deps: BotDeps) => Promise<void>;
    await handler(interaction, parsed.args, deps);
    return;
  }
  if (await handleGameComponent(interaction, deps)) return;
  if (await handleCollectionComponent(interaction, deps)) return;
  throw new UserError('input/unknown-component', 'That button is not one of Stonehall’s current buttons (it may be from an old version). Use the latest board.');
}
