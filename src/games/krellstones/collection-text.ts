import { RuleError } from '../../kernel/types.ts';
import { PRICES, STONE_KINDS, STONE_TYPES, type StoneType } from './data.ts';
import type { Collection, FaceDetail, FaceFilter, FaceInfo, Received, ShopItem, StoneDetail, StoneFilter, StoneInfo } from './inventory.ts';

/**
 * The collection's words: the help file's typed filters parsed (`DANCER INGAME HASALIAS`,
 * `MASTER UNSLOTTED PROMO >20 <40`), and what `/krellstone` answers, as plain text from the
 * service's results. Pure: no database, no Discord.
 */

const TYPE_WORDS: Record<string, StoneType> = Object.fromEntries(
  STONE_TYPES.flatMap((t) => [
    [t, t],
    [`${t}s`, t],
  ]),
);

function badFilter(message: string): never {
  throw new RuleError('krellstones/bad-filter', message);
}

function words(text: string | null | undefined): string[] {
  return (text ?? '').trim().split(/[\s,]+/).filter(Boolean);
}

function setType(current: StoneType | null | undefined, t: StoneType): StoneType {
  if (current && current !== t) badFilter(`A filter takes one stone type; you gave ${STONE_KINDS[current].name} and ${STONE_KINDS[t].name}.`);
  return t;
}

/** KRELLSTONE LIST's filter words: a type, GAME/INGAME, ALIAS/HASALIAS (any order, combined). */
export function parseStoneFilter(text: string | null | undefined, base: StoneFilter = {}): StoneFilter {
  const f: StoneFilter = { ...base };
  for (const w of words(text)) {
    const lw = w.toLowerCase();
    if (TYPE_WORDS[lw]) f.type = setType(f.type, TYPE_WORDS[lw]);
    else if (lw === 'game' || lw === 'ingame') f.inGame = true;
    else if (lw === 'alias' || lw === 'hasalias') f.hasAlias = true;
    else badFilter(`“${w.slice(0, 30)}” is not a stone filter. Use a type (PAWN, DANCER, KRELL, MASTER), INGAME, HASALIAS, or several: \`DANCER INGAME HASALIAS\`.`);
  }
  return f;
}

/** KRELLSTONE FACE LIST's filter words: a type, PROMO, UNSLOTTED, `>N` (N or more), `<N` (N or less). */
export function parseFaceFilter(text: string | null | undefined, base: FaceFilter = {}): FaceFilter {
  const f: FaceFilter = { ...base };
  for (const w of words(text)) {
    const lw = w.toLowerCase();
    const num = /^([<>])=?(\d{1,3})$/.exec(lw);
    if (TYPE_WORDS[lw]) f.type = setType(f.type, TYPE_WORDS[lw]);
    else if (lw === 'promo') f.promo = true;
    else if (lw === 'unslotted') f.unslotted = true;
    else if (lw === 'slotted') f.unslotted = false;
    else if (num) {
      if (num[1] === '>') f.atLeast = Number(num[2]);
      else f.atMost = Number(num[2]);
    } else badFilter(`“${w.slice(0, 30)}” is not a face filter. Use a type (PAWN, DANCER, KRELL, MASTER), PROMO, UNSLOTTED, >N or <N, or several: \`MASTER UNSLOTTED PROMO >20 <40\`.`);
  }
  return f;
}

export const typeName = (t: StoneType) => STONE_KINDS[t].name;

export function stoneName(s: Pick<StoneInfo, 'id' | 'type' | 'alias'>): string {
  return `${typeName(s.type)} #${s.id}${s.alias ? ` “${s.alias}”` : ''}`;
}

/** One line of a list: `Krell #12 “Lucky”: 3 5 9 12 17 20 · 2 faces · in game #4`. */
export function stoneLine(s: StoneInfo): string {
  const extras = [s.slotted ? `${s.slotted} face${s.slotted > 1 ? 's' : ''}` : null, s.gameId !== null ? `in game #${s.gameId}` : null].filter(Boolean);
  return `**${stoneName(s)}**: ${s.values.join(' ')}${extras.length ? ` · ${extras.join(' · ')}` : ''}`;
}

/** For autocomplete (at most 100 characters): `Krell #12 “Lucky”: 3 5 9 12 17 20`. */
export function stoneChoice(s: StoneInfo): string {
  return `${stoneName(s)}: ${s.values.join(' ')}${s.gameId !== null ? ` (in game #${s.gameId})` : ''}`;
}

export function faceName(f: Pick<FaceInfo, 'type' | 'value' | 'weight' | 'promo'>): string {
  return `${typeName(f.type)} face ${f.value}, weight ${f.weight}${f.promo ? ', promo' : ''}`;
}

/** `#31 Krell face 17, weight 1, promo` or `Krell face 17, weight 1 (in Krell #12 “Lucky”, side 3)`. */
export function faceLine(f: FaceInfo): string {
  if (f.slottedIn) {
    const s = f.slottedIn;
    return `${faceName(f)} (in ${typeName(f.type)} #${s.stoneId}${s.alias ? ` “${s.alias}”` : ''}, side ${s.side}${s.gameId !== null ? `, in game #${s.gameId}` : ''})`;
  }
  return `**#${f.id}** ${faceName(f)}`;
}

/** Lines joined under `max` characters; what does not fit is counted at the end. */
export function fitLines(head: string, lines: string[], tail: string, max = 1900): string {
  let out = head;
  let shown = 0;
  for (const line of lines) {
    if (out.length + line.length + tail.length + 60 > max) break;
    out += `\n${line}`;
    shown += 1;
  }
  if (shown < lines.length) out += `\n…and ${lines.length - shown} more: narrow the list with a filter.`;
  return tail ? `${out}\n${tail}` : out;
}

function describeStoneFilter(f: StoneFilter): string {
  const parts = [
    f.type ? `${typeName(f.type)}s` : null,
    f.inGame === true ? 'in a game' : f.inGame === false ? 'not in a game' : null,
    f.hasAlias === true ? 'with an alias' : f.hasAlias === false ? 'without an alias' : null,
  ].filter(Boolean);
  return parts.join(', ');
}

export function stoneListText(c: Collection, f: StoneFilter): string {
  const what = describeStoneFilter(f);
  const tail = `🪙 ${c.credits} credits · ${c.looseFaces} loose face${c.looseFaces === 1 ? '' : 's'} · ${c.mats.length} mat${c.mats.length === 1 ? '' : 's'}${c.mats.length ? ` (${c.mats.map((m) => `#${m.id} ${m.name}`).join(', ')})` : ''}`;
  if (c.stones.length === 0) {
    const none = what ? `You have no krellstones (${what}).` : 'You have no krellstones yet.';
    const hint = c.freeKitAvailable ? ' Claim your free starter kit with `/krellstone claim`.' : what ? '' : ' Buy a starter kit in `/krellstone shop`.';
    return `${none}${hint}\n${tail}`;
  }
  return fitLines(`🪨 Your krellstones${what ? ` (${what})` : ''}: ${c.stones.length}`, c.stones.map(stoneLine), tail);
}

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;

export function stoneDetailText(d: StoneDetail): string {
  const head = `🔎 **${stoneName(d)}** (${STONE_KINDS[d.type].sides} sides)${d.gameId !== null ? `: in game #${d.gameId}, it cannot be changed until that game ends` : ''}`;
  const lines = d.sides.map((s) => {
    const face = s.face ? `face ${s.face.value} (weight +${s.face.weight}${s.face.promo ? ', promo' : ''}) over printed ${s.printed}` : `printed ${s.printed}`;
    return `Side ${s.side}: **${s.value}**: ${face} · weight ${s.weight} · ${pct(s.chance)}`;
  });
  const total = d.sides.reduce((a, s) => a + s.weight, 0);
  return fitLines(head, lines, `A side comes up with its weight over the stone’s total weight (${total}).`);
}

export function faceListText(faces: FaceInfo[], filtered: boolean): string {
  if (faces.length === 0) return filtered ? 'No faces match that filter.' : 'You have no faces. Starter kits hold 2, face packs 3 (`/krellstone shop`).';
  return fitLines(`🧩 Your faces${filtered ? ' (filtered)' : ''}: ${faces.length}`, faces.map(faceLine), '');
}

export function faceDetailText(f: FaceDetail): string {
  const lines = [
    `🧩 **Face #${f.id}**: fits a ${typeName(f.type)}, shows **${f.value}**, weight **${f.weight}** (a side holding it weighs ${1 + f.weight}).`,
    f.promo ? `Promo face: \`/krellstone tradein face:${f.id}\` gives ${PRICES.promoTradeIn} credits.` : 'Not a promo face.',
    f.fits.length
      ? `Fits now: ${f.fits.map((x) => `${stoneName(x.stone)} side${x.sides.length > 1 ? 's' : ''} ${x.sides.join(', ')}`).join('; ')}.`
      : `None of your ${typeName(f.type)}s has a free side where ${f.value} would not repeat a number it shows.`,
  ];
  return lines.join('\n').slice(0, 1990);
}

export function receivedText(r: Received): string {
  const lines = [
    ...r.stones.map((s) => `• ${stoneLine(s)}`),
    ...r.mats.map((m) => `• Mat **#${m.id}** ${m.name}`),
    ...r.faces.map((f) => `• Face ${faceLine(f)}`),
  ];
  return fitLines('', lines, '').trim();
}

export function shopText(items: ReadonlyArray<{ item: ShopItem; name: string; price: number; contents: string }>, credits: number, freeKit: boolean): string {
  return [
    '🛒 **The Krellstones shop** (`/krellstone buy`)',
    ...items.map((i) => `• **${i.name}**: ${i.price} credits: ${i.contents}`),
    `You have 🪙 **${credits}** credits. Trading in a promo face gives ${PRICES.promoTradeIn}.`,
    freeKit ? '🎁 Your free starter kit is waiting: `/krellstone claim`.' : '',
  ]
    .filter(Boolean)
    .join('\n');
}
