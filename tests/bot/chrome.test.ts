import { ButtonStyle, ComponentType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { changedNotice, deadlineLine, fairDiceField, linkRow, resultText, turnNotifications, withForfeit } from '../../src/bot/chrome.ts';
import type { MessagePayload } from '../../src/bot/game-module.ts';

const ids = (p: MessagePayload) => (p.components ?? []).map((r) => r.components.map((c) => ('custom_id' in c ? c.custom_id : 'url' in c ? c.url : '')));
const move = (n: number) => ({ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: `x:m:1:0:${n}`, label: String(n) }) as const;
const rowOf = (...c: ReturnType<typeof move>[]) => ({ type: ComponentType.ActionRow, components: c }) as const;

describe('board chrome (the platform parts of every board)', () => {
  it('adds the Forfeit button to a board that lacks it, and only then', () => {
    const bare: MessagePayload = { content: '', components: [rowOf(move(1))] };
    expect(ids(withForfeit(bare, { gameId: 7, version: 3 }))).toEqual([['x:m:1:0:1'], ['g:resign:7:3']]);
    const has = withForfeit(bare, { gameId: 7, version: 3 });
    expect(withForfeit(has, { gameId: 7, version: 4 })).toBe(has);
    // Five rows: the button joins the last row of buttons with room.
    const full: MessagePayload = { components: [1, 2, 3, 4, 5].map((n) => rowOf(move(n))) };
    expect(ids(withForfeit(full, { gameId: 7, version: 3 })).at(-1)).toEqual(['x:m:1:0:5', 'g:resign:7:3']);
  });

  it('words deadlines, results, fair dice and the board link the same for every game', () => {
    expect(deadlineLine(new Date(1_000_000_000_000))).toBe('**Deadline:** <t:1000000000:f> (<t:1000000000:R>); a player who has not moved by then loses the game.');
    expect(resultText({ winners: ['1'], forfeited: '2' }, { '1': 0, '2': 3 }, ['2'])).toBe('🏆 <@1> wins on time: <@2>’s turn ran out. Score: <@1> 0 · <@2> 3.');
    expect(resultText({ winners: ['1'], forfeited: '2' }, undefined)).toBe('🏆 <@1> wins: <@2> forfeited.');
    expect(fairDiceField({ gameId: 4, seed: null, seedCommitment: 'abc' }).value).toContain('The seed is revealed when the game ends.');
    expect(fairDiceField({ gameId: 4, seed: 'ff', seedCommitment: 'abc' }).value).toContain('`/stonehall verify game:4`');
    expect(linkRow(null)).toEqual([]);
    expect(linkRow('https://discord.com/channels/1/2/3')[0]!.components[0]).toMatchObject({ style: ButtonStyle.Link, label: 'Open the board' });
  });

  it('words a two-player game’s DMs from its turn words', () => {
    const dm = turnNotifications<{ players: string[]; turn: string }>('Nim', { turn: () => ({ what: 'heaps 3 · 4 · 5.', todo: 'Take some stones' }) });
    const meta = { names: { '2': 'Bob' }, boardUrl: 'https://b', version: 1, active: true };
    const turn = dm({ type: 'turn', gameId: 9, kind: 'nim', view: { players: ['1', '2'], turn: '1' }, deadlineAt: '2026-01-01T00:00:00Z', opponents: ['2'] }, meta);
    expect(turn.content).toBe('🎲 Your turn in **Nim #9** against Bob: heaps 3 · 4 · 5.\nTake some stones before <t:1767225600:f> (<t:1767225600:R>), or you lose the game.\nBoard: https://b');
    const over = dm({ type: 'game-over', gameId: 9, kind: 'nim', winners: [], reason: 'x' }, { ...meta, boardUrl: null });
    expect(over).toEqual({ content: '**Nim #9** is over. 🤝 A draw.', components: [], allowed_mentions: { parse: [] } });
  });
});

describe('board links and the "changed" DM', () => {
  it('one link helper for every board link, with the label a game keeps', () => {
    expect(linkRow('https://b', 'Board')[0]!.components[0]).toEqual({ type: ComponentType.Button, style: ButtonStyle.Link, url: 'https://b', label: 'Board' });
    expect(changedNotice('**Keystone #5**', null)).toEqual({ content: '**Keystone #5** changed: see the board.', components: [], allowed_mentions: { parse: [] } });
    const withUrl = changedNotice('**Crystallia #5**', 'https://b', { withUrl: true });
    expect(withUrl.content).toBe('**Crystallia #5** changed: see the board.\nBoard: https://b');
    expect(ids(withUrl)).toEqual([['https://b']]);
  });
});
