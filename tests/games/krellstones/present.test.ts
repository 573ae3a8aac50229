import { describe, expect, it } from 'vitest';
import type { BoardMeta } from '../../../src/bot/game-module.ts';
import { krellstones, type KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { present, yellHeard } from '../../../src/games/krellstones/present.ts';
import { rerollPanel, swapPanel } from '../../../src/games/krellstones/routes.ts';
import { board as atBoard, newGame, PLAYERS, step } from './helpers.ts';

/**
 * The board and panels, as pure functions of views: what everyone sees (stones and values, why a
 * stone is out in the rulebook's words, sums, busts, rounds won, the phase and its deadline) and
 * what only one player sees (their reroll selection).
 */
const meta = (over: Partial<BoardMeta> = {}): BoardMeta => ({ gameId: 7, version: 3, names: {}, deadlines: {}, seedCommitment: 'c'.repeat(64), seed: null, ...over });
const P = PLAYERS[3];

/** After the first pass with these values (pawn, dancer, krells, master), everyone choosing rerolls. */
function choosing(rows: Record<string, Parameters<typeof atBoard>[1][string]>): KrellstonesState {
  const { state } = newGame(P, { pace: 'FAST' });
  return step(atBoard(state, rows));
}

describe('the Krellstones board', () => {
  const s = choosing({ alice: [1, 5, 3, 3, 4, 1], bob: [2, 10, 5, 6, 7, 39], cara: [4, 25, 8, 7, 6, 21] });

  it('shows every stone with its value, what went out and why, the sums, busts and the phase with its deadline', () => {
    const due = new Date('2026-11-23T12:00:00Z');
    const text = present.board(krellstones.view(s, null), meta({ deadlines: { alice: due } })).content!;
    expect(text).toMatch(/Krellstones #7\*\* · round \*\*1\*\* of 5 · FAST · rerolls on · no sideboard/);
    // A 45-second choice says its length in words beside the clock time, and no "in a few seconds".
    expect(text).toMatch(/Choosing rerolls\*\* \(secret; 0 of \d ready\): 45 s to choose, until <t:1795435200:T>/);
    expect(text).not.toMatch(/<t:\d+:R>/);
    // Alice's Krells spun out on 3: struck through, with the rulebook's announcement.
    expect(text).toContain('Krell ~~3~~');
    expect(text).toMatch(/> ✖ .*Krell 3: 3 SPINS OUT!/);
    expect(text).toContain('Dancer ⚰️~~5~~');
    expect(text).toContain('Dancer 5: BURY THE GHOST DANCER!');
    expect(text).toContain('📣 **3 SPINS OUT!**');
    // Each block names the player (a mention), the running sum and rounds won; a would-be bust shows.
    for (const p of P) expect(text).toMatch(new RegExp(`<@${p}>.* · sum \\*\\*\\d+\\*\\*.* · 🏆 0`));
    expect(text).toMatch(/sum \*\*\d+\*\* 💥/);
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(present.board(krellstones.view(s, null), meta()).components![0]!.components.map((c) => (c as { label?: string }).label)).toEqual(['Choose rerolls', 'Ready']);
  });

  it('keeps a reroll selection private: only its owner’s panel shows it; the board shows who is ready', () => {
    const inPlay = s.seats.bob!.active.filter((_, i) => s.seats.bob!.stones[i]!.status === 'in').map((x) => x.id);
    let t = krellstones.apply(s, 'bob', { type: 'select', stones: [inPlay[0]!] });
    t = krellstones.apply(t, 'bob', { type: 'ready' });
    const pub = present.board(krellstones.view(t, null), meta()).content!;
    expect(pub).toMatch(new RegExp(`<@bob>.*✅ ready`));
    expect(pub).not.toContain('Selected');
    for (const viewer of ['alice', 'cara', null]) expect(JSON.stringify(krellstones.view(t, viewer).seats.bob!.selection)).toBe('null');
    const mine = rerollPanel(krellstones.view(krellstones.apply(s, 'cara', { type: 'select', stones: [s.seats.cara!.active[0]!.id] }), 'cara'), 'cara', 7);
    expect(mine.content).toMatch(/Selected to reroll: Pawn 4/);
  });

  it('a turn DM to choose rerolls shows the recipient’s own stones, not the first seat’s', () => {
    for (const [who, pawn, dancer] of [['alice', 1, 5], ['bob', 2, 10], ['cara', 4, 25]] as const) {
      const dm = present.notification({ type: 'turn', gameId: 7, kind: 'krellstones', view: krellstones.view(s, who), deadlineAt: '2026-11-23T12:00:45Z', opponents: [] }, { names: {}, boardUrl: null, version: 3, active: true });
      expect(dm.content, who).toMatch(new RegExp(`Your stones: Pawn (\\*\\*|~~)${pawn}(\\*\\*|~~) · Dancer (⚰️)?(\\*\\*|~~)${dancer}(\\*\\*|~~)`));
    }
  });

  it('the Pup in the Hangar: the board names the owner; the turn DM asks for the exact yell with the Yell! button', () => {
    let u = newGame(P, { pace: 'FAST' }).state;
    // Find a seed's first roll where a Master lands on its lowest side.
    for (let k = 0; k < 500 && u.windows.length === 0; k++) {
      u = newGame(P, { pace: 'FAST' }, {}, (k + 1).toString(16).padStart(64, '0')).state;
      u = step(u);
    }
    expect(u.windows.length).toBe(1);
    const owner = u.windows[0]!;
    const b = present.board(krellstones.view(u, null), meta());
    expect(b.content).toMatch(new RegExp(`PUP IN THE HANGAR\\*\\*: <@${owner}>, yell \`KRELLSTONES!\``));
    expect(b.allowed_mentions).toEqual({ users: [owner] });
    expect(b.components![0]!.components.map((c) => (c as { label?: string }).label)).toEqual(['Yell!']);
    const dm = present.notification({ type: 'turn', gameId: 7, kind: 'krellstones', view: krellstones.view(u, owner), deadlineAt: '2026-11-23T12:00:08Z', opponents: [] }, { names: {}, boardUrl: null, version: 3, active: true });
    expect(dm.content).toMatch(/PUP IN THE HANGAR\*\* in \*\*Krellstones #7\*\*/);
    expect(dm.components![0]!.components.map((c) => (c as { label?: string }).label)).toEqual(['Yell!']);
    // Short windows say their length in words beside the clock time ("8 s to yell"): a relative
    // "in a few seconds" says nothing, and soon reads "a few seconds ago".
    const due = new Date('2026-11-23T12:00:08Z');
    const withDeadline = present.board(krellstones.view(u, null), meta({ deadlines: { [owner]: due } })).content!;
    expect(withDeadline).toContain(`yell \`KRELLSTONES!\` now (the Yell! button or \`/krellstones yell\`): 8 s to yell, until <t:1795435208:T>, or until the rolling ends!`);
    expect(dm.content).toContain('exactly, 8 s to yell, until <t:1795435208:T> or until the rolling ends');
    const rerollDm = present.notification({ type: 'turn', gameId: 7, kind: 'krellstones', view: krellstones.view(s, 'bob'), deadlineAt: '2026-11-23T12:00:08Z', opponents: [] }, { names: {}, boardUrl: null, version: 3, active: true });
    expect(rerollDm.content).toContain('choose your rerolls (secret), 45 s to choose, until <t:1795435208:T>. If time runs out you reroll nothing; three choices in a row left to run out forfeit your seat.');
    for (const text of [withDeadline, dm.content, rerollDm.content]) expect(text).not.toMatch(/<t:\d+:R>/);
    const reminder = present.notification({ type: 'reminder', gameId: 7, kind: 'krellstones', view: krellstones.view(s, 'bob'), deadlineAt: '2026-11-23T12:00:08Z' }, { names: {}, boardUrl: null, version: 3, active: true });
    expect(reminder.content).toContain('waits for you until <t:1795435208:t> (<t:1795435208:R>)');
    for (const text of [withDeadline, dm.content, rerollDm.content, reminder.content]) expect(text).not.toMatch(/(before|until) <t:\d+:R>/);
  });

  it('warns after a choice ran out: the board next to the name, and the next choice DM, say how many are left', () => {
    const once = structuredClone(s);
    once.seats.cara!.expiries = 1;
    const twice = structuredClone(s);
    twice.seats.cara!.expiries = 2;
    const line = (t: KrellstonesState) => present.board(krellstones.view(t, null), meta()).content!.split('\n').slice(present.board(krellstones.view(t, null), meta()).content!.split('\n').findIndex((l) => l.includes('<@cara>'))).slice(0, 4).join('\n');
    expect(present.board(krellstones.view(s, null), meta()).content).not.toContain('⚠️');
    expect(line(once)).toContain('⚠️ 1 choice ran out: 2 more in a row forfeit the seat.');
    expect(line(twice)).toContain('⚠️ 2 choices ran out in a row: the next one that runs out forfeits the seat.');
    const dm = (t: KrellstonesState) => present.notification({ type: 'turn', gameId: 7, kind: 'krellstones', view: krellstones.view(t, 'cara'), deadlineAt: '2026-11-23T12:00:45Z', opponents: [] }, { names: {}, boardUrl: null, version: 3, active: true }).content!;
    expect(dm(s)).toContain('three choices in a row left to run out forfeit your seat');
    expect(dm(s)).not.toContain('⚠️');
    expect(dm(once)).toContain('⚠️ your last choice ran out: 2 more in a row forfeit your seat.');
    expect(dm(twice)).toContain('⚠️ 2 of your choices ran out in a row: the next one that runs out forfeits your seat.');
  });

  it('before a seat rolls it says so, with its stones named (not “Pawn · · Dancer ·” and a sum of 0)', () => {
    const fresh = newGame(P, { pace: 'FAST' }).state;
    const text = present.board(krellstones.view(fresh, null), meta()).content!;
    for (const p of P) expect(text).toMatch(new RegExp(`<@${p}>.* · not rolled yet · 🏆 0`));
    expect(text).toContain('> 🎲 Pawn · Dancer · Krell · Krell · Krell · Master');
    expect(text).not.toMatch(/sum \*\*0\*\*| · · /);
    // Once one has rolled, that seat shows its values and sum; the others still wait.
    const one = present.board(krellstones.view(step(fresh), null), meta()).content!;
    expect(one.match(/not rolled yet/g)).toHaveLength(P.length - 1);
    expect(one).toMatch(/ · sum \*\*\d+\*\*/);
  });

  it('a counted yell is public and names who yelled; the host’s mat is named once as a mat', () => {
    expect(yellHeard('cara', 7)).toBe('📢 <@cara> yells **KRELLSTONES!** CAPTAIN ON DECK: their Master turns to its highest side (game #7).');
    const note = (matName: string) => present.table!.seatNote!({ playerId: 'alice', ready: false, host: true, data: { stones: [], sideboard: [], mat: 8, matName } }, {});
    expect(note('Modern Krellstones mat')).toBe('0 of 6 stones chosen · on the Modern Krellstones mat (#8)');
    expect(note('Velvet')).toBe('0 of 6 stones chosen · on the Velvet mat (#8)');
  });

  it('the swap panel lists the sideboard, then the active stones of that type (choose which Krell)', () => {
    const { state } = newGame(['alice', 'bob'], { sideboard: 2, rounds: 3 }, { alice: { sideboard: [{ type: 'krell', values: [9, 10, 11, 12, 13, 14] }] } });
    let t = state;
    for (let k = 0; k < 50 && t.phase !== 'swaps'; k++) {
      if (t.phase === 'rerolls') for (const p of t.players) if (t.seats[p]!.choice === 'pending') t = krellstones.apply(t, p, { type: 'ready' });
      if (t.phase === 'rolling') t = step(t);
    }
    expect(t.phase).toBe('swaps');
    const view = krellstones.view(t, 'alice');
    const first = swapPanel(view, 'alice', 7, null);
    const sb = view.seats.alice!.sideboard[0]!;
    expect(JSON.stringify(first.components)).toContain(`kr:swin:7`);
    const second = swapPanel(view, 'alice', 7, sb.id);
    expect(second.content).toMatch(/which Krell goes to the sideboard\?/);
    const menu = second.components![0]!.components[0] as { options: Array<{ value: string }> };
    expect(menu.options.map((o) => o.value)).toEqual(view.seats.alice!.stones.filter((x) => x.type === 'krell').map((x) => x.id));
  });
});
