import { describe, expect, it } from 'vitest';
import { SYSTEM } from '../../../src/kernel/index.ts';
import { PACE_TABLE } from '../../../src/games/krellstones/data.ts';
import { krellstones, stateSchema, type KrellstonesPlayerData, type KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { krellstones as krellstonesGame } from '../../../src/games/krellstones/index.ts';
import { allReady, board, expectRuleError, loadout, newGame, PLAYERS, rollAll, SEED_A, step, stone, systemKey } from './helpers.ts';

const setupWith = (players: string[], playerData: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  krellstones.setup({ players, seed: SEED_A, options: options as never, playerData });

describe('setup', () => {
  it('snapshots the stones as they are: faces applied (value, 1 + weight), slot order normalized', () => {
    const alice = loadout('alice');
    const master = alice.stones[5]!;
    master.sides[0] = { printed: 1, face: { type: 'master', value: 67, weight: 2, promo: true } };
    const data = { alice: { stones: [master, ...alice.stones.slice(0, 5)], sideboard: [] }, bob: loadout('bob') };
    const s = setupWith(PLAYERS[2], data);
    expect(s.seats.alice!.active.map((x) => x.id)).toEqual(['alice-pawn', 'alice-dancer', 'alice-k1', 'alice-k2', 'alice-k3', 'alice-master']);
    expect(s.seats.alice!.active[5]!.sides[0]).toEqual({ value: 67, weight: 3 });
    expect(s.seats.alice!.active[5]!.sides[1]).toEqual({ value: 3, weight: 1 });
    // A later change of the collection does not reach the running game.
    master.sides[1] = { printed: 3, face: { type: 'master', value: 65, weight: 2, promo: false } };
    expect(s.seats.alice!.active[5]!.sides[1]).toEqual({ value: 3, weight: 1 });
    expect(stateSchema.safeParse(JSON.parse(JSON.stringify(s))).success).toBe(true);
  });

  it('refuses player data that is missing, not one Pawn, one Dancer, three Krells and one Master, over the sideboard, or duplicated', () => {
    const ok = { alice: loadout('alice'), bob: loadout('bob') };
    const twoPawns: KrellstonesPlayerData = { stones: [stone('x1', 'pawn'), stone('x2', 'pawn'), ...loadout('alice').stones.slice(2)] };
    const cases: [string, Record<string, unknown>, Record<string, unknown>?][] = [
      ['missing player', { alice: ok.alice }],
      ['unknown player', { ...ok, zed: loadout('zed') }],
      ['two pawns, no dancer', { alice: twoPawns, bob: ok.bob }],
      ['five stones', { alice: { stones: ok.alice.stones.slice(1) }, bob: ok.bob }],
      ['a stone with repeated values', { alice: { stones: [stone('x', 'pawn', [1, 1, 2, 3]), ...ok.alice.stones.slice(1)] }, bob: ok.bob }],
      ['a sideboard when the sideboard is off', { alice: loadout('alice', { sideboard: [{ type: 'krell' }] }), bob: ok.bob }],
      ['a sideboard over its size', { alice: loadout('alice', { sideboard: [{ type: 'krell' }, { type: 'pawn' }] }), bob: ok.bob }, { sideboard: 1 }],
      ['a stone brought twice', { alice: ok.alice, bob: loadout('alice') }],
    ];
    for (const [name, data, options] of cases) {
      try {
        expectRuleError(() => setupWith(PLAYERS[2], data, options), 'krellstones/bad-player-data');
      } catch (err) {
        throw new Error(`${name}: ${(err as Error).message}`);
      }
    }
    expectRuleError(() => krellstones.setup({ players: PLAYERS[2], seed: SEED_A, options: {} as never }), 'krellstones/bad-player-data');
  });

  it('refuses bad seats, options and hosts', () => {
    const data = (ps: string[]) => Object.fromEntries(ps.map((p) => [p, loadout(p)]));
    expectRuleError(() => setupWith(['alice'], data(['alice'])), 'krellstones/bad-setup');
    expectRuleError(() => setupWith(['a', 'b', 'c', 'd', 'e'], data(['a', 'b', 'c', 'd', 'e'])), 'krellstones/bad-setup');
    for (const options of [{ rounds: 0 }, { rounds: 18 }, { sideboard: 11 }, { sideboard: 0 }, { pace: 'fast' }, { host: 'zed' }, { colour: 'red' }]) {
      expectRuleError(() => setupWith(PLAYERS[2], data(PLAYERS[2]), options), 'krellstones/bad-setup');
    }
  });

  it('defaults: 5 rounds, rerolls on, no sideboard, SLOW, the first player hosts', () => {
    const s = setupWith(PLAYERS[3], Object.fromEntries(PLAYERS[3].map((p) => [p, loadout(p)])));
    expect({ rounds: s.rounds, rerolls: s.rerolls, sideboard: s.sideboard, pace: s.pace, host: s.host }).toEqual({ rounds: 5, rerolls: true, sideboard: null, pace: 'SLOW', host: 'alice' });
  });
});

describe('rolls in the game', () => {
  it('follow each side’s snapshotted weight (chi-square over 2,400 seeded rolls of a pawn weighted 3:1:1:1)', () => {
    const alice = loadout('alice');
    alice.stones[0] = stone('alice-pawn', 'pawn', [1, 2, 3, 4], [3, 1, 1, 1]);
    const s0 = setupWith(PLAYERS[2], { alice, bob: loadout('bob') }, { pace: 'FAST' });
    s0.order = ['alice', 'bob'];
    const counts = [0, 0, 0, 0];
    for (let k = 0; k < 2400; k++) {
      const s = step({ ...s0, rng: { seed: s0.rng.seed, n: k * 6 } });
      counts[s.seats.alice!.stones[0]!.side!]! += 1;
    }
    const expected = [0.5, 1 / 6, 1 / 6, 1 / 6].map((x) => x * 2400);
    const chi2 = counts.reduce((a, o, i) => a + (o - expected[i]!) ** 2 / expected[i]!, 0);
    expect(chi2).toBeLessThan(16.27); // p = 0.001, 3 degrees of freedom
  });
});

describe('timers', () => {
  it('roll steps, the end of the rolling phase, then the choices: keys change per step, durations follow the pace', () => {
    let { state: s } = newGame(PLAYERS[2], { pace: 'NORMAL' });
    const sys = (key: string) => ({ key, after: { ms: 5000 }, onExpiry: { type: 'move', move: { type: 'system', key } } });
    expect(krellstones.timers(s)).toEqual([sys('roll:r1:0')]);
    s = step(s);
    expect(krellstones.timers(s).filter((t) => !t.player)).toEqual([sys('roll:r1:1')]);
    s = step(s);
    expect(krellstones.timers(s).filter((t) => !t.player)).toEqual([sys('rolled:r1')]);
    s = step(s);
    expect(s.phase).toBe('rerolls');
    expect(krellstones.timers(s)).toEqual(
      PLAYERS[2].map((player) => ({ key: 'reroll:r1', player, after: { ms: 180_000 }, onExpiry: { type: 'move', move: { type: 'timeout', key: 'reroll:r1' } }, turn: true, dm: 'edit' })),
    );
    s = allReady(s);
    expect(krellstones.timers(s)).toEqual([sys('roll:r2:0')]);
  });

  it('SLOW: 10 minutes between rolls, choices on the server’s turn limit; FAST: 2 s and 45 s; every choice a turn', () => {
    const slow = rollAll(newGame(PLAYERS[2], { pace: 'SLOW' }).state);
    expect(krellstones.timers(newGame(PLAYERS[2], { pace: 'SLOW' }).state)[0]!.after).toEqual({ ms: 600_000 });
    expect(krellstones.timers(slow).every((t) => t.after === 'turn-limit' && t.turn === true)).toBe(true);
    const fast = rollAll(newGame(PLAYERS[2], { pace: 'FAST' }).state);
    expect(krellstones.timers(fast).every((t) => JSON.stringify(t.after) === JSON.stringify({ ms: 45_000 }) && t.turn === true)).toBe(true);
    expect(PACE_TABLE.FAST.rollGapMs).toBe(2000);
    // Live paces: a choice edits the player's DM of the game; SLOW (play-by-post): a new DM per choice.
    expect(krellstones.timers(fast).every((t) => t.dm === 'edit')).toBe(true);
    expect(krellstones.timers(slow).every((t) => t.dm === undefined)).toBe(true);
  });

  it('a stale or foreign step is refused: SYSTEM only advances its own current step', () => {
    const { state } = newGame(PLAYERS[2]);
    const s = step(state);
    expectRuleError(() => krellstones.apply(s, SYSTEM, { type: 'system', key: 'roll:r1:0' }), 'krellstones/stale-step');
    expectRuleError(() => krellstones.apply(s, SYSTEM, { type: 'ready' }), 'krellstones/not-a-system-move');
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'system', key: systemKey(s) }), 'krellstones/system-only');
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'timeout', key: 'reroll:r1' }), 'krellstones/stale-step');
  });
});

describe('pace', () => {
  it('the host changes it at any time; running timers keep their keys, the next ones take the new pace', () => {
    const { state } = newGame(PLAYERS[2], { pace: 'SLOW' });
    expect(krellstones.awaiting(state)).toEqual([]);
    expect(krellstones.legalMoves(state, 'alice')).toEqual([]);
    const s = krellstones.apply(state, 'alice', { type: 'pace', pace: 'FAST' });
    expect(s.pace).toBe('FAST');
    expect(krellstones.timers(s)[0]!.key).toBe(krellstones.timers(state)[0]!.key);
    expect(krellstones.timers(step(s))[0]).toMatchObject({ key: 'roll:r1:1', after: { ms: 2000 } });
    expectRuleError(() => krellstones.apply(s, 'bob', { type: 'pace', pace: 'NORMAL' }), 'krellstones/not-host');
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'pace', pace: 'FAST' }), 'krellstones/same-pace');
  });

  it('is listed for the host with their choices', () => {
    const s = rollAll(newGame(PLAYERS[2], { pace: 'NORMAL' }).state);
    const paces = (p: string) => krellstones.legalMoves(s, p).filter((m) => m.type === 'pace');
    expect(paces('alice')).toEqual([
      { type: 'pace', pace: 'FAST' },
      { type: 'pace', pace: 'SLOW' },
    ]);
    expect(paces('bob')).toEqual([]);
  });
});

/** A state at the reroll choice where alice and bob have every stone in play (no effect fired). */
function choosing(): KrellstonesState {
  const { state } = newGame(PLAYERS[2], { rounds: 5 });
  const s = step(board(state, { alice: [1, 10, 3, 4, 5, 33], bob: [3, 15, 6, 7, 8, 31] }));
  expect(s.announcements).toEqual([]);
  return s;
}

describe('reroll choices', () => {
  it('lists every subset of one’s stones in play, the empty one first, then ready', () => {
    const s = choosing();
    const moves = krellstones.legalMoves(s, 'bob');
    expect(moves).toHaveLength(64 + 1);
    expect(moves[0]).toEqual({ type: 'select', stones: [] });
    expect(moves[63]).toEqual({ type: 'select', stones: ['bob-pawn', 'bob-dancer', 'bob-k1', 'bob-k2', 'bob-k3', 'bob-master'] });
    expect(moves[64]).toEqual({ type: 'ready' });
  });

  it('refuses a stone twice, someone else’s stone, a stone not in play, and anything after ready', () => {
    const s = choosing();
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'select', stones: ['alice-k1', 'alice-k1'] }), 'krellstones/duplicate-stone');
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'select', stones: ['bob-k1'] }), 'krellstones/not-your-stone');
    const t = structuredClone(s);
    t.seats.alice!.stones[2]!.status = 'discarded';
    expectRuleError(() => krellstones.apply(t, 'alice', { type: 'select', stones: ['alice-k1'] }), 'krellstones/not-in-play');
    const r = krellstones.apply(s, 'alice', { type: 'ready' });
    expectRuleError(() => krellstones.apply(r, 'alice', { type: 'select', stones: [] }), 'krellstones/already-ready');
    expectRuleError(() => krellstones.apply(r, 'alice', { type: 'ready' }), 'krellstones/already-ready');
    expect(krellstones.awaiting(r)).toEqual(['bob']);
  });

  it('a selection is secret until the rerolls are rolled: others see only who is ready', () => {
    let s = choosing();
    s = krellstones.apply(s, 'alice', { type: 'select', stones: ['alice-master', 'alice-k2'] });
    expect(s.seats.alice!.selection).toEqual(['alice-k2', 'alice-master']);
    s = krellstones.apply(s, 'alice', { type: 'ready' });
    for (const viewer of ['bob', null]) {
      const v = krellstones.view(s, viewer);
      expect(v.seats.alice!.selection).toBeNull();
      expect(v.seats.alice!.choice).toBe('ready');
      expect(v.seats.bob!.choice).toBe('pending');
      expect(v.seats.alice!.stones.some((x) => x.rerolled)).toBe(false);
      expect(JSON.stringify(v)).not.toContain('"selection":["');
    }
    expect(krellstones.view(s, 'alice').seats.alice!.selection).toEqual(['alice-k2', 'alice-master']);
    s = krellstones.apply(s, 'bob', { type: 'ready' });
    const last = krellstones.view(s, 'bob');
    expect(last.history[0]!.round).toBe(1);
    expect(s.seats.alice!.stones.map((r) => r.rerolled)).toEqual([false, false, false, false, false, false]); // round 2 opened fresh
  });

  it('the view shows values, sums, what was discarded and why, and who would bust', () => {
    const { state } = newGame(PLAYERS[2]);
    const v = krellstones.view(step(board(state, { alice: [1, 10, 3, 4, 5, 11], bob: [3, 15, 6, 7, 8, 33] })), 'bob');
    expect(v.seats.alice!.stones.map((x) => [x.value, x.status, x.why])).toEqual([
      [1, 'in', null],
      [10, 'in', null],
      [3, 'in', null],
      [4, 'in', null],
      [5, 'in', null],
      [11, 'discarded', 'HAZE THE MASTER!'],
    ]);
    expect([v.seats.alice!.sum, v.seats.alice!.wouldBust, v.seats.bob!.sum, v.seats.bob!.wouldBust]).toEqual([23, false, 72, false]);
    expect(v.seats.alice!.left).toBe('bob');
    expect(v).toMatchObject({ round: 1, phase: 'rerolls', announcements: [{ text: 'HAZE THE MASTER!' }] });
    expect(v).not.toHaveProperty('rng');
  });

  it('the rerolled stones are public once rolled (last round of a game: the board stays)', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 1 });
    let s = step(board(state, { alice: [1, 10, 3, 4, 5, 33], bob: [3, 15, 6, 7, 8, 31] }));
    s = krellstones.apply(s, 'alice', { type: 'select', stones: ['alice-k2'] });
    s = allReady(s);
    expect(krellstones.view(s, 'bob').seats.alice!.stones.map((x) => x.rerolled)).toEqual([false, false, false, true, false, false]);
  });

  it('an expired choice rerolls nothing, even with a selection made, and counts one expiry', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 1 });
    let s = step(board(state, { alice: [1, 10, 3, 4, 5, 33], bob: [3, 15, 6, 7, 8, 31] }));
    s = krellstones.apply(s, 'alice', { type: 'select', stones: ['alice-k2'] });
    s = krellstones.apply(s, 'alice', { type: 'timeout', key: 'reroll:r1' });
    expect(s.seats.alice!.choice).toBe('expired');
    expect(s.seats.alice!.expiries).toBe(1);
    s = krellstones.apply(s, 'bob', { type: 'ready' });
    expect(s.seats.alice!.stones.some((r) => r.rerolled)).toBe(false);
  });

  it('a seat with no stone in play is not asked', () => {
    const { state } = newGame(PLAYERS[2], {}, { alice: { pawn: [1, 2, 3, 5] } });
    const s = step(board(state, { alice: [5, 5, 5, 5, 5, 5], bob: [3, 15, 6, 7, 8, 33] }));
    expect(s.seats.alice!.choice).toBe('skipped');
    expect(krellstones.awaiting(s)).toEqual(['bob']);
  });
});

/** Plays rounds where `timeouts` let their reroll choice expire and everyone else readies. */
function expireRounds(s0: KrellstonesState, rounds: number, timeouts: string[]): KrellstonesState {
  let s = s0;
  for (let r = 0; r < rounds && s.outcome === null; r++) {
    s = rollAll(s);
    for (const p of s.players) {
      if (s.outcome !== null || s.seats[p]!.choice !== 'pending') continue;
      s = timeouts.includes(p) ? krellstones.apply(s, p, { type: 'timeout', key: `reroll:r${s.round}` }) : krellstones.apply(s, p, { type: 'ready' });
    }
  }
  return s;
}

describe('expiries and forfeits', () => {
  it('2 players: a third expiry in a row forfeits; the other wins at once and the round is not scored', () => {
    const s = expireRounds(newGame(PLAYERS[2], { rounds: 5 }).state, 5, ['alice']);
    expect(s.outcome).toEqual({ winners: ['bob'], reason: 'forfeit', forfeited: 'alice', scores: expect.any(Object) });
    expect(s.history).toHaveLength(2);
    expect(s.round).toBe(3);
    expect(krellstones.timers(s)).toEqual([]);
    // Their time ran out (boards, results and DMs say so), not a forfeit they chose.
    expect(krellstonesGame.timedOut!(s)).toEqual(['alice']);
  });

  it('a forfeit by choice, or two expiries, is no time running out', () => {
    expect(krellstonesGame.timedOut!(krellstones.forfeit(rollAll(newGame(PLAYERS[2]).state), 'bob'))).toEqual([]);
    expect(krellstonesGame.timedOut!(expireRounds(newGame(PLAYERS[2], { rounds: 6 }).state, 2, ['alice']))).toEqual([]);
    expect(krellstonesGame.timedOut!(expireRounds(newGame(PLAYERS[2], { rounds: 5 }).state, 3, ['alice', 'bob'])).sort()).toEqual(['alice', 'bob']);
  });

  it('a choice made resets the count', () => {
    let s = expireRounds(newGame(PLAYERS[2], { rounds: 6 }).state, 2, ['alice']);
    s = expireRounds(s, 1, []);
    expect(s.seats.alice!.expiries).toBe(0);
    s = expireRounds(s, 2, ['alice']);
    expect(s.outcome).toBeNull();
    expect(s.seats.alice!.expiries).toBe(2);
  });

  it('a step where the seat is not asked (nothing in play) neither counts nor resets the run-outs in a row', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 3 }, { alice: { pawn: [1, 2, 3, 5] } });
    let s = step(board(state, { alice: [1, 10, 3, 4, 6, 33], bob: [3, 15, 6, 7, 8, 31] }));
    s = krellstones.apply(s, 'alice', { type: 'timeout', key: 'reroll:r1' });
    s = krellstones.apply(s, 'bob', { type: 'ready' });
    expect(s.seats.alice!.expiries).toBe(1);
    // Round 2: every stone of hers spins out: she is not asked; her count stays at 1.
    s = step(board(s, { alice: [5, 5, 5, 5, 5, 5], bob: [3, 15, 6, 7, 8, 33] }));
    expect(s.seats.alice!.choice).toBe('skipped');
    s = krellstones.apply(s, 'bob', { type: 'ready' });
    expect(s.round).toBe(3);
    expect(s.seats.alice!.expiries).toBe(1);
    // Round 3: a second run-out in a row (the skipped step between did not reset it).
    s = step(board(s, { alice: [1, 10, 3, 4, 6, 33], bob: [3, 15, 6, 7, 8, 31] }));
    s = krellstones.apply(s, 'alice', { type: 'timeout', key: 'reroll:r3' });
    expect(s.seats.alice!.expiries).toBe(2);
  });

  it('2 players reaching their third expiry at the same step: nobody wins', () => {
    const s = expireRounds(newGame(PLAYERS[2], { rounds: 5 }).state, 3, ['alice', 'bob']);
    expect(s.outcome).toMatchObject({ winners: [], reason: 'forfeit', forfeits: ['alice', 'bob'] });
  });

  it('2 players: a forfeit by choice ends the game at once', () => {
    const s = krellstones.forfeit(rollAll(newGame(PLAYERS[2]).state), 'bob');
    expect(s.outcome).toMatchObject({ winners: ['alice'], reason: 'forfeit', forfeited: 'bob' });
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'ready' }), 'krellstones/game-over');
    expectRuleError(() => krellstones.forfeit(s, 'alice'), 'krellstones/game-over');
  });

  it('3 players: the seat goes on under the autopilot; it still rolls, is never asked, and its pending choice is dropped', () => {
    let s = rollAll(newGame(PLAYERS[3], { rounds: 3 }).state);
    s = krellstones.apply(s, 'bob', { type: 'ready' });
    s = krellstones.apply(s, 'cara', { type: 'ready' });
    s = krellstones.forfeit(s, 'alice');
    // alice was the last one pending: the step completed.
    expect(s.round).toBe(2);
    expect(krellstones.out!(s)).toEqual(['alice']);
    expectRuleError(() => krellstones.forfeit(s, 'alice'), 'krellstones/forfeited');
    s = rollAll(s);
    expect(s.seats.alice!.stones.every((r) => r.status !== 'unrolled')).toBe(true);
    expect(s.seats.alice!.choice).toBe('skipped');
    expect(krellstones.awaiting(s)).not.toContain('alice');
    expect(krellstones.legalMoves(s, 'alice')).toEqual([]);
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'ready' }), 'krellstones/forfeited');
  });

  it('3 players: three expiries forfeit; when one player is left standing the game ends with them the winner', () => {
    let s = expireRounds(newGame(PLAYERS[3], { rounds: 5 }).state, 3, ['alice']);
    expect(s.outcome).toBeNull();
    expect(s.out).toEqual(['alice']);
    s = krellstones.forfeit(s, 'cara');
    expect(s.outcome).toMatchObject({ winners: ['bob'], reason: 'forfeit', forfeits: ['alice', 'cara'], places: { bob: 1, cara: 2, alice: 3 } });
  });

  it('3 players: swap steps count toward the expiries too', () => {
    const sb = { sideboard: [{ type: 'krell' as const }] };
    let s = newGame(PLAYERS[3], { rounds: 5, sideboard: 1, rerolls: false }, { alice: sb }).state;
    for (let r = 0; r < 3; r++) {
      s = rollAll(s);
      expect(s.phase).toBe('swaps');
      expect(krellstones.timers(s)).toEqual([{ key: `swap:r${r + 1}`, player: 'alice', after: { ms: 45_000 }, onExpiry: { type: 'move', move: { type: 'timeout', key: `swap:r${r + 1}` } }, turn: true, dm: 'edit' }]);
      s = krellstones.apply(s, 'alice', { type: 'timeout', key: `swap:r${r + 1}` });
    }
    expect(s.out).toEqual(['alice']);
    expect(s.round).toBe(4);
  });
});

describe('the autopilot (a practice seat)', () => {
  it('confirms without rerolling or swapping', () => {
    const s = choosing();
    expect(krellstones.autopilot!(s, 'alice', s.rng)).toEqual({ type: 'ready' });
  });
});
