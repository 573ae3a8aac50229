import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { encodePng } from './png.ts';
import { BOARD_COLS, BOARD_ROWS, COLOURS, PLATFORM, PYRAMID_ROWS, TALISMANS, type Colour, type CrystalliaView, type Half, type SquareKind } from './engine/index.ts';

/**
 * Crystallia's picture: one PNG drawn from a view (never from state) with @napi-rs/canvas. It
 * shows the Board of Opportunity (coordinates A-F by 1-9), the stones on it, the pyramid, the
 * talismans and the supply, and every player's four platforms. Pure: the same view and names give
 * the same bytes (a test checks it); `pictureFor` caches renders by a key the caller gives (the
 * game and its version).
 *
 * Everything is placed by `layout(view)`, which the drawing and the tests share: a test samples
 * the picture's pixels at the centres it computes.
 *
 * Made to be read on a 390 px phone, where Discord shows it about 326 px wide (0.54 of its 600
 * px): every text is at least 11 px there (`textLayout` and a test check it; what could not grow,
 * the itemised final scores, is in the board's message), squares are 62 px (34 on the phone),
 * stones are ivory tiles with a thick black edge and a vivid crystal on each half, the printed
 * squares flat dark tints with only the outline of theirs, and each colour has its own shape (red
 * circle, blue diamond, green triangle, purple hexagon, yellow wild star) for players who tell
 * colours apart badly.
 */

// ---------------------------------------------------------------------------------------------
// fonts: shipped as npm packages (a fresh machine has no fonts; without them text is blank)

const require = createRequire(import.meta.url);
const SANS = 'Crystallia Sans';
const EMOJI = 'Crystallia Emoji';
let fontsReady = false;

/** Registers the picture's fonts once: DejaVu Sans Bold (many scripts) and Twemoji (colour emoji, as a fallback). */
export function registerFonts(): void {
  if (fontsReady) return;
  GlobalFonts.registerFromPath(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'), SANS);
  GlobalFonts.registerFromPath(require.resolve('twemoji-colr-font/twemoji.woff2'), EMOJI);
  fontsReady = true;
}

const font = (px: number) => `${px}px "${SANS}", "${EMOJI}"`;

// ---------------------------------------------------------------------------------------------
// colours

/** The vivid colour of each crystal (stones, platforms, talismans). */
export const VIVID: Record<Half, string> = { red: '#e5484d', blue: '#3e8ef7', green: '#30a46c', purple: '#a162e8', yellow: '#f5c518' };
/** The flat tint of each colour printed on the board. */
export const TINT: Record<Colour, string> = { red: '#6e2f36', blue: '#27466f', green: '#24533d', purple: '#4d3569' };
export const INK = {
  background: '#1e222a',
  panel: '#2a2f3a',
  panelTurn: '#3a3320',
  text: '#eceff4',
  dim: '#a3acbd',
  gold: '#ffd166',
  edge: '#0b0d10',
  ability: '#434c5e',
  stone: '#f2ead3',
  stoneLine: '#8f8774',
  faceDown: '#4c566a',
  faceDownHatch: '#66718a',
  slot: '#232832',
  slotEdge: '#56607a',
  penaltyEdge: '#d0707a',
  black: '#0a0a0a',
  flipped: '#14171d',
} as const;

// ---------------------------------------------------------------------------------------------
// geometry
//
// Everything is drawn in design units on a 720-unit-wide page, then scaled by SCALE onto the
// canvas: the picture is WIDTH pixels wide. Text is never smaller than MIN_TEXT units, so that on a
// 390 px phone, where Discord shows the picture PHONE_WIDTH px wide, every letter is at least
// 11 px (`textLayout` lists every text drawn, for the test that checks it).

const DESIGN = 720;
/** The picture's width in pixels. */
export const WIDTH = 600;
const SCALE = WIDTH / DESIGN;
/** How wide a 390 px phone shows the picture (Discord's message column). */
export const PHONE_WIDTH = 326;
/** The smallest text drawn, in design units (11.3 px on the phone). */
const MIN_TEXT = 25;
const PAD = 10;
const HEADER = 46;
const COORD = 30;
/** A square's side, in design units. */
export const SQUARE = 74;
const LEGEND_LINE = 34;
const LEGEND = 2 * LEGEND_LINE;
const CARD_W = 66;
const CARD_GAP = 6;
const STONE_H = 36;
const CARD_H = 66;
const PYRAMID_HEAD = 34;
const ROW_EXTRA = 52;
const NAME_LINE = 38;
const SEAT_H = 150;
const SEAT_GAP = 6;
const CELL_W = (DESIGN - 2 * PAD) / 4;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface Point {
  x: number;
  y: number;
}

export interface Layout {
  width: number;
  height: number;
  board: Rect;
  /** Square `sq` (row * 9 + column). */
  square(sq: number): Rect;
  squareCentre(sq: number): Point;
  /** The card at (row, i) of the pyramid (row 0 is the top row of 7). */
  card(row: number, i: number): Rect;
  /** The centres of a card's two halves (for a face-up card). */
  cardHalves(row: number, i: number): [Point, Point];
  talisman(k: number): Point;
  supply(colour: Colour): Point;
  seat(index: number): Rect;
  /** The centre of a player's platform of `colour`. */
  platform(seat: number, colour: Colour): Point;
  /** The centre of crystal slot `k` (0-based, in filling order) of that platform. */
  slot(seat: number, colour: Colour, k: number, flipped: boolean): Point;
}

const PLATFORM_R = 40;
const RING_R = 30;
const ADVANCED_R = 27;
/** How far below a platform's centre its penalty spaces lie. */
const PENALTY_DY = 52;

/** The offsets of a platform's slots, in the order crystals fill them: the ring of 9, then the 4 penalty spaces in a row under it; flipped: 5 in a ring. */
function slotOffset(k: number, flipped: boolean): Point {
  if (flipped) {
    const a = -Math.PI / 2 + (k * 2 * Math.PI) / PLATFORM.advancedSpaces;
    return { x: Math.round(Math.cos(a) * ADVANCED_R), y: Math.round(Math.sin(a) * ADVANCED_R) };
  }
  if (k < PLATFORM.regularScoringLimit) {
    const a = -Math.PI / 2 + (k * 2 * Math.PI) / PLATFORM.regularScoringLimit;
    return { x: Math.round(Math.cos(a) * RING_R), y: Math.round(Math.sin(a) * RING_R) };
  }
  return { x: -24 + (k - PLATFORM.regularScoringLimit) * 16, y: PENALTY_DY };
}

/** Where everything goes, in design units. */
function designLayout(seats: number): Layout {
  const board: Rect = { x: PAD + COORD, y: PAD + HEADER + COORD, w: BOARD_COLS * SQUARE, h: BOARD_ROWS * SQUARE };
  const legendY = board.y + board.h + 4;
  const pyramidY = legendY + LEGEND + 2;
  const rowsY = pyramidY + PYRAMID_HEAD;
  const bottom = PYRAMID_ROWS[PYRAMID_ROWS.length - 1]!;
  const pyramidW = bottom * CARD_W + (bottom - 1) * CARD_GAP;
  const pyramidX = Math.round((DESIGN - pyramidW) / 2);
  const extraY = rowsY + PYRAMID_ROWS.length * (CARD_H + CARD_GAP);
  const seatsY = extraY + ROW_EXTRA + 6;
  const height = seatsY + seats * (SEAT_H + SEAT_GAP) - SEAT_GAP + PAD;
  const square = (sq: number): Rect => ({ x: board.x + (sq % BOARD_COLS) * SQUARE, y: board.y + Math.floor(sq / BOARD_COLS) * SQUARE, w: SQUARE, h: SQUARE });
  const card = (row: number, i: number): Rect => ({
    x: Math.round(pyramidX + (i + (PYRAMID_ROWS.length - 1 - row) * 0.5) * (CARD_W + CARD_GAP)),
    y: rowsY + row * (CARD_H + CARD_GAP),
    w: CARD_W,
    h: CARD_H,
  });
  const seat = (k: number): Rect => ({ x: PAD, y: seatsY + k * (SEAT_H + SEAT_GAP), w: DESIGN - 2 * PAD, h: SEAT_H });
  const platform = (k: number, colour: Colour): Point => {
    const r = seat(k);
    return { x: r.x + COLOURS.indexOf(colour) * CELL_W + 8 + PLATFORM_R, y: r.y + NAME_LINE + 4 + PLATFORM_R };
  };
  return {
    width: DESIGN,
    height,
    board,
    square,
    squareCentre: (sq) => {
      const r = square(sq);
      return { x: r.x + SQUARE / 2, y: r.y + SQUARE / 2 };
    },
    card,
    cardHalves: (row, i) => {
      const r = card(row, i);
      return [
        { x: r.x + 17, y: r.y + 18 },
        { x: r.x + 49, y: r.y + 18 },
      ];
    },
    talisman: (k) => ({ x: PAD + 166 + k * 46, y: extraY + ROW_EXTRA / 2 }),
    supply: (colour) => ({ x: DESIGN - PAD - 290 + COLOURS.indexOf(colour) * 76, y: extraY + ROW_EXTRA / 2 }),
    seat,
    platform,
    slot: (k, colour, n, flipped) => {
      const c = platform(k, colour);
      const o = slotOffset(n, flipped);
      return { x: c.x + o.x, y: c.y + o.y };
    },
  };
}

/** Where everything is in the picture, in pixels, for a view with `seats` players. */
export function layout(seats: number): Layout {
  const d = designLayout(seats);
  const v = (n: number) => Math.round(n * SCALE);
  const p = (q: Point): Point => ({ x: v(q.x), y: v(q.y) });
  const r = (q: Rect): Rect => ({ x: v(q.x), y: v(q.y), w: v(q.w), h: v(q.h) });
  return {
    width: WIDTH,
    height: Math.ceil(d.height * SCALE),
    board: r(d.board),
    square: (sq) => r(d.square(sq)),
    squareCentre: (sq) => p(d.squareCentre(sq)),
    card: (row, i) => r(d.card(row, i)),
    cardHalves: (row, i) => d.cardHalves(row, i).map(p) as [Point, Point],
    talisman: (k) => p(d.talisman(k)),
    supply: (c) => p(d.supply(c)),
    seat: (k) => r(d.seat(k)),
    platform: (k, c) => p(d.platform(k, c)),
    slot: (k, c, n, f) => p(d.slot(k, c, n, f)),
  };
}

// ---------------------------------------------------------------------------------------------
// shapes

type Ctx = SKRSContext2D;

/** Each colour's shape: red circle, blue diamond, green triangle, purple hexagon, yellow (wild) star. */
function gemPath(g: Ctx, half: Half, x: number, y: number, r: number): void {
  g.beginPath();
  switch (half) {
    case 'red':
      g.arc(x, y, r * 0.92, 0, Math.PI * 2);
      break;
    case 'blue':
      g.moveTo(x, y - r);
      g.lineTo(x + r, y);
      g.lineTo(x, y + r);
      g.lineTo(x - r, y);
      break;
    case 'green':
      g.moveTo(x, y - r);
      g.lineTo(x + r * 0.95, y + r * 0.72);
      g.lineTo(x - r * 0.95, y + r * 0.72);
      break;
    case 'purple':
      for (let k = 0; k < 6; k++) {
        const a = Math.PI / 6 + (k * Math.PI) / 3;
        if (k === 0) g.moveTo(x + Math.cos(a) * r, y + Math.sin(a) * r);
        else g.lineTo(x + Math.cos(a) * r, y + Math.sin(a) * r);
      }
      break;
    case 'yellow':
      for (let k = 0; k < 10; k++) {
        const a = -Math.PI / 2 + (k * Math.PI) / 5;
        const rr = k % 2 === 0 ? r : r * 0.48;
        if (k === 0) g.moveTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
        else g.lineTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
      }
      break;
  }
  g.closePath();
}

function gem(g: Ctx, half: Half, x: number, y: number, r: number, edge: string = INK.edge): void {
  gemPath(g, half, x, y, r);
  g.fillStyle = VIVID[half];
  g.fill();
  g.lineWidth = Math.max(1.5, r / 8);
  g.strokeStyle = edge;
  g.stroke();
}

function roundRect(g: Ctx, x: number, y: number, w: number, h: number, r: number): void {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}

/** Every text drawn, while `textLayout` records them. */
let recorded: Array<{ text: string; px: number }> | null = null;

function text(g: Ctx, s: string, x: number, y: number, px: number, colour: string, align: 'left' | 'center' | 'right' = 'left', maxWidth?: number): void {
  recorded?.push({ text: s, px });
  g.font = font(px);
  g.fillStyle = colour;
  g.textAlign = align;
  g.textBaseline = 'middle';
  g.fillText(maxWidth === undefined ? s : fit(g, s, maxWidth), x, y);
}

/** `s` cut with an ellipsis to fit `width` at the current font. */
function fit(g: Ctx, s: string, width: number): string {
  if (g.measureText(s).width <= width) return s;
  const chars = [...s];
  while (chars.length > 1 && g.measureText(`${chars.join('')}…`).width > width) chars.pop();
  return `${chars.join('')}…`;
}

function arrowHead(g: Ctx, x: number, y: number, angle: number, size: number): void {
  g.beginPath();
  g.moveTo(x + Math.cos(angle) * size, y + Math.sin(angle) * size);
  g.lineTo(x + Math.cos(angle + 2.5) * size, y + Math.sin(angle + 2.5) * size);
  g.lineTo(x + Math.cos(angle - 2.5) * size, y + Math.sin(angle - 2.5) * size);
  g.closePath();
  g.fill();
}

/** An ability's symbol: Move (four arrows), Extra Turn (a loop with a plus), Rotate (a quarter-turn arrow around a pivot). */
export function abilitySymbol(g: Ctx, ability: 'move' | 'extra-turn' | 'rotate', x: number, y: number, r: number, colour: string = INK.text): void {
  g.save();
  g.strokeStyle = colour;
  g.fillStyle = colour;
  g.lineWidth = Math.max(2, r / 5);
  g.lineCap = 'round';
  if (ability === 'move') {
    const a = r * 0.72;
    g.beginPath();
    g.moveTo(x - a, y);
    g.lineTo(x + a, y);
    g.moveTo(x, y - a);
    g.lineTo(x, y + a);
    g.stroke();
    for (const [dx, dy, ang] of [
      [a, 0, 0],
      [-a, 0, Math.PI],
      [0, a, Math.PI / 2],
      [0, -a, -Math.PI / 2],
    ] as const) {
      arrowHead(g, x + dx, y + dy, ang, r * 0.36);
    }
  } else if (ability === 'extra-turn') {
    const rr = r * 0.72;
    g.beginPath();
    g.arc(x, y, rr, -Math.PI / 2 + 0.5, -Math.PI / 2 + 2 * Math.PI - 0.35);
    g.stroke();
    arrowHead(g, x + Math.cos(-Math.PI / 2 - 0.35) * rr + 2, y + Math.sin(-Math.PI / 2 - 0.35) * rr, 0, r * 0.38);
    const p = r * 0.34;
    g.beginPath();
    g.moveTo(x - p, y);
    g.lineTo(x + p, y);
    g.moveTo(x, y - p);
    g.lineTo(x, y + p);
    g.stroke();
  } else {
    const rr = r * 0.7;
    g.beginPath();
    g.arc(x, y, rr, Math.PI, Math.PI * 1.78);
    g.stroke();
    arrowHead(g, x + Math.cos(Math.PI * 1.78) * rr, y + Math.sin(Math.PI * 1.78) * rr, Math.PI * 1.78 + Math.PI / 2, r * 0.38);
    g.beginPath();
    g.arc(x, y, rr, 0, Math.PI * 0.78);
    g.stroke();
    arrowHead(g, x + Math.cos(Math.PI * 0.78) * rr, y + Math.sin(Math.PI * 0.78) * rr, Math.PI * 0.78 + Math.PI / 2, r * 0.38);
    g.beginPath();
    g.arc(x, y, r * 0.16, 0, Math.PI * 2);
    g.fill();
  }
  g.restore();
}

const isColour = (k: SquareKind): k is Colour => (COLOURS as readonly string[]).includes(k);

/** A stone lying on two rects (its halves), as a raised ivory tile. */
function stoneTile(g: Ctx, a: Rect, b: Rect, halves: [Half, Half], inset: number, gemR: number, outline: string | null): void {
  const x = Math.min(a.x, b.x) + inset;
  const y = Math.min(a.y, b.y) + inset;
  const w = Math.max(a.x + a.w, b.x + b.w) - inset - x;
  const h = Math.max(a.y + a.h, b.y + b.h) - inset - y;
  const radius = Math.min(w, h) * 0.2;
  g.fillStyle = 'rgba(0,0,0,0.5)';
  roundRect(g, x + 3, y + 4, w, h, radius);
  g.fill();
  if (outline) {
    g.fillStyle = outline;
    roundRect(g, x - 4, y - 4, w + 8, h + 8, radius + 4);
    g.fill();
  }
  g.fillStyle = INK.stone;
  roundRect(g, x, y, w, h, radius);
  g.fill();
  g.lineWidth = 3;
  g.strokeStyle = INK.edge;
  g.stroke();
  // The line between the halves.
  g.strokeStyle = INK.stoneLine;
  g.lineWidth = 2;
  g.beginPath();
  if (a.y === b.y) {
    const mx = Math.max(a.x, b.x);
    g.moveTo(mx, y + 6);
    g.lineTo(mx, y + h - 6);
  } else {
    const my = Math.max(a.y, b.y);
    g.moveTo(x + 6, my);
    g.lineTo(x + w - 6, my);
  }
  g.stroke();
  gem(g, halves[0], a.x + a.w / 2, a.y + a.h / 2, gemR);
  gem(g, halves[1], b.x + b.w / 2, b.y + b.h / 2, gemR);
}

/**
 * Copies an opaque kept canvas in at pixel (x, y), 1:1. `drawImage` of a canvas rather than
 * `putImageData` of its pixels: @napi-rs/canvas records a `putImageData` as a copy of the pixels,
 * converted from unpremultiplied, on a layer of its own, and a picture of several layers is
 * snapshotted when read; the same pixels result (the test of kept canvases compares).
 */
function blit(g: Ctx, from: Canvas, x: number, y: number): void {
  g.save();
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.drawImage(from, x, y);
  g.restore();
}

/**
 * Things drawn many times the same (a stone, a card of the pyramid), drawn once as a small picture
 * and stamped (`drawImage`: one call, and cheaper to rasterise than the paths and fills it holds).
 * `paint` draws the thing inside `box` (design units); the stamp lands on the nearest pixel.
 */
const STAMPS_KEPT = 96;
const stamps = new Map<string, Canvas>();

function stamp(g: Ctx, key: string, box: Rect, paint: (s: Ctx) => void): void {
  if (recorded) {
    paint(g);
    return;
  }
  let made = stamps.get(key);
  if (!made) {
    made = createCanvas(Math.ceil(box.w * SCALE) + 1, Math.ceil(box.h * SCALE) + 1);
    const s = made.getContext('2d');
    s.setTransform(SCALE, 0, 0, SCALE, -box.x * SCALE, -box.y * SCALE);
    paint(s);
    stamps.set(key, made);
    if (stamps.size > STAMPS_KEPT) stamps.delete(stamps.keys().next().value!);
  }
  g.save();
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.drawImage(made, Math.round(box.x * SCALE), Math.round(box.y * SCALE));
  g.restore();
}

/** A stone on two rects, stamped: `stoneTile` with the room its shadow and outline take. */
function stampStone(g: Ctx, a: Rect, b: Rect, halves: [Half, Half], inset: number, gemR: number, outline: string | null): void {
  const x = Math.min(a.x, b.x) + inset - 5;
  const y = Math.min(a.y, b.y) + inset - 5;
  const box = { x, y, w: Math.max(a.x + a.w, b.x + b.w) - inset + 9 - x, h: Math.max(a.y + a.h, b.y + b.h) - inset + 9 - y };
  const key = `stone:${halves.join('-')}:${a.y === b.y ? (a.x < b.x ? 'h' : 'H') : a.y < b.y ? 'v' : 'V'}:${box.w}x${box.h}:${inset}:${gemR}:${outline ?? ''}`;
  stamp(g, key, box, (s) => stoneTile(s, a, b, halves, inset, gemR, outline));
}

// ---------------------------------------------------------------------------------------------
// the picture

export interface PictureOptions {
  /** Display names by player id. */
  names: Record<string, string>;
  /** The header's title, e.g. "Crystallia #12". */
  title: string;
  /** A preview of moves not played yet: a banner says so. */
  preview?: boolean;
  /**
   * Pyramid places to draw face down whatever the view says (a preview must not show the cards
   * its moves would uncover: the player could look, then choose another stone).
   */
  faceDown?: Array<[number, number]>;
}

/** The squares of the stone placed in the running turn, or else in the last turn (drawn with a gold edge). */
function newStoneSquares(view: CrystalliaView): number[] {
  for (const log of [view.thisTurn, view.lastTurn]) {
    const place = log?.events.find((e) => e.kind === 'place');
    if (place && place.kind === 'place') {
      const id = place.stone;
      const now = view.stones.find((s) => s.id === id);
      return now ? [...now.squares] : [];
    }
  }
  return [];
}

const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

const T = MIN_TEXT;

function drawHeader(g: Ctx, view: CrystalliaView, opts: PictureOptions): void {
  const y = PAD + HEADER / 2 - 2;
  text(g, opts.title, PAD, y, 30, INK.text, 'left', 300);
  const left = view.pyramid.flat().filter((c) => c !== null).length;
  const parts = [view.advanced ? 'Advanced' : null, view.phase === 'over' ? 'game over' : `${left} stone${left === 1 ? '' : 's'} left`];
  text(g, parts.filter(Boolean).join(' · '), DESIGN - PAD, y, T, INK.dim, 'right');
  if (opts.preview) {
    g.fillStyle = INK.gold;
    roundRect(g, 290, PAD + 4, 150, 36, 8);
    g.fill();
    text(g, 'PREVIEW', 365, y, T, INK.edge, 'center');
  }
}

/** The printed board: its coordinates, squares and the lines between them (the same for the whole game). */
function drawPrintedBoard(g: Ctx, squares: readonly SquareKind[], L: Layout): void {
  const { board } = L;
  for (let c = 0; c < BOARD_COLS; c++) text(g, String(c + 1), board.x + c * SQUARE + SQUARE / 2, board.y - COORD / 2, T, INK.text, 'center');
  for (let r = 0; r < BOARD_ROWS; r++) text(g, String.fromCharCode(65 + r), board.x - COORD / 2 - 1, board.y + r * SQUARE + SQUARE / 2, T, INK.text, 'center');
  squares.forEach((kind, sq) => {
    const r = L.square(sq);
    const c = L.squareCentre(sq);
    if (isColour(kind)) {
      g.fillStyle = TINT[kind];
      g.fillRect(r.x, r.y, r.w, r.h);
      gemPath(g, kind, c.x, c.y, 15);
      g.lineWidth = 3;
      g.strokeStyle = VIVID[kind];
      g.stroke();
    } else {
      g.fillStyle = INK.ability;
      g.fillRect(r.x, r.y, r.w, r.h);
      abilitySymbol(g, kind, c.x, c.y, 22);
    }
  });
  // Thin lines between squares, thick ones between tiles.
  g.strokeStyle = INK.edge;
  for (let c = 0; c <= BOARD_COLS; c++) {
    g.lineWidth = c % 3 === 0 ? 4 : 1;
    g.beginPath();
    g.moveTo(board.x + c * SQUARE, board.y);
    g.lineTo(board.x + c * SQUARE, board.y + board.h);
    g.stroke();
  }
  for (let r = 0; r <= BOARD_ROWS; r++) {
    g.lineWidth = r % 3 === 0 ? 4 : 1;
    g.beginPath();
    g.moveTo(board.x, board.y + r * SQUARE);
    g.lineTo(board.x + board.w, board.y + r * SQUARE);
    g.stroke();
  }
}

/** The stones on the board, the one placed last with a gold edge. */
function drawStones(g: Ctx, view: CrystalliaView, L: Layout): void {
  const fresh = newStoneSquares(view);
  for (const s of view.stones) {
    const isNew = fresh.length === 2 && s.squares.every((q) => fresh.includes(q));
    stampStone(g, L.square(s.squares[0]), L.square(s.squares[1]), s.halves, 6, 19, isNew ? INK.gold : null);
  }
}

/** Two lines under the board: the abilities and the wild; the new stone's edge and what #n means. */
function drawLegend(g: Ctx, L: Layout): void {
  const y1 = L.board.y + L.board.h + 4 + LEGEND_LINE / 2;
  const y2 = y1 + LEGEND_LINE;
  g.font = font(T);
  let x = PAD + 4;
  for (const [ability, label] of [
    ['move', 'Move'],
    ['extra-turn', 'Extra turn'],
    ['rotate', 'Rotate'],
  ] as const) {
    g.fillStyle = INK.ability;
    g.fillRect(x, y1 - 15, 30, 30);
    abilitySymbol(g, ability, x + 15, y1, 12);
    text(g, label, x + 36, y1, T, INK.text);
    x += 36 + g.measureText(label).width + 18;
  }
  gem(g, 'yellow', x + 13, y1, 13);
  text(g, 'wild', x + 32, y1, T, INK.text);
  x = PAD + 4;
  g.fillStyle = INK.gold;
  roundRect(g, x + 2, y2 - 13, 26, 26, 5);
  g.fill();
  text(g, 'last stone', x + 36, y2, T, INK.text);
  text(g, '#n: for /crystallia place', DESIGN - PAD, y2, T, INK.dim, 'right');
}

/** The colour of a player who is out of the running (out at 13, forfeited), as on their platform panel. */
export const OUT_INK = '#f28b82';

/**
 * At the end the pyramid is empty: its place shows the final ranking, each player's total in
 * large print (the itemised scores are in the board's message: `breakdownText` in present.ts).
 */
function drawFinalScores(g: Ctx, view: CrystalliaView, L: Layout, opts: PictureOptions): void {
  const top = L.card(0, 0).y - PYRAMID_HEAD;
  text(g, 'Final scores (itemised in the message)', PAD, top + PYRAMID_HEAD / 2, T, INK.gold, 'left', DESIGN - 2 * PAD);
  const rowH = Math.min(46, Math.floor((PYRAMID_ROWS.length * (CARD_H + CARD_GAP) - 4) / view.seats.length));
  const y0 = top + PYRAMID_HEAD + 4 + rowH / 2;
  const ranked = view.seats.slice().sort((a, b) => (view.outcome?.places?.[a.player] ?? 9) - (view.outcome?.places?.[b.player] ?? 9) || a.seat - b.seat);
  ranked.forEach((seat, k) => {
    const y = y0 + k * rowH;
    if (k % 2 === 0) {
      g.fillStyle = INK.panel;
      g.fillRect(PAD, y - rowH / 2, DESIGN - 2 * PAD, rowH);
    }
    const place = view.outcome?.places?.[seat.player];
    const winner = view.outcome?.winners.includes(seat.player);
    // A player who went out (13 of a colour) or forfeited ranks below everyone whatever their total:
    // the row says so, and its total is struck in red, so a higher number that lost reads at a glance.
    const out = seat.status === 'eliminated' ? 'out (13)' : seat.status === 'forfeited' ? 'forfeited' : '';
    text(g, `${place ? `${place}.` : '•'} ${winner ? '🏆 ' : ''}${opts.names[seat.player] ?? 'player'}`, PAD + 8, y, 28, INK.text, 'left', 420);
    if (out) text(g, out, DESIGN - PAD - 130, y, T, OUT_INK, 'right');
    const total = String(seat.score.total);
    const x = DESIGN - PAD - 60;
    text(g, total, x, y, 30, out ? OUT_INK : INK.gold, 'center');
    if (out) {
      g.font = font(30);
      const w = g.measureText(total).width / 2 + 4;
      g.strokeStyle = OUT_INK;
      g.lineWidth = 3;
      g.beginPath();
      g.moveTo(x - w, y);
      g.lineTo(x + w, y);
      g.stroke();
    }
  });
}

/** A pyramid place whose card is gone: a dashed outline. */
function emptyCard(g: Ctx, r: Rect): void {
  g.setLineDash([5, 5]);
  g.strokeStyle = '#4a5263';
  g.lineWidth = 2;
  roundRect(g, r.x + 2, r.y + 2, r.w - 4, r.h - 4, 6);
  g.stroke();
  g.setLineDash([]);
}

/** A face-down card: hatched. */
function faceDownCard(g: Ctx, r: Rect): void {
  g.fillStyle = INK.faceDown;
  roundRect(g, r.x, r.y, r.w, r.h, 7);
  g.fill();
  g.save();
  g.clip();
  g.strokeStyle = INK.faceDownHatch;
  g.lineWidth = 2;
  g.beginPath();
  for (let d = -r.h; d < r.w; d += 9) {
    g.moveTo(r.x + d, r.y + r.h);
    g.lineTo(r.x + d + r.h, r.y);
  }
  g.stroke();
  g.restore();
  g.lineWidth = 2;
  g.strokeStyle = INK.edge;
  roundRect(g, r.x, r.y, r.w, r.h, 7);
  g.stroke();
}

function drawPyramid(g: Ctx, view: CrystalliaView, L: Layout, faceDown: Array<[number, number]>): void {
  const top = L.card(0, 0).y - PYRAMID_HEAD;
  const left = view.pyramid.flat().filter((c) => c !== null).length;
  const gone = view.discarded.length ? ` · ${view.discarded.length} left the game` : '';
  text(g, `Pyramid: ${left} stone${left === 1 ? '' : 's'}${gone}`, PAD, top + PYRAMID_HEAD / 2, T, INK.dim, 'left', DESIGN - 2 * PAD);
  view.pyramid.forEach((row, r) =>
    row.forEach((card, i) => {
      const rect = L.card(r, i);
      const stoneRect = { x: rect.x, y: rect.y, w: rect.w, h: STONE_H };
      const hidden = card !== null && (!card.faceUp || faceDown.some(([fr, fi]) => fr === r && fi === i));
      if (card === null) {
        stamp(g, 'card:empty', { x: stoneRect.x - 2, y: stoneRect.y - 2, w: stoneRect.w + 4, h: stoneRect.h + 4 }, (s) => emptyCard(s, stoneRect));
        return;
      }
      if (hidden || !card.faceUp) {
        stamp(g, 'card:down', { x: stoneRect.x - 2, y: stoneRect.y - 2, w: stoneRect.w + 4, h: stoneRect.h + 4 }, (s) => faceDownCard(s, stoneRect));
        return;
      }
      const a = { x: stoneRect.x, y: stoneRect.y, w: stoneRect.w / 2, h: stoneRect.h };
      const b = { x: stoneRect.x + stoneRect.w / 2, y: stoneRect.y, w: stoneRect.w / 2, h: stoneRect.h };
      stampStone(g, a, b, card.halves, 1, 12, INK.gold);
      text(g, `#${card.id + 1}`, rect.x + rect.w / 2, rect.y + STONE_H + 15, 26, INK.gold, 'center');
    }),
  );
}

/** The talismans (a used one in its colour, with the number of the seat that took it) and the supply. */
function drawExtras(g: Ctx, view: CrystalliaView, L: Layout): void {
  const t0 = L.talisman(0);
  text(g, 'Talismans', PAD, t0.y, T, INK.dim);
  for (let k = 0; k < TALISMANS; k++) {
    const c = L.talisman(k);
    const used = view.talismans.used[k];
    g.beginPath();
    g.arc(c.x, c.y, 20, 0, Math.PI * 2);
    if (used) {
      g.fillStyle = VIVID[used.colour];
      g.fill();
      g.lineWidth = 3;
      g.strokeStyle = INK.gold;
      g.stroke();
      const seat = view.seats.findIndex((s) => s.player === used.player);
      text(g, String(seat + 1), c.x, c.y + 1, T, INK.edge, 'center');
    } else {
      g.fillStyle = INK.panel;
      g.fill();
      g.setLineDash([4, 4]);
      g.lineWidth = 2;
      g.strokeStyle = INK.dim;
      g.stroke();
      g.setLineDash([]);
    }
  }
  const s0 = L.supply('red');
  text(g, 'Supply', s0.x - 18, s0.y, T, INK.dim, 'right');
  for (const colour of COLOURS) {
    const c = L.supply(colour);
    gem(g, colour, c.x, c.y, 13);
    text(g, String(view.supply[colour]), c.x + 17, c.y, T, view.supply[colour] === 0 ? VIVID.red : INK.text);
  }
}

/** A seat: its number, name, state and score on one line; its four platforms under it. */
function drawSeat(g: Ctx, view: CrystalliaView, L: Layout, k: number, opts: PictureOptions): void {
  const seat = view.seats[k]!;
  const r = L.seat(k);
  const toPlay = view.turn?.player === seat.player || (view.flip?.waitingFor.includes(seat.player) ?? false);
  g.fillStyle = toPlay ? INK.panelTurn : INK.panel;
  roundRect(g, r.x, r.y, r.w, r.h, 10);
  g.fill();
  if (toPlay) {
    g.lineWidth = 3;
    g.strokeStyle = INK.gold;
    g.stroke();
  }
  const y = r.y + NAME_LINE / 2 + 2;
  const score = `${seat.score.total} pts`;
  g.font = font(28);
  const scoreW = g.measureText(score).width;
  text(g, score, r.x + r.w - 12, y, 28, INK.text, 'right');
  const place = view.outcome?.places?.[seat.player];
  const status =
    view.phase === 'over'
      ? view.outcome!.winners.includes(seat.player)
        ? '🏆 wins'
        : `${place ? ordinal(place) : ''}${seat.status === 'forfeited' ? ' · forfeited' : seat.status === 'eliminated' ? ' · out' : ''}`
      : seat.status === 'eliminated'
        ? 'out (13)'
        : seat.status === 'forfeited'
          ? 'autopilot'
          : view.turn?.player === seat.player
            ? view.turn.second
              ? '▶ 2nd turn'
              : '▶ to play'
            : view.flip?.waitingFor.includes(seat.player)
              ? '▶ flips'
              : '';
  const statusColour = seat.status === 'eliminated' || seat.status === 'forfeited' ? OUT_INK : INK.gold;
  g.font = font(T);
  const statusW = status ? g.measureText(status).width : 0;
  const statusRight = r.x + r.w - 12 - scoreW - 16;
  if (status) text(g, status, statusRight, y, T, statusColour, 'right');
  const name = opts.names[seat.player] ?? 'player';
  text(g, `${k + 1}. ${name}`, r.x + 12, y, 28, INK.text, 'left', statusRight - statusW - 14 - (r.x + 12));
  for (const colour of COLOURS) drawPlatform(g, view, L, k, colour, toPlay ? INK.panelTurn : INK.panel);
}

const slotRadius = (s: number, flipped: boolean) => (flipped ? 8.5 : s < PLATFORM.regularScoringLimit ? 7 : 6);

/** An empty platform centred on `c`: its disc and rim, and every slot empty. */
function platformBase(g: Ctx, c: Point, colour: Colour, flipped: boolean): void {
  g.beginPath();
  g.arc(c.x, c.y, PLATFORM_R, 0, Math.PI * 2);
  g.fillStyle = flipped ? INK.flipped : '#3b4252';
  g.fill();
  g.lineWidth = 5;
  g.strokeStyle = VIVID[colour];
  g.stroke();
  if (flipped) {
    g.beginPath();
    g.arc(c.x, c.y, PLATFORM_R - 6, 0, Math.PI * 2);
    g.lineWidth = 2;
    g.strokeStyle = INK.gold;
    g.stroke();
  }
  const slots = flipped ? PLATFORM.advancedSpaces : PLATFORM.loseAt;
  for (let s = 0; s < slots; s++) {
    const o = slotOffset(s, flipped);
    g.beginPath();
    g.arc(c.x + o.x, c.y + o.y, slotRadius(s, flipped), 0, Math.PI * 2);
    g.fillStyle = INK.slot;
    g.fill();
    g.lineWidth = 1.5;
    g.strokeStyle = !flipped && s >= PLATFORM.regularScoringLimit ? INK.penaltyEdge : INK.slotEdge;
    g.stroke();
  }
}

/**
 * Platforms as pixels, drawn once per colour, side, count, panel colour and position within a
 * pixel (the seats are 130 px apart, so each column's platforms share one), the last 128 kept
 * (26 KB each): a picture shows 16 platforms of 9-13 slots, which otherwise cost more to draw than
 * anything else.
 */
const SPRITES_KEPT = 128;
const sprites = new Map<string, { pixels: Canvas; x: number; y: number }>();

function platformSprite(c: Point, colour: Colour, flipped: boolean, n: number, label: string, panel: string): { pixels: Canvas; x: number; y: number } {
  const left = Math.floor((c.x - PLATFORM_R - 4) * SCALE);
  const top = Math.floor((c.y - PLATFORM_R - 4) * SCALE);
  const key = `${colour}:${flipped}:${n}:${label}:${panel}:${((c.x - PLATFORM_R - 4) * SCALE - left).toFixed(3)}:${((c.y - PLATFORM_R - 4) * SCALE - top).toFixed(3)}`;
  const hit = sprites.get(key);
  if (hit) return { ...hit, x: left, y: top };
  const w = Math.ceil((c.x + PLATFORM_R + 4) * SCALE) - left;
  const h = Math.ceil((c.y + PENALTY_DY + 8) * SCALE) - top;
  const canvas = createCanvas(w, h);
  const g = canvas.getContext('2d');
  g.fillStyle = panel;
  g.fillRect(0, 0, w, h);
  g.setTransform(SCALE, 0, 0, SCALE, -left, -top);
  platformFace(g, c, colour, flipped, n, label);
  const made = { pixels: canvas, x: left, y: top };
  sprites.set(key, made);
  if (sprites.size > SPRITES_KEPT) sprites.delete(sprites.keys().next().value!);
  return made;
}

/** A platform holding `n` crystals: the empty platform, its first `n` slots filled, `label` (the count) in its middle. */
function platformFace(g: Ctx, c: Point, colour: Colour, flipped: boolean, n: number, label: string): void {
  platformBase(g, c, colour, flipped);
  for (let s = 0; s < n && s < (flipped ? PLATFORM.advancedSpaces : PLATFORM.loseAt); s++) {
    const o = slotOffset(s, flipped);
    g.beginPath();
    g.arc(c.x + o.x, c.y + o.y, slotRadius(s, flipped), 0, Math.PI * 2);
    g.fillStyle = VIVID[colour];
    g.fill();
    g.lineWidth = 1.5;
    g.strokeStyle = INK.stone;
    g.stroke();
  }
  text(g, label, c.x, c.y + 1, 28, INK.text, 'center');
}

/**
 * One platform: the count in its middle, big; the crystals on its ring of 9 (regular side) or 5
 * (flipped side, dark); a regular side's four penalty spaces (crystals 10 to 13) in a row under
 * it. Beside it: its points, "×2" on the flipped side, the supercrystal, the black crystals on it.
 */
function drawPlatform(g: Ctx, view: CrystalliaView, L: Layout, k: number, colour: Colour, panel: string): void {
  const seat = view.seats[k]!;
  const c = L.platform(k, colour);
  const flipped = seat.flipped?.[colour] ?? false;
  const secret = seat.flipped === null;
  const n = seat.crystals[colour];
  const label = secret ? '?' : String(n);
  if (recorded) platformFace(g, c, colour, flipped, n, label);
  else {
    const sprite = platformSprite(c, colour, flipped, n, label, panel);
    blit(g, sprite.pixels, sprite.x, sprite.y);
  }
  // The column beside the platform: points, ×2 or the supercrystal, the black crystals.
  const x = c.x + PLATFORM_R + 8;
  const sc = seat.score.colours.find((s) => s.colour === colour)!;
  if (!secret) text(g, sc.penalty < 0 ? `+${sc.points}−${-sc.penalty}` : `+${sc.points}`, x, c.y - 26, T, sc.penalty < 0 ? OUT_INK : INK.dim, 'left', CELL_W - (x - (c.x - PLATFORM_R - 8)) - 2);
  if (flipped) text(g, '×2', x, c.y + 4, T, INK.gold);
  if (seat.supercrystals.includes(colour)) {
    const sx = x + (flipped ? 50 : 14);
    g.beginPath();
    gemPath(g, 'yellow', sx, c.y + 2, 14);
    g.fillStyle = VIVID[colour];
    g.fill();
    g.lineWidth = 2;
    g.strokeStyle = INK.gold;
    g.stroke();
  }
  const blacks = seat.blacks[colour];
  if (blacks > 0) {
    g.beginPath();
    g.arc(x + 14, c.y + 34, 14, 0, Math.PI * 2);
    g.fillStyle = INK.black;
    g.fill();
    g.lineWidth = 2;
    g.strokeStyle = INK.dim;
    g.stroke();
    text(g, String(blacks), x + 14, c.y + 35, T, INK.text, 'center');
  }
}

/**
 * What never changes during a game, drawn once per board and kept as pixels: the background down
 * to the legend's end, the printed board and the legend (`blit` copies it in, a third of
 * the picture, instead of drawing its 54 squares, their symbols and 20 texts again).
 */
const LAYERS_KEPT = 16;
const layers = new Map<string, Canvas>();

function printedLayer(squares: readonly SquareKind[], L: Layout): Canvas {
  const key = squares.join(',');
  const hit = layers.get(key);
  if (hit) {
    layers.delete(key);
    layers.set(key, hit);
    return hit;
  }
  const height = Math.ceil((L.board.y + L.board.h + 4 + LEGEND) * SCALE);
  const canvas = createCanvas(WIDTH, height);
  const g = canvas.getContext('2d');
  g.fillStyle = INK.background;
  g.fillRect(0, 0, WIDTH, height);
  g.scale(SCALE, SCALE);
  drawPrintedBoard(g, squares, L);
  drawLegend(g, L);
  layers.set(key, canvas);
  if (layers.size > LAYERS_KEPT) layers.delete(layers.keys().next().value!);
  return canvas;
}

/**
 * The canvases `renderPicture` draws on, one per picture height (2, 3 or 4 players), kept: a new
 * 3 MB canvas per picture cost its allocation and page faults (with the `blit` copies, a third
 * less CPU per picture: docs/performance.md). Every pixel is painted again each time (the printed
 * layer, then the background).
 */
const canvases = new Map<number, Canvas>();

function keptCanvas(height: number): Canvas {
  let c = canvases.get(height);
  if (!c) canvases.set(height, (c = createCanvas(WIDTH, height)));
  return c;
}

/**
 * Draws the picture of `view` on a canvas (design units, scaled to WIDTH pixels); `renderPicture`
 * encodes it (the bench times the two apart). A new canvas unless `kept`: then one of the kept
 * canvases, overwritten by the next picture of that height (its pixels must be read at once).
 */
export function drawPicture(view: CrystalliaView, opts: PictureOptions, kept = false) {
  registerFonts();
  const L = designLayout(view.seats.length);
  const height = Math.ceil(L.height * SCALE);
  const canvas = kept && !recorded ? keptCanvas(height) : createCanvas(WIDTH, height);
  const g = canvas.getContext('2d');
  g.save();
  try {
    paint(g, canvas, view, opts, L);
  } finally {
    // Back to the context's first state (transform, styles) for the next picture on a kept canvas.
    g.restore();
  }
  return canvas;
}

function paint(g: Ctx, canvas: Canvas, view: CrystalliaView, opts: PictureOptions, L: Layout): void {
  const layer = recorded ? null : printedLayer(view.board.squares, L);
  g.fillStyle = INK.background;
  g.fillRect(0, layer ? layer.height : 0, canvas.width, canvas.height);
  if (layer) blit(g, layer, 0, 0);
  g.scale(SCALE, SCALE);
  if (!layer) {
    // textLayout: draw the printed board and legend too, so their texts are recorded.
    drawPrintedBoard(g, view.board.squares, L);
    drawLegend(g, L);
  }
  drawHeader(g, view, opts);
  drawStones(g, view, L);
  if (view.phase === 'over') drawFinalScores(g, view, L, opts);
  else drawPyramid(g, view, L, opts.faceDown ?? []);
  drawExtras(g, view, L);
  view.seats.forEach((_, k) => drawSeat(g, view, L, k, opts));
}

/** Draws the picture of `view` and encodes it as PNG (png.ts: faster than Skia's encoder for this picture). */
export function renderPicture(view: CrystalliaView, opts: PictureOptions): Buffer {
  const canvas = drawPicture(view, opts, true);
  return encodePng(canvas.width, canvas.height, canvas.data());
}

/**
 * Every text the picture of `view` draws, with its size in pixels of the picture, and the
 * picture's width: shown `PHONE_WIDTH` px wide, a text of `px` reads `px * PHONE_WIDTH / width` px.
 */
export function textLayout(view: CrystalliaView, opts: PictureOptions): { width: number; texts: Array<{ text: string; px: number }> } {
  recorded = [];
  try {
    drawPicture(view, opts);
    return { width: WIDTH, texts: recorded.map((t) => ({ text: t.text, px: t.px * SCALE })) };
  } finally {
    recorded = null;
  }
}

// ---------------------------------------------------------------------------------------------
// cache

const CACHE_SIZE = 32;
const cache = new Map<string, Buffer>();

/**
 * The picture for `key` (the caller's: the game, its version and what else changes the drawing),
 * drawn once and kept among the last CACHE_SIZE pictures: a board is drawn once per version
 * however many times it is sent (the click's answer, the outbox's edit, /crystallia view).
 */
export function pictureFor(key: string, draw: () => Buffer): Buffer {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const png = draw();
  cache.set(key, png);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return png;
}

/** How many pictures the cache holds (tests). */
export const cachedPictures = (): number => cache.size;
