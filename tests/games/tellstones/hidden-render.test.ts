import { describe, expect, it } from 'vitest';
import { knowPayload, SYMBOL_EMOJI, SYMBOL_NAME, present } from '../../../src/games/tellstones/present.ts';
import { tellstones, type TellstonesState, type TellstonesVariant } from '../../../src/games/tellstones/engine/index.ts';
import type { Notification } from '../../../src/services/notifications.ts';
import { playGame, SEED_A } from './helpers.ts';
import { expectNoLeak } from './leaks.ts';

/**
 * Hidden information at the renderer level, over many random games: after every move, the public
 * board and every notification to every player (DMs can fall back to the public channel when a
 * player's DMs are closed, so they must be fit for everyone) never show the symbol of a
 * face-down stone; and each player's "What do I know?" shows exactly what they legitimately know.
 *
 * The checks are per stone: the board's cell for that stone must show a back, never its symbol;
 * and where the symbol is not public anywhere (not face up, not in a pool: always the case with
 * one set, sometimes in Fearless Vanguard), it must appear nowhere in the message at all, except
 * in the fixed row of all seven symbol buttons offered for naming a stone. With Vanguard's two
 * sets, a symbol face down on one line may be public on the other: then the face-down stone's
 * own line field must not show it. The checks themselves live in tellstones.leaks.ts.
 */

const names = { alice: 'Alice', bob: 'Bob', a1: 'Ann', b1: 'Ben', a2: 'Cat', b2: 'Dan' };
const now = new Date('2026-11-23T12:00:00Z');

/** What `player` legitimately knows, from the state (not the view): stone identities -> positions now. */
function knownFromState(state: TellstonesState, player: string): string[] {
  const seat = state.seats.indexOf(player);
  return (state.knowledge[seat] ?? [])
    .map((r) => ({ line: r.line, position: state.lines[r.line]!.findIndex((s) => s.symbol === r.symbol), symbol: r.symbol }))
    .filter((k) => k.position >= 0 && !state.lines[k.line]![k.position]!.faceUp)
    .map((k) => `${state.lines.length > 1 ? `line ${k.line + 1}, ` : ''}position ${k.position + 1}: ${SYMBOL_EMOJI[k.symbol]} ${SYMBOL_NAME[k.symbol]}`)
    .sort();
}

function checkState(state: TellstonesState, version: number, where: string): void {
  const deadlines = Object.fromEntries(state.seats.map((p) => [p, now]));
  const board = present.board(tellstones.view(state, null), {
    gameId: 7,
    version,
    names,
    deadlines,
    seedCommitment: 'e'.repeat(64),
    seed: state.outcome ? SEED_A : null,
  });
  expectNoLeak(state, board, true, `${where} board`);
  const meta = { names, boardUrl: 'https://discord.com/channels/1/2/3', version, active: state.outcome === null };
  for (const player of state.seats) {
    const view = tellstones.view(state, player);
    const notes: Notification[] = [
      { type: 'turn', gameId: 7, kind: 'tellstones', view, deadlineAt: now.toISOString(), opponents: [] },
      { type: 'reminder', gameId: 7, kind: 'tellstones', view, deadlineAt: now.toISOString() },
      { type: 'update', gameId: 7, kind: 'tellstones', view, actor: state.seats[0]! },
    ];
    if (state.outcome) notes.push({ type: 'game-over', gameId: 7, kind: 'tellstones', ...state.outcome });
    for (const n of notes) expectNoLeak(state, present.notification(n, meta), false, `${where} ${n.type} DM to ${player}`);
    // "What do I know?": exactly this player's knowledge, at the stones' current positions.
    const know = knowPayload(view, 7).content ?? '';
    const rows = know.split('\n').filter((r) => r.startsWith('• ')).map((r) => r.slice(2)).sort();
    expect(rows, `${where}: what ${player} knows`).toEqual(knownFromState(state, player));
  }
}

const RUNS: Array<[TellstonesVariant, number]> = [
  ['standard', 40],
  ['kings-circle', 40],
  ['fearless-vanguard', 30],
];

describe('Tellstones renderers never show a face-down stone to anyone who has not seen it', () => {
  for (const [variant, games] of RUNS) {
    it(`${games} random ${variant} games, after every move`, () => {
      let steps = 0;
      let knownShown = 0;
      let faceDownSeen = 0;
      for (let g = 0; g < games; g++) {
        const seed = (g.toString(16).padStart(2, '0') + variant.length.toString(16)).padEnd(64, 'c');
        const { states } = playGame(seed, { variant, firstStone: g % 3 === 0 ? 'scales' : 'random' }, 1000 + g);
        states.forEach((state, i) => {
          checkState(state, i, `${variant} game ${g} step ${i}`);
          steps++;
          faceDownSeen += state.lines.flat().filter((s) => !s.faceUp).length;
          knownShown += state.knowledge.flat().length;
        });
      }
      // The games exercised what the test is about: face-down stones and peeked knowledge.
      expect(steps).toBeGreaterThan(games * 10);
      expect(faceDownSeen).toBeGreaterThan(steps);
      expect(knownShown).toBeGreaterThan(steps / 4);
    });
  }
});
