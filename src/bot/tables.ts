import { ButtonStyle, ComponentType, MessageFlags, type APIButtonComponent, type ChatInputCommandInteraction, type MessageComponentInteraction } from 'discord.js';
import { markBoardRendered } from '../services/board-marks.ts';
import { getGame } from '../services/games.ts';
import type { GameModule, GameModules, MessagePayload } from './game-module.ts';
import { toDiscord, updateOwned } from './game-routes.ts';
import { UserError } from '../services/errors.ts';
import { declineTable, getTable, joinTable, leaveTable, openTable, readySeat, setTableMessage, startTableNow, type TableWithSeats } from '../services/tables.ts';
import { boardWithRecent, playerNames } from './board.ts';
import type { BotDeps } from './command.ts';
import type { ComponentHandlers } from './custom-id.ts';
import { customId } from './custom-id.ts';
import { mention, ts } from './format.ts';
import { EPHEMERAL, displayName, requireGuild } from './interaction-utils.ts';
import { gameNeeds, requireGameHere, requireHere } from './permissions.ts';

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
  const lobby = module?.lobby !== undefined;
  const seatNote = presenter?.table?.seatNote;
  // A table of named players: each seat is held for its player, in the order named (the host first).
  const named = table.invited.length ? [table.hostId, ...table.invited] : null;
  const seats = labels.map((label, i) => {
    if (named) {
      const p = named[i];
      if (p === undefined) return `**${label}** — free —`;
      return `**${label}** ${mention(p)}${table.seats.some((x) => x.playerId === p) ? (p === table.hostId ? '' : ' ✅') : ' ⏳ invited'}`;
    }
    const s = table.seats.find((x) => x.seat === i);
    if (lobby && seatNote) {
      if (!s) return null;
      return `**${label}** ${mention(s.playerId)}${s.ready ? ' ✅ ready' : ' ⏳ choosing'}${s.playerId === table.hostId ? ' 🎩' : ''}: ${seatNote({ playerId: s.playerId, data: s.data, ready: s.ready, host: s.playerId === table.hostId }, table.options)}`;
    }
    return `**${label}** ${s ? mention(s.playerId) : '— free —'}`;
  }).filter((x): x is string => x !== null);
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
  if (table.status === 'declined') {
    return { content: `${head}\n${seats.join(' · ')}\nA player named at this table declined: no game starts.`, components: [], allowed_mentions: { parse: [] } };
  }
  const free = table.seatCount - table.seats.length;
  const closes = table.expiresAt ? ` If it is not full ${ts(table.expiresAt, 'R')}, it closes.` : '';
  const early = table.minSeats !== null && table.minSeats < table.seatCount;
  const canStart = early && table.seats.length >= table.minSeats!;
  const how = table.invited.length
    ? `${table.invited.filter((p) => !table.seats.some((s) => s.playerId === p)).map(mention).join(', ')}: accept with **Accept** (or **Decline**); the game starts when everyone named has accepted (seats in the order named; seat order is turn order).`
    : `${free} seat${free === 1 ? '' : 's'} free: take one with **Join**; the game starts when every seat is taken (seat order is turn order)${early ? `, or when the host clicks **Start** with ${table.minSeats} or more seated` : ''}.`;
  if (lobby) {
    const min = module!.engine.minPlayers;
    const seatsText = free === 0 ? `The table is full (${table.seatCount} of ${table.seatCount}).` : `${free} seat${free === 1 ? '' : 's'} free: take one with **Join**.`;
    const lobbyHow = `${seatsText} Choose what you bring with **Choose stones**, then **Ready**; the game starts when ${min} or more are seated and everyone is ready.${closes}`;
    return {
      content: [head, note, ...seats, lobbyHow].filter(Boolean).join('\n').slice(0, 2000),
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: customId('tb:join', table.id), label: 'Join', disabled: free === 0 },
            { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: customId('tb:panel', table.id), label: 'Choose stones' },
            { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: customId('tb:ready', table.id), label: 'Ready' },
            { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('tb:leave', table.id), label: 'Leave' },
          ],
        },
      ],
      allowed_mentions: { parse: [] },
    };
  }
  const content = [head, seats.join(' · '), `${how}${closes}`, note].filter(Boolean).join('\n');
  const buttons: APIButtonComponent[] = table.invited.length
    ? [
        { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: customId('tb:join', table.id), label: 'Accept' },
        { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('tb:decline', table.id), label: 'Decline' },
      ]
    : [
        { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: customId('tb:join', table.id), label: 'Join' },
        { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('tb:leave', table.id), label: 'Leave' },
        ...(early ? [{ type: ComponentType.Button as const, style: ButtonStyle.Primary as const, custom_id: customId('tb:start', table.id), label: `Start (${table.seats.length})`, disabled: !canStart }] : []),
      ];
  return { content, components: [{ type: ComponentType.ActionRow, components: buttons }], allowed_mentions: { parse: [] } };
}

/** `/<game> <subcommand>` that opens a table: posts the table message in the channel. */
export async function openTableCommand(
  interaction: ChatInputCommandInteraction,
  deps: BotDeps,
  module: GameModule,
  options: unknown,
  seatCount: number,
  /** A table that may start early (minSeats), or a challenge of several named players (invited). */
  extra: { minSeats?: number; invited?: Array<{ id: string; name: string; bot: boolean }>; hostData?: unknown } = {},
): Promise<void> {
  const kind = module.kind;
  const guildId = requireGuild(interaction);
  requireGameHere(interaction, module);
  const table = await openTable(deps.ctx, {
    guildId,
    guildName: interaction.guild?.name ?? '',
    channelId: interaction.channelId,
    kind,
    options,
    seatCount,
    ...(extra.minSeats !== undefined ? { minSeats: extra.minSeats } : {}),
    ...(extra.invited ? { invited: extra.invited } : {}),
    ...(extra.hostData !== undefined ? { hostData: extra.hostData } : {}),
    host: { id: interaction.user.id, name: displayName(interaction.user), bot: interaction.user.bot },
  });
  const invited = table.invited;
  const response = await interaction.reply({
    ...toDiscord(tableMessage(deps.games, table)),
    // A challenge of several pings the named players; an open table pings nobody.
    allowedMentions: { users: invited },
    ...(invited.length ? { content: `${invited.map(mention).join(' ')}, ${mention(table.hostId)} invites you to a table.\n${tableMessage(deps.games, table).content}` } : {}),
    withResponse: true,
  } as never);
  const messageId = (response as { resource?: { message?: { id: string } | null } }).resource?.message?.id;
  if (messageId) await setTableMessage(deps.ctx, table.id, messageId);
}

/** The clicked message is this table's own (a forged id on another message never rewrites it). */
const isTableMessage = (interaction: MessageComponentInteraction, table: TableWithSeats) => table.messageId === interaction.message.id;

async function startedOrTable(interaction: MessageComponentInteraction, deps: BotDeps, r: { table: TableWithSeats; game: { id: number } | null }): Promise<void> {
  if (!isTableMessage(interaction, r.table)) {
    await interaction.reply({ content: r.game ? `✅ Game #${r.game.id} has started: its board is the table's message.` : '✅ Done: see the table message.', flags: EPHEMERAL });
    return;
  }
  if (!r.game) {
    await interaction.update(toDiscord(tableMessage(deps.games, r.table)) as never);
    return;
  }
  const snap = await getGame(deps.ctx, r.game.id, null);
  const names = await playerNames(deps.ctx, snap.game.seats.map((s) => s.playerId));
  await interaction.update(toDiscord(await boardWithRecent(deps.ctx, deps.games, snap, names)) as never);
  await markBoardRendered(deps.ctx, snap.game.id, snap.game.version, interaction.message.id);
}

/** A lobby's private panel module, or a refusal for a table of a game without one. */
async function lobbyOf(interaction: MessageComponentInteraction, deps: BotDeps, tableId: number) {
  if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Tables are played in the server.');
  const table = await getTable(deps.ctx, tableId, interaction.guildId);
  const module = deps.games.get(table.kind);
  if (!module?.lobbyPanel) throw new UserError('table/no-lobby', `${deps.games.title(table.kind)} tables have nothing to choose before the start.`);
  return { table, panel: module.lobbyPanel };
}

/** A click that may start the table's game: refused where the game's board cannot be posted. */
async function requireTableChannel(interaction: MessageComponentInteraction, deps: BotDeps, tableId: number): Promise<void> {
  if (!interaction.inGuild()) return;
  const table = await getTable(deps.ctx, tableId, interaction.guildId);
  if (table.channelId === interaction.channelId) requireHere(interaction, gameNeeds(deps.games.get(table.kind) ?? null));
}

export const tableHandlers: ComponentHandlers<'tb:join' | 'tb:leave' | 'tb:start' | 'tb:decline' | 'tb:ready' | 'tb:panel' | 'tb:pick'> = {
  async 'tb:ready'(interaction, [tableId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Tables are played in the server.');
    await requireTableChannel(interaction, deps, tableId);
    const r = await readySeat(deps.ctx, { tableId, guildId: interaction.guildId, userId: interaction.user.id, messageId: interaction.message.id });
    if (!r.game && !isTableMessage(interaction, r.table)) {
      await interaction.reply({ content: '✅ You are ready: the game starts when everyone seated is.', flags: EPHEMERAL });
      return;
    }
    await startedOrTable(interaction, deps, r);
  },
  async 'tb:panel'(interaction, [tableId], deps) {
    const { table, panel } = await lobbyOf(interaction, deps, tableId);
    await interaction.reply({ ...toDiscord(await panel.panel(deps, table, interaction.user.id)), flags: EPHEMERAL } as never);
  },
  async 'tb:pick'(interaction, [tableId, key], deps) {
    const { table, panel } = await lobbyOf(interaction, deps, tableId);
    const values = interaction.isAnySelectMenu() ? interaction.values : [];
    const payload = toDiscord(await panel.pick(deps, table, interaction.user.id, key, values));
    // Only the panel itself (ephemeral) is edited; anywhere else the answer is private.
    await updateOwned(interaction, interaction.message.flags.has(MessageFlags.Ephemeral), payload);
  },
  async 'tb:start'(interaction, [tableId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Tables are started in the server.');
    await requireTableChannel(interaction, deps, tableId);
    await startedOrTable(interaction, deps, await startTableNow(deps.ctx, { tableId, guildId: interaction.guildId, userId: interaction.user.id, messageId: interaction.message.id }));
  },
  async 'tb:decline'(interaction, [tableId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Tables are answered in the server.');
    const table = await declineTable(deps.ctx, { tableId, guildId: interaction.guildId, userId: interaction.user.id, messageId: interaction.message.id });
    await updateOwned(interaction, isTableMessage(interaction, table), toDiscord(tableMessage(deps.games, table)));
  },
  async 'tb:join'(interaction, [tableId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Tables are joined in the server.');
    await requireTableChannel(interaction, deps, tableId);
    const r = await joinTable(deps.ctx, {
      tableId,
      guildId: interaction.guildId,
      user: { id: interaction.user.id, name: displayName(interaction.user), bot: interaction.user.bot },
      messageId: interaction.message.id,
    });
    await startedOrTable(interaction, deps, r);
  },
  async 'tb:leave'(interaction, [tableId], deps) {
    if (!interaction.inGuild()) throw new UserError('input/guild-only', 'Tables are left in the server.');
    const table = await leaveTable(deps.ctx, { tableId, guildId: interaction.guildId, userId: interaction.user.id, messageId: interaction.message.id });
    await updateOwned(interaction, isTableMessage(interaction, table), toDiscord(tableMessage(deps.games, table)));
  },
};
