import { describe, expect, it } from 'vitest';
import { krellstones, type KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { allReady, board, expectRuleError, newGame, PLAYERS, rollAll, status, step, values } from './helpers.ts';

const ids = (s: KrellstonesState, p: string) => ({ active: s.seats[p]!.active.map((x) => x.id), sideboard: s.seats[p]!.sideboard.map((x) => x.id) });

describe('positions', () => {
  it('are random in round 1, then everyone moves one place left each round (the first becomes last)', () => {
    let { state: s } = newGame(PLAYERS[4], { rounds: 6, rerolls: false });
    const orders = new Set<string>();
    for (let seed = 0; seed < 8; seed++) orders.add(newGame(PLAYERS[4], {}, {}, seed.toString(16).padStart(2, '0').repeat(32)).state.order.join());
    expect(orders.size).toBeGreaterThan(1);
    const first = s.order.slice();
    for (let r = 0; r < 6 && s.outcome === null; r++) {
      expect(s.order).toEqual([...first.slice(r % 4), ...first.slice(0, r % 4)]);
      s = rollAll(s);
    }
    expect(s.history.map((h) => h.order[0])).toEqual([0, 1, 2, 3, 0, 1].map((k) => first[k]));
  });

  it('rolls follow position order, one SYSTEM step each, and the rolling phase ends one step after the last', () => {
    let { state: s } = newGame(PLAYERS[3]);
    expect(krellstones.view(s, null).nextRoller).toBe(s.order[0]);
    for (let k = 0; k < 3; k++) {
      const p = s.order[k]!;
      expect(status(s, p).every((x) => x === 'unrolled')).toBe(true);
      s = step(s);
      expect(status(s, p).every((x) => x === 'in')).toBe(true);
      for (const q of s.order.slice(k + 1)) expect(status(s, q).every((x) => x === 'unrolled')).toBe(true);
    }
    expect(s.phase).toBe('rolling');
    s = step(s);
    expect(s.phase).toBe('rerolls');
  });
});

describe('Bury the Ghost Dancer across rounds', () => {
  const ghostBoard = { alice: [1, 5, 3, 4, 6, 33] as const, bob: [3, 15, 6, 7, 8, 31] as const };

  it('the Dancer returns next round unrolled, in play, showing its highest side, and may be rerolled', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 3 });
    let s = allReady(step(board(state, { alice: [...ghostBoard.alice], bob: [...ghostBoard.bob] })));
    expect(s.round).toBe(2);
    expect(s.seats.alice!.stones[1]).toEqual({ status: 'in', side: 4, ghost: true, rerolled: false, why: null });
    expect(values(s, 'alice')[1]).toBe(25);
    s = rollAll(s);
    expect(s.seats.alice!.stones[1]).toMatchObject({ status: 'in', ghost: true, rerolled: false, side: 4 });
    const selectable = krellstones.legalMoves(s, 'alice').flatMap((m) => (m.type === 'select' ? m.stones : []));
    expect(selectable).toContain('alice-dancer');
    // Round 3 (the last): the Dancer is back to rolling normally.
    s = rollAll(allReady(s));
    expect(s.seats.alice!.stones[1]!.ghost).toBe(false);
  });

  it('in the final round it is simply removed: announced, nothing returns, the game ends', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 2 });
    const s0 = board(state, { alice: [...ghostBoard.alice], bob: [...ghostBoard.bob] });
    s0.round = 2;
    const s1 = step(s0);
    expect(s1.announcements.map((a) => a.text)).toEqual(['BURY THE GHOST DANCER!']);
    expect(status(s1, 'alice')[1]).toBe('buried');
    expect(s1.seats.alice!.ghostNext).toBe(false);
    const s2 = allReady(s1);
    expect(s2.outcome).not.toBeNull();
    expect(s2.history[0]!.sums.alice).toBe(1 + 13 + 33);
  });

  it('swapped out between rounds, its return lapses and the incoming Dancer rolls normally', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 3, sideboard: 1 }, { alice: { sideboard: [{ type: 'dancer', values: [6, 11, 16, 21, 26] }] } });
    let s = allReady(step(board(state, { alice: [...ghostBoard.alice], bob: [...ghostBoard.bob] })));
    expect(s.phase).toBe('swaps');
    expect(s.seats.alice!.ghostNext).toBe(true);
    s = krellstones.apply(s, 'alice', { type: 'swap', in: 'alice-sb1', out: 'alice-dancer' });
    expect(s.seats.alice!.ghostNext).toBe(false);
    s = krellstones.apply(s, 'alice', { type: 'ready' });
    expect(s.round).toBe(2);
    expect(s.seats.alice!.stones[1]!.status).toBe('unrolled');
    s = rollAll(s);
    expect([6, 11, 16, 21, 26]).toContain(values(s, 'alice')[1]);
    expect(ids(s, 'alice').sideboard).toEqual(['alice-dancer']);
  });
});

describe('Pawn is Queen across rounds', () => {
  const queenSpecs = { alice: { pawn: [1, 2, 3, 10] } };
  const queenBoard = { alice: [10, 10, 3, 4, 5, 9] as const, bob: [3, 15, 6, 7, 8, 33] as const };

  it('every pawn is out next round: not rolled, not selectable, no Pawns Up, not scored', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 2 }, queenSpecs);
    let s = allReady(step(board(state, { alice: [...queenBoard.alice], bob: [...queenBoard.bob] })));
    expect(s.history[0]!.reversed).toBe(true);
    expect(s.round).toBe(2);
    expect(s.pawnsOut).toBe(true);
    s = rollAll(s);
    expect(status(s, 'alice')[0]).toBe('benched');
    expect(status(s, 'bob')[0]).toBe('benched');
    expect(s.announcements.some((a) => a.effect === 'pawns-up' || a.effect === 'queen')).toBe(false);
    for (const p of PLAYERS[2]) {
      const selectable = krellstones.legalMoves(s, p).flatMap((m) => (m.type === 'select' ? m.stones : []));
      expect(selectable).not.toContain(`${p}-pawn`);
      expectRuleError(() => krellstones.apply(s, p, { type: 'select', stones: [`${p}-pawn`] }), 'krellstones/not-in-play');
    }
    s = allReady(s);
    expect(s.outcome).not.toBeNull();
    // The last round's stones stay as they ended: the sums are the stones in play, pawns aside.
    for (const p of PLAYERS[2]) {
      const v = values(s, p);
      const inPlay = status(s, p).reduce((a, st, i) => a + (st === 'in' ? v[i]! : 0), 0);
      expect(v[0]).toBeNull();
      expect(s.history[1]!.sums[p]).toBe(inPlay);
    }
  });

  it('the round after, pawns roll again', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 3, rerolls: false }, queenSpecs);
    let s = step(board(state, { alice: [...queenBoard.alice], bob: [...queenBoard.bob] }));
    expect(s.pawnsOut).toBe(true);
    s = rollAll(s);
    expect(s.round).toBe(3);
    expect(s.pawnsOut).toBe(false);
    s = step(s);
    expect(status(s, s.order[0]!)[0]).toBe('in');
  });

  it('a pawn swapped in is out too', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 2, sideboard: 1 }, { alice: { pawn: [1, 2, 3, 10], sideboard: [{ type: 'pawn', values: [5, 6, 7, 8] }] } });
    let s = allReady(step(board(state, { alice: [...queenBoard.alice], bob: [...queenBoard.bob] })));
    s = krellstones.apply(s, 'alice', { type: 'swap', in: 'alice-sb1', out: 'alice-pawn' });
    s = rollAll(krellstones.apply(s, 'alice', { type: 'ready' }));
    expect(s.seats.alice!.active[0]!.id).toBe('alice-sb1');
    expect(status(s, 'alice')[0]).toBe('benched');
  });

  it('in the final round nothing carries over', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 1 }, queenSpecs);
    const s = step(board(state, { alice: [...queenBoard.alice], bob: [...queenBoard.bob] }));
    expect(s.reversed).toBe(true);
    expect(s.pawnsOutNext).toBe(false);
  });
});

describe('sideboard swaps between rounds', () => {
  const sb = { alice: { sideboard: [{ type: 'krell' as const, values: [9, 10, 11, 12, 13, 14] }, { type: 'master' as const }] } };

  it('swap a discarded stone: the incoming stone enters the next round fresh, the old one goes to the sideboard', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 3, sideboard: 2, rerolls: false }, sb);
    let s = step(board(state, { alice: [1, 10, 5, 5, 7, 21], bob: [3, 15, 6, 4, 8, 33] }));
    expect(s.history[0]!.announcements.map((a) => a.text)).toEqual(['5 SPINS OUT!']);
    expect(s.phase).toBe('swaps');
    expect(status(s, 'alice')[2]).toBe('discarded');
    // Only alice has a sideboard: only she is awaited.
    expect(krellstones.awaiting(s)).toEqual(['alice']);
    expect(s.seats.bob!.choice).toBe('skipped');
    expect(krellstones.legalMoves(s, 'alice')).toEqual([
      { type: 'swap', in: 'alice-sb1', out: 'alice-k1' },
      { type: 'swap', in: 'alice-sb1', out: 'alice-k2' },
      { type: 'swap', in: 'alice-sb1', out: 'alice-k3' },
      { type: 'swap', in: 'alice-sb2', out: 'alice-master' },
      { type: 'ready' },
      { type: 'pace', pace: 'NORMAL' },
      { type: 'pace', pace: 'SLOW' },
    ]);
    s = krellstones.apply(s, 'alice', { type: 'swap', in: 'alice-sb1', out: 'alice-k1' });
    expect(ids(s, 'alice')).toEqual({ active: ['alice-pawn', 'alice-dancer', 'alice-sb1', 'alice-k2', 'alice-k3', 'alice-master'], sideboard: ['alice-k1', 'alice-sb2'] });
    expect(s.seats.alice!.stones[2]!.status).toBe('unrolled');
    // Any number of swaps, each legal when made: the old krell can even come back.
    s = krellstones.apply(s, 'alice', { type: 'swap', in: 'alice-sb2', out: 'alice-master' });
    s = krellstones.apply(s, 'alice', { type: 'ready' });
    expect(s.round).toBe(2);
    s = rollAll(s);
    expect([9, 10, 11, 12, 13, 14]).toContain(values(s, 'alice')[2]);
    expect(ids(s, 'alice').sideboard).toEqual(['alice-k1', 'alice-master']);
  });

  it('refuses a swap of another type, from outside the sideboard, of a stone not active, or outside the step', () => {
    const { state } = newGame(PLAYERS[2], { rounds: 3, sideboard: 2, rerolls: false }, sb);
    expectRuleError(() => krellstones.apply(state, 'alice', { type: 'swap', in: 'alice-sb1', out: 'alice-k1' }), 'krellstones/not-swapping');
    const s = step(board(state, { alice: [1, 10, 5, 5, 7, 21], bob: [3, 15, 6, 4, 8, 33] }));
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'swap', in: 'alice-sb1', out: 'alice-master' }), 'krellstones/wrong-type');
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'swap', in: 'alice-k2', out: 'alice-k1' }), 'krellstones/not-on-sideboard');
    expectRuleError(() => krellstones.apply(s, 'alice', { type: 'swap', in: 'alice-sb1', out: 'bob-k1' }), 'krellstones/not-active');
    expectRuleError(() => krellstones.apply(s, 'bob', { type: 'swap', in: 'alice-sb1', out: 'alice-k1' }), 'krellstones/already-ready');
  });

  it('no step after the final round, and none when every sideboard is empty', () => {
    const one = newGame(PLAYERS[2], { rounds: 1, sideboard: 2, rerolls: false }, sb).state;
    expect(rollAll(one).outcome).not.toBeNull();
    const empty = newGame(PLAYERS[2], { rounds: 2, sideboard: 2, rerolls: false }).state;
    const s = rollAll(empty);
    expect(s.round).toBe(2);
    expect(s.phase).toBe('rolling');
  });

  it('an autopilot seat has no swap step', () => {
    const { state } = newGame(PLAYERS[3], { rounds: 3, sideboard: 2, rerolls: false }, sb);
    const s0 = structuredClone(state);
    s0.out = ['alice'];
    const s = rollAll(s0);
    expect(s.round).toBe(2);
    expect(ids(s, 'alice').sideboard).toEqual(['alice-sb1', 'alice-sb2']);
  });
});
