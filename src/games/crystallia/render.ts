import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
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
 * Made to be read on a 390 px phone, where Discord shows it about 330 px wide (0.46 of its 720
 * px): squares are 74 px (34 on the phone), stones are ivory tiles with a thick black edge and a
 * vivid crystal on each half, the printed squares flat dark tints with only the outline of theirs,
 * and each colour has its own shape (red circle, blue diamond, green triangle, purple hexagon,
 * yellow wild star) for players who tell colours apart badly.
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

export const WIDTH = 720;
const PAD = 12;
const HEADER = 40;
const COORD = 26;
/** A square's side. */
export const SQUARE = 74;
const LEGEND = 34;
const CARD_W = 66;
const CARD_GAP = 6;
const CARD_H = 58;
const PYRAMID_HEAD = 28;
const ROW_EXTRA = 56;
const SEAT_H = 140;
const SEAT_GAP = 6;
const INFO_W = 184;
const CELL_W = 128;

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

const PLATFORM_R = 44;
const RING_R = 33;
const ADVANCED_R = 30;
/** How far below a platform's centre its penalty spaces (or "×2") lie. */
const PENALTY_DY = 56;

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
  return { x: -27 + (k - PLATFORM.regularScoringLimit) * 18, y: PENALTY_DY };
}

/** Where everything goes for a view with `seats` players. */
export function layout(seats: number): Layout {
  const board: Rect = { x: PAD + COORD, y: PAD + HEADER + COORD, w: BOARD_COLS * SQUARE, h: BOARD_ROWS * SQUARE };
  const legendY = board.y + board.h + 4;
  const pyramidY = legendY + LEGEND + 6;
  const rowsY = pyramidY + PYRAMID_HEAD;
  const bottom = PYRAMID_ROWS[PYRAMID_ROWS.length - 1]!;
  const pyramidW = bottom * CARD_W + (bottom - 1) * CARD_GAP;
  const pyramidX = Math.round((WIDTH - pyramidW) / 2);
  const extraY = rowsY + PYRAMID_ROWS.length * (CARD_H + CARD_GAP) + 4;
  const seatsY = extraY + ROW_EXTRA + 8;
  const height = seatsY + seats * (SEAT_H + SEAT_GAP) - SEAT_GAP + PAD;
  const square = (sq: number): Rect => ({ x: board.x + (sq % BOARD_COLS) * SQUARE, y: board.y + Math.floor(sq / BOARD_COLS) * SQUARE, w: SQUARE, h: SQUARE });
  const card = (row: number, i: number): Rect => ({
    x: Math.round(pyramidX + (i + (PYRAMID_ROWS.length - 1 - row) * 0.5) * (CARD_W + CARD_GAP)),
    y: rowsY + row * (CARD_H + CARD_GAP),
    w: CARD_W,
    h: CARD_H,
  });
  const seat = (k: number): Rect => ({ x: PAD, y: seatsY + k * (SEAT_H + SEAT_GAP), w: WIDTH - 2 * PAD, h: SEAT_H });
  const platform = (k: number, colour: Colour): Point => {
    const r = seat(k);
    return { x: r.x + INFO_W + COLOURS.indexOf(colour) * CELL_W + CELL_W / 2, y: r.y + 60 };
  };
  return {
    width: WIDTH,
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
    talisman: (k) => ({ x: PAD + 130 + k * 78, y: extraY + 22 }),
    supply: (colour) => ({ x: WIDTH - PAD - 250 + COLOURS.indexOf(colour) * 62, y: extraY + 22 }),
    seat,
    platform,
    slot: (k, colour, n, flipped) => {
      const c = platform(k, colour);
      const o = slotOffset(n, flipped);
      return { x: c.x + o.x, y: c.y + o.y };
    },
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

function text(g: Ctx, s: string, x: number, y: number, px: number, colour: string, align: 'left' | 'center' | 'right' = 'left', maxWidth?: number): void {
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

function drawHeader(g: Ctx, view: CrystalliaView, opts: PictureOptions): void {
  text(g, opts.title, PAD, PAD + 16, 24, INK.text, 'left', 300);
  const left = view.pyramid.flat().filter((c) => c !== null).length;
  const parts = [view.advanced ? 'Advanced Mode' : null, view.phase === 'over' ? 'game over' : `${left} stone${left === 1 ? '' : 's'} left`];
  text(g, parts.filter(Boolean).join(' · '), WIDTH - PAD, PAD + 16, 17, INK.dim, 'right');
  if (opts.preview) {
    g.fillStyle = INK.gold;
    roundRect(g, 300, PAD + 2, 160, 30, 8);
    g.fill();
    text(g, 'PREVIEW', 380, PAD + 17, 18, INK.edge, 'center');
  }
}

function drawBoard(g: Ctx, view: CrystalliaView, L: Layout): void {
  const { board } = L;
  for (let c = 0; c < BOARD_COLS; c++) text(g, String(c + 1), board.x + c * SQUARE + SQUARE / 2, board.y - COORD / 2, 21, INK.text, 'center');
  for (let r = 0; r < BOARD_ROWS; r++) text(g, String.fromCharCode(65 + r), board.x - COORD / 2 - 1, board.y + r * SQUARE + SQUARE / 2, 21, INK.text, 'center');
  view.board.squares.forEach((kind, sq) => {
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
  const fresh = newStoneSquares(view);
  for (const s of view.stones) {
    const isNew = fresh.length === 2 && s.squares.every((q) => fresh.includes(q));
    stoneTile(g, L.square(s.squares[0]), L.square(s.squares[1]), s.halves, 6, 19, isNew ? INK.gold : null);
  }
}

function drawLegend(g: Ctx, L: Layout): void {
  const y = L.board.y + L.board.h + 4 + LEGEND / 2;
  let x = PAD + 8;
  for (const [ability, label] of [
    ['move', 'Move'],
    ['extra-turn', 'Extra turn'],
    ['rotate', 'Rotate'],
  ] as const) {
    g.fillStyle = INK.ability;
    g.fillRect(x, y - 14, 28, 28);
    abilitySymbol(g, ability, x + 14, y, 11);
    text(g, label, x + 34, y, 16, INK.text);
    g.font = font(16);
    x += 34 + g.measureText(label).width + 16;
  }
  gem(g, 'yellow', x + 10, y, 11);
  text(g, 'wild', x + 26, y, 16, INK.text);
  g.fillStyle = INK.gold;
  roundRect(g, x + 84, y - 11, 22, 22, 4);
  g.fill();
  text(g, 'last stone', x + 112, y, 16, INK.text);
}

/** The colour of a player who is out of the running (out at 13, forfeited), as on their platform panel. */
export const OUT_INK = '#f28b82';

/** At the end the pyramid is empty: its place shows the final scores, itemised. */
function drawFinalScores(g: Ctx, view: CrystalliaView, L: Layout, opts: PictureOptions): void {
  const top = L.card(0, 0).y - PYRAMID_HEAD;
  text(g, 'Final scores', PAD, top + 12, 18, INK.gold);
  const cols = ['regular', 'over 9', 'flipped', 'black', 'super', 'total'];
  const nameW = 178;
  const colW = (WIDTH - 2 * PAD - nameW) / cols.length;
  const rowH = Math.min(36, Math.floor((L.card(2, 0).y + CARD_H - top - 30) / (view.seats.length + 1)));
  const y0 = top + 30 + rowH / 2;
  cols.forEach((c, i) => text(g, c, PAD + nameW + colW * (i + 0.5), y0, 15, INK.dim, 'center'));
  const ranked = view.seats.slice().sort((a, b) => (view.outcome?.places?.[a.player] ?? 9) - (view.outcome?.places?.[b.player] ?? 9) || a.seat - b.seat);
  ranked.forEach((seat, k) => {
    const y = y0 + (k + 1) * rowH;
    if (k % 2 === 0) {
      g.fillStyle = INK.panel;
      g.fillRect(PAD, y - rowH / 2, WIDTH - 2 * PAD, rowH);
    }
    const sc = seat.score;
    const regular = sc.colours.filter((c) => !c.flipped).reduce((a, c) => a + c.points, 0);
    const advanced = sc.colours.filter((c) => c.flipped).reduce((a, c) => a + c.points, 0);
    const penalty = sc.colours.reduce((a, c) => a + c.penalty, 0);
    const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
    const winner = view.outcome?.winners.includes(seat.player);
    // A player who went out (13 of a colour) or forfeited ranks below everyone whatever their total:
    // the row says so, and its total is struck in red, so a higher number that lost reads at a glance.
    const out = seat.status === 'eliminated' ? 'out (13)' : seat.status === 'forfeited' ? 'forfeited' : '';
    const name = `${winner ? '🏆 ' : ''}${opts.names[seat.player] ?? 'player'}`;
    text(g, name, PAD + 8, y - (out ? 8 : 0), 18, INK.text, 'left', nameW - 12);
    if (out) text(g, out, PAD + 8, y + 10, 16, OUT_INK, 'left', nameW - 12);
    [signed(regular), signed(penalty), signed(advanced), signed(sc.blackPoints), signed(sc.supercrystalPoints), String(sc.total)].forEach((v, i) =>
      text(g, v, PAD + nameW + colW * (i + 0.5), y, i === cols.length - 1 ? 22 : 18, i === cols.length - 1 ? (out ? OUT_INK : INK.gold) : INK.text, 'center'),
    );
    if (out) {
      const x = PAD + nameW + colW * (cols.length - 0.5);
      g.font = font(22);
      const w = g.measureText(String(sc.total)).width / 2 + 4;
      g.strokeStyle = OUT_INK;
      g.lineWidth = 2;
      g.beginPath();
      g.moveTo(x - w, y);
      g.lineTo(x + w, y);
      g.stroke();
    }
  });
}

function drawPyramid(g: Ctx, view: CrystalliaView, L: Layout, faceDown: Array<[number, number]>): void {
  const top = L.card(0, 0).y - PYRAMID_HEAD;
  const left = view.pyramid.flat().filter((c) => c !== null).length;
  const gone = view.discarded.length ? ` · ${view.discarded.length} left the game` : '';
  text(g, `Pyramid: ${left} stone${left === 1 ? '' : 's'}${gone}; #n for /crystallia place`, PAD, top + 12, 16, INK.dim);
  view.pyramid.forEach((row, r) =>
    row.forEach((card, i) => {
      const rect = L.card(r, i);
      const stoneRect = { x: rect.x, y: rect.y, w: rect.w, h: 36 };
      const hidden = card !== null && (!card.faceUp || faceDown.some(([fr, fi]) => fr === r && fi === i));
      if (card === null) {
        g.setLineDash([5, 5]);
        g.strokeStyle = '#4a5263';
        g.lineWidth = 2;
        roundRect(g, stoneRect.x + 2, stoneRect.y + 2, stoneRect.w - 4, stoneRect.h - 4, 6);
        g.stroke();
        g.setLineDash([]);
        return;
      }
      if (hidden || !card.faceUp) {
        g.fillStyle = INK.faceDown;
        roundRect(g, stoneRect.x, stoneRect.y, stoneRect.w, stoneRect.h, 7);
        g.fill();
        g.save();
        g.clip();
        g.strokeStyle = INK.faceDownHatch;
        g.lineWidth = 2;
        g.beginPath();
        for (let d = -stoneRect.h; d < stoneRect.w; d += 9) {
          g.moveTo(stoneRect.x + d, stoneRect.y + stoneRect.h);
          g.lineTo(stoneRect.x + d + stoneRect.h, stoneRect.y);
        }
        g.stroke();
        g.restore();
        g.lineWidth = 2;
        g.strokeStyle = INK.edge;
        roundRect(g, stoneRect.x, stoneRect.y, stoneRect.w, stoneRect.h, 7);
        g.stroke();
        return;
      }
      const a = { x: stoneRect.x, y: stoneRect.y, w: stoneRect.w / 2, h: stoneRect.h };
      const b = { x: stoneRect.x + stoneRect.w / 2, y: stoneRect.y, w: stoneRect.w / 2, h: stoneRect.h };
      stoneTile(g, a, b, card.halves, 1, 12, INK.gold);
      text(g, `#${card.id + 1}`, rect.x + rect.w / 2, rect.y + 48, 20, INK.gold, 'center');
    }),
  );
}

function drawExtras(g: Ctx, view: CrystalliaView, L: Layout, opts: PictureOptions): void {
  const t0 = L.talisman(0);
  text(g, 'Talismans', PAD, t0.y, 17, INK.dim);
  for (let k = 0; k < TALISMANS; k++) {
    const c = L.talisman(k);
    const used = view.talismans.used[k];
    g.beginPath();
    g.arc(c.x, c.y, 17, 0, Math.PI * 2);
    if (used) {
      g.fillStyle = VIVID[used.colour];
      g.fill();
      g.lineWidth = 3;
      g.strokeStyle = INK.gold;
      g.stroke();
      gemPath(g, used.colour, c.x, c.y, 8);
      g.fillStyle = INK.stone;
      g.fill();
      text(g, opts.names[used.player] ?? 'player', c.x, c.y + 29, 14, INK.text, 'center', 74);
    } else {
      g.fillStyle = INK.panel;
      g.fill();
      g.setLineDash([4, 4]);
      g.lineWidth = 2;
      g.strokeStyle = INK.dim;
      g.stroke();
      g.setLineDash([]);
      text(g, 'free', c.x, c.y + 29, 14, INK.dim, 'center');
    }
  }
  const s0 = L.supply('red');
  text(g, 'Supply', s0.x - 24, s0.y, 17, INK.dim, 'right');
  for (const colour of COLOURS) {
    const c = L.supply(colour);
    gem(g, colour, c.x, c.y, 12);
    text(g, String(view.supply[colour]), c.x + 16, c.y, 18, view.supply[colour] === 0 ? VIVID.red : INK.text);
  }
}

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
  const name = opts.names[seat.player] ?? 'player';
  text(g, `${k + 1}. ${name}`, r.x + 12, r.y + 22, 21, INK.text, 'left', INFO_W - 16);
  text(g, `${seat.score.total} pts`, r.x + 12, r.y + 56, 28, INK.text);
  const place = view.outcome?.places?.[seat.player];
  const status =
    view.phase === 'over'
      ? view.outcome!.winners.includes(seat.player)
        ? '🏆 wins'
        : `${place ? ordinal(place) : ''}${seat.status === 'forfeited' ? ' · forfeited' : seat.status === 'eliminated' ? ' · out (13)' : ''}`
      : seat.status === 'eliminated'
        ? 'out: 13 of a colour'
        : seat.status === 'forfeited'
          ? 'autopilot (forfeited)'
          : view.turn?.player === seat.player
            ? view.turn.second
              ? '▶ to play (2nd turn)'
              : '▶ to play'
            : view.flip?.waitingFor.includes(seat.player)
              ? '▶ choosing flips'
              : '';
  const statusColour = seat.status === 'eliminated' || seat.status === 'forfeited' ? OUT_INK : INK.gold;
  text(g, status, r.x + 12, r.y + 88, 17, statusColour, 'left', INFO_W - 16);
  // Blacks, supercrystals and talismans taken: the rest of the score, on the last line.
  let x = r.x + 12;
  const y = r.y + r.h - 22;
  if (seat.score.blacks > 0) {
    g.beginPath();
    g.arc(x + 9, y, 9, 0, Math.PI * 2);
    g.fillStyle = INK.black;
    g.fill();
    g.lineWidth = 2;
    g.strokeStyle = INK.dim;
    g.stroke();
    text(g, `−${seat.score.blacks}`, x + 22, y, 17, INK.text);
    x += 58;
  }
  if (seat.supercrystals.length) {
    text(g, '★', x, y, 20, INK.gold);
    text(g, `+${seat.score.supercrystalPoints}`, x + 22, y, 17, INK.text);
    x += 60;
  }
  for (const colour of seat.talismans) {
    g.beginPath();
    g.arc(x + 9, y, 9, 0, Math.PI * 2);
    g.fillStyle = VIVID[colour];
    g.fill();
    g.lineWidth = 2;
    g.strokeStyle = INK.gold;
    g.stroke();
    x += 24;
  }
  for (const colour of COLOURS) drawPlatform(g, view, L, k, colour);
}

/**
 * One platform: the count in its middle, big; the crystals on its ring of 9 (regular side) or 5
 * (flipped side, dark, "×2" under it); a regular side's four penalty spaces (crystals 10 to 13) in
 * a row under it; its points at the top left, the supercrystal at the top right, the black
 * crystals sitting on it at the bottom right.
 */
function drawPlatform(g: Ctx, view: CrystalliaView, L: Layout, k: number, colour: Colour): void {
  const seat = view.seats[k]!;
  const c = L.platform(k, colour);
  const flipped = seat.flipped?.[colour] ?? false;
  const secret = seat.flipped === null;
  const n = seat.crystals[colour];
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
    const p = L.slot(k, colour, s, flipped);
    const radius = flipped ? 9.5 : s < PLATFORM.regularScoringLimit ? 8 : 6.5;
    g.beginPath();
    g.arc(p.x, p.y, radius, 0, Math.PI * 2);
    if (s < n) {
      g.fillStyle = VIVID[colour];
      g.fill();
      g.lineWidth = 1.5;
      g.strokeStyle = INK.stone;
      g.stroke();
    } else {
      g.fillStyle = INK.slot;
      g.fill();
      g.lineWidth = 1.5;
      g.strokeStyle = !flipped && s >= PLATFORM.regularScoringLimit ? INK.penaltyEdge : INK.slotEdge;
      g.stroke();
    }
  }
  text(g, secret ? '?' : String(n), c.x, c.y + 1, 28, INK.text, 'center');
  if (flipped) text(g, '×2', c.x, c.y + PENALTY_DY, 17, INK.gold, 'center');
  const cell = { x: c.x - CELL_W / 2, y: c.y - 60 };
  const sc = seat.score.colours.find((x) => x.colour === colour)!;
  if (!secret) text(g, sc.penalty < 0 ? `+${sc.points}−${-sc.penalty}` : `+${sc.points}`, cell.x + 2, cell.y + 12, 17, sc.penalty < 0 ? '#f28b82' : INK.dim);
  if (seat.supercrystals.includes(colour)) {
    g.beginPath();
    gemPath(g, 'yellow', cell.x + CELL_W - 15, cell.y + 13, 13);
    g.fillStyle = VIVID[colour];
    g.fill();
    g.lineWidth = 2;
    g.strokeStyle = INK.gold;
    g.stroke();
  }
  const blacks = seat.blacks[colour];
  if (blacks > 0) {
    g.beginPath();
    g.arc(cell.x + CELL_W - 14, c.y + 44, 11, 0, Math.PI * 2);
    g.fillStyle = INK.black;
    g.fill();
    g.lineWidth = 2;
    g.strokeStyle = INK.dim;
    g.stroke();
    text(g, String(blacks), cell.x + CELL_W - 14, c.y + 45, 14, INK.text, 'center');
  }
}

/** Draws the picture of `view` and encodes it as PNG (png.ts: faster than Skia's encoder for this picture). */
export function renderPicture(view: CrystalliaView, opts: PictureOptions): Buffer {
  registerFonts();
  const L = layout(view.seats.length);
  const canvas = createCanvas(L.width, L.height);
  const g = canvas.getContext('2d');
  g.fillStyle = INK.background;
  g.fillRect(0, 0, L.width, L.height);
  drawHeader(g, view, opts);
  drawBoard(g, view, L);
  drawLegend(g, L);
  if (view.phase === 'over') drawFinalScores(g, view, L, opts);
  else drawPyramid(g, view, L, opts.faceDown ?? []);
  drawExtras(g, view, L, opts);
  view.seats.forEach((_, k) => drawSeat(g, view, L, k, opts));
  return encodePng(L.width, L.height, canvas.data());
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
