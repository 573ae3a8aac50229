import fc from 'fast-check';
import { describe, it } from 'vitest';
import { check } from '../../helpers/check.ts';
import {
  CARD_IDS,
  autoPlacements,
  keystone,
  replay,
  scoreLines,
  sortCards,
  stateSchema,
  type CardId,
  type KeystoneLogEntry,
  type KeystoneState,
} from '../../../src/games/keystone/engine/index.ts';
import { deepFreeze, FOUR, hex, playMatch, THREE } from './helpers.ts';

const NUM_RUNS = 6;

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex);
const playersArb = fc.constantFrom(THREE.slice(), FOUR.slice());
const pickerArb = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const styleArb = fc.record({ autoRate: fc.constantFrom(0, 0.3, 1), forfeitRate: fc.constantFrom(0, 0.005) });

/** Every card in exactly one place, hands and lines the right sizes. */
function checkCards(s: KeystoneState): void {
  const parsed = stateSchema.safeParse(s);
  check(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
  const places = [...s.hands.flat(), ...s.undealt, ...s.played, ...s.pending, ...s.lines.flat(2)];
  check(sortCards(places).join()).toBe(CARD_IDS.join());
}

const CARD_PATTERN = /"((?:red|blue|green|yellow|purple)-(?:10|[1-9])|god-[1-3])"/g;
/** Every card id a JSON text mentions anywhere (as a whole string). */
const idsIn = (text: string): Set<string> => new Set(Array.from(text.matchAll(CARD_PATTERN), (m) => m[1]!));

/** No view but the owner's shows a card of a hand; no view ever shows an undealt card. */
function checkViews(s: KeystoneState): void {
  const leaks: string[] = [];
  for (const viewer of [null, ...s.players, 'stranger']) {
    const view = keystone.view(s, viewer);
    const seen = idsIn(JSON.stringify(view));
    for (const id of s.undealt) if (seen.has(id)) leaks.push(`${viewer} sees undealt ${id}`);
    s.hands.forEach((hand, seat) => {
      if (s.players[seat] === viewer) {
        if (JSON.stringify(view.hand!.map((x) => x.id)) !== JSON.stringify(sortCards(hand))) leaks.push(`${viewer} does not see their own hand`);
      } else for (const id of hand) if (seen.has(id)) leaks.push(`${viewer} sees ${s.players[seat]}'s ${id}`);
    });
  }
  check(leaks).toEqual([]);
}

/** The running totals are the finished games plus the lines as they stand. */
function checkTotals(s: KeystoneState): void {
  const v = keystone.view(s, null);
  const running = s.outcome === null || s.gameScores.length < s.game;
  const expected = s.players.map((_, seat) => {
    const finished = s.gameScores.reduce((a, g) => a + g[seat]!, 0);
    return [finished + (running ? scoreLines(s.lines[seat]!) : 0), scoreLines(s.lines[seat]!)];
  });
  check(s.players.map((p, seat) => [v.totals[p], v.seats[seat]!.lines.reduce((a, l) => a + l.score, 0)])).toEqual(expected);
  // Each finished game's kept lines score exactly what the game scored, line by line in the view.
  check(s.finishedLines.map((g) => g.map((lines) => scoreLines(lines)))).toEqual(s.gameScores);
  check(v.finishedGames.map((g) => g.seats.map((x) => x.lines.reduce((a, l) => a + l.score, 0)))).toEqual(s.gameScores);
}

/** The placing seat's lines after a placement move (to check the score of a game that just ended). */
function linesAfter(before: KeystoneState, entry: KeystoneLogEntry): CardId[][] {
  const lines = before.lines[before.turn]!.map((l) => l.slice());
  if (!('move' in entry)) return lines;
  const m = entry.move;
  const placements = m.type === 'place' ? [m] : m.type === 'auto-place' ? autoPlacements(lines, before.pending) : m.type === 'place-all' ? m.placements : [];
  for (const p of placements) {
    if (p.line === 'new') lines.push([p.card]);
    else lines[p.line]!.push(p.card);
  }
  return lines;
}

describe('Keystone random matches', () => {
  it('keep every card in one place, never show a hand to anyone else, add up, never mutate, and replay', () => {
    fc.assert(
      fc.property(seedArb, playersArb, pickerArb, styleArb, (seed, players, picker, style) => {
        const setup = keystone.setup({ seed, players, options: {} });
        checkCards(setup);
        checkViews(setup);
        let games = 0;
        const { state, log } = playMatch(seed, players, picker, {
          ...style,
          beforeStep: (before) => deepFreeze(before),
          onStep: (before, entry, after) => {
            checkCards(after);
            checkViews(after);
            checkTotals(after);
            if (after.outcome === null) {
              const awaited = keystone.awaiting(after);
              check(awaited).toHaveLength(1);
              for (const p of players) check(keystone.legalMoves(after, p).length > 0).toBe(p === awaited[0]);
            }
            if (after.gameScores.length > before.gameScores.length) {
              // A game was just scored: each seat's score is that of its lines at the end of the game.
              games++;
              const scores = after.gameScores.at(-1)!;
              before.lines.forEach((l, seat) => check(scores[seat]).toBe(scoreLines(seat === before.turn ? linesAfter(before, entry) : l)));
              if (after.game === 2 && after.gameScores.length === 1) check(after.leader).toBe(before.turn);
            }
          },
        });
        const o = keystone.outcome(state)!;
        check(o).not.toBeNull();
        if (o.reason === 'scored') {
          check(games).toBe(2);
          state.players.forEach((p, seat) => check(o.scores![p]).toBe(state.gameScores[0]![seat]! + state.gameScores[1]![seat]!));
        } else {
          check(state.players.length - state.out.length).toBe(1);
        }
        check(replay(seed, players, log)).toEqual(state);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('replays every intermediate state from the seed and a prefix of the log', () => {
    const { state, log } = playMatch('5e'.repeat(32), FOUR, 9, { autoRate: 0.5, forfeitRate: 0.003 });
    for (const cut of [0, 1, 37, Math.floor(log.length / 2), log.length]) {
      const prefix = log.slice(0, cut);
      const again = replay('5e'.repeat(32), FOUR.slice(), prefix);
      const twice = replay('5e'.repeat(32), FOUR.slice(), prefix);
      check(again).toEqual(twice);
      if (cut === log.length) check(again).toEqual(state);
    }
    check(log.length).toBeGreaterThan(100);
  });
});
