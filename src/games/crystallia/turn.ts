import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponentWithCustomId, type APIComponentInMessageActionRow, type APISelectMenuOption } from 'discord.js';
import type { MessagePayload } from '../../bot/game-module.ts';
import { BOARD_COLS, COLOURS, neighbour, squareName, stoneName, type Colour, type CrystalliaMove, type CrystalliaView, type Direction, type Half } from './engine/index.ts';
import { ids } from './ids.ts';
import { pictureFor, renderPicture } from './render.ts';

/**
 * A Crystallia turn on a phone: pure builders of the ephemeral panels the routes show, from views
 * and legal moves only, and the codec of the `chain` (the moves chosen so far, carried in the
 * custom ids until Confirm plays them all in one transaction).
 *
 *   take: a stone (menu, each stone's colours), or a talisman (menu)
 *   square: three menus of first squares (rows A-B, C-D, E-F; only squares a placement starts
 *     from), then the direction buttons (only legal ones)
 *   abilities (when the stone covers Move or Rotate): the stone, then where; or skip
 *   isolation (when the colour is a choice): one button per colour
 *   preview: the picture of the result, what it gains, Confirm / Start over
 */

export interface PanelMeta {
  gameId: number;
  version: number;
}

/** A picture attached to a panel (the board as it is now, on the steps that choose where to play). */
export type PanelFile = NonNullable<MessagePayload['files']>[number];

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;
const id = (meta: PanelMeta, action: Parameters<typeof ids.make>[0], ...args: Array<string | number>) => ids.make(action, meta.gameId, meta.version, ...args);

// ---------------------------------------------------------------------------------------------
// the chain codec

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_';
const DIR_CODE: Record<Direction, string> = { right: 'r', down: 'd', left: 'l', up: 'u' };
const COLOUR_CODE: Record<Colour, string> = { red: 'r', blue: 'b', green: 'g', purple: 'p' };
const char = (n: number) => ALPHABET[n]!;

/** The longest chain any game can need: a placement, one Move or Rotate per such square of six chaos tiles, a skip, an isolation. */
export const MAX_CHAIN = 4 + 12 * 4 + 1 + 2;

export function encodeMove(m: CrystalliaMove): string {
  switch (m.type) {
    case 'place':
      return `p${char(m.stone)}${char(m.square)}${DIR_CODE[m.dir]}`;
    case 'discard':
      return `x${char(m.stone)}`;
    case 'talisman':
      return `t${COLOUR_CODE[m.colour]}`;
    case 'move':
      return `m${char(m.stone)}${char(m.to)}`;
    case 'rotate':
      return `o${char(m.stone)}${m.pivot}${char(m.to)}`;
    case 'skip-ability':
      return 'k';
    case 'isolate':
      return `i${COLOUR_CODE[m.colour]}`;
    case 'flip':
      throw new Error('flips are not chained');
  }
}

/** The chain of `moves` as it travels in custom ids (`~`: no move yet). */
export function encodeChain(moves: readonly CrystalliaMove[]): string {
  const s = moves.map(encodeMove).join('');
  if (s.length > MAX_CHAIN) throw new Error(`a Crystallia turn chain is longer than any game allows: ${s}`);
  return s || '~';
}

/** The moves of a chain, or null when it is not one (an edited id). Values out of range are left to the engine to refuse. */
export function decodeChain(s: string): CrystalliaMove[] | null {
  const out: CrystalliaMove[] = [];
  if (s === '~') return out;
  const num = (c: string | undefined) => (c === undefined ? -1 : ALPHABET.indexOf(c));
  const colour = (c: string | undefined) => COLOURS.find((k) => COLOUR_CODE[k] === c);
  let i = 0;
  while (i < s.length) {
    const t = s[i]!;
    if (t === 'p') {
      const dir = (Object.keys(DIR_CODE) as Direction[]).find((d) => DIR_CODE[d] === s[i + 3]);
      const [stone, square] = [num(s[i + 1]), num(s[i + 2])];
      if (!dir || stone < 0 || square < 0) return null;
      out.push({ type: 'place', stone, square, dir });
      i += 4;
    } else if (t === 'x' || t === 'm') {
      const stone = num(s[i + 1]);
      if (stone < 0) return null;
      if (t === 'x') {
        out.push({ type: 'discard', stone });
        i += 2;
      } else {
        const to = num(s[i + 2]);
        if (to < 0) return null;
        out.push({ type: 'move', stone, to });
        i += 3;
      }
    } else if (t === 'o') {
      const [stone, to] = [num(s[i + 1]), num(s[i + 3])];
      const pivot = s[i + 2] === '0' ? 0 : s[i + 2] === '1' ? 1 : -1;
      if (stone < 0 || to < 0 || pivot < 0) return null;
      out.push({ type: 'rotate', stone, pivot: pivot as 0 | 1, to });
      i += 4;
    } else if (t === 't' || t === 'i') {
      const c = colour(s[i + 1]);
      if (!c) return null;
      out.push(t === 't' ? { type: 'talisman', colour: c } : { type: 'isolate', colour: c });
      i += 2;
    } else if (t === 'k') {
      out.push({ type: 'skip-ability' });
      i += 1;
    } else return null;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// words and emoji

export const COLOUR_EMOJI: Record<Half, string> = { red: '🟥', blue: '🟦', green: '🟩', purple: '🟪', yellow: '🟨' };
const ARROW: Record<Direction, string> = { right: '→', down: '↓', left: '←', up: '↑' };
export const stoneLabel = (stone: number, halves: readonly [Half, Half]) => `#${stone + 1} ${COLOUR_EMOJI[halves[0]]}${COLOUR_EMOJI[halves[1]]} ${stoneName(halves)}`;
const span = (a: number, b: number) => `${squareName(a)}–${squareName(b)}`;
const ROW_GROUPS = [
  [0, 1],
  [2, 3],
  [4, 5],
] as const;
const groupName = (k: number) => `${String.fromCharCode(65 + ROW_GROUPS[k]![0])}–${String.fromCharCode(65 + ROW_GROUPS[k]![1])}`;
const groupOf = (square: number) => Math.floor(Math.floor(square / BOARD_COLS) / 2);

function halvesOf(view: CrystalliaView, stone: number): [Half, Half] | null {
  const onBoard = view.stones.find((s) => s.id === stone);
  if (onBoard) return onBoard.halves;
  for (const row of view.pyramid) for (const c of row) if (c?.faceUp && c.id === stone) return c.halves;
  return null;
}

type Style = ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Success | ButtonStyle.Danger;
const button = (custom_id: string, label: string, style: Style, disabled = false): APIButtonComponentWithCustomId => ({ type: ComponentType.Button, custom_id, label, style, disabled });
const row = (...components: APIComponentInMessageActionRow[]): Row => ({ type: ComponentType.ActionRow, components });
const select = (custom_id: string, placeholder: string, options: APISelectMenuOption[], extra: { min?: number; max?: number } = {}): Row =>
  row({ type: ComponentType.StringSelect, custom_id, placeholder, options, ...(extra.min !== undefined ? { min_values: extra.min } : {}), ...(extra.max !== undefined ? { max_values: extra.max } : {}) });
const startOver = (meta: PanelMeta) => button(id(meta, 'again'), 'Start over', ButtonStyle.Secondary);
const describeSquare = (view: CrystalliaView, sq: number) => {
  const k = view.board.squares[sq]!;
  return k === 'extra-turn' ? 'Extra Turn' : k === 'move' ? 'Move' : k === 'rotate' ? 'Rotate' : k;
};

// ---------------------------------------------------------------------------------------------
// the panels

function places(legal: readonly CrystalliaMove[]): Extract<CrystalliaMove, { type: 'place' }>[] {
  return legal.filter((m): m is Extract<CrystalliaMove, { type: 'place' }> => m.type === 'place');
}

/**
 * The start of a turn: a stone (or, when none fits anywhere, the one to give up), or a talisman;
 * with `board`, the board's picture as it is now, so a player in their DMs sees what they choose from.
 */
export function takePanel(view: CrystalliaView, legal: readonly CrystalliaMove[], meta: PanelMeta, board?: PanelFile): MessagePayload {
  const t = view.turn!;
  const placed = places(legal);
  const discards = legal.filter((m) => m.type === 'discard').map((m) => (m as { stone: number }).stone);
  const talismans = legal.filter((m) => m.type === 'talisman').map((m) => (m as { colour: Colour }).colour);
  const lines = [`🎲 **Your ${t.second ? 'second turn' : 'turn'}** in Crystallia #${meta.gameId}: take an available stone and place it${talismans.length ? ', or use a talisman instead' : ''}.`];
  const rows: Row[] = [];
  const stones = view.available.filter((s) => placed.some((m) => m.stone === s));
  if (stones.length) {
    const options = stones.map((s) => {
      const n = placed.filter((m) => m.stone === s).length;
      return { label: stoneLabel(s, halvesOf(view, s)!), value: String(s), description: `fits in ${n} place${n === 1 ? '' : 's'}` };
    });
    rows.push(select(id(meta, 'stone'), 'Choose a stone from the pyramid', options));
  } else if (discards.length) {
    lines.push('No available stone fits anywhere on the board: take one of them; it leaves the game and your turn ends (nothing is gained).');
    const options = discards.map((s) => ({ label: stoneLabel(s, halvesOf(view, s)!), value: String(s), description: 'fits nowhere: it leaves the game' }));
    rows.push(select(id(meta, 'stone'), 'Choose the stone that leaves the game', options));
  }
  if (talismans.length) {
    lines.push(`A talisman gives you one crystal of a colour no talisman has taken yet (${view.talismans.left} left).`);
    rows.push(select(id(meta, 'tal'), 'Or use a talisman: choose its colour', talismans.map((c) => ({ label: `${COLOUR_EMOJI[c]} ${c}`, value: c, description: `+1 ${c} crystal (${view.supply[c]} left in the supply)` }))));
  } else if (!t.second && view.talismans.left > 0 && view.talismans.colours.length > 0) {
    lines.push('No talisman this turn: the turn just before yours used one.');
  }
  return { content: lines.join('\n'), components: rows, files: board ? [board] : [], allowed_mentions: { parse: [] } };
}

/** The placements of one stone: legal pairs of squares, by first square and direction (a double's two spellings are one placement). */
function placementsOf(view: CrystalliaView, legal: readonly CrystalliaMove[], stone: number): Map<number, Map<Direction, CrystalliaMove>> {
  const halves = halvesOf(view, stone);
  const double = halves !== null && halves[0] === halves[1];
  const out = new Map<number, Map<Direction, CrystalliaMove>>();
  const add = (sq: number, d: Direction, m: CrystalliaMove) => {
    if (!out.has(sq)) out.set(sq, new Map());
    out.get(sq)!.set(d, m);
  };
  for (const m of places(legal)) {
    if (m.stone !== stone) continue;
    add(m.square, m.dir, m);
    if (double) {
      const other = neighbour(m.square, m.dir);
      add(other, m.dir === 'right' ? 'left' : 'up', m);
    }
  }
  return out;
}

/** Where the chosen stone goes: its first square (three menus by rows), then the direction of its second half; with `board`, the board's picture. */
export function squarePanel(view: CrystalliaView, legal: readonly CrystalliaMove[], meta: PanelMeta, stone: number, chosen: number | null, board?: PanelFile): MessagePayload {
  const halves = halvesOf(view, stone);
  const where = placementsOf(view, legal, stone);
  if (!halves || where.size === 0) return takePanel(view, legal, meta, board);
  const name = stoneLabel(stone, halves);
  const rows: Row[] = [];
  for (let k = 0; k < ROW_GROUPS.length; k++) {
    const squares = [...where.keys()].filter((sq) => groupOf(sq) === k).sort((a, b) => a - b);
    if (squares.length === 0) continue;
    const options = squares.map((sq) => ({
      label: `${squareName(sq)} (${describeSquare(view, sq)})`,
      value: String(sq),
      description: `second half: ${(['right', 'down', 'left', 'up'] as const).filter((d) => where.get(sq)!.has(d)).map((d) => `${ARROW[d]} ${squareName(neighbour(sq, d))}`).join('  ')}`,
      ...(sq === chosen ? { default: true } : {}),
    }));
    rows.push(select(id(meta, 'sq', stone, k), `Rows ${groupName(k)}: first half (${halves[0]}) on…`, options));
  }
  const lines = [`You take **${name}**. Where does its first half (${halves[0]}) go? Then choose where the second half (${halves[1]}) points.`];
  const buttons = [];
  if (chosen !== null && where.has(chosen)) {
    lines[0] = `You take **${name}**, first half on **${squareName(chosen)}**. Where does the second half (${halves[1]}) go?`;
    for (const d of ['right', 'down', 'left', 'up'] as const) {
      const other = neighbour(chosen, d);
      if (other < 0) continue;
      buttons.push(button(id(meta, 'dir', stone, chosen, d), `${ARROW[d]} ${squareName(other)}`, ButtonStyle.Primary, !where.get(chosen)!.has(d)));
    }
  }
  buttons.push(startOver(meta));
  rows.push(row(...buttons));
  return { content: lines.join('\n'), components: rows, files: board ? [board] : [], allowed_mentions: { parse: [] } };
}

/** The move that `square` + `dir` stands for among the legal placements of `stone`, in the engine's spelling. */
export function placementMove(view: CrystalliaView, legal: readonly CrystalliaMove[], stone: number, square: number, dir: Direction): CrystalliaMove | null {
  return placementsOf(view, legal, stone).get(square)?.get(dir) ?? null;
}

const NAMES = { move: 'Move', rotate: 'Rotate', 'extra-turn': 'Extra Turn' } as const;

/** Move and Rotate covered: which stone each acts on (only stones with a legal use), or skip. */
export function abilityPanel(view: CrystalliaView, legal: readonly CrystalliaMove[], meta: PanelMeta, chain: string): MessagePayload {
  const t = view.turn!;
  const rows: Row[] = [];
  const pending = t.pending.map((a) => NAMES[a]).join(' and ');
  const lines = [`You covered **${pending}**: each is optional; use them one at a time, in any order, or skip what is left. (Squares a moved stone newly covers pay their crystal at once, and their abilities join these.)`];
  const sofar = view.thisTurn?.text;
  if (sofar) lines.push(`So far: ${sofar}`);
  for (const kind of ['move', 'rotate'] as const) {
    const ms = legal.filter((m) => m.type === kind) as Array<{ stone: number }>;
    const stones = [...new Set(ms.map((m) => m.stone))];
    if (stones.length === 0) continue;
    const options = stones.slice(0, 25).map((s) => {
      const on = view.stones.find((x) => x.id === s)!;
      const n = ms.filter((m) => m.stone === s).length;
      return { label: `${stoneLabel(s, on.halves)} on ${span(on.squares[0], on.squares[1])}`, value: String(s), description: `${n} way${n === 1 ? '' : 's'} to ${kind === 'move' ? 'move' : 'rotate'} it` };
    });
    rows.push(select(id(meta, kind === 'move' ? 'mv' : 'rot', chain), kind === 'move' ? 'Move: choose the stone to slide' : 'Rotate: choose the stone to turn', options));
  }
  rows.push(row(button(id(meta, 'skip', chain), `Skip ${pending}`, ButtonStyle.Secondary), startOver(meta)));
  return { content: lines.join('\n'), components: rows, files: [], allowed_mentions: { parse: [] } };
}

/** Where a Move slides the chosen stone (three menus by the rows of its first half). */
export function moveTargetsPanel(view: CrystalliaView, legal: readonly CrystalliaMove[], meta: PanelMeta, chain: string, stone: number): MessagePayload {
  const on = view.stones.find((x) => x.id === stone);
  const targets = (legal.filter((m) => m.type === 'move' && m.stone === stone) as Array<{ to: number }>).map((m) => m.to);
  if (!on || targets.length === 0) return abilityPanel(view, legal, meta, chain);
  const offset = on.squares[1] - on.squares[0];
  const rows: Row[] = [];
  for (let k = 0; k < ROW_GROUPS.length; k++) {
    const here = targets.filter((sq) => groupOf(sq) === k).sort((a, b) => a - b);
    if (here.length === 0) continue;
    const options = here.map((to) => ({
      label: span(to, to + offset),
      value: String(to),
      description: `covers ${[to, to + offset].filter((sq) => !on.squares.includes(sq)).map((sq) => describeSquare(view, sq)).join(' + ') || 'nothing new'}`,
    }));
    rows.push(select(id(meta, 'mvto', chain, stone, k), `Rows ${groupName(k)}: move it to…`, options));
  }
  rows.push(row(button(id(meta, 'back', chain), 'Back', ButtonStyle.Secondary), startOver(meta)));
  return { content: `Move **${stoneLabel(stone, on.halves)}** from ${span(on.squares[0], on.squares[1])} (it keeps its orientation): where to?`, components: rows, files: [], allowed_mentions: { parse: [] } };
}

/** How a Rotate turns the chosen stone: which half stays, and where the other goes. */
export function rotateTargetsPanel(view: CrystalliaView, legal: readonly CrystalliaMove[], meta: PanelMeta, chain: string, stone: number): MessagePayload {
  const on = view.stones.find((x) => x.id === stone);
  const ways = legal.filter((m) => m.type === 'rotate' && m.stone === stone) as Array<{ pivot: 0 | 1; to: number }>;
  if (!on || ways.length === 0) return abilityPanel(view, legal, meta, chain);
  const options = ways.map((w) => {
    const keep = on.squares[w.pivot];
    return { label: `keep ${on.halves[w.pivot]} on ${squareName(keep)}, turn ${on.halves[1 - w.pivot]} onto ${squareName(w.to)}`, value: `${w.pivot}.${w.to}`, description: `covers ${describeSquare(view, w.to)}` };
  });
  return {
    content: `Rotate **${stoneLabel(stone, on.halves)}** on ${span(on.squares[0], on.squares[1])}: one half stays, the other turns to an empty neighbour of it.`,
    components: [select(id(meta, 'rotto', chain, stone), 'Rotate it…', options), row(button(id(meta, 'back', chain), 'Back', ButtonStyle.Secondary), startOver(meta))],
    files: [],
    allowed_mentions: { parse: [] },
  };
}

/** The isolation crystal's colour, when the stone allows more than one. */
export function isolatePanel(view: CrystalliaView, legal: readonly CrystalliaMove[], meta: PanelMeta, chain: string): MessagePayload {
  const colours = (legal.filter((m) => m.type === 'isolate') as Array<{ colour: Colour }>).map((m) => m.colour);
  const sofar = view.thisTurn?.text;
  return {
    content: [`Your stone touches no other stone: it is **isolated**. Choose the colour of your isolation crystal.`, sofar ? `So far: ${sofar}` : ''].filter(Boolean).join('\n'),
    components: [row(...colours.map((c) => button(id(meta, 'iso', chain, c), `${COLOUR_EMOJI[c]} ${c}`, ButtonStyle.Primary)), startOver(meta))],
    files: [],
    allowed_mentions: { parse: [] },
  };
}

/** The pyramid places face down in `before`: a preview keeps them face down whatever its moves uncover. */
export function faceDownPlaces(before: CrystalliaView): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  before.pyramid.forEach((r, i) => r.forEach((c, j) => c && !c.faceUp && out.push([i, j])));
  return out;
}

/** The result of the whole turn, not played yet: its picture, what it gains, Confirm or Start over. */
export function previewPanel(before: CrystalliaView, after: CrystalliaView, me: string, meta: PanelMeta, chain: string, names: Record<string, string>): MessagePayload {
  const turn = after.lastTurn;
  const gained = turn && turn.player === me ? turn.text : '';
  const score = `${before.scores[me] ?? 0} → ${after.scores[me] ?? 0}`;
  const lines = [`👀 **Preview, not played yet** (Crystallia #${meta.gameId}): ${gained || 'your turn'}.`, `Your score: ${score}.`];
  if (after.eliminated.includes(me) && !before.eliminated.includes(me)) lines.push('⚠️ This puts you **out of the game** (13 crystals of one colour).');
  if (after.phase === 'over') lines.push('This ends the game.');
  lines.push('**Confirm** to play it, or start over.');
  const png = pictureFor(`preview:${meta.gameId}:${meta.version}:${chain}:${Object.values(names).join('|')}`, () =>
    renderPicture(after, { names, title: `Crystallia #${meta.gameId}`, preview: true, faceDown: faceDownPlaces(before) }),
  );
  return {
    content: lines.join('\n').slice(0, 2000),
    components: [row(button(id(meta, 'ok', chain), 'Confirm', ButtonStyle.Success), startOver(meta))],
    files: [{ name: `crystallia-${meta.gameId}-preview.png`, data: png, description: 'Preview of your turn' }],
    allowed_mentions: { parse: [] },
  };
}

/**
 * The panel after `moves` (not played yet) of the turn that `before` shows starting: the next step
 * of that turn (abilities, isolation) while it goes on, else the preview of the whole turn.
 */
export function nextPanel(input: {
  before: CrystalliaView;
  me: string;
  meta: PanelMeta;
  moves: readonly CrystalliaMove[];
  after: { view: CrystalliaView; legal: readonly CrystalliaMove[] };
  names: Record<string, string>;
  /** The board's picture as it is now, shown on the first step (no move chosen yet). */
  board?: PanelFile;
}): MessagePayload {
  const { before, me, meta, moves, after, names, board } = input;
  const chain = encodeChain(moves);
  const t = after.view.turn;
  const going = after.view.phase === 'play' && t !== null && t.player === me && t.number === before.turn?.number;
  if (going && t.step === 'ability') return abilityPanel(after.view, after.legal, meta, chain);
  if (going && t.step === 'isolate') return isolatePanel(after.view, after.legal, meta, chain);
  if (moves.length === 0) return takePanel(after.view, after.legal, meta, board);
  if (going) return takePanel(after.view, after.legal, meta);
  return previewPanel(before, after.view, me, meta, chain, names);
}

/** Advanced Mode's secret flips: the platforms to flip (a menu), then Confirm. */
export function flipPanel(meta: { gameId: number }, mask: number): MessagePayload {
  const chosen = COLOURS.filter((_, i) => mask & (1 << i));
  const flipMeta = { gameId: meta.gameId, version: 0 };
  return {
    content: [
      `🔒 **Advanced Mode** (Crystallia #${meta.gameId}): choose, in secret, which of your four platforms to flip to their advanced side.`,
      'Flipped: 5 spaces, **2 points** per crystal, the supercrystal at 5, but a **sixth crystal empties the platform** and puts a black crystal on it. Unflipped: 1 point per crystal up to 9, −1 beyond, out at 13.',
      'Nobody sees your choice until everyone has chosen; then all are revealed and the first turn begins.',
      `Your choice: **${chosen.length ? chosen.map((c) => `${COLOUR_EMOJI[c]} ${c}`).join(', ') : 'flip none'}**.`,
    ].join('\n'),
    components: [
      select(
        ids.make('flipsel', flipMeta.gameId, 0),
        'Platforms to flip (none: close the menu with nothing ticked)',
        COLOURS.map((c, i) => ({ label: `${COLOUR_EMOJI[c]} ${c}`, value: c, ...(mask & (1 << i) ? { default: true } : {}) })),
        { min: 0, max: 4 },
      ),
      row(button(ids.make('flip', flipMeta.gameId, 0, mask), chosen.length ? `Confirm: flip ${chosen.join(', ')}` : 'Confirm: flip none', ButtonStyle.Success)),
    ],
    allowed_mentions: { parse: [] },
  };
}

export const maskOf = (colours: readonly string[]): number => COLOURS.reduce((m, c, i) => (colours.includes(c) ? m | (1 << i) : m), 0);
export const coloursOf = (mask: number): Colour[] => COLOURS.filter((_, i) => mask & (1 << i));
