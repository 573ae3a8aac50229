import { expect } from 'vitest';
import type { MessagePayload } from '../../../src/bot/game-module.ts';
import { card, type CardId, type KeystoneState } from '../../../src/games/keystone/engine/index.ts';
import { COLOUR_EMOJI } from '../../../src/games/keystone/present.ts';

/**
 * Checks of rendered Keystone payloads: Discord's limits, and hidden information (which cards a
 * payload names, in any of the forms the renderers use: the id `red-7`, the face `🟥7`, a hand's
 * group `🟥 2 7 9`, the words `Red 7`; a God card by its id, or its face `✨=` without a number).
 */


const EMOJI_COLOUR = new Map(Object.entries(COLOUR_EMOJI).map(([colour, emoji]) => [emoji, colour]));

/** Every card `text` names, in any of the forms above (God cards by id only). */
export function namedCards(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\b(red|blue|green|yellow|purple)[- ](10|[1-9])(?![0-9])/giu)) out.add(`${m[1]!.toLowerCase()}-${m[2]}`);
  for (const m of text.matchAll(/god-[1-3](?![0-9])/gu)) out.add(m[0]);
  for (const m of text.matchAll(/(🟥|🟦|🟩|🟨|🟪)((?:\s?(?:10|[1-9])(?![0-9]))+)/gu)) {
    for (const n of m[2]!.trim().split(/\s+/)) out.add(`${EMOJI_COLOUR.get(m[1]!)}-${n}`);
  }
  return out;
}

/** Whether `text` names card `id` (a God card: its id only; see `showsGodFace`). */
export const names = (text: string, id: CardId): boolean => namedCards(text).has(id);

/** A God card's face as in a trick or a hand (`✨=`, not `✨=6`, which is a God card lying in a line). */
export const showsGodFace = (text: string) => /✨=(?![0-9])/u.test(text);

/** Every text of a payload, components included (labels, values, descriptions, placeholders). */
export const textOf = (p: MessagePayload) => JSON.stringify({ ...p, files: undefined });

/** Cards of hands other than `owner`'s (all hands for null) and the undealt ones. */
export function secretCards(s: KeystoneState, owner: string | null): CardId[] {
  return [...s.hands.flatMap((h, seat) => (s.players[seat] === owner ? [] : h)), ...s.undealt];
}

/** God cards anyone can see now: in the trick, the last trick, or waiting to be placed. */
export function publicGodCount(s: KeystoneState): number {
  return [...s.played, ...s.pending, ...(s.lastTrick?.cards ?? [])].filter((id) => card(id).god).length;
}

/**
 * A payload that `owner` may see (null: anyone) names none of the cards they may not know, and
 * shows a God card's face only if a God card is public or in `owner`'s own hand. A message sent
 * earlier in the game (`past`) may show God cards that were public then: only the names count.
 */
export function expectNoLeak(s: KeystoneState, p: MessagePayload, owner: string | null, where: string, past = false): void {
  const text = textOf(p);
  const named = namedCards(text);
  const leaked = secretCards(s, owner).filter((id) => named.has(id));
  if (leaked.length) expect(leaked, `${where}: names ${leaked.join(', ')}`).toEqual([]);
  const ownGods = owner === null ? 0 : (s.hands[s.players.indexOf(owner)] ?? []).filter((id) => card(id).god).length;
  if (!past && publicGodCount(s) + ownGods === 0 && showsGodFace(text)) expect.fail(`${where}: shows a God card's face`);
}

/** What breaks Discord's limits in a payload (docs/emulator.md lists what the emulator enforces too). */
export function limitProblems(p: MessagePayload): string[] {
  const out: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) out.push(what);
  };
  check((p.content ?? '').length <= 2000, `content of ${(p.content ?? '').length}`);
  const embeds = p.embeds ?? [];
  check(embeds.length <= 10, 'more than 10 embeds');
  let total = 0;
  for (const e of embeds) {
    check((e.description ?? '').length <= 4096, `description of ${(e.description ?? '').length}`);
    check((e.title ?? '').length <= 256, 'title');
    check((e.fields ?? []).length <= 25, `${(e.fields ?? []).length} fields`);
    for (const f of e.fields ?? []) {
      check(f.name.length <= 256, `field name ${f.name}`);
      check(f.value.length <= 1024 && f.value.length > 0, `field ${f.name} of ${f.value.length}`);
    }
    total += (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0) + (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
  }
  check(total <= 6000, `embeds of ${total} together`);
  const rows = p.components ?? [];
  check(rows.length <= 5, `${rows.length} rows`);
  const ids = new Set<string>();
  for (const r of rows) {
    const comps = r.components as unknown as Array<Record<string, unknown>>;
    const selects = comps.filter((c) => c.type === 3);
    check(selects.length === 0 ? comps.length >= 1 && comps.length <= 5 : comps.length === 1, 'a row of 1-5 buttons or one select');
    for (const c of comps) {
      if (typeof c.custom_id === 'string') {
        check(c.custom_id.length <= 100, `custom id ${c.custom_id}`);
        check(!ids.has(c.custom_id), `duplicate custom id ${c.custom_id}`);
        ids.add(c.custom_id);
      }
      if (typeof c.label === 'string') check(c.label.length <= 80, `label ${c.label}`);
      if (c.type === 3) {
        const options = c.options as Array<{ label: string; value: string; description?: string }>;
        check(options.length >= 1 && options.length <= 25, `${options.length} options`);
        check(new Set(options.map((o) => o.value)).size === options.length, 'option values repeat');
        for (const o of options) check(o.label.length <= 100 && o.value.length <= 100 && (o.description ?? '').length <= 100, `option ${o.label}`);
      }
    }
  }
  return out;
}

export function expectWithinLimits(p: MessagePayload, where: string): void {
  const problems = limitProblems(p);
  if (problems.length) expect(problems, where).toEqual([]);
}
