import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow } from 'discord.js';
import type { BotDeps } from '../../bot/command.ts';
import { clip } from '../../bot/format.ts';
import type { MessagePayload } from '../../bot/game-module.ts';
import { customId } from '../../bot/custom-id.ts';
import { UserError } from '../../services/errors.ts';
import { inTransaction } from '../../services/games.ts';
import { changeSeat, getTable, type TableWithSeats } from '../../services/tables.ts';
import { LOADOUT, STONE_KINDS, STONE_TYPES, type StoneType } from './data.ts';
import { optionsSchema } from './engine/index.ts';
import { ownedStoneName, seatData, setSelectionOfTypes, stonesOf } from './lobby.ts';

/**
 * The lobby's private panel (`Choose stones` on the table message): the clicker's stones in one
 * menu per type (Pawn, Dancer, Krells, Master: what is chosen is preselected; choosing replaces
 * that type's choice), and the sideboard when the host turned it on. Only the clicker sees it.
 */

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;
/** The types that share a menu when rows run short: one stone of each. */
const SINGLES: readonly StoneType[] = ['pawn', 'dancer', 'master'];
const SINGLES_KEY = 'singles';
const MENU_KEYS = [...STONE_TYPES, 'sideboard', SINGLES_KEY] as const;

async function panel(deps: BotDeps, table: TableWithSeats, userId: string, note = ''): Promise<MessagePayload> {
  const seat = table.seats.find((s) => s.playerId === userId);
  if (!seat) throw new UserError('table/not-seated', `You are not at table #${table.id}. Join it first.`);
  if (table.status !== 'open') throw new UserError('table/closed', `Table #${table.id} is no longer waiting for players.`);
  const data = seatData(seat.data);
  const options = optionsSchema.parse(table.options);
  const stones = await inTransaction(deps.ctx, (tx) => stonesOf(tx, deps.ctx, table.guildId, userId));
  const free = stones.filter((s) => s.lockedByGameId === null);
  const chosen = data.stones.map((id) => stones.find((s) => String(s.id) === id)).filter((s) => s !== undefined);
  const side = data.sideboard.map((id) => stones.find((s) => String(s.id) === id)).filter((s) => s !== undefined);
  const lines = [
    `🎒 **What you bring** to Krellstones table #${table.id} (only you see this).`,
    `Chosen (${chosen.length} of 6): ${chosen.length ? chosen.map(ownedStoneName).join(', ') : 'nothing yet'}. **Ready** fills the rest at random from your free stones.`,
  ];
  if (options.sideboard !== 'off') lines.push(`Sideboard (${side.length} of ${options.sideboard}): ${side.length ? side.map(ownedStoneName).join(', ') : 'empty'}.`);
  if (seat.ready) lines.push('✅ You are ready; any change here makes you choose Ready again.');
  if (note) lines.push(note);
  const rows: Row[] = [];
  const picked = new Set(data.stones);
  const freeOf = (type: StoneType) => free.filter((s) => s.data.type === type && !data.sideboard.includes(String(s.id)));
  for (const type of STONE_TYPES) {
    if (freeOf(type).length === 0) lines.push(`You have no free ${STONE_KINDS[type].name}: Ready will say what is missing.`);
    else if (freeOf(type).length > 8) lines.push(`You have ${freeOf(type).length} ${STONE_KINDS[type].name}s: a menu lists at most 25 stones (fewer when types share one); \`/krellstones select\` reaches any.`);
  }
  const sideboardMenu = options.sideboard !== 'off' && free.some((s) => !data.stones.includes(String(s.id)));
  // Discord allows five rows: four menus by type, the sideboard's and Ready make six, so then the
  // Pawn, the Dancer and the Master share one menu (one of each).
  const present = STONE_TYPES.filter((t) => freeOf(t).length > 0);
  const merge = present.length + (sideboardMenu ? 1 : 0) + 1 > 5;
  const groups: StoneType[][] = merge ? [SINGLES.filter((t) => present.includes(t)), ...present.filter((t) => !SINGLES.includes(t)).map((t) => [t])] : present.map((t) => [t]);
  for (const types of groups) {
    // Chosen stones first; a shared menu gives each type its share of the 25 options.
    const list = types.flatMap((t) => {
      const mine = freeOf(t);
      return [...mine.filter((s) => picked.has(String(s.id))), ...mine.filter((s) => !picked.has(String(s.id)))].slice(0, Math.floor(25 / types.length));
    });
    const max = types.reduce((n, t) => n + Math.min(LOADOUT[t], list.filter((s) => s.data.type === t).length), 0);
    const placeholder = types.map((t) => `${LOADOUT[t]} ${STONE_KINDS[t].name}${LOADOUT[t] > 1 ? 's' : ''}`).join(', ');
    rows.push({
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: customId('tb:pick', table.id, types.length === 1 ? types[0]! : SINGLES_KEY),
          placeholder: `${placeholder} (none: at random)`,
          min_values: 0,
          max_values: max,
          options: list.map((s) => ({
            label: clip(ownedStoneName(s), 100),
            value: String(s.id),
            description: clip(`sides ${s.data.sides.map((x) => x.face?.value ?? x.printed).join('/')}`, 100),
            default: picked.has(String(s.id)),
          })),
        },
      ],
    } as Row);
  }
  if (options.sideboard !== 'off') {
    const candidates = free.filter((s) => !data.stones.includes(String(s.id)));
    const list = [...candidates.filter((s) => data.sideboard.includes(String(s.id))), ...candidates.filter((s) => !data.sideboard.includes(String(s.id)))].slice(0, 25);
    if (list.length && rows.length < 5) {
      rows.push({
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.StringSelect,
            custom_id: customId('tb:pick', table.id, 'sideboard'),
            placeholder: `Sideboard: up to ${options.sideboard} stones`,
            min_values: 0,
            max_values: Math.min(options.sideboard, list.length),
            options: list.map((s) => ({ label: clip(ownedStoneName(s), 100), value: String(s.id), description: clip(`sides ${s.data.sides.map((x) => x.face?.value ?? x.printed).join('/')}`, 100), default: data.sideboard.includes(String(s.id)) })),
          },
        ],
      } as Row);
    }
  }
  rows.push({ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Success, custom_id: customId('tb:ready', table.id), label: 'Ready', emoji: { name: '✅' } }] } as Row);
  return { content: lines.join('\n').slice(0, 2000), components: rows.slice(0, 5), allowed_mentions: { parse: [] } };
}

async function pick(deps: BotDeps, table: TableWithSeats, userId: string, key: string, values: string[]): Promise<MessagePayload> {
  if (!(MENU_KEYS as readonly string[]).includes(key)) throw new UserError('krellstones/bad-menu', 'That menu is not one of this panel’s. Open **Choose stones** again.');
  if (key === 'sideboard') {
    await changeSeat(deps.ctx, {
      tableId: table.id,
      guildId: table.guildId,
      userId,
      async change(tx, seat) {
        const data = seatData(seat.data);
        const size = optionsSchema.parse(table.options).sideboard;
        if (size === 'off') throw new UserError('krellstones/no-sideboard', 'This game has no sideboard.');
        if (values.length > size) throw new UserError('krellstones/sideboard-full', `The sideboard holds ${size}.`);
        const stones = await stonesOf(tx, deps.ctx, table.guildId, userId);
        for (const id of values) {
          const s = stones.find((x) => String(x.id) === id);
          if (!s) throw new UserError('krellstones/no-such-stone', `You have no stone #${id}.`);
          if (s.lockedByGameId !== null) throw new UserError('krellstones/stone-in-game', `Your ${ownedStoneName(s)} is in use in game #${s.lockedByGameId}.`);
          if (data.stones.includes(id)) throw new UserError('krellstones/already-selected', `Your ${ownedStoneName(s)} is chosen to play: it cannot also be on your sideboard.`);
        }
        return { ...data, sideboard: values };
      },
    });
  } else {
    await setSelectionOfTypes(deps.ctx, { guildId: table.guildId, userId, tableId: table.id, types: key === SINGLES_KEY ? SINGLES.slice() : [key as StoneType], ids: values });
  }
  return panel(deps, await getTable(deps.ctx, table.id, table.guildId), userId, '✅ Saved.');
}

export const lobbyPanel = { panel: (deps: BotDeps, table: TableWithSeats, userId: string) => panel(deps, table, userId), pick };
