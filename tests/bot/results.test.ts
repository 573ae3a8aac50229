import { describe, expect, it } from 'vitest';
import { resultMessage, type ResultInput } from '../../src/bot/results.ts';

/** The result message's words for every shape of ending (two players, teams, three or more, draws, time). */
const seats = (...ids: string[]) => ids.map((playerId) => ({ playerId, autopilot: playerId.startsWith('autopilot') }));
const base = (over: Partial<ResultInput>): ResultInput => ({ gameId: 7, title: 'Keystone', seats: seats('1', '2', '3'), outcome: { winners: [], reason: 'end' }, boardUrl: 'https://discord.com/channels/g/c/m', rematch: true, ...over });

describe('result message', () => {
  it.each<[string, Partial<ResultInput>, string[]]>([
    [
      'two players: the winner’s score first, whatever the seat order',
      { title: 'Knucklebones', seats: seats('1', '2'), outcome: { winners: ['2'], scores: { '1': 19, '2': 54 }, reason: 'grid-full' } },
      ['🏁 **Knucklebones #7** is over.', '🏆 <@2> wins. Score: <@2> 54 · <@1> 19.'],
    ],
    [
      'a win on time: how first, then the score with names (the winner may have fewer points)',
      { title: 'Knucklebones', seats: seats('1', '2'), outcome: { winners: ['1'], scores: { '1': 10, '2': 12 }, reason: 'forfeit', forfeited: '2', timedOut: ['2'] } },
      ['🏁 **Knucklebones #7** is over.', '🏆 <@1> wins on time: <@2>’s turn ran out. Score: <@1> 10 · <@2> 12.'],
    ],
    [
      'teams',
      { title: 'Tellstones', seats: seats('1', '2', '3', '4'), sides: [['1', '3'], ['2', '4']], outcome: { winners: ['1', '3'], scores: { '1': 3, '2': 1, '3': 3, '4': 1 }, reason: 'points' } },
      ['🏁 **Tellstones #7** is over.', '🏆 <@1> and <@3> win. Score: <@1> and <@3> 3 · <@2> and <@4> 1.'],
    ],
    [
      'three for themselves, one who left ranks last',
      { outcome: { winners: ['2'], scores: { '1': 30, '2': 41, '3': 35 }, reason: 'end', forfeits: ['3'], timedOut: ['3'] } },
      ['🏁 **Keystone #7** is over.', '🏆 <@2> wins. Score: <@2> 41 · <@1> 30 · <@3> 35 (ran out of time).'],
    ],
    [
      'rounds won, not points (Krellstones), and a forfeit that ended a game of two',
      { title: 'Krellstones', seats: seats('1', '2'), scoreLabel: 'Rounds won', outcome: { winners: ['2'], scores: { '1': 1, '2': 5 }, reason: 'forfeit', forfeited: '1' } },
      ['🏁 **Krellstones #7** is over.', '🏆 <@2> wins: <@1> forfeited. Rounds won: <@2> 5 · <@1> 1.'],
    ],
    [
      'three for themselves, counted in rounds won',
      { title: 'Krellstones', scoreLabel: 'Rounds won', outcome: { winners: ['3'], scores: { '1': 2, '2': 0, '3': 5 }, reason: 'rounds' } },
      ['🏁 **Krellstones #7** is over.', '🏆 <@3> wins. Rounds won: <@3> 5 · <@1> 2 · <@2> 0.'],
    ],
    ['a draw', { title: 'Knucklebones', seats: seats('1', '2'), outcome: { winners: [], scores: { '1': 20, '2': 20 }, reason: 'grid-full' } }, ['🏁 **Knucklebones #7** is over.', '🤝 A draw. Score: <@1> 20 · <@2> 20.']],
  ])('%s', (_, input, head) => {
    const m = resultMessage(base(input));
    expect(m.content!.split('\n').slice(0, -1)).toEqual(head);
    expect(m.allowed_mentions).toEqual({ users: base(input).seats.map((s) => s.playerId) });
    expect(m.components![0]!.components.map((c) => ('label' in c ? c.label : ''))).toEqual(['Rematch', 'Open the board']);
  });

  it('no Rematch for a cycle’s game; the autopilot is named, never pinged', () => {
    const m = resultMessage(base({ seats: seats('1', 'autopilot-1'), title: 'Knucklebones', outcome: { winners: ['autopilot-1'], scores: { '1': 3, 'autopilot-1': 9 }, reason: 'grid-full' }, rematch: false }));
    expect(m.content).toBe('🏁 **Knucklebones #7** is over.\n🏆 🤖 Autopilot wins. Score: 🤖 Autopilot 9 · <@1> 3.');
    expect(m.allowed_mentions).toEqual({ users: ['1'] });
    expect(m.components![0]!.components.map((c) => ('label' in c ? c.label : ''))).toEqual(['Open the board']);
  });
});
