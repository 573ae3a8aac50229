import { describe, expect, it } from 'vitest';
import { withRecentInDm, withRecentOnBoard, wording } from '../../src/bot/history.ts';

/** Where "what just happened" goes in a message, within Discord's limits. */
describe('recent moves in a message', () => {
  it('the board: at the end of its first embed’s description, or of its text', () => {
    const board = { content: '', embeds: [{ title: 'Knucklebones #1', description: 'Alice vs Bob' }, { title: 'other' }] };
    expect(withRecentOnBoard(board, ['Alice put a 4 in column 2']).embeds).toEqual([
      { title: 'Knucklebones #1', description: 'Alice vs Bob\n**Last move:** Alice put a 4 in column 2.' },
      { title: 'other' },
    ]);
    expect(withRecentOnBoard({ content: 'A board in text' }, ['A', 'B']).content).toBe('A board in text\n**Last moves:**\n• A.\n• B.');
    // A closing footer (Discord's small text, a game's fair-dice line) stays last.
    expect(withRecentOnBoard({ content: 'A board\n-# Fair dice: commitment abc' }, ['A']).content).toBe('A board\n**Last move:** A.\n-# Fair dice: commitment abc');
    expect(withRecentOnBoard(board, [])).toBe(board);
  });

  it('never past Discord’s limits: a full embed or text is left as it was', () => {
    const full = { embeds: [{ title: 'T', description: 'd', fields: [{ name: 'n', value: 'x'.repeat(5990) }] }] };
    expect(withRecentOnBoard(full, ['Alice put a 4 in column 2'])).toBe(full);
    const long = { embeds: [{ title: 'T', description: 'y'.repeat(4090) }] };
    expect(withRecentOnBoard(long, ['Alice put a 4 in column 2'])).toBe(long);
    const text = { content: 'z'.repeat(1990) };
    expect(withRecentOnBoard(text, ['Alice put a 4 in column 2'])).toBe(text);
  });

  it('the turn DM: right under its first line; several moves as a list', () => {
    const dm = { content: '🎲 Your turn: you rolled **4**.\nPlace it before …' };
    expect(withRecentInDm(dm, ['Bob put a 4 in column 2 and knocked out your 4']).content).toBe(
      '🎲 Your turn: you rolled **4**.\n**Last move:** Bob put a 4 in column 2 and knocked out your 4.\nPlace it before …',
    );
    expect(withRecentInDm(dm, ['A', 'B']).content).toBe('🎲 Your turn: you rolled **4**.\n**Since your last move:**\n• A.\n• B.\nPlace it before …');
    expect(withRecentInDm({ content: 'w'.repeat(1995) }, ['A']).content).toBe('w'.repeat(1995));
  });

  it('names: the reader is “you”, a practice bot is named, markdown in a name is escaped', () => {
    const w = wording({ '1': 'Alice', '2': 'B*o*b' }, '1');
    expect([w.name('1'), w.possessive('1'), w.name('2'), w.possessive('2'), w.name('autopilot-2'), w.name('9')]).toEqual(['you', 'your', 'B\\*o\\*b', 'B\\*o\\*b’s', 'Autopilot 2', 'a player']);
  });
});

describe('which moves are recent', async () => {
  const { rangeOf } = await import('../../src/services/history.ts');
  // Newest first, as the log's tail is read.
  const log = (...actors: string[]) =>
    actors.map((a, i) => ({ seq: actors.length - i, actorId: a === 'sys-b' ? 'system' : a, entry: a === 'sys-b' ? { type: 'forfeit', player: 'b', reason: 'timeout' } : { type: 'move', move: {} } }));

  it('the board: the latest player’s run of moves (a die item and its placement)', () => {
    expect(rangeOf(log('a', 'a', 'b', 'a'), { max: 8 })).toEqual({ from: 3, to: 4 });
    expect(rangeOf(log('a', 'a', 'a', 'a'), { max: 2 })).toEqual({ from: 3, to: 4 });
    expect(rangeOf([], { max: 8 })).toBeNull();
  });

  it('a DM: what the others did since the reader’s last move, their own turn going on skipped', () => {
    expect(rangeOf(log('c', 'b', 'a', 'c'), { since: 'c', max: 8 })).toEqual({ from: 2, to: 3 });
    expect(rangeOf(log('b', 'a'), { since: 'c', max: 8 })).toEqual({ from: 1, to: 2 });
    expect(rangeOf(log('c', 'c'), { since: 'c', max: 8 })).toBeNull();
    // A timeout is the player's, not the system's.
    expect(rangeOf(log('sys-b', 'a'), { since: 'b', max: 8 })).toEqual({ from: 1, to: 1 });
  });
});
