import type { APIMessage } from 'discord.js';
import { expect } from 'vitest';
import type { CrystalliaState } from '../../../src/games/crystallia/engine/index.ts';
import { aliasOf, buttons, EPHEMERAL, type Harness } from '../../helpers/harness.ts';

/**
 * Playing Crystallia through the emulator as people do: the board's "Take your turn" opens an
 * ephemeral panel; the driver clicks through it (stone, square, direction, abilities, isolation)
 * to the preview and Confirm, choosing among the options it is shown with a seeded generator.
 */

export type Select = { type: number; custom_id: string; options: Array<{ value: string; label: string; description?: string }>; min_values?: number; max_values?: number };
type Btn = ReturnType<typeof buttons>[number];

export function selects(m: APIMessage): Select[] {
  return (m.components ?? []).flatMap((r) => ((r as { components?: Select[] }).components ?? []).filter((c) => c.type === 3));
}

export async function load(h: Harness, gameId: number) {
  const game = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  return { game, state: game.state as unknown as CrystalliaState };
}

export async function boardMessage(h: Harness, channel: string, gameId: number, as = 'moderator'): Promise<APIMessage> {
  const { game } = await load(h, gameId);
  const m = (await h.api.messages(channel, as)).messages.find((x) => x.id === game.boardMessageId);
  if (!m) throw new Error(`no board for game ${gameId}`);
  return m;
}

/** The PNG bytes of a message's attachment (fetched from the emulator's CDN, as a client would). */
export async function attachmentBytes(m: APIMessage, k = 0): Promise<Buffer> {
  const a = m.attachments[k];
  if (!a) throw new Error(`message ${m.id} has no attachment ${k}`);
  const res = await fetch(a.url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** A small deterministic generator. */
export function lcg(seed: number): () => number {
  let x = seed % 2147483647 || 1;
  return () => (x = (x * 48271) % 2147483647) / 2147483647;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

export interface TurnRecord {
  /** The panels' custom id actions, in order (e.g. play, stone, sq, dir, skip, ok). */
  steps: string[];
  preview: APIMessage;
  confirmed: APIMessage;
}

/**
 * Plays `user`'s whole turn in game `gameId` by clicking: opens the panel from the board, then
 * follows it to Confirm. `prefer` may steer a step: return a value or custom id to take, or null.
 */
export async function playTurn(
  h: Harness,
  channel: string,
  gameId: number,
  user: string,
  r: () => number,
  prefer: (panel: APIMessage) => { customId: string; values?: string[] } | null = () => null,
  /** Where to start the turn instead of the board: a turn DM with its Take your turn button. */
  from?: APIMessage,
): Promise<TurnRecord> {
  const board = from ?? (await boardMessage(h, channel, gameId, user));
  const play = buttons(board).find((b) => b.custom_id?.startsWith(`cr:play:${gameId}:`));
  if (!play) throw new Error(`the board of game ${gameId} has no Take your turn button: ${JSON.stringify(buttons(board))}`);
  const opened = await h.api.click(user, board.id, play.custom_id!);
  expect(opened.response?.type, opened.response?.message?.content).toBe(4);
  let panel = opened.response!.message!;
  expect(panel.flags).toBe(EPHEMERAL);
  const steps = ['play'];
  for (let k = 0; k < 30; k++) {
    const wanted = prefer(panel);
    const sels = selects(panel);
    const btns = buttons(panel).filter((b: Btn) => b.custom_id && !b.disabled);
    const byAction = (a: string) => btns.filter((b) => b.custom_id!.split(':')[1] === a);
    const sel = (a: string) => sels.filter((s) => s.custom_id.split(':')[1] === a);
    let action: { customId: string; values?: string[] };
    if (wanted) action = wanted;
    else if (byAction('ok').length) action = { customId: byAction('ok')[0]!.custom_id! };
    else if (byAction('dir').length) action = { customId: pick(r, byAction('dir')).custom_id! };
    else if (byAction('iso').length) action = { customId: pick(r, byAction('iso')).custom_id! };
    else if (sel('mvto').length || sel('rotto').length) {
      const s = pick(r, [...sel('mvto'), ...sel('rotto')]);
      action = { customId: s.custom_id, values: [pick(r, s.options).value] };
    } else if ((sel('mv').length || sel('rot').length) && r() < 0.7) {
      const s = pick(r, [...sel('mv'), ...sel('rot')]);
      action = { customId: s.custom_id, values: [pick(r, s.options).value] };
    } else if (byAction('skip').length) action = { customId: byAction('skip')[0]!.custom_id! };
    else if (sel('sq').length) {
      const s = pick(r, sel('sq'));
      action = { customId: s.custom_id, values: [pick(r, s.options).value] };
    } else if (sel('stone').length) {
      const s = sel('stone')[0]!;
      action = { customId: s.custom_id, values: [pick(r, s.options).value] };
    } else throw new Error(`the panel offers nothing to do: ${panel.content} ${JSON.stringify(panel.components)}`);
    const res = action.values ? await h.api.select(user, panel.id, action.customId, action.values) : await h.api.click(user, panel.id, action.customId);
    const name = action.customId.split(':')[1]!;
    steps.push(name);
    expect(res.response?.type, `${name}: ${res.response?.message?.content}`).toBe(7);
    const next = res.response!.message!;
    if (name === 'ok') {
      await h.settle();
      return { steps, preview: panel, confirmed: next };
    }
    panel = next;
  }
  throw new Error('a turn took more than 30 clicks');
}

/** The alias of the player whose turn (or flip) the game waits for, or null when it is over. */
export async function whoseTurn(h: Harness, gameId: number): Promise<string | null> {
  const { state } = await load(h, gameId);
  if (state.outcome) return null;
  if (state.flips) return aliasOf(h, Object.keys(state.flips).find((p) => state.flips![p] === null)!);
  return aliasOf(h, state.turn!.player);
}
