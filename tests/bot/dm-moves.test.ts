import { describe, expect, it } from 'vitest';
import { forBoardMover, hasMoveButtons, linkRowsOf, PLAY_HERE_NOTE } from '../../src/bot/dm-moves.ts';
import type { MessagePayload } from '../../src/bot/game-module.ts';
import { games } from '../../src/games/index.ts';
import { SYSTEM } from '../../src/kernel/index.ts';
import { newGame, step } from '../games/krellstones/helpers.ts';

/**
 * Every game's turn DM, as a board mover gets it (src/bot/dm-moves.ts): the platform takes the
 * game's own DM and swaps its move buttons for Play here, keeping the text and the link back to
 * the board. Each game is played from its setup by its legal moves until a player's turn DM
 * offers moves; a game whose DMs never offer any (Tellstones is played on the board) is left as it is.
 */
const BOARD = 'https://discord.com/channels/1/2/3';

type Engine = { timers(s: unknown): Array<{ player?: string; onExpiry: { type: string; move?: unknown } }>; setup(i: { players: string[]; seed: string; options: unknown }): unknown; awaiting(s: unknown): string[]; legalMoves(s: unknown, p: string): unknown[]; apply(s: unknown, p: string, m: unknown): unknown; outcome(s: unknown): unknown; view(s: unknown, v: string | null): unknown; optionsSchema: { parse(x: unknown): unknown } };

function start(kind: string, engine: Engine): { state: unknown; players: string[] } {
  // Krellstones' players bring their stones.
  if (kind === 'krellstones') return { state: newGame(['p0', 'p1']).state, players: ['p0', 'p1'] };
  for (const n of [2, 3, 4]) {
    const players = Array.from({ length: n }, (_, i) => `p${i}`);
    try {
      return { state: engine.setup({ players, seed: 'd'.repeat(64), options: engine.optionsSchema.parse({}) }), players };
    } catch {
      // this game needs another number of players
    }
  }
  throw new Error('no setup');
}

/** The first turn DMs (up to `max`) of a game played by its first legal moves, with their players. */
function turnDms(kind: string, max = 40): Array<{ payload: MessagePayload; player: string }> {
  const m = games.require(kind);
  const engine = m.engine as unknown as Engine;
  let { state, players } = start(kind, engine);
  const out: Array<{ payload: MessagePayload; player: string }> = [];
  for (let step = 0; step < 400 && out.length < max && engine.outcome(state) === null; step++) {
    const awaiting = engine.awaiting(state);
    for (const p of awaiting) {
      out.push({
        player: p,
        payload: m.present.notification(
          { type: 'turn', gameId: 9, kind, view: engine.view(state, p), deadlineAt: '2026-11-24T12:00:00Z', opponents: players.filter((x) => x !== p) },
          { names: {}, boardUrl: BOARD, version: step, active: true },
        ),
      });
    }
    const p = awaiting.find((x) => engine.legalMoves(state, x).length > 0);
    if (!p) {
      // A phase that advances by itself (Krellstones' rolls): its timer's move, by the system.
      const timer = engine.timers(state).find((t) => t.player === undefined && t.onExpiry.type === 'move');
      if (!timer) break;
      state = engine.apply(state, SYSTEM, timer.onExpiry.move);
      continue;
    }
    const legal = engine.legalMoves(state, p);
    state = engine.apply(state, p, legal[(step * 7) % legal.length]);
  }
  return out;
}

const labels = (p: MessagePayload) => (p.components ?? []).flatMap((r) => r.components.map((c) => ('label' in c ? c.label : c.type)));

describe('a board mover’s turn DM, in every game', () => {
  for (const kind of games.all.map((g) => g.kind)) {
    it(`${kind}: Play here and the link to the board instead of move buttons, the same text`, () => {
      const dms = turnDms(kind);
      expect(dms.length).toBeGreaterThan(0);
      const withMoves = dms.filter((d) => hasMoveButtons(d.payload.components));
      for (const { payload } of dms) {
        const board = forBoardMover(payload, 9);
        if (payload.urgent) {
          // A yell window's DM keeps its Yell! button: Play here first would cost seconds that count.
          expect(board).toEqual(payload);
          continue;
        }
        expect(hasMoveButtons(board.components)).toBe(false);
        if (!hasMoveButtons(payload.components)) {
          expect(board).toEqual(payload);
          continue;
        }
        // The game's own link back to the board (whatever its label), after Play here.
        const links = (payload.components ?? []).flatMap((r) => r.components.filter((c) => 'url' in c && c.url === BOARD).map((c) => ('label' in c ? c.label : '')));
        expect(links).toHaveLength(1);
        expect(labels(board)).toEqual(['Play here', ...links]);
        expect(board.components![0]!.components[0]).toMatchObject({ custom_id: 'g:here:9' });
        expect(board.content).toBe(`${payload.content}\n${PLAY_HERE_NOTE}`);
        expect(board.files).toEqual(payload.files);
        expect(board.embeds).toEqual(payload.embeds);
      }
      // Tellstones' turns are played on the board: its DMs never offer moves. The others' do.
      if (kind === 'tellstones') expect(withMoves).toEqual([]);
      else expect(withMoves.length).toBeGreaterThan(0);
    });
  }
});

describe('an urgent DM', () => {
  it('Krellstones: the Pup-in-the-Hangar DM keeps its Yell! button for a board mover', () => {
    const m = games.require('krellstones');
    const players = ['p0', 'p1'];
    // The first seed whose first roll lands a Master on its lowest side: a yell window.
    let u = newGame(players, { pace: 'FAST' }).state;
    for (let k = 0; k < 500 && u.windows.length === 0; k++) u = step(newGame(players, { pace: 'FAST' }, {}, (k + 1).toString(16).padStart(64, '0')).state);
    const owner = u.windows[0];
    expect(owner, 'a seed with a Pup window').toBeDefined();
    const pup = m.present.notification({ type: 'turn', gameId: 9, kind: 'krellstones', view: m.engine.view(u, owner!), deadlineAt: '2026-11-24T12:00:00Z', opponents: [] }, { names: {}, boardUrl: BOARD, version: 1, active: true });
    expect(pup.urgent).toBe(true);
    expect(labels(forBoardMover(pup, 9))).toContain('Yell!');
    expect(forBoardMover(pup, 9)).toEqual(pup);
  });
});

describe('a DM losing its game buttons', () => {
  it('keeps its link to the board, also from a row it shares with game buttons (Keystone’s placement panel)', () => {
    const link = { type: 2, style: 5, url: BOARD, label: 'Open the board' } as const;
    const move = { type: 2, style: 1, custom_id: 'ks:auto:1:2', label: 'Auto-place…' } as const;
    const rows = [
      { type: 1, components: [move, link] },
      { type: 1, components: [move] },
    ] as unknown as NonNullable<MessagePayload['components']>;
    expect(linkRowsOf(rows)).toEqual([{ type: 1, components: [link] }]);
    expect(linkRowsOf(undefined)).toEqual([]);
  });
});
