import { describe, expect, it } from 'vitest';
import { check } from '../../helpers/check.ts';
import type { MessagePayload } from '../../../src/bot/game-module.ts';
import { CHAOS_TILES, crystallia, tileMix, type CrystalliaMove, type CrystalliaState, type CrystalliaView } from '../../../src/games/crystallia/engine/index.ts';
import { ids } from '../../../src/games/crystallia/ids.ts';
import { breakdownText, present } from '../../../src/games/crystallia/present.ts';
import {
  abilityPanel,
  decodeChain,
  encodeChain,
  flipPanel,
  isolatePanel,
  MAX_CHAIN,
  moveTargetsPanel,
  nextPanel,
  placementMove,
  rotateTargetsPanel,
  squarePanel,
  takePanel,
} from '../../../src/games/crystallia/turn.ts';
import type { Notification } from '../../../src/services/notifications.ts';
import { hexSeed, position, prng, sq } from './helpers.ts';

/**
 * What Crystallia sends to Discord, checked against Discord's limits over random games (content
 * 2,000 characters, 5 rows, 5 buttons or one menu per row, 25 options, labels and descriptions 100,
 * custom ids 100 and unique per message), and what the text says.
 */

type Row = { type: number; components: Array<{ type: number; custom_id?: string; label?: string; options?: Array<{ label: string; value: string; description?: string }>; url?: string }> };

function checkLimits(p: MessagePayload, where: string): void {
  check(p.content?.length ?? 0, where).toBeLessThanOrEqual(2000);
  const rows = (p.components ?? []) as unknown as Row[];
  check(rows.length, where).toBeLessThanOrEqual(5);
  const seen = new Set<string>();
  for (const row of rows) {
    check(row.components.length, where).toBeGreaterThan(0);
    const menus = row.components.filter((c) => c.type === 3);
    if (menus.length) check(row.components, where).toHaveLength(1);
    else check(row.components.length, where).toBeLessThanOrEqual(5);
    for (const c of row.components) {
      if (c.custom_id) {
        check(c.custom_id.length, where).toBeLessThanOrEqual(100);
        check(seen.has(c.custom_id), `${where}: duplicate ${c.custom_id}`).toBe(false);
        seen.add(c.custom_id);
      }
      if (c.label !== undefined) check(c.label.length, where).toBeLessThanOrEqual(80);
      if (c.type === 3) {
        check(c.options!.length, where).toBeGreaterThan(0);
        check(c.options!.length, where).toBeLessThanOrEqual(25);
        check(new Set(c.options!.map((o) => o.value)).size, where).toBe(c.options!.length);
        for (const o of c.options!) {
          check(o.label.length, where).toBeLessThanOrEqual(100);
          check(o.value.length, where).toBeLessThanOrEqual(100);
          check(o.description?.length ?? 0, where).toBeLessThanOrEqual(100);
        }
      }
    }
  }
}

const META = (version: number) => ({ gameId: 2_147_483_647, version });
const boardMeta = (view: CrystalliaView, version: number, seed: string | null = null) => ({
  gameId: 2_147_483_647,
  version,
  names: Object.fromEntries(view.players.map((p) => [p, `${p} with a rather long display name 🐉`.slice(0, 32)])),
  deadlines: Object.fromEntries(view.players.map((p) => [p, new Date('2030-01-01T00:00:00Z')])),
  seedCommitment: 'ab'.repeat(32),
  seed,
});

/** Every panel a player could be shown in `s`, through the ephemeral flow. */
function panelsOf(s: CrystalliaState, version: number, r: () => number): Array<[string, MessagePayload]> {
  const out: Array<[string, MessagePayload]> = [];
  const p = crystallia.awaiting(s)[0]!;
  const view = crystallia.view(s, p);
  const legal = crystallia.legalMoves(s, p);
  const meta = META(version);
  if (view.phase === 'flip') {
    out.push(['flip', flipPanel(meta, Math.floor(r() * 16))]);
    return out;
  }
  const t = view.turn!;
  if (t.step !== 'take') return out;
  out.push(['take', takePanel(view, legal, meta)]);
  const places = legal.filter((m) => m.type === 'place') as Array<Extract<CrystalliaMove, { type: 'place' }>>;
  for (const stone of new Set(places.map((m) => m.stone))) {
    out.push([`square ${stone}`, squarePanel(view, legal, meta, stone, null)]);
    const m = places.filter((x) => x.stone === stone)[Math.floor(r() * places.filter((x) => x.stone === stone).length)]!;
    out.push([`square ${stone} at ${m.square}`, squarePanel(view, legal, meta, stone, m.square)]);
    check(placementMove(view, legal, stone, m.square, m.dir)).toEqual(m);
  }
  // Follow one placement (preferring one that covers an ability) through its steps.
  const covering = places.filter((m) => ['move', 'rotate'].includes(s.squares[m.square]!));
  const first = (covering.length ? covering : places)[Math.floor(r() * (covering.length || places.length))];
  if (!first) return out;
  let chain: CrystalliaMove[] = [first];
  let st = crystallia.apply(s, p, first);
  for (let k = 0; k < 20 && !st.outcome && st.turn?.player === p && st.turn.number === t.number; k++) {
    const v = crystallia.view(st, p);
    const l = crystallia.legalMoves(st, p);
    const enc = encodeChain(chain);
    if (st.turn.step === 'ability') {
      out.push(['ability', abilityPanel(v, l, meta, enc)]);
      for (const stone of new Set(l.flatMap((m) => (m.type === 'move' ? [m.stone] : [])))) out.push(['move targets', moveTargetsPanel(v, l, meta, enc, stone)]);
      for (const stone of new Set(l.flatMap((m) => (m.type === 'rotate' ? [m.stone] : [])))) out.push(['rotate targets', rotateTargetsPanel(v, l, meta, enc, stone)]);
    } else if (st.turn.step === 'isolate') out.push(['isolate', isolatePanel(v, l, meta, enc)]);
    const m = l[Math.floor(r() * l.length)]!;
    chain = [...chain, m];
    st = crystallia.apply(st, p, m);
  }
  check(decodeChain(encodeChain(chain))).toEqual(chain);

  // The last step: a preview draws its picture (slow), so only every few versions.
  if (version % 5 === 0) out.push(['next', nextPanel({ before: view, me: p, meta, moves: chain, after: { view: crystallia.view(st, p), legal: crystallia.legalMoves(st, p) }, names: {} })]);
  return out;
}

describe('Discord limits over random games', () => {
  it('boards, DMs and every panel of the turn flow stay within them, and chains round-trip', () => {
    const r = prng(11);
    let checked = 0;
    let previews = 0;
    for (let g = 0; g < 3; g++) {
      const players = ['p1', 'p2', 'p3', 'p4'].slice(0, 2 + g);
      let s = crystallia.setup({ players, seed: hexSeed(100 + g), options: { advanced: g !== 1 } });
      for (let version = 1; !s.outcome; version++) {
        const p = crystallia.awaiting(s)[0]!;
        const view = crystallia.view(s, null);
        if (s.turn?.step === 'take' || s.flips) {
          // The board draws its picture: every few versions is enough for the text and buttons.
          if (version % 5 === 1) checkLimits(present.board(view, boardMeta(view, version)), `board v${version}`);
          const n: Notification = { type: 'turn', gameId: 1, kind: 'crystallia', view: crystallia.view(s, p), deadlineAt: '2030-01-01T00:00:00Z', opponents: [] };
          checkLimits(present.notification(n, { names: {}, boardUrl: 'https://discord.com/channels/1/2/3', version, active: true }), 'turn DM');
          for (const [where, payload] of panelsOf(s, version, r)) {
            checkLimits(payload, `${where} v${version}`);
            checked++;
            if (payload.files?.length) previews++;
          }
        }
        const ms = crystallia.legalMoves(s, p);
        s = crystallia.apply(s, p, ms[Math.floor(r() * ms.length)]!);
      }
      const view = crystallia.view(s, null);
      checkLimits(present.board(view, boardMeta(view, 999, 'cd'.repeat(32))), 'final board');
    }
    check(checked).toBeGreaterThan(100);
    check(previews).toBeGreaterThan(3);
  }, 120_000);

  it('a turn chain fits in every id: one Move or Rotate per such square of the most chaos tiles, a skip, an isolation', () => {
    const abilitySquares = Math.max(...[2, 3, 4].map((n) => tileMix(n).chaos)) * Math.max(...CHAOS_TILES.map((t) => t.squares.flat().filter((k) => k === 'move' || k === 'rotate').length));
    check(MAX_CHAIN).toBe(4 + abilitySquares * 4 + 1 + 2);
    const chain = 'o'.repeat(MAX_CHAIN);
    for (const action of ['mvto', 'rotto', 'iso', 'ok'] as const) {
      const extra = action === 'iso' ? ['purple'] : action === 'ok' ? [] : [23, ...(action === 'mvto' ? [2] : [])];
      check(ids.make(action, 2_147_483_647, 2_147_483_647, chain, ...extra).length).toBeLessThanOrEqual(100);
    }
    expect(() => encodeChain(Array.from({ length: MAX_CHAIN }, () => ({ type: 'skip-ability' as const })).concat([{ type: 'skip-ability' }]))).toThrow();
    check(decodeChain('~')).toEqual([]);
    for (const bad of ['z', 'p1', 'pzzq', 'o1x3', 'tq']) check(decodeChain(bad)).toBeNull();
  });
});

describe('what the text says', () => {
  const s = position({ placed: [['rb', 'C4', 'right']], pyramid: ['gp', 'bg'], crystals: { alice: { red: 11, blue: 3 }, bob: { green: 2 } }, flipped: { alice: ['blue'] }, blacks: { alice: { red: 1 } }, supercrystals: { red: 'alice' } });

  it('the board: whose turn, the deadline, the scores, the last turn, the fair shuffle, and the buttons', () => {
    const s1 = crystallia.apply(crystallia.apply(s, 'alice', { type: 'place', stone: s.pyramid[2][0]!, square: sq('A1'), dir: 'right' }), 'alice', { type: 'isolate', colour: 'green' });
    const view = crystallia.view(s1, null);
    const p = present.board(view, { ...boardMeta(view, 7), names: { alice: 'Alice', bob: 'Bob' } });
    check(p.content).toContain('🎲 **Turn:** <@bob>: take a stone and place it, or use a talisman.');
    check(p.content).toContain(`**Deadline:** <t:${Date.parse('2030-01-01T00:00:00Z') / 1000}:f>`);
    check(p.content).toMatch(/\*\*Scores:\*\* Alice \d+ · Bob \d+/);
    check(p.content).toMatch(/\*\*Last turn:\*\* Alice placed green\/purple on A1–A2 · \+2 purple \(square\)/);
    check(p.content).toContain('committed as `abababababababab…`');
    check(p.allowed_mentions).toEqual({ parse: [] });
    check(p.files).toHaveLength(1);
    check(p.files![0]!.name).toBe('crystallia-2147483647-v7.png');
    const labels = (p.components as unknown as Row[]).flatMap((r) => r.components.map((c) => c.label));
    check(labels).toEqual(['Take your turn', 'Forfeit…']);
  });

  it('the end: the winners and every score broken down', () => {
    const over = crystallia.forfeit(s, 'bob');
    const view = crystallia.view(over, null);
    const p = present.board(view, { ...boardMeta(view, 9, 'cd'.repeat(32)), names: { alice: 'Alice', bob: 'Bob' } });
    check(p.content).toContain(`🏆 <@alice> wins: <@bob> forfeited. Score: <@alice> ${view.scores.alice} · <@bob> ${view.scores.bob}.`);
    // A turn that ran out is not called a forfeit by choice.
    const timedOut = present.board(view, { ...boardMeta(view, 9, 'cd'.repeat(32)), names: { alice: 'Alice', bob: 'Bob' }, timedOut: ['bob'] });
    check(timedOut.content).toContain('🏆 <@alice> wins on time: <@bob>’s turn ran out.');
    check(timedOut.content).toMatch(/Bob · ran out of time: /);
    const dm = present.notification({ type: 'game-over', gameId: 9, kind: 'crystallia', winners: ['alice'], reason: 'forfeit', forfeited: 'bob', timedOut: ['bob'], scores: { bob: 3, alice: 14 } }, { names: {}, boardUrl: null, version: 9, active: false });
    check(dm.content).toBe('**Crystallia #9** is over. 🏆 <@alice> wins on time: <@bob>’s turn ran out. Score: <@alice> 14 · <@bob> 3. The board shows every score in detail.');
    const alice = view.seats.find((x) => x.player === 'alice')!.score;
    check(breakdownText(alice)).toBe('regular +9, over 9 −2, flipped +6, black −1, super +2 (red) = **14** (11 red, 3 blue (flipped), 0 green, 0 purple)');
    check(p.content).toContain(`1. Alice: ${breakdownText(alice)}`);
    check(p.content).toContain(`seed \`${'cd'.repeat(32)}\``);
    check(p.content).toContain('`/stonehall verify game:2147483647`');
    check(p.components).toEqual([]);
  });

  it('DMs never tell a flip, not even the recipient\'s own (a DM to closed DMs lands in the channel)', () => {
    let a = crystallia.setup({ players: ['alice', 'bob'], seed: hexSeed(5), options: { advanced: true } });
    a = crystallia.apply(a, 'alice', { type: 'flip', platforms: ['purple'] });
    const n: Notification = { type: 'reminder', gameId: 3, kind: 'crystallia', view: crystallia.view(a, 'alice'), deadlineAt: '2030-01-01T00:00:00Z' };
    check((n.view as CrystalliaView).flip?.mine).toEqual(['purple']);
    const dm = present.notification(n, { names: {}, boardUrl: null, version: 1, active: true });
    check(dm.content).not.toMatch(/purple/);
    check(dm.content).toMatch(/Reminder: choose your flips/);
  });

  it('the summary line', () => {
    const view = crystallia.view(s, 'bob');
    check(present.summary(view, 'bob', { gameId: 4, names: { alice: 'Alice', bob: 'Bob' } })).toBe(`#4 vs Alice: Alice's turn, ${view.scores.alice}–${view.scores.bob}`);
  });
});
