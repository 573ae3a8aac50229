import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCustomId } from '../../../src/bot/custom-id.ts';
import { parseGameId } from '../../../src/bot/game-module.ts';
import { ids } from '../../../src/games/knucklebones/ids.ts';
import { present } from '../../../src/games/knucklebones/present.ts';
import { knucklebones, type KnucklebonesState } from '../../../src/games/knucklebones/engine/index.ts';

const A = '200000000000000001';
const B = '200000000000000002';
const SEED = 'c'.repeat(64);
const names = { [A]: 'Alice', [B]: 'Bob_*' };
const deadline = new Date('2026-11-23T12:00:00Z');

function midGame(): KnucklebonesState {
  const s = knucklebones.setup({ players: [A, B], seed: SEED, options: {} });
  return {
    ...s,
    grids: { [A]: [[4, 4, 2], [6], []], [B]: [[1], [5, 5], [3, 3, 3]] },
  } as KnucklebonesState;
}

const meta = (over: boolean) => ({
  gameId: 42,
  version: 7,
  names,
  deadlines: { [A]: over ? null : deadline, [B]: null },
  seedCommitment: 'd'.repeat(64),
  seed: over ? SEED : null,
});

describe('the Knucklebones board', () => {
  it('shows grids, column scores, totals, the die, the deadline as a timestamp, and disables full columns', () => {
    const state = { ...midGame(), turn: A, roll: 4 } as KnucklebonesState;
    const payload = present.board(knucklebones.view(state, null), meta(false));
    const embed = payload.embeds![0]!;
    expect(embed.title).toBe('Knucklebones #42');
    expect(embed.description).toContain(`<@${A}> rolled ⚃ **4**`);
    expect(embed.description).toContain(`<t:${deadline.getTime() / 1000}:R>`);
    expect(embed.fields![0]!.name).toBe('Alice: 24 points 🎲');
    expect(embed.fields![0]!.value).toContain('18'); // [4,4,2] scores 18
    expect(embed.fields![1]!.name).toBe('Bob\\_\\*: 48 points'); // markdown in names is escaped
    expect(embed.fields![2]!.value).toContain('d'.repeat(64));
    expect(embed.fields![2]!.value).not.toContain(SEED);
    const [columns, forfeit] = payload.components!;
    const buttons = columns!.components as Array<{ custom_id: string; disabled: boolean }>;
    expect(buttons.map((b) => b.custom_id)).toEqual(['kb:place:42:7:1', 'kb:place:42:7:2', 'kb:place:42:7:3']);
    expect(buttons.map((b) => b.disabled)).toEqual([true, false, false]);
    expect((forfeit!.components[0] as { custom_id: string }).custom_id).toBe('g:resign:42:7');
    expect(payload.allowed_mentions).toEqual({ parse: [] });
    expect(payload).toMatchSnapshot();
  });

  it('reveals the seed and the result when the game is over, without buttons', () => {
    const state = knucklebones.forfeit({ ...midGame(), turn: A, roll: 4 } as KnucklebonesState, A);
    const payload = present.board(knucklebones.view(state, null), meta(true));
    const embed = payload.embeds![0]!;
    // How it was won first, then the score with names, on the board and in the DM alike.
    expect(embed.description).toContain(`🏆 <@${B}> wins: <@${A}> forfeited. Score: <@${B}> 48 · <@${A}> 24.`);
    expect(embed.fields![2]!.value).toContain(SEED);
    expect(payload.components).toEqual([]);
    expect(payload).toMatchSnapshot();
    const o = state.outcome!;
    const dm = present.notification(
      { type: 'game-over', gameId: 42, kind: 'knucklebones', winners: o.winners, reason: o.reason, forfeited: A, scores: o.scores! },
      { names, boardUrl: null, version: 9, active: false },
    );
    expect(dm.content).toContain(`🏆 <@${B}> wins: <@${A}> forfeited. Score: <@${B}> 48 · <@${A}> 24.`);
    // A turn that ran out is said so, not called a resignation.
    const timedOut = present.board(knucklebones.view(state, null), { ...meta(true), timedOut: [A] });
    expect(timedOut.embeds![0]!.description).toContain(`🏆 <@${B}> wins on time: <@${A}>’s turn ran out. Score: <@${B}> 48 · <@${A}> 24.`);
    const timedOutDm = present.notification(
      { type: 'game-over', gameId: 42, kind: 'knucklebones', winners: o.winners, reason: o.reason, forfeited: A, timedOut: [A], scores: o.scores! },
      { names, boardUrl: null, version: 9, active: false },
    );
    expect(timedOutDm.content).toContain(`<@${A}>’s turn ran out`);
  });

  it('turn DMs carry the die, the deadline, buttons and a link to the board', () => {
    const state = { ...midGame(), turn: A, roll: 6 } as KnucklebonesState;
    const payload = present.notification(
      { type: 'turn', gameId: 42, kind: 'knucklebones', view: knucklebones.view(state, A), deadlineAt: deadline.toISOString(), opponents: [B] },
      { names, boardUrl: 'https://discord.com/channels/1/2/3', version: 7, active: true },
    );
    expect(payload.content).toContain('you rolled ⚅ **6**');
    expect(payload.content).toContain(`<t:${deadline.getTime() / 1000}:f>`);
    expect(payload.content).toContain('https://discord.com/channels/1/2/3');
    const rows = payload.components!;
    expect((rows[0]!.components[1] as { custom_id: string }).custom_id).toBe('kb:place:42:7:2');
    expect((rows[1]!.components[0] as { url: string }).url).toBe('https://discord.com/channels/1/2/3');
  });

  it('turn and reminder DMs offer "Use a die…" exactly where the board does', () => {
    const fresh = { ...midGame(), turn: A, roll: 6 } as KnucklebonesState;
    const steadied = knucklebones.apply(fresh, A, { type: 'use-die', die: 'steady' });
    const labels = (p: { components?: Array<{ components: unknown[] }> }) => p.components!.flatMap((r) => r.components as Array<{ label?: string; custom_id?: string }>);
    for (const state of [fresh, steadied]) {
      for (const cycle of [false, true]) {
        const boardMeta = { ...meta(false), cycle };
        const onBoard = labels(present.board(knucklebones.view(state, null), boardMeta)).find((b) => b.label === 'Use a die…');
        for (const type of ['turn', 'reminder'] as const) {
          for (const active of [false, true]) {
            const n =
              type === 'turn'
                ? { type, gameId: 42, kind: 'knucklebones', view: knucklebones.view(state, A), deadlineAt: deadline.toISOString(), opponents: [B] }
                : { type, gameId: 42, kind: 'knucklebones', view: knucklebones.view(state, A), deadlineAt: deadline.toISOString() };
            const inDm = labels(present.notification(n, { names, boardUrl: null, version: 7, active, cycle })).find((b) => b.label === 'Use a die…');
            expect(inDm, `${type}, cycle ${cycle}, active ${active}, die used ${state === steadied}`).toEqual(active ? onBoard : undefined);
          }
        }
        expect(onBoard !== undefined).toBe(cycle && state === fresh);
      }
    }
  });
});

describe('customIds', () => {
  it('round-trip and stay under 100 characters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_147_483_647 }), fc.integer({ min: 0, max: 2_147_483_647 }), fc.integer({ min: 1, max: 3 }), (g, v, c) => {
        const id = ids.make('place', g, v, c);
        expect(id.length).toBeLessThanOrEqual(100);
        expect(parseGameId(id, [ids])).toEqual({ prefix: 'kb', action: 'place', gameId: g, version: v, args: [c] });
      }),
    );
  });

  it('refuse ids that are not ours or were edited by hand', () => {
    for (const bad of ['', 'kb', 'kb:place', 'kb:place:1:2', 'kb:place:1:2:4', 'kb:place:0:1:1', 'kb:place:-1:1:1', 'kb:place:x:1:1', 'xx:place:1:1:1', 'kb:place:1:1:1:9', 'ch:accept:1e3', 'toString:x', '__proto__:x', 'x'.repeat(101)]) {
      expect(parseGameId(bad, [ids]), bad).toBeNull();
      expect(parseCustomId(bad), bad).toBeNull();
    }
    fc.assert(fc.property(fc.string({ maxLength: 120 }), (s) => {
      const p = parseGameId(s, [ids]);
      if (p) expect(ids.make(p.action as 'place', p.gameId, p.version ?? 0, ...(p.args as number[])).length).toBeLessThanOrEqual(100);
    }));
  });
});

describe('the grid', () => {
  it('lines up one- and two-digit column scores under the dice', async () => {
    const { gridText } = await import('../../../src/games/knucklebones/present.ts');
    const text = gridText([[6, 6, 6], [4, 1], []], [54, 5, 0]);
    const lines = text.split('\n').slice(1, -1);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    // Each column's separator sits at the same place on every line.
    const bars = (l: string) => [...l].flatMap((ch, i) => (ch === '│' || ch === '┼' ? [i] : []));
    for (const l of lines) expect(bars(l)).toEqual(bars(lines[0]!));
    expect(lines.at(-1)).toBe(' 54 │  5 │  0 ');
  });
});

describe('menu texts', () => {
  it('a long description is cut at a word with an ellipsis, never mid-word (the Twin Die’s)', async () => {
    const { clip } = await import('../../../src/bot/format.ts');
    const { DIE_INFO } = await import('../../../src/games/knucklebones/engine/dice.ts');
    const twin = DIE_INFO.twin.description;
    expect(twin.length).toBeGreaterThan(100);
    const cut = clip(twin, 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut.endsWith('…')).toBe(true);
    const words = twin.split(/\s+/);
    const kept = cut.slice(0, -1).split(/\s+/);
    expect(kept.every((w, i) => w === words[i])).toBe(true);
    expect(clip('short', 100)).toBe('short');
  });
});
