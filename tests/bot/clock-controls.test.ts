import { ButtonStyle, ComponentType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { withClockControls } from '../../src/bot/board.ts';
import type { MessagePayload } from '../../src/bot/game-module.ts';
import type { GameSnapshot } from '../../src/services/games.ts';

/** What the platform adds to every running board: the vacation line and the Nudge button, within Discord's 5 rows of 5. */
const button = (n: number) => ({ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: `x:${n}`, label: `B${n}` }) as const;
const row = (count: number) => ({ type: ComponentType.ActionRow, components: Array.from({ length: count }, (_, i) => button(i)) }) as NonNullable<MessagePayload['components']>[number];
const seat = (playerId: string, o: { autopilot?: boolean; vacationUntil?: Date | null; deadlineAt?: Date | null } = {}) => ({
  playerId,
  autopilot: o.autopilot ?? false,
  vacationUntil: o.vacationUntil ?? null,
  deadlineAt: o.deadlineAt === undefined ? new Date('2030-01-01T00:00:00Z') : o.deadlineAt,
});
const snap = (o: { status?: string; practice?: boolean; seats?: ReturnType<typeof seat>[] } = {}) =>
  ({ game: { id: 7, status: o.status ?? 'active', practice: o.practice ?? false, seats: o.seats ?? [seat('1'), seat('2')] } }) as unknown as Pick<GameSnapshot, 'game'>;
const labels = (p: MessagePayload) => (p.components ?? []).map((r) => r.components.map((c) => ('label' in c ? c.label : '?')));

describe('clock controls on a board', () => {
  it.each([
    ['no rows: a row of its own', [], [['Nudge']]],
    ['two rows: a third', [row(3), row(1)], [['B0', 'B1', 'B2'], ['B0'], ['Nudge']]],
    ['five rows, the last with room: at its end', [row(5), row(5), row(5), row(5), row(2)], [...Array(4).fill(['B0', 'B1', 'B2', 'B3', 'B4']), ['B0', 'B1', 'Nudge']]],
    ['five full rows: none', [row(5), row(5), row(5), row(5), row(5)], Array(5).fill(['B0', 'B1', 'B2', 'B3', 'B4'])],
  ])('%s', (_name, rows, expected) => {
    expect(labels(withClockControls({ content: 'x', components: rows }, snap()))).toEqual(expected);
  });

  it('the Nudge id names the game; nothing is added to a finished game, a practice game, or one with a single person', () => {
    const out = withClockControls({}, snap());
    expect((out.components![0]!.components[0] as { custom_id: string }).custom_id).toBe('g:nudge:7');
    expect(withClockControls({ components: [] }, snap({ status: 'finished' })).components).toEqual([]);
    expect(withClockControls({ components: [] }, snap({ practice: true })).components).toEqual([]);
    expect(withClockControls({ components: [] }, snap({ seats: [seat('1'), seat('autopilot-1', { autopilot: true })] })).components).toEqual([]);
    // Nobody on the clock (a game advancing by itself, as Krellstones rolls): nobody to nudge.
    expect(withClockControls({ components: [] }, snap({ seats: [seat('1', { deadlineAt: null }), seat('2', { deadlineAt: null })] })).components).toEqual([]);
  });

  it('a player on vacation is named under the board, without pinging anyone', () => {
    const until = new Date('2030-01-02T03:04:05Z');
    const out = withClockControls({ content: 'Board' }, snap({ seats: [seat('1', { vacationUntil: until }), seat('2')] }));
    expect(out.content).toBe(`Board\n⏸️ <@1> is on vacation until <t:${until.getTime() / 1000}:f>: their clock is paused.`);
    expect(out.allowed_mentions).toEqual({ parse: [] });
    // A chosen time per move is shown too.
    const paced = { game: { ...snap().game, turnLimitMinutes: 3 * 1440 } } as unknown as Pick<GameSnapshot, 'game'>;
    expect(withClockControls({ content: 'Board' }, paced).content).toBe('Board\n⏱️ 3 days per move.');
    // Once the game is over, nobody's clock runs: no line.
    expect(withClockControls({ content: 'Board' }, snap({ status: 'finished', seats: [seat('1', { vacationUntil: until }), seat('2')] })).content).toBe('Board');
  });
});
