import { describe, expect, it } from 'vitest';
import type { BoardMeta, NotificationMeta } from '../../../src/bot/game-module.ts';
import { keystone, scoreLines, stateSchema, type CardId, type KeystoneMove, type KeystoneState } from '../../../src/games/keystone/engine/index.ts';
import { rankedOutcome } from '../../../src/kernel/checks.ts';
import { autopilotMove, autopilotRng } from '../../../src/kernel/index.ts';
import { autoPanel, embedSize, handPanel, lineText, placementPanel, present } from '../../../src/games/keystone/present.ts';
import type { Notification } from '../../../src/services/notifications.ts';
import { FOUR, THREE } from './helpers.ts';
import { expectWithinLimits, limitProblems } from './render-checks.ts';

/** Keystone's renderers: what each message looks like (snapshots), and that the largest fit Discord. */

const NAMES = { ann: 'Ann', ben: 'Ben', cat: 'Cat', dan: 'Dan' };
const DEADLINE = new Date('2026-11-24T12:00:00Z');
const SEED = '5'.repeat(64);

function meta(s: KeystoneState, version: number, names: Record<string, string> = NAMES): BoardMeta {
  return { gameId: 12, version, names, deadlines: s.outcome ? {} : { [s.players[s.turn]!]: DEADLINE }, seedCommitment: 'c'.repeat(64), seed: s.outcome ? SEED : null, autopilot: s.out };
}
const dmMeta = (version: number, extra: Partial<NotificationMeta> = {}): NotificationMeta => ({ names: NAMES, boardUrl: 'https://discord.com/channels/1/2/3', version, active: true, ...extra });

/** A 3-player match played by the autopilot from a fixed seed; every state, in order. */
function autopilotMatch(players: readonly string[], seed = SEED, choose?: (s: KeystoneState, actor: string) => KeystoneMove | null): KeystoneState[] {
  let s = keystone.setup({ seed, players: players.slice(), options: {} });
  const states = [s];
  for (let i = 0; s.outcome === null; i++) {
    const actor = keystone.awaiting(s)[0]!;
    const move = choose?.(s, actor) ?? (autopilotMove(keystone, s, actor, autopilotRng(seed, i)) as KeystoneMove);
    s = keystone.apply(s, actor, move);
    states.push(s);
  }
  return states;
}

describe('Keystone renderers (snapshots)', () => {
  const states = autopilotMatch(THREE);
  const at = (pred: (s: KeystoneState) => boolean) => states.findIndex(pred);
  const midTrick = at((s) => s.trick === 3 && s.phase === 'play' && s.played.length === 1);
  const placing = at((s) => s.trick === 4 && s.phase === 'place' && s.pending.length === 3);
  const game2 = at((s) => s.game === 2 && s.trick === 2 && s.phase === 'play' && s.played.length === 0);

  it('the board in a trick, while placing, in game 2 and at the end', () => {
    for (const i of [midTrick, placing, game2, states.length - 1]) {
      const s = states[i]!;
      const b = present.board(keystone.view(s, null), meta(s, i));
      expectWithinLimits(b, `state ${i}`);
      expect(b).toMatchSnapshot();
    }
    const end = present.board(keystone.view(states.at(-1)!, null), meta(states.at(-1)!, states.length - 1));
    const text = JSON.stringify(end);
    // The end of the match: every line's Sun or keystones and cost, both games, the winner, the seed.
    expect(text).toMatch(/Sun: keystones not scored, -3/);
    expect(text).toMatch(/Game 1 of 2: final scoring/);
    expect(text).toMatch(/🏆/);
    expect(text).toContain(SEED);
  });

  it('My hand: the hand by colour and number, and on the player’s turn a menu of exactly the playable cards', () => {
    const s = states[midTrick]!;
    const player = s.players[s.turn]!;
    const view = keystone.view(s, player);
    const panel = handPanel(view, player, { gameId: 12, version: midTrick });
    expect(panel).toMatchSnapshot();
    const menu = panel.components![0]!.components[0] as { options: Array<{ value: string }> };
    expect(menu.options.map((o) => o.value)).toEqual(view.playable);
    const other = s.players.find((p) => p !== player)!;
    const idle = handPanel(keystone.view(s, other), other, { gameId: 12, version: midTrick });
    expect(idle.components).toEqual([]);
    expect(idle.content).toMatch(/It is <@\w+>’s turn/);
  });

  it('placing: the panel with its menus, a plan with its preview, and Auto-place', () => {
    const s = states[placing]!;
    const placer = s.players[s.turn]!;
    const view = keystone.view(s, placer);
    expect(placementPanel(view, [], { gameId: 12, version: placing, boardUrl: 'https://discord.com/channels/1/2/3' })).toMatchSnapshot();
    const planned = placementPanel(view, [{ card: 0, line: 'new' }], { gameId: 12, version: placing });
    expect(planned).toMatchSnapshot();
    // The lines shown are the engine's after that placement.
    const after = keystone.view(keystone.apply(s, placer, { type: 'place', card: s.pending[0]!, line: 'new' }), placer);
    const shown = after.seats.find((x) => x.player === placer)!.lines.map((l) => lineText(l)).join('\n');
    expect(planned.content).toContain(shown);
    // One menu per card not planned yet, each offering exactly the engine's targets (a new line first).
    expect(planned.components).toHaveLength(s.pending.length);
    planned.components!.slice(0, -1).forEach((r, i) => {
      const menu = r.components[0] as { options: Array<{ value: string }> };
      const targets = after.waiting!.cards[i]!.targets;
      expect(menu.options.map((o) => o.value).sort()).toEqual(targets.map((t) => (t === 'new' ? 'n' : String(t))).sort());
    });
    const auto = keystone.view(keystone.apply(s, placer, { type: 'auto-place' }), placer);
    const autoPayload = autoPanel(view, { gameId: 12, version: placing, boardUrl: null });
    expect(autoPayload).toMatchSnapshot();
    expect(autoPayload.content).toContain(auto.seats.find((x) => x.player === placer)!.lines.map((l) => lineText(l)).join('\n'));
  });

  it('placing the last trick of game 1: the preview shows game 1’s lines with the cards placed, not game 2’s empty table', () => {
    const last = at((s) => s.game === 1 && s.trick === 12 && s.phase === 'place');
    const s = states[last]!;
    const placer = s.players[s.turn]!;
    const view = keystone.view(s, placer);
    const plan = s.pending.map((_, i) => ({ card: i, line: 'new' as const }));
    const panel = placementPanel(view, plan, { gameId: 12, version: last });
    const lines = keystone.view(s, placer).seats.find((x) => x.player === placer)!.lines.length;
    expect(panel.content).toContain(`\`${lines + s.pending.length}\` `);
    expect(panel.content).not.toContain('_no lines yet_');
    const auto = autoPanel(view, { gameId: 12, version: last });
    expect(auto.content).not.toContain('_no lines yet_');
  });

  it('DMs: a turn to play (with the hand and the menu), to place, a reminder, the same in the channel, the end', () => {
    const s = states[midTrick]!;
    const player = s.players[s.turn]!;
    const view = keystone.view(s, player);
    const turn: Notification = { type: 'turn', gameId: 12, kind: 'keystone', view, deadlineAt: DEADLINE.toISOString(), opponents: [] };
    expect(present.notification(turn, dmMeta(midTrick))).toMatchSnapshot();
    expect(present.notification({ type: 'reminder', gameId: 12, kind: 'keystone', view, deadlineAt: DEADLINE.toISOString() }, dmMeta(midTrick))).toMatchSnapshot();
    const open = present.notification(turn, dmMeta(midTrick, { public: true }));
    expect(open.components!.every((r) => r.components.every((c) => c.type === 2))).toBe(true);
    expect(open.content).toMatch(/Open \*\*My hand\*\* on the board/);
    expect(open.content).not.toMatch(/Your hand/);
    const p = states[placing]!;
    const placer = p.players[p.turn]!;
    expect(present.notification({ type: 'turn', gameId: 12, kind: 'keystone', view: keystone.view(p, placer), deadlineAt: DEADLINE.toISOString(), opponents: [] }, dmMeta(placing))).toMatchSnapshot();
    const end = states.at(-1)!;
    expect(present.notification({ type: 'game-over', gameId: 12, kind: 'keystone', ...end.outcome! }, dmMeta(states.length, { active: false }))).toMatchSnapshot();
    // Results name the winners first, then the others by score (a shared win: both winners first).
    const shared = present.notification({ type: 'game-over', gameId: 12, kind: 'keystone', winners: ['cat', 'ben'], reason: 'scored', scores: { ann: 9, ben: 5, cat: 5 } }, dmMeta(1, { active: false }));
    expect(shared.content).toMatch(/<@cat> and <@ben> share the win \(<@ben> \+5 · <@cat> \+5 · <@ann> \+9\)|<@cat> and <@ben> share the win \(<@cat> \+5 · <@ben> \+5 · <@ann> \+9\)/);
  });
});

describe('the largest boards fit Discord', () => {
  const longNames = { ann: 'A'.repeat(32) + '_*`', ben: '🦊'.repeat(20), cat: 'Ç'.repeat(32), dan: 'Dan the Very Long Named Player of Keystone' };

  it('a 4-player match where every won card starts a new line, at every step', () => {
    const states = autopilotMatch(FOUR, '6'.repeat(64), (s, actor) => {
      if (s.phase !== 'place') return null;
      return { type: 'place-all', placements: s.pending.map((card) => ({ card, line: 'new' as const })) };
    });
    states.forEach((s, i) => expect(limitProblems(present.board(keystone.view(s, null), meta(s, i, longNames))), `state ${i}`).toEqual([]));
    expect(states.at(-1)!.lines.flat().length).toBe(48);
  });

  it('the end of a 4-player match with all 48 cards of each game in one player’s 48 lines, with long names', () => {
    const end = autopilotMatch(FOUR, '7'.repeat(64)).at(-1)!;
    // Every card of each game's lines moved into ann's lines, one line each (scores recomputed).
    const spread = (lines: CardId[][][]) => [lines.flat(2).map((id) => [id]), [], [], []];
    const lines = spread(end.lines);
    const finishedLines = end.finishedLines.map(spread);
    const gameScores = finishedLines.map((g) => g.map((l) => scoreLines(l)));
    const totals = Object.fromEntries(end.players.map((p, seat) => [p, gameScores.reduce((a, g) => a + g[seat]!, 0)]));
    const s = stateSchema.parse({ ...end, lines, finishedLines, gameScores, outcome: rankedOutcome({ players: end.players, scores: totals, forfeits: [], reason: 'scored' }) });
    expect(s.lines[0]).toHaveLength(48);
    const board = present.board(keystone.view(s, null), meta(s, 500, longNames));
    expect(limitProblems(board)).toEqual([]);
    const embed = board.embeds![0]!;
    // Every line is there, with its score.
    expect(embed.fields!.filter((f) => f.name.startsWith('A')).map((f) => f.value).join('\n').split('\n').filter((l) => l.startsWith('`'))).toHaveLength(48);
    expect(embedSize(embed)).toBeLessThanOrEqual(6000);
  });
});
