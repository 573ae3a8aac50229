import { describe, expect, it } from 'vitest';
import { PACES } from '../../../src/games/krellstones/data.ts';
import { krellstones, replay, type KrellstonesMove, type KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { checkEngineContract } from '../../kernel/contract.ts';
import { loadout, newGame, picker, playRandom, PLAYERS } from './helpers.ts';

/**
 * A spread of moves, legal or not, for the "unlisted moves are refused" half of the check. The
 * host's pace is left out while the host is not awaited: it is the one move apply accepts outside
 * `legalMoves` (listing it always would keep the host awaited all game; see the engine's notes).
 */
function candidates(s: KrellstonesState, p: string): KrellstonesMove[] {
  const seat = s.seats[p]!;
  const mine = seat.active.map((x) => x.id);
  const other = s.players.find((q) => q !== p)!;
  const theirs = s.seats[other]!.active.map((x) => x.id);
  const out: KrellstonesMove[] = [
    { type: 'select', stones: [] },
    { type: 'select', stones: [mine[2]!] },
    { type: 'select', stones: [mine[5]!, mine[0]!] },
    { type: 'select', stones: mine.slice() },
    { type: 'select', stones: [mine[3]!, mine[3]!] },
    { type: 'select', stones: [theirs[2]!] },
    { type: 'ready' },
    { type: 'yell', text: 'KRELLSTONES!' },
    { type: 'yell', text: 'krellstones!' },
    { type: 'timeout', key: 'nope' },
    { type: 'system', key: `roll:r${s.round}:${s.rolled}` },
  ];
  for (const sb of [...seat.sideboard, ...s.seats[other]!.sideboard]) for (const id of [mine[0]!, mine[2]!, mine[5]!]) out.push({ type: 'swap', in: sb.id, out: id });
  if (p !== s.host || krellstones.awaiting(s).includes(p)) for (const pace of PACES) out.push({ type: 'pace', pace });
  return out;
}

/** A selection names a set (apply accepts the ids in any order): compare them sorted. */
function same(a: KrellstonesMove, b: KrellstonesMove): boolean {
  const canon = (m: KrellstonesMove) => (m.type === 'select' ? { ...m, stones: m.stones.slice().sort() } : m);
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

describe('Krellstones follows the engine contract', () => {
  it('over random games of 2-4 players: legal moves accepted, others refused, SYSTEM timers, forfeits, autopilot, replay', () => {
    const r = checkEngineContract<KrellstonesState, KrellstonesMove>({
      engine: krellstones,
      games: 16,
      maxSteps: 1500,
      sample: 6,
      forfeitRate: 0.004,
      setup: (i) => {
        const n = (2 + (i % 3)) as 2 | 3 | 4;
        const players = PLAYERS[n].map((p) => `${p}${i}`);
        const sideboard = i % 2 === 1;
        const playerData = Object.fromEntries(
          players.map((p, k) => [p, loadout(p, sideboard ? { sideboard: [{ type: (['krell', 'dancer', 'pawn', 'master'] as const)[k]! }, { type: 'krell' }] } : {})]),
        );
        return { players, options: { rounds: 1 + (i % 3), rerolls: i % 4 !== 3, sideboard: sideboard ? 2 : 'off', pace: PACES[i % 3]! }, playerData };
      },
      candidates,
      same,
    });
    expect(r.outcomes.rounds).toBeGreaterThan(8);
  });
});

describe('replay', () => {
  it('recomputes a game from its seed, options, player data and move log (forfeits included)', () => {
    const specs = { alice: { sideboard: [{ type: 'krell' as const }] }, cara: { sideboard: [{ type: 'master' as const }] } };
    const { state, playerData, options } = newGame(PLAYERS[4], { rounds: 4, sideboard: 1 }, specs, '5e'.repeat(32));
    const { state: end, log } = playRandom(state, picker('a5'.repeat(32)), { forfeitRate: 6 });
    expect(end.outcome).not.toBeNull();
    expect(log.some((e) => 'forfeit' in e)).toBe(true);
    expect(log.some((e) => 'move' in e && e.move.type === 'swap')).toBe(true);
    const again = replay('5e'.repeat(32), PLAYERS[4], options, JSON.parse(JSON.stringify(playerData)), JSON.parse(JSON.stringify(log)));
    expect(again).toEqual(end);
    // Another seed gives other dice.
    const other = replay('5f'.repeat(32), PLAYERS[4], options, playerData, log.slice(0, 5));
    expect(other.seats.alice!.stones).not.toEqual(replay('5e'.repeat(32), PLAYERS[4], options, playerData, log.slice(0, 5)).seats.alice!.stones);
  });
});
