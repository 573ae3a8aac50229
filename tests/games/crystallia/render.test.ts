import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { crystallia, type Colour, type CrystalliaState, type CrystalliaView, type Half } from '../../../src/games/crystallia/engine/index.ts';
import { encodePng } from '../../../src/games/crystallia/png.ts';
import { drawPicture, INK, layout, OUT_INK, PHONE_WIDTH, pictureFor, renderPicture, textLayout, TINT, VIVID, WIDTH, type PictureOptions, type Point } from '../../../src/games/crystallia/render.ts';
import { avail, boardOf, hexSeed, place, play, position, sq, THREE } from './helpers.ts';

/**
 * The picture (render.ts): the same view always gives the same bytes, a known position draws its
 * stones, squares, pyramid and crystals where the layout says (pixels sampled at the centres it
 * computes), and the PNG stays well within Discord's attachment limits.
 */

const NAMES = { alice: 'Alice', bob: 'Bob', carol: 'Carol' };

async function pixels(png: Buffer): Promise<{ width: number; height: number; at(p: Point): string }> {
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const data = g.getImageData(0, 0, img.width, img.height).data;
  return {
    width: img.width,
    height: img.height,
    at({ x, y }) {
      const i = (Math.round(y) * img.width + Math.round(x)) * 4;
      return `#${[data[i]!, data[i + 1]!, data[i + 2]!].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    },
  };
}

/**
 * A known position: a board of purple squares with a red one (A1), a Move (B2) and a Rotate (C3);
 * two stones placed (red/blue on D1-D2, a wild on F8-F9); Alice holds 3 red and a flipped blue
 * platform with 2, Carol 11 red (two beyond 9); Bob used the green talisman; the pyramid has three cards up and one face down.
 */
function known(): CrystalliaView {
  const s = position({
    players: THREE,
    squares: boardOf('p', { A1: 'r', B2: 'M', C3: 'T' }),
    placed: [
      ['rb', 'D1', 'right'],
      ['yy', 'F8', 'right'],
    ],
    pyramid: ['gp', 'bg', 'rr'],
    hidden: ['pp'],
    crystals: { alice: { red: 3, blue: 2 }, bob: { green: 1 }, carol: { red: 11 } },
    flipped: { alice: ['blue'] },
    blacks: { carol: { purple: 2 } },
    talismans: [{ player: 'bob', colour: 'green' }],
  });
  return crystallia.view(s, null);
}

const offset = (p: Point, dx: number, dy: number): Point => ({ x: p.x + dx, y: p.y + dy });

/** A face-down card's colour: its ground, its hatching, or a blend of the two where a line's edge is smoothed. */
function faceDownInk(c: string): boolean {
  const rgb = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const [a, b, x] = [rgb(INK.faceDown), rgb(INK.faceDownHatch), rgb(c)];
  return x.every((v, i) => v >= Math.min(a[i]!, b[i]!) - 2 && v <= Math.max(a[i]!, b[i]!) + 2);
}

describe('the picture', () => {
  it('is deterministic: the same view (also after a trip through JSON) gives the same bytes', () => {
    const v = known();
    const a = renderPicture(v, { names: NAMES, title: 'Crystallia #1' });
    const b = renderPicture(JSON.parse(JSON.stringify(v)) as CrystalliaView, { names: { ...NAMES }, title: 'Crystallia #1' });
    expect(a.equals(b)).toBe(true);
    // ...and a different view gives a different picture.
    const s0 = position({ players: THREE, placed: [['rb', 'D1', 'right']], pyramid: ['gp', 'bg'] });
    const moved = crystallia.view(play(s0, place(avail(s0), 'A5')), null);
    expect(renderPicture(moved, { names: NAMES, title: 'Crystallia #1' }).equals(a)).toBe(false);
  });

  it('draws stones, printed squares, abilities, the pyramid, talismans and platforms where the layout puts them', async () => {
    const v = known();
    const png = renderPicture(v, { names: NAMES, title: 'Crystallia #1' });
    const px = await pixels(png);
    const L = layout(v.seats.length);
    expect([px.width, px.height]).toEqual([L.width, L.height]);
    // Placed stones: each half's crystal, vivid, at the square's centre.
    expect(px.at(L.squareCentre(sq('D1')))).toBe(VIVID.red);
    expect(px.at(L.squareCentre(sq('D2')))).toBe(VIVID.blue);
    expect(px.at(L.squareCentre(sq('F8')))).toBe(VIVID.yellow);
    // ...on an ivory tile, not the printed square (a corner of the square inside the tile).
    expect(px.at(offset(L.squareCentre(sq('D1')), -20, 20))).toBe(INK.stone);
    // Printed squares: a flat tint (sampled near a corner, away from the printed outline).
    expect(px.at(offset(L.square(sq('A1')), 9, 9))).toBe(TINT.red);
    expect(px.at(offset(L.square(sq('E5')), 9, 9))).toBe(TINT.purple);
    expect(px.at(offset(L.square(sq('B2')), 9, 9))).toBe(INK.ability);
    expect(px.at(offset(L.square(sq('C3')), 9, 9))).toBe(INK.ability);
    // Empty squares never show a vivid crystal in their middle.
    for (const name of ['A1', 'E5', 'F1']) expect(Object.values(VIVID)).not.toContain(px.at(L.squareCentre(sq(name))));
    // The pyramid: the three available cards face up with their crystals, the covered one face down.
    const bottom = v.pyramid[2]!;
    const halvesAt = (i: number) => (bottom[i] as { halves: [Half, Half] }).halves;
    for (const i of [0, 1, 2]) {
      const [a, b] = L.cardHalves(2, i);
      expect([px.at(a), px.at(b)]).toEqual([VIVID[halvesAt(i)[0]], VIVID[halvesAt(i)[1]]]);
    }
    expect(v.pyramid[1]![0]).toEqual({ faceUp: false });
    const [d0, d1] = L.cardHalves(1, 0);
    for (const p of [d0, d1]) expect(faceDownInk(px.at(p)), px.at(p)).toBe(true);
    // The green talisman, taken (its ring in green beside the small ivory crystal); the others free.
    expect(px.at(offset(L.talisman(0), 12, 0))).toBe(VIVID.green);
    expect(px.at(offset(L.talisman(1), 12, 0))).toBe(INK.panel);
    // Platforms: Alice's 3 red on the regular side (slots 0-2 filled, 3 empty), 2 blue on the flipped side.
    const slot = (seat: number, c: Colour, k: number, flipped: boolean) => px.at(L.slot(seat, c, k, flipped));
    expect([0, 1, 2].map((k) => slot(0, 'red', k, false))).toEqual([VIVID.red, VIVID.red, VIVID.red]);
    expect(slot(0, 'red', 3, false)).toBe(INK.slot);
    expect([slot(0, 'blue', 0, true), slot(0, 'blue', 1, true), slot(0, 'blue', 2, true)]).toEqual([VIVID.blue, VIVID.blue, INK.slot]);
    expect(slot(1, 'green', 0, false)).toBe(VIVID.green);
    expect(slot(2, 'green', 0, false)).toBe(INK.slot);
    // The flipped platform is dark, a regular one is not.
    expect(px.at(offset(L.platform(0, 'blue'), -14, 10))).toBe(INK.flipped);
    expect(px.at(offset(L.platform(0, 'red'), -14, 10))).toBe('#3b4252');
    // Beyond 9 on a regular platform, the penalty spaces under it fill: Carol's two, none of Alice's.
    expect([9, 10, 11].map((k) => slot(2, 'red', k, false))).toEqual([VIVID.red, VIVID.red, INK.slot]);
    expect(slot(2, 'red', 8, false)).toBe(VIVID.red);
    expect(slot(0, 'red', 9, false)).toBe(INK.slot);
  });

  it('keeps face down what a preview must not uncover', async () => {
    const v = known();
    // As if the covered card were face up already: a preview passes the places face down before its moves.
    const uncovered = JSON.parse(JSON.stringify(v)) as CrystalliaView;
    uncovered.pyramid[1]![0] = { faceUp: true, id: 21, halves: ['purple', 'purple'] };
    const L = layout(v.seats.length);
    const open = await pixels(renderPicture(uncovered, { names: NAMES, title: 'x' }));
    expect(open.at(L.cardHalves(1, 0)[0])).toBe(VIVID.purple);
    const masked = await pixels(renderPicture(uncovered, { names: NAMES, title: 'x', preview: true, faceDown: [[1, 0]] }));
    expect(faceDownInk(masked.at(L.cardHalves(1, 0)[0]))).toBe(true);
  });

  it('stays within Discord attachment limits and reads on a phone: 600 px wide, a few hundred KB, four players at the end included', () => {
    for (const players of [2, 3, 4]) {
      let s = crystallia.setup({ players: ['a', 'b', 'c', 'd'].slice(0, players), seed: hexSeed(players), options: { advanced: true } });
      let x = players;
      const r = () => ((x = (x * 48271) % 2147483647) / 2147483647);
      while (!s.outcome) {
        const p = crystallia.awaiting(s)[0]!;
        const ms = crystallia.legalMoves(s, p);
        s = crystallia.apply(s, p, ms[Math.floor(r() * ms.length)]!);
      }
      const png = renderPicture(crystallia.view(s, null), { names: { a: 'A', b: 'B', c: 'C', d: 'D' }, title: 'Crystallia #9' });
      expect(png.length).toBeLessThan(600 * 1024);
      expect(png.readUInt32BE(16)).toBe(WIDTH);
      expect(png.readUInt32BE(20)).toBe(layout(players).height);
      expect(layout(players).height).toBeLessThan(1600);
    }
  });

  it('has no text under 11 px when a 390 px phone shows it 326 px wide: boards of 2-4 players, Advanced Mode, previews, the end, names in any script', () => {
    // The texts of every kind of picture: every state of a few random games (flips chosen, stones
    // placed, talismans, black crystals, supercrystals, players out or forfeited, the end).
    const small: string[] = [];
    let pictures = 0;
    const seen = new Set<string>();
    for (const [players, advanced, forfeitAt] of [[2, false, -1], [3, true, 30], [4, true, -1], [4, false, 12]] as const) {
      const ids = ['a', 'b', 'c', 'd'].slice(0, players);
      const names = { a: 'Жанна 🐉', b: 'Bob', c: 'Carol with a long name', d: 'D' };
      let s = crystallia.setup({ players: ids, seed: hexSeed(players * 7 + (advanced ? 1 : 0)), options: { advanced } });
      let x = players * 13;
      const r = () => ((x = (x * 48271) % 2147483647) / 2147483647);
      for (let step = 0; ; step++) {
        if (step % 4 === 0 || s.outcome) {
          for (const preview of [false, true]) {
            const t = textLayout(crystallia.view(s, null), { names, title: 'Crystallia #1234', preview });
            pictures++;
            for (const { text, px } of t.texts) {
              seen.add(text);
              if ((px * PHONE_WIDTH) / t.width < 11) small.push(`${text}: ${((px * PHONE_WIDTH) / t.width).toFixed(1)} px`);
            }
          }
        }
        if (s.outcome) break;
        if (step === forfeitAt) {
          s = crystallia.forfeit(s, s.players[1]!);
          continue;
        }
        const p = crystallia.awaiting(s)[0]!;
        const ms = crystallia.legalMoves(s, p);
        s = crystallia.apply(s, p, ms[Math.floor(r() * ms.length)]!);
      }
    }
    expect(pictures).toBeGreaterThan(40);
    expect([...new Set(small)]).toEqual([]);
    // The texts the issue found too small are among those checked.
    for (const t of ['Move', 'wild', '+0', 'Supply', 'Talismans', '#1', 'Final scores (itemised in the message)']) expect([...seen].some((x) => x.startsWith(t)), t).toBe(true);
  });

  it('marks in the final scores a player who went out: their higher total, in red and struck, is no win', async () => {
    let s = crystallia.setup({ players: ['a', 'b'], seed: hexSeed(2), options: { advanced: false } });
    let x = 7;
    const r = () => ((x = (x * 48271) % 2147483647) / 2147483647);
    while (!s.outcome) {
      const p = crystallia.awaiting(s)[0]!;
      const ms = crystallia.legalMoves(s, p);
      s = crystallia.apply(s, p, ms[Math.floor(r() * ms.length)]!);
    }
    const end = crystallia.view(s, null);
    const as = (status: 'playing' | 'eliminated'): CrystalliaView => ({ ...end, seats: end.seats.map((seat, i) => ({ ...seat, status: i === 1 ? status : 'playing' })) });
    const L = layout(2);
    // The final scores take the pyramid's place: count the red of "out" there.
    const red = async (v: CrystalliaView) => {
      const px = await pixels(renderPicture(v, { names: { a: 'Ann', b: 'Ben' }, title: 'x' }));
      let n = 0;
      for (let y = L.card(0, 0).y - 40; y < L.card(2, 0).y + 40; y++) for (let x = 0; x < WIDTH; x += 2) if (px.at({ x, y }) === OUT_INK) n++;
      return n;
    };
    expect(await red(as('playing'))).toBe(0);
    expect(await red(as('eliminated'))).toBeGreaterThan(40);
  });

  it('draws player names in any script, with colour emoji', async () => {
    const v = known();
    const L = layout(v.seats.length);
    const area = L.seat(0);
    const colourful = async (name: string) => {
      const px = await pixels(renderPicture(v, { names: { ...NAMES, alice: name }, title: 'x' }));
      let n = 0;
      for (let x = area.x + 12; x < area.x + 180; x += 1) {
        for (let y = area.y + 10; y < area.y + 34; y += 2) {
          const c = px.at({ x, y });
          const [r, g, b] = [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) as [number, number, number];
          if (Math.max(r, g, b) - Math.min(r, g, b) > 80) n++;
        }
      }
      return n;
    };
    // Cyrillic and Greek letters are drawn (not blank), and the dragon emoji in colour.
    expect(await colourful('Жанна Ωμέγα')).toBe(0);
    expect(await colourful('Жанна 🐉')).toBeGreaterThan(20);
    const px = await pixels(renderPicture(v, { names: { ...NAMES, alice: 'Жанна Ωμέγα' }, title: 'x' }));
    // Alice is to play: her panel is the highlighted one. Her name's letters are ink on it.
    const panel = px.at({ x: area.x + 100, y: area.y + 120 });
    expect(panel).toBe(INK.panelTurn);
    let ink = 0;
    for (let x = area.x + 40; x < area.x + 170; x++) if (px.at({ x, y: area.y + 22 }) !== panel) ink++;
    expect(ink).toBeGreaterThan(20);
  });

  it('draws the same pixels on its kept canvases as on a new one, picture after picture: 2, 3 and 4 players in turn, previews and the end', () => {
    // renderPicture reuses one canvas per height; nothing of a picture (pixels, transform, styles)
    // may reach the next. The reference: each view drawn alone on a new canvas, encoded the same way.
    const games = [2, 3, 4].map((n, k) => crystallia.setup({ seed: hexSeed(700 + k), players: ['alice', 'bob', 'carol', 'dave'].slice(0, n), options: { advanced: k === 1 } }));
    const names = { alice: 'Alice', bob: 'Bob 🐉', carol: 'Жанна', dave: 'Dave' };
    const next = (s: CrystalliaState, step: number) => {
      const actor = crystallia.awaiting(s)[0]!;
      const moves = crystallia.legalMoves(s, actor);
      return crystallia.apply(s, actor, moves[(step * 7) % moves.length]!);
    };
    const same = (view: CrystalliaView, opts: PictureOptions, label: string) => {
      const kept = renderPicture(view, opts);
      const alone = drawPicture(view, opts);
      expect(kept.equals(encodePng(alone.width, alone.height, alone.data())), label).toBe(true);
    };
    for (let step = 0; step < 24; step++) {
      const k = step % 3;
      games[k] = next(games[k]!, step);
      const preview = step % 5 === 0;
      same(crystallia.view(games[k]!, null), { names, title: `Crystallia #${k}`, preview, faceDown: preview ? [[6, 0]] : undefined }, `step ${step}`);
    }
    let end = games[2]!;
    for (let step = 0; !end.outcome; step++) end = next(end, step);
    same(crystallia.view(end, null), { names, title: 'Crystallia #2' }, 'the end');
  });

  it('is drawn once per cache key', () => {
    let draws = 0;
    const draw = () => {
      draws++;
      return Buffer.from([draws]);
    };
    const a = pictureFor('test:1', draw);
    expect(pictureFor('test:1', draw)).toBe(a);
    pictureFor('test:2', draw);
    expect(draws).toBe(2);
  });
});
