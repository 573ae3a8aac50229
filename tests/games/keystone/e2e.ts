import type { APIMessage } from 'discord.js';
import { expect } from 'vitest';
import type { CardId, KeystoneState } from '../../../src/games/keystone/engine/index.ts';
import { HAND_SIZE } from '../../../src/games/keystone/engine/schema.ts';
import { cardTextOf, GOD_NOTE } from '../../../src/games/keystone/present.ts';
import { aliasOf, buttons, EPHEMERAL, type Harness } from '../../helpers/harness.ts';

/**
 * Playing Keystone through the emulator as people do: the board's buttons, **My hand**, the menus
 * in the turn DMs and the placement panel. The tests read the raw state from the database only to
 * know whose turn it is and to check what they see against it.
 */

type Component = { type: number; custom_id?: string; label?: string; disabled?: boolean; options?: Array<{ value: string; label: string; description?: string }> };

export function components(message: APIMessage): Component[] {
  return (message.components ?? []).flatMap((row) => ((row as { components?: Component[] }).components ?? []));
}

export function select(message: APIMessage, prefix: string): Component | undefined {
  return components(message).find((c) => c.type === 3 && c.custom_id?.startsWith(prefix));
}

export async function state(h: Harness, gameId: number): Promise<KeystoneState> {
  const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  return g.state as unknown as KeystoneState;
}

export async function version(h: Harness, gameId: number): Promise<number> {
  return (await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } })).version;
}

/** The game's board, as `as` sees it in its channel. */
export async function board(h: Harness, gameId: number, channel: string, as = 'alice'): Promise<APIMessage> {
  const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  const found = (await h.api.messages(channel, as, 200)).messages.find((m) => m.id === g.boardMessageId);
  if (!found) throw new Error(`no board for game ${gameId} in #${channel}`);
  return found;
}

/**
 * The newest DM of `alias` about this game that still has a menu (only the newest keeps its
 * buttons). A player who moved on the board last time gets **Play here** instead of the menus:
 * they tap it, and that DM turns into the turn's menus (the answer to the click).
 */
export async function turnDm(h: Harness, alias: string, gameId: number): Promise<APIMessage> {
  const dms = (await h.api.dms(alias)).messages;
  const playHere = (m: APIMessage) => components(m).find((c) => c.type === 2 && c.custom_id === `g:here:${gameId}`);
  const mine = dms.filter((m) => m.content.includes(`Keystone #${gameId}**`) && components(m).some((c) => c.type === 3 || c === playHere(m)));
  const last = mine.at(-1);
  if (!last) throw new Error(`${alias} has no DM with a menu for game ${gameId}`);
  const here = playHere(last);
  if (!here) return last;
  expect(last.content).toContain('You played on the board last time');
  const r = await h.api.click(alias, last.id, here.custom_id!);
  expect(r.response?.type).toBe(7);
  const turned = r.response!.message!;
  expect(components(turned).some((c) => c.type === 3), `${alias}'s Play here brings the turn's menus`).toBe(true);
  return turned;
}

/** `alias` plays `pick(options)` from their turn DM's menu, or from **My hand** opened on the board. */
export async function playCard(h: Harness, gameId: number, channel: string, alias: string, via: 'dm' | 'hand', pick: (values: string[]) => string): Promise<string> {
  let msg: APIMessage;
  if (via === 'hand') {
    const b = await board(h, gameId, channel, alias);
    const r = await h.api.click(alias, b.id, `ks:hand:${gameId}`);
    expect(r.response?.message?.flags).toBe(EPHEMERAL);
    msg = r.response!.message!;
  } else msg = await turnDm(h, alias, gameId);
  const menu = select(msg, `ks:card:${gameId}:`);
  expect(menu, `${alias} has a card menu (${via})`).toBeDefined();
  const values = menu!.options!.map((o) => o.value);
  const value = pick(values);
  // A hand with a God card says what ✨= is.
  if (/✨=/.test(msg.content)) expect(msg.content).toContain(GOD_NOTE);
  const before = await state(h, gameId);
  const r = await h.api.select(alias, msg.id, menu!.custom_id!, [value]);
  expect(r.response?.type, JSON.stringify(r.response?.message?.content)).toBe(7);
  // The panel (My hand or the DM) now shows the hand as it is after the card, and whose turn it is.
  const answered = r.response!.message!.content;
  expect(answered.startsWith(`✅ You played ${cardTextOf(value as CardId)}.`), answered).toBe(true);
  const s = await state(h, gameId);
  const seat = s.players.indexOf(h.emulator.users[alias as keyof typeof h.emulator.users]!);
  const left = s.hands[seat]!;
  expect(answered).toContain(`(${left.length} card${left.length === 1 ? '' : 's'}): `);
  // Unless the card ended the match's first game (the autopilot places the last trick at once and
  // the second game is dealt: the same card may come back in the new hand), it has left the hand.
  if (s.game === before.game) expect(left).not.toContain(value);
  else expect(left, 'the second game is dealt a whole hand').toHaveLength(HAND_SIZE);
  const mine = s.phase === 'play' && s.turn === seat;
  expect(answered.includes('Your turn.'), answered).toBe(mine);
  await h.settle();
  return value;
}

export type PlaceStyle = 'one' | 'all' | 'auto';

/**
 * The winner of a trick places its cards through the placement panel: `one` places the first
 * waiting card on the first offered target and confirms; `all` plans every card, checking the
 * preview, and confirms once; `auto` previews Auto-place and applies it.
 */
export async function placeCards(h: Harness, gameId: number, channel: string, alias: string, style: PlaceStyle, via: 'board' | 'dm' = 'board'): Promise<void> {
  let panel: APIMessage;
  if (via === 'board') {
    const b = await board(h, gameId, channel, alias);
    const open = buttons(b).find((x) => x.custom_id?.startsWith(`ks:place:${gameId}:`));
    expect(open, 'the board offers Place won cards…').toBeDefined();
    const r = await h.api.click(alias, b.id, open!.custom_id!);
    expect(r.response?.message?.flags).toBe(EPHEMERAL);
    panel = r.response!.message!;
  } else panel = await turnDm(h, alias, gameId);
  const button = (m: APIMessage, prefix: string) => components(m).find((c) => c.type === 2 && c.custom_id?.startsWith(prefix));
  if (style === 'auto') {
    const r = await h.api.click(alias, panel.id, button(panel, `ks:auto:${gameId}:`)!.custom_id!);
    expect(r.response?.type).toBe(7);
    const preview = r.response!.message!;
    expect(preview.content).toMatch(/Auto-place\*\* in Keystone #\d+ would place/);
    const ok = await h.api.click(alias, preview.id, button(preview, `ks:autook:${gameId}:`)!.custom_id!);
    // The confirmation lists the placements as the preview did, in the same order.
    const planned = /would place: (.*)/.exec(preview.content)![1]!;
    expect(ok.response?.message?.content).toBe(`✅ Auto-placed: ${planned}.`);
    await h.settle();
    return;
  }
  let current = panel;
  for (;;) {
    const menu = components(current).find((c) => c.type === 3 && c.custom_id?.startsWith(`ks:tg:${gameId}:`));
    if (!menu) break;
    const target = menu.options![menu.options!.length > 1 ? 1 : 0]!.value;
    const r = await h.api.select(alias, current.id, menu.custom_id!, [target]);
    expect(r.response?.type).toBe(7);
    current = r.response!.message!;
    expect(current.content).toMatch(/\*\*Planned:\*\*/);
    expect(current.content).toMatch(/nothing is placed until you confirm/);
    if (style === 'one') break;
  }
  const ok = button(current, `ks:ok:${gameId}:`)!;
  expect(ok.disabled ?? false).toBe(false);
  const r = await h.api.click(alias, current.id, ok.custom_id!);
  expect(r.response?.message?.content, JSON.stringify(r.response)).toMatch(/✅ Placed/);
  await h.settle();
}

/** Whose input the game waits for, as an alias, and in which phase. */
export async function awaited(h: Harness, gameId: number): Promise<{ alias: string | null; phase: KeystoneState['phase']; s: KeystoneState }> {
  const s = await state(h, gameId);
  if (s.phase === 'over') return { alias: null, phase: 'over', s };
  const id = s.players[s.turn]!;
  const hit = Object.entries(h.emulator.users).find(([, uid]) => uid === id);
  return { alias: hit ? aliasOf(h, id) : null, phase: s.phase, s };
}
