import { ButtonStyle, ComponentType, type ChatInputCommandInteraction } from 'discord.js';
import { getGame, markBoardRendered } from '../services/games.ts';
import type { GameModule, GameModules, MessagePayload } from './game-module.ts';
import { toDiscord } from './game-routes.ts';
import { UserError } from '../services/errors.ts';
import { joinTable, leaveTable, openTable, setTableMessage, type TableWithSeats } from '../services/tables.ts';
import { boardFor, playerNames } from './board.ts';
import type { BotDeps } from './command.ts';
import type { ComponentHandlers } from './custom-id.ts';
import { customId } from './custom-id.ts';
import { mention, ts } from './format.ts';
import { displayName, requireGuild } from './interaction-utils.ts';

/**
 * Tables for games of more than two seats (src/services/tables.ts), for any game: the table
 * message lists the seats with Join and Leave buttons; the join that fills it turns the message
 * into the game's board. A game's presenter may name the seats and the game (`presenter.table`).
 */

export function tableMessage(games: GameModules, table: TableWithSeats): MessagePayload {
  const module = games.get(table.kind);
  const presenter = module?.present;
  const title = presenter?.table?.title(table.options) ?? games.title(table.kind);
  const labels = presenter?.table?.seatLabels(table.seatCount) ?? Array.from({ length: table.seatCount }, (_, i) => `Seat ${i + 1}`);
  const seats = labels.map((label, i) => {
    const s = table.seats.find((x) => x.seat === i);
    return `**${label}** ${s ? mention(s.playerId) : '— free —'}`;
  });
  const note = presenter?.table?.note?.(table.options) ?? '';
  const head = `🪑 **${title}**: table #${table.id}, opened by ${mention(table.hostId)}.`;
  if (table.status === 'cancelled') {
    return { content: `${head}\nThe host closed this table.`, components: [], allowed_mentions: { parse: [] } };
  }
  if (table.status === 'expired') {
    const at = table.closedAt ? ` ${ts(table.closedAt, 'f')}` : '';
    return {
      content: `${head}\n${seats.join(' · ')}\nThis table closed${at}: its seats were not all taken in time. Open a new table to play.`,
      components: [],
      allowed_mentions: { parse: [] },
    };
  }
  const free = table.seatCount - table.seats.length;
  const closes = table.expiresAt ? ` If it is not full ${ts(table.expiresAt, 'R')}, it closes.` : '';
  const content = [
    head,
    seats.join(' · '),
    `${free} seat${free === 1 ? '' : 's'} free: take one with **Join**; the game starts when every seat is taken (seat order is turn order).${closes}`,
    note,
  ]
    .filter(Boolean)
    .join('\n');
  return {
    content,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: customId('tb:join', table.id), label: 'Join' },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('tb:leave', table.id), label: 'Leave' },
        ],
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/** `/<game> <subcommand>` that opens a table: posts the table message in the channel. */
export async function openTableCommand(
  interaction: ChatInputCommandInteraction,
  deps: BotDeps,
  module: GameModule,
  options: unknown,
  seatCount: number,
): Promise<void> {
  const kind = module.kind;
  const guildId = requireGuild(interaction);
  const table = await openTable(deps.ctx, {
    guildId,
    guildName: interaction.guild?.name ?? '',
    channelId: interaction.channelId,
    kind,
    options,
    seatCount,
    host: { id: interaction.user.id, name: displayName(interaction.user), bot: interaction.user.bot },
  });
  const response = await interaction.reply({ ...toDiscord(tableMessage(deps.games, table)), withResponse: true } as never);
  const messageId = (response as { resource?: { message?: { id: string } | null } }).resource?.message?.id;
  if (messageId) await setTableMessage(deps.ctx, table.id, messageId);
}

export const tableHandlers: ComponentHandlers<'tb:join' | 'tb:leave'> = {
  async 'tb:join'(interaction, [tableId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Tables are joined in the server.');
    const { table, game } = await joinTable(deps.ctx, {
      tableId,
      guildId: interaction.guildId,
      user: { id: interaction.user.id, name: displayName(interaction.user), bot: interaction.user.bot },
      messageId: interaction.message.id,
    });
    if (!game) {
      await interaction.update(toDiscord(tableMessage(deps.games, table)) as never);
      return;
    }
    const snap = await getGame(deps.ctx, game.id, null);
    const names = await playerNames(deps.ctx, snap.game.seats.map((s) => s.playerId));
    await interaction.update(toDiscord(boardFor(deps.games, snap, names)) as never);
    await markBoardRendered(deps.ctx, snap.game.id, snap.game.version, interaction.message.id);
  },
  async 'tb:leave'(interaction, [tableId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Tables are left in the server.');
    const table = await leaveTable(deps.ctx, { tableId, guildId: interaction.guildId, userId: interaction.user.id, messageId: interaction.message.id });
    await interaction.update(toDiscord(tableMessage(deps.games, table)) as never);
  },
};
