import { describe, expect, it } from 'vitest';
import { crystallia, scoreBreakdown, type CrystalliaMove, type CrystalliaState } from '../../../src/games/crystallia/engine/index.ts';
import { avail, boardOf, crystalsOf, expectRuleError, gains, place, play, position, sq, THREE, FOUR, totalBlacks, type Position } from './helpers.ts';

const P2 = ['purple(square)', 'purple(square)'].map((x) => `+${x}`);
const listed = (s: CrystalliaState, m: CrystalliaMove) => crystallia.legalMoves(s, s.turn!.player).some((x) => JSON.stringify(x) === JSON.stringify(m));

/**
 * Runs, isolation and matching, one row per rule (RULINGS, Crystallia, "Runs in detail"). The
 * board is all purple, so each placement first takes two purple crystals from its squares.
 */
const runRows: Array<{ rule: string; pos: Position; move: [number, string, 'right' | 'down' | 'left' | 'up']; gains: string[]; secondTurn?: boolean }> = [
  {
    rule: 'matching: a run in a row pays its length - 1',
    pos: { placed: [['rr', 'A1', 'right']], pyramid: ['rb', 'gp'] },
    move: [0, 'A3', 'right'],
    gains: [...P2, '+red(run)', '+red(run)'],
  },
  {
    rule: 'each run pays once however many new halves it holds: R [R R] pays 2, not 4',
    pos: { placed: [['rg', 'A1', 'down']], pyramid: ['rr', 'gp'] },
    move: [0, 'A2', 'right'],
    gains: [...P2, '+red(run)', '+red(run)'],
  },
  {
    rule: 'yellow matches every colour at once: R R Y B B is a red run of 3 and a blue run of 3',
    pos: { placed: [['rr', 'A1', 'right'], ['bb', 'A4', 'right']], pyramid: ['yy', 'gp'] },
    move: [0, 'A3', 'down'],
    // Six crystals: the turn also ends with a black one.
    gains: [...P2, '+red(run)', '+red(run)', '+blue(run)', '+blue(run)', 'black(bonus)'],
  },
  {
    rule: 'a run of yellow halves only pays nothing (four wilds are still a run of 4)',
    pos: { placed: [['yy', 'A1', 'right']], pyramid: ['yy', 'gp'] },
    move: [0, 'A3', 'right'],
    gains: P2,
    secondTurn: true,
  },
  {
    rule: 'a stone alone pays no run: a double touching nothing is isolated and gives its colour at once',
    pos: { pyramid: ['rr', 'gp'] },
    move: [0, 'C5', 'right'],
    gains: [...P2, '+red(isolation)'],
  },
  {
    rule: 'the whole run counts, also halves that reach the new stone only through other stones',
    pos: { placed: [['gr', 'A1', 'right'], ['rg', 'A3', 'down']], pyramid: ['rb', 'gp'] },
    move: [0, 'A4', 'right'],
    gains: [...P2, '+red(run)', '+red(run)'],
  },
  {
    rule: 'payment order: first half before second, row before column (the first half pays in its column first)',
    pos: { placed: [['bb', 'C3', 'down'], ['rg', 'B5', 'right']], pyramid: ['br', 'gp'] },
    move: [0, 'B3', 'right'],
    gains: [...P2, '+blue(run)', '+blue(run)', '+red(run)'],
  },
  {
    rule: 'payment order: within one half, its row before its column (a wild pays green in its row, then blue in its column)',
    pos: { placed: [['gb', 'A2', 'right'], ['rg', 'B1', 'right'], ['bg', 'C3', 'right']], pyramid: ['yy', 'gp'] },
    move: [0, 'B3', 'right'],
    gains: [...P2, '+green(run)', '+green(run)', '+blue(run)', '+blue(run)', '+green(run)', 'black(bonus)'],
  },
  {
    rule: 'touching only diagonally: not isolated, and no run, so only the squares pay',
    pos: { placed: [['gg', 'A1', 'right']], pyramid: ['rb', 'gp'] },
    move: [0, 'B3', 'right'],
    gains: P2,
  },
  {
    rule: 'touching orthogonally in another colour: nothing but the squares',
    pos: { placed: [['gg', 'A1', 'right']], pyramid: ['rb', 'gp'] },
    move: [0, 'A3', 'right'],
    gains: P2,
  },
  {
    rule: 'runs in a column pay too',
    pos: { placed: [['gg', 'B4', 'down']], pyramid: ['gr', 'bp'] },
    move: [0, 'D4', 'right'],
    gains: [...P2, '+green(run)', '+green(run)'],
  },
];

describe('runs, matching and isolation', () => {
  for (const row of runRows) {
    it(row.rule, () => {
      const s0 = position(row.pos);
      const [slot, at, dir] = row.move;
      const s = play(s0, place(avail(s0, slot), at, dir));
      expect(gains(s)).toEqual(row.gains);
      expect(s.turn!.player).toBe(row.secondTurn ? 'alice' : 'bob');
      expect(s.turn!.second).toBe(row.secondTurn ?? false);
      // Crystals are conserved: what was gained left the supply.
      for (const c of ['red', 'blue', 'green', 'purple'] as const) expect(s.supply[c] + s.platforms.alice!.crystals[c] + s.platforms.bob!.crystals[c]).toBe(20);
    });
  }

  it('isolation with two colours waits for the choice, listing exactly those colours', () => {
    const s0 = position({ pyramid: ['rb', 'gp'] });
    const s1 = play(s0, place(avail(s0), 'C5'));
    expect(s1.turn).toMatchObject({ player: 'alice', step: 'isolate', choices: ['red', 'blue'] });
    expect(crystallia.legalMoves(s1, 'alice')).toEqual([
      { type: 'isolate', colour: 'red' },
      { type: 'isolate', colour: 'blue' },
    ]);
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'isolate', colour: 'green' }), 'bad-colour');
    expectRuleError(() => crystallia.apply(s1, 'alice', place(avail(s1, 1), 'A1')), 'wrong-step');
    const s2 = play(s1, { type: 'isolate', colour: 'blue' });
    expect(gains(s2)).toEqual([...P2, '+blue(isolation)']);
  });

  it('a yellow half lets the isolation crystal take any colour', () => {
    const s0 = position({ pyramid: ['yy', 'gp'] });
    const s1 = play(s0, place(avail(s0), 'C5'));
    expect(s1.turn!.choices).toEqual(['red', 'blue', 'green', 'purple']);
  });

  it('a placement making a run of 5 of one colour, wilds included, is refused and never listed', () => {
    const s = position({ placed: [['rr', 'A1', 'right'], ['yy', 'A3', 'right']], pyramid: ['rg', 'gr'] });
    const bad = place(avail(s, 0), 'A5', 'right');
    expectRuleError(() => crystallia.apply(s, 'alice', bad), 'run-of-five');
    expect(listed(s, bad)).toBe(false);
    // The other way round the stone puts green next to the run: legal, and a run of 4 + green.
    const good = place(avail(s, 0), 'A6', 'left');
    expect(listed(s, good)).toBe(true);
    const s1 = play(s, place(avail(s, 1), 'A5', 'right'));
    // Green on A5 continues the two wilds (A3 A4 A5: a green run of 3); red on A6 touches no red.
    expect(gains(s1)).toEqual([...P2, '+green(run)', '+green(run)']);
  });

  it('every listed placement is legal and every legal placement listed (first turn: all of them)', () => {
    const s = position({ pyramid: ['rb', 'rr'] });
    const moves = crystallia.legalMoves(s, 'alice').filter((m) => m.type === 'place');
    // 6x9 board: 6*8 horizontal + 5*9 vertical domino slots = 93; a two-colour stone has both
    // orientations of each (186), a double one (93).
    expect(moves.filter((m) => m.type === 'place' && m.stone === avail(s, 0))).toHaveLength(186);
    expect(moves.filter((m) => m.type === 'place' && m.stone === avail(s, 1))).toHaveLength(93);
    // A double's other spelling is accepted and means the same placement.
    const a = play(s, place(avail(s, 1), 'A2', 'left'));
    const b = play(s, place(avail(s, 1), 'A1', 'right'));
    expect(a.positions[avail(s, 1)]!.slice().sort()).toEqual(b.positions[avail(s, 1)]!.slice().sort());
    expect(gains(a)).toEqual(gains(b));
  });

  it('off the board, on a stone, or a stone not available: refused', () => {
    const s = position({ placed: [['gg', 'A1', 'right']], pyramid: ['rb'], hidden: ['bp'] });
    expectRuleError(() => crystallia.apply(s, 'alice', place(avail(s), 'A9', 'right')), 'off-board');
    expectRuleError(() => crystallia.apply(s, 'alice', place(avail(s), 'B2', 'up')), 'occupied');
    expectRuleError(() => crystallia.apply(s, 'alice', place(s.pyramid[1][0]!, 'C5')), 'not-available');
    expectRuleError(() => crystallia.apply(s, 'alice', place(0, 'C5')), 'not-available');
    expectRuleError(() => crystallia.apply(s, 'bob', place(avail(s), 'C5')), 'not-your-turn');
    expectRuleError(() => crystallia.apply(s, 'zed', place(avail(s), 'C5')), 'not-a-player');
    expectRuleError(() => crystallia.apply(s, 'alice', { type: 'place', stone: 99, square: 0, dir: 'right' } as never), 'bad-move');
  });
});

describe('second turns', () => {
  it('a new run of exactly 4 gives one mandatory second turn, which never earns a third', () => {
    const s0 = position({ placed: [['rr', 'A1', 'right'], ['gg', 'C1', 'right']], pyramid: ['rr', 'gg', 'bp', 'bp'] });
    const s1 = play(s0, place(avail(s0, 0), 'A3'));
    expect(gains(s1)).toEqual([...P2, '+red(run)', '+red(run)', '+red(run)']);
    expect(s1.log.last!.events.at(-1)).toEqual({ kind: 'second-turn', why: ['run-of-4'] });
    expect(s1.turn).toMatchObject({ player: 'alice', second: true, number: 6 });
    // A second turn: no talisman.
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'talisman', colour: 'red' }), 'talisman-second-turn');
    expect(crystallia.legalMoves(s1, 'alice').some((m) => m.type === 'talisman')).toBe(false);
    const s2 = play(s1, place(avail(s0, 1), 'C3'));
    expect(gains(s2)).toContain('+green(run)');
    expect(s2.turn).toMatchObject({ player: 'bob', second: false, number: 7 });
  });

  it('a run of 4 already on the board before the turn gives nothing', () => {
    const s0 = position({ placed: [['rr', 'A1', 'right'], ['rr', 'A3', 'right']], pyramid: ['bg', 'gp'] });
    const s1 = play(s0, place(avail(s0), 'B1'));
    expect(s1.turn!.player).toBe('bob');
  });

  it('a run of 4 made by a Move counts (after the placement and its abilities); the moved stone pays nothing itself', () => {
    const s0 = position({ squares: boardOf('p', { D1: 'M' }), placed: [['rr', 'A1', 'right'], ['rr', 'E5', 'right']], pyramid: ['gb', 'gp'] });
    const s1 = play(s0, place(avail(s0), 'D1'));
    expect(s1.turn).toMatchObject({ step: 'ability', pending: ['move'] });
    const s2 = play(s1, { type: 'move', stone: 1, to: sq('A3') });
    // The moved stone's new squares pay at once, then the new stone's square (D1 is the Move), then isolation.
    expect(s2.turn).toMatchObject({ step: 'isolate', choices: ['blue', 'green'] });
    const s3 = play(s2, { type: 'isolate', colour: 'green' });
    expect(gains(s3)).toEqual(['+purple(square)', '+purple(square)', '+purple(square)', '+green(isolation)']);
    expect(s3.turn).toMatchObject({ player: 'alice', second: true });
  });

  it('Extra Turn is mandatory and needs no move', () => {
    const s0 = position({ squares: boardOf('p', { A3: 'E' }), pyramid: ['rb', 'gp'] });
    const s1 = play(s0, place(avail(s0), 'A3'), { type: 'isolate', colour: 'red' });
    expect(s1.log.last!.events.at(-1)).toEqual({ kind: 'second-turn', why: ['extra-turn'] });
    expect(s1.turn).toMatchObject({ player: 'alice', second: true });
    // The Extra Turn square gives no crystal; the other square does.
    expect(gains(s1)).toEqual(['+purple(square)', '+red(isolation)']);
  });

  it('the first turn of the game may cover Extra Turn, which then does nothing', () => {
    const s0 = position({ squares: boardOf('p', { A3: 'E' }), pyramid: ['rr', 'gp'], turn: { number: 0 } });
    const s1 = play(s0, place(avail(s0), 'A3'));
    expect(s1.log.last!.events).toContainEqual({ kind: 'extra-turn-void', why: 'first-turn' });
    expect(s1.turn).toMatchObject({ player: 'bob', second: false, number: 1 });
  });

  it('Extra Turn on a second turn does nothing; Extra Turn and a run of 4 together give one second turn', () => {
    const s0 = position({ squares: boardOf('p', { A3: 'E', C5: 'E' }), placed: [['rr', 'A1', 'right']], pyramid: ['rr', 'bg', 'gp'] });
    const s1 = play(s0, place(avail(s0, 0), 'A3'));
    expect(s1.log.last!.events.at(-1)).toEqual({ kind: 'second-turn', why: ['run-of-4', 'extra-turn'] });
    expect(s1.turn).toMatchObject({ player: 'alice', second: true });
    const s2 = play(s1, place(avail(s0, 1), 'C5'), { type: 'isolate', colour: 'blue' });
    expect(s2.log.last!.events).toContainEqual({ kind: 'extra-turn-void', why: 'second-turn' });
    expect(s2.turn).toMatchObject({ player: 'bob', second: false });
  });

  it('the game ends after the turn that takes the last stone, even if it earned a second turn', () => {
    const s0 = position({ placed: [['rr', 'A1', 'right']], pyramid: ['rr'] });
    const s1 = play(s0, place(avail(s0), 'A3'));
    expect(s1.outcome).toMatchObject({ reason: 'pyramid-empty', winners: ['alice'] });
    expect(s1.log.last!.events.some((e) => e.kind === 'second-turn')).toBe(false);
    expect(crystallia.awaiting(s1)).toEqual([]);
    expect(crystallia.timers(s1)).toEqual([]);
  });
});

describe('abilities', () => {
  const base: Position = { squares: boardOf('p', { C5: 'M', C6: 'r', E7: 'g', E8: 'b' }), placed: [['rb', 'A1', 'right']], pyramid: ['gp', 'bp'] };

  it('Move lists exactly every other legal place of every other stone, orientation kept', () => {
    const s1 = play(position(base), place(avail(position(base)), 'C5'));
    const moves = crystallia.legalMoves(s1, 'alice');
    // 48 horizontal slots, minus where it is, minus the three that overlap the new stone on C5-C6.
    expect(moves.filter((m) => m.type === 'move')).toHaveLength(44);
    expect(moves.at(-1)).toEqual({ type: 'skip-ability' });
    expect(moves.every((m) => m.type !== 'move' || m.stone === 0)).toBe(true);
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'move', stone: 0, to: sq('A1') }), 'same-place');
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'move', stone: 0, to: sq('C4') }), 'occupied');
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'move', stone: 0, to: sq('B9') }), 'off-board');
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'move', stone: avail(position(base)), to: sq('D1') }), 'new-stone');
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'rotate', stone: 0, pivot: 0, to: sq('B1') }), 'no-such-ability');
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'isolate', colour: 'red' }), 'wrong-step');
  });

  it('crystal order: squares newly covered by the Move as it resolves, then the new stone\'s squares, then the rest', () => {
    const s0 = position(base);
    const s1 = play(s0, place(avail(s0), 'C5'), { type: 'move', stone: 0, to: sq('E7') });
    // The new stone (green/purple on C5-C6) is isolated once the red/blue stone has left A1.
    expect(s1.turn!.step).toBe('isolate');
    const s2 = play(s1, { type: 'isolate', colour: 'purple' });
    expect(gains(s2)).toEqual(['+green(square)', '+blue(square)', '+red(square)', '+purple(isolation)']);
    expect(s2.positions[0]).toEqual([sq('E7'), sq('E8')]);
  });

  it('a Move may overlap its old squares; only the newly covered square pays', () => {
    const s0 = position(base);
    const s1 = play(s0, place(avail(s0), 'C5'), { type: 'move', stone: 0, to: sq('A2') }, { type: 'isolate', colour: 'green' });
    expect(gains(s1)).toEqual(['+purple(square)', '+red(square)', '+green(isolation)']);
  });

  it('skip-ability declines the pending abilities', () => {
    const s0 = position(base);
    const s1 = play(s0, place(avail(s0), 'C5'), { type: 'skip-ability' });
    expect(s1.log.current!.events).toContainEqual({ kind: 'skip', abilities: ['move'], declined: true });
    expect(s1.positions[0]).toEqual([sq('A1'), sq('A2')]);
    expect(s1.turn).toMatchObject({ player: 'alice', step: 'isolate', pending: [] });
  });

  it('Rotate keeps one half and turns the other onto an empty orthogonal neighbour: exactly those are listed', () => {
    const s0 = position({ ...base, squares: boardOf('p', { C5: 'T', B2: 'b' }) });
    const s1 = play(s0, place(avail(s0), 'C5'));
    const rotations = crystallia.legalMoves(s1, 'alice').filter((m) => m.type === 'rotate');
    expect(rotations).toEqual([
      { type: 'rotate', stone: 0, pivot: 0, to: sq('B1') },
      { type: 'rotate', stone: 0, pivot: 1, to: sq('A3') },
      { type: 'rotate', stone: 0, pivot: 1, to: sq('B2') },
    ]);
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'rotate', stone: 0, pivot: 1, to: sq('A1') }), 'same-place');
    expectRuleError(() => crystallia.apply(s1, 'alice', { type: 'rotate', stone: 0, pivot: 0, to: sq('A3') }), 'not-adjacent');
    const s2 = play(s1, { type: 'rotate', stone: 0, pivot: 1, to: sq('B2') });
    // Half 1 (blue) stays on A2, half 0 (red) turns onto B2 and takes its blue crystal at once.
    expect(s2.positions[0]).toEqual([sq('B2'), sq('A2')]);
    expect(gains(s2, 'current')).toEqual(['+blue(square)', '+purple(square)']);
    expect(s2.turn!.step).toBe('isolate');
  });

  it('a Move or a Rotate making a run of 5 is refused and never listed', () => {
    const s0 = position({ squares: boardOf('p', { E5: 'M' }), placed: [['rr', 'A1', 'right'], ['rr', 'A3', 'right'], ['rg', 'C1', 'right']], pyramid: ['gp', 'bp'] });
    const s1 = play(s0, place(avail(s0), 'E5'));
    const bad: CrystalliaMove = { type: 'move', stone: 2, to: sq('A5') };
    expectRuleError(() => crystallia.apply(s1, 'alice', bad), 'run-of-five');
    expect(listed(s1, bad)).toBe(false);
    expect(listed(s1, { type: 'move', stone: 2, to: sq('A6') })).toBe(true);
    // Rotate: green/red on B5-B6 keeping B5 and turning red onto A5 would make five reds.
    const r0 = position({ squares: boardOf('p', { E5: 'T' }), placed: [['rr', 'A1', 'right'], ['rr', 'A3', 'right'], ['gr', 'B5', 'right']], pyramid: ['gp', 'bp'] });
    const r1 = play(r0, place(avail(r0), 'E5'));
    const badTurn: CrystalliaMove = { type: 'rotate', stone: 2, pivot: 0, to: sq('A5') };
    expectRuleError(() => crystallia.apply(r1, 'alice', badTurn), 'run-of-five');
    expect(listed(r1, badTurn)).toBe(false);
    expect(listed(r1, { type: 'rotate', stone: 2, pivot: 0, to: sq('C5') })).toBe(true);
  });

  it('an ability square covered by a Move works; each ability square works at most once per turn', () => {
    // The new stone covers two Moves; the first Move puts the stone on a third Move (E5), the
    // second takes it off, the third puts it back: E5 has already worked, so nothing is added.
    const s0 = position({ squares: boardOf('p', { F1: 'M', F2: 'M', E5: 'M' }), placed: [['gg', 'A1', 'right']], pyramid: ['rb', 'bp'] });
    let s = play(s0, place(avail(s0), 'F1'));
    expect(s.turn!.pending).toEqual(['move', 'move']);
    s = play(s, { type: 'move', stone: 0, to: sq('E5') });
    expect(s.turn!.pending).toEqual(['move', 'move']);
    s = play(s, { type: 'move', stone: 0, to: sq('A7') });
    expect(s.turn!.pending).toEqual(['move']);
    s = play(s, { type: 'move', stone: 0, to: sq('E5') });
    // No ability left: straight on to the crystals (the new stone is isolated: a choice).
    expect(s.turn).toMatchObject({ step: 'isolate', pending: [] });
    expect(s.turn!.used.slice().sort((a, b) => a - b)).toEqual([sq('E5'), sq('F1'), sq('F2')]);
  });

  it('an ability with no legal use is skipped by itself (the first stone of the game covering Move)', () => {
    const s0 = position({ squares: boardOf('p', { C3: 'M' }), pyramid: ['rr', 'bp'], turn: { number: 0 } });
    const s1 = play(s0, place(avail(s0), 'C3'));
    expect(s1.log.last!.events).toContainEqual({ kind: 'skip', abilities: ['move'], declined: false });
    expect(s1.turn!.player).toBe('bob');
  });
});

describe('crystals, black crystals and supercrystals', () => {
  it('an empty supply gives a black crystal, on the platform holding the most crystals', () => {
    const s0 = position({ squares: boardOf('r'), pyramid: ['gg', 'bp'], supply: { red: 0 }, crystals: { alice: { blue: 3, green: 5 } } });
    const s1 = play(s0, place(avail(s0), 'C5'));
    expect(s1.log.last!.events.filter((e) => e.kind === 'black')).toEqual([
      { kind: 'black', why: 'empty-supply', platform: 'green', colour: 'red', source: 'square' },
      { kind: 'black', why: 'empty-supply', platform: 'green', colour: 'red', source: 'square' },
    ]);
    expect(s1.platforms.alice!.blacks.green).toBe(2);
    expect(crystalsOf(s1, 'alice')).toEqual({ red: 0, blue: 3, green: 6, purple: 0 });
  });

  it('black crystals: ties for the fullest platform go to the first colour in order', () => {
    const s0 = position({ squares: boardOf('r'), pyramid: ['gp', 'bp'], supply: { red: 0 }, crystals: { alice: { blue: 2, green: 2 } } });
    const s1 = play(s0, place(avail(s0), 'C5'), { type: 'isolate', colour: 'purple' });
    expect(s1.platforms.alice!.blacks).toEqual({ red: 0, blue: 2, green: 0, purple: 0 });
  });

  const bonusRows: Array<{ rule: string; placed: Position['placed']; supply?: Position['supply']; black: boolean }> = [
    { rule: 'six crystals in one turn: one black at the end of the turn', placed: [['rr', 'A1', 'right'], ['rr', 'B1', 'right']], black: true },
    { rule: 'five crystals: no black', placed: [['rr', 'A1', 'right'], ['gr', 'B1', 'right']], black: false },
    { rule: 'blacks from an empty supply count toward the six', placed: [['rr', 'A1', 'right'], ['rr', 'B1', 'right']], supply: { red: 1 }, black: true },
  ];
  for (const row of bonusRows) {
    it(row.rule, () => {
      const s0 = position({ placed: row.placed!, pyramid: ['rr', 'bp'], ...(row.supply ? { supply: row.supply } : {}) });
      const s1 = play(s0, place(avail(s0), 'A3', 'down'));
      const evs = s1.log.last!.events;
      const bonus = evs.filter((e) => e.kind === 'black' && e.why === 'bonus');
      expect(bonus).toHaveLength(row.black ? 1 : 0);
      if (row.black) expect(evs.findLastIndex((e) => e.kind === 'gain' || (e.kind === 'black' && e.why !== 'bonus'))).toBeLessThan(evs.indexOf(bonus[0]!));
    });
  }

  it('the supercrystal goes to the first to reach 9 (regular), crystal by crystal, even if the turn carries them past it', () => {
    const s0 = position({ placed: [['rr', 'A1', 'right']], pyramid: ['rb', 'gp'], crystals: { alice: { red: 8 }, bob: { red: 8 } } });
    const s1 = play(s0, place(avail(s0), 'A3'));
    expect(crystalsOf(s1, 'alice').red).toBe(10);
    expect(s1.supercrystals.red).toBe('alice');
    expect(s1.log.last!.events.filter((e) => e.kind === 'supercrystal')).toEqual([{ kind: 'supercrystal', colour: 'red' }]);
    // Bob reaching 9 later takes nothing.
    const s2 = play(s1, { type: 'talisman', colour: 'red' });
    expect(crystalsOf(s2, 'bob').red).toBe(9);
    expect(s2.supercrystals.red).toBe('alice');
  });

  it('advanced platform: the supercrystal at 5, then the sixth crystal empties it back to the supply and adds a black', () => {
    const s0 = position({ advanced: true, placed: [['rr', 'A1', 'right']], pyramid: ['rb', 'gp'], crystals: { alice: { red: 4 } }, flipped: { alice: ['red'] } });
    const s1 = play(s0, place(avail(s0), 'A3'));
    expect(s1.supercrystals.red).toBe('alice');
    expect(crystalsOf(s1, 'alice').red).toBe(0);
    expect(s1.supply.red).toBe(20);
    expect(s1.platforms.alice!.blacks.red).toBe(1);
    expect(s1.log.last!.events.filter((e) => e.kind !== 'gain')).toEqual([
      { kind: 'place', stone: avail(s0), halves: ['red', 'blue'], squares: [sq('A3'), sq('A4')] },
      { kind: 'supercrystal', colour: 'red' },
      { kind: 'black', why: 'overflow', platform: 'red' },
    ]);
  });

  it('an advanced platform\'s sixth crystal counts toward the six of a turn; its overflow black does not', () => {
    const s0 = position({ advanced: true, placed: [['rr', 'A1', 'right'], ['rr', 'B1', 'right']], pyramid: ['rr', 'bp'], crystals: { alice: { red: 3 } }, flipped: { alice: ['red'] } });
    const s1 = play(s0, place(avail(s0), 'A3', 'down'));
    const blacks = s1.log.last!.events.filter((e) => e.kind === 'black').map((e) => (e.kind === 'black' ? e.why : ''));
    expect(blacks).toEqual(['overflow', 'bonus']);
    expect(totalBlacks(s1, 'alice')).toBe(2);
  });
});

describe('talismans', () => {
  it('allowed on the game\'s first turn (and when a stone could be placed): one crystal of an untaken colour', () => {
    const s0 = position({ turn: { number: 0 } });
    expect(crystallia.legalMoves(s0, 'alice').filter((m) => m.type === 'talisman')).toHaveLength(4);
    const s1 = play(s0, { type: 'talisman', colour: 'blue' });
    expect(gains(s1)).toEqual(['+blue(talisman)']);
    expect(s1.talismans).toEqual([{ player: 'alice', colour: 'blue' }]);
    expect(s1.turn!.player).toBe('bob');
    // Not right after a talisman turn; the turn after that may again, but not blue.
    expectRuleError(() => crystallia.apply(s1, 'bob', { type: 'talisman', colour: 'red' }), 'talisman-after-talisman');
    expect(crystallia.legalMoves(s1, 'bob').some((m) => m.type === 'talisman')).toBe(false);
    const s2 = play(s1, place(avail(s1, 0), 'A1'), { type: 'isolate', colour: 'red' });
    expect(crystallia.legalMoves(s2, 'alice').filter((m) => m.type === 'talisman')).toEqual([
      { type: 'talisman', colour: 'red' },
      { type: 'talisman', colour: 'green' },
      { type: 'talisman', colour: 'purple' },
    ]);
    expectRuleError(() => crystallia.apply(s2, 'alice', { type: 'talisman', colour: 'blue' }), 'colour-taken');
  });

  it('three talismans in all; an empty supply gives a black crystal', () => {
    const used = [
      { player: 'bob', colour: 'red' as const },
      { player: 'bob', colour: 'green' as const },
    ];
    const s0 = position({ talismans: used, supply: { purple: 0 } });
    const s1 = play(s0, { type: 'talisman', colour: 'purple' });
    expect(gains(s1)).toEqual(['black(empty-supply)']);
    const s2 = position({ talismans: [...used, { player: 'alice', colour: 'blue' }] });
    expectRuleError(() => crystallia.apply(s2, 'alice', { type: 'talisman', colour: 'purple' }), 'no-talisman-left');
  });
});

/**
 * A nearly full board (22 stones): the only empty pairs are F1..F5 in a row, and columns 2 to 5
 * hold four reds above row F, so any stone with red or yellow on both halves fits nowhere.
 */
const FULL: Array<[string, string, 'right']> = (() => {
  const rows: Array<[string, string[]]> = [
    ['A1', ['gb', 'gb', 'gb', 'gb']],
    ['B2', ['rr', 'rr', 'gb', 'gb']],
    ['C1', ['br', 'rr', 'rb', 'gb']],
    ['D2', ['rr', 'rr', 'gb', 'gb']],
    ['E1', ['br', 'rr', 'rg', 'bg']],
    ['F6', ['bg', 'bg']],
  ];
  const out: Array<[string, string, 'right']> = [];
  for (const [start, stones] of rows) {
    stones.forEach((h, i) => out.push([h, `${start[0]}${Number(start.slice(1)) + 2 * i}`, 'right']));
  }
  return out;
})();

describe('a stone that fits nowhere', () => {
  it('while another available stone fits, it must be that one (or a talisman)', () => {
    const s = position({ placed: FULL, pyramid: ['rr', 'gb'] });
    const moves = crystallia.legalMoves(s, 'alice');
    expect(new Set(moves.filter((m) => m.type === 'place').map((m) => (m.type === 'place' ? m.stone : -1)))).toEqual(new Set([avail(s, 1)]));
    expect(moves.some((m) => m.type === 'discard')).toBe(false);
    expectRuleError(() => crystallia.apply(s, 'alice', { type: 'discard', stone: avail(s, 0) }), 'stone-fits');
    expectRuleError(() => crystallia.apply(s, 'alice', place(avail(s, 0), 'F1')), 'run-of-five');
  });

  it('when none fits, the player takes one: it leaves the game, the turn ends, nothing is gained', () => {
    const s = position({ placed: FULL, pyramid: ['rr', 'yy'] });
    expect(crystallia.legalMoves(s, 'alice').filter((m) => m.type !== 'talisman')).toEqual([
      { type: 'discard', stone: avail(s, 0) },
      { type: 'discard', stone: avail(s, 1) },
    ]);
    expect(crystallia.view(s, null).turn!.mustDiscard).toBe(true);
    const s1 = play(s, { type: 'discard', stone: avail(s, 0) });
    expect(gains(s1)).toEqual([]);
    expect(s1.discarded).toContain(avail(s, 0));
    expect(s1.turn!.player).toBe('bob');
    const s2 = play(s1, { type: 'discard', stone: avail(s, 1) });
    expect(s2.outcome?.reason).toBe('pyramid-empty');
  });
});

describe('13 crystals of one colour', () => {
  it('two players: out at once, the rest of the turn void, the other wins', () => {
    const s0 = position({ squares: boardOf('r'), placed: [['rr', 'A1', 'right']], pyramid: ['rr', 'gp'], crystals: { alice: { red: 12 }, bob: { red: 1 } } });
    const s1 = play(s0, place(avail(s0), 'A3'));
    expect(gains(s1)).toEqual(['+red(square)']);
    expect(s1.log.last!.events.at(-1)).toEqual({ kind: 'eliminated', colour: 'red' });
    expect(s1.outcome).toMatchObject({ reason: 'thirteen', winners: ['bob'] });
  });

  it('three or four players: skipped from then on, keeps the crystals, ranks last, the latest out highest', () => {
    const s0 = position({
      players: FOUR,
      squares: boardOf('r'),
      pyramid: ['gg', 'gg', 'bp', 'bp'],
      hidden: ['bp'],
      crystals: { alice: { red: 12 }, bob: { red: 12 } },
      supply: { red: 10 },
    });
    const s1 = play(s0, place(avail(s0, 0), 'A1'));
    expect(s1.eliminated).toEqual(['alice']);
    expect(s1.turn!.player).toBe('bob');
    const s2 = play(s1, place(avail(s0, 1), 'C1'));
    expect(s2.eliminated).toEqual(['alice', 'bob']);
    expect(s2.turn!.player).toBe('carol');
    const s3 = play(s2, place(avail(s0, 2), 'E1'), { type: 'isolate', colour: 'blue' });
    expect(s3.turn!.player).toBe('dave');
    const s4 = play(s3, place(avail(s0, 3), 'E5'), { type: 'isolate', colour: 'blue' });
    expect(s4.turn!.player).toBe('carol');
    expectRuleError(() => crystallia.apply(s4, 'alice', place(s4.pyramid[1][0]!, 'A7')), 'out');
    expect(crystalsOf(s4, 'alice').red).toBe(13);
    const end = play(s4, place(s4.pyramid[1][0]!, 'A7'), { type: 'isolate', colour: 'blue' });
    expect(end.outcome!.reason).toBe('pyramid-empty');
    expect(end.outcome!.places).toMatchObject({ bob: 3, alice: 4 });
    expect(end.outcome!.winners.every((w) => w === 'carol' || w === 'dave')).toBe(true);
  });

  it('when one player is left, they win', () => {
    const s0 = position({ players: THREE, squares: boardOf('r'), pyramid: ['gg', 'bp'], eliminated: ['bob'], crystals: { alice: { red: 12 }, bob: { red: 13 } }, supply: { red: 5 } });
    const s1 = play(s0, place(avail(s0), 'A1'));
    expect(s1.outcome).toMatchObject({ reason: 'thirteen', winners: ['carol'], places: { carol: 1, alice: 2, bob: 3 } });
  });
});

describe('scoring', () => {
  const rows: Array<{ rule: string; crystals: Partial<Record<'red' | 'blue' | 'green' | 'purple', number>>; flipped?: Array<'red' | 'blue'>; blacks?: number; supers?: Array<'red' | 'blue'>; total: number }> = [
    { rule: 'regular: 1 point per crystal up to 9', crystals: { red: 9, blue: 3 }, total: 12 },
    { rule: 'regular: -1 per crystal beyond 9', crystals: { red: 11 }, total: 7 },
    { rule: 'advanced: 2 points per crystal', crystals: { blue: 4 }, flipped: ['blue'], total: 8 },
    { rule: 'black crystals: -1 each', crystals: { red: 2 }, blacks: 3, total: -1 },
    { rule: 'supercrystals: 2 points each', crystals: { red: 9, blue: 5 }, flipped: ['blue'], supers: ['red', 'blue'], total: 9 + 10 + 4 },
  ];
  for (const row of rows) {
    it(row.rule, () => {
      const zero = { red: 0, blue: 0, green: 0, purple: 0 };
      const flipped = { red: false, blue: false, green: false, purple: false };
      for (const c of row.flipped ?? []) flipped[c] = true;
      const b = scoreBreakdown({ crystals: { ...zero, ...row.crystals }, blacks: { ...zero, purple: row.blacks ?? 0 }, flipped }, row.supers ?? []);
      expect(b.total).toBe(row.total);
      expect(b.colours.map((c) => c.points + c.penalty).reduce((x, y) => x + y, 0) + b.blackPoints + b.supercrystalPoints).toBe(row.total);
    });
  }

  it('ties for the best score share the win', () => {
    const s0 = position({ players: THREE, pyramid: ['rb'], crystals: { alice: { red: 3 }, bob: { red: 4 }, carol: { red: 6 } } });
    const s1 = play(s0, place(avail(s0), 'A1', 'right'));
    // Alice: 3 red + 2 purple squares = 5 before the isolation crystal, then 6 like Carol.
    const s2 = play(s1, { type: 'isolate', colour: 'red' });
    expect(s2.outcome).toMatchObject({ reason: 'pyramid-empty', winners: ['alice', 'carol'], places: { alice: 1, carol: 1, bob: 3 } });
  });
});

describe('the pyramid', () => {
  it('a card is uncovered, and face up, when both cards below it that touch it are gone', () => {
    const s0 = position({ pyramid: ['rb', 'gp', 'bg'], hidden: ['rr', 'bb'] });
    const v0 = crystallia.view(s0, 'alice');
    expect(v0.pyramid[1]!.slice(0, 2)).toEqual([{ faceUp: false }, { faceUp: false }]);
    const s1 = play(s0, place(avail(s0, 0), 'A1'), { type: 'isolate', colour: 'red' });
    expect(crystallia.view(s1, 'bob').pyramid[1]![0]).toEqual({ faceUp: false });
    const s2 = play(s1, place(avail(s0, 1), 'F1'), { type: 'isolate', colour: 'green' });
    const v2 = crystallia.view(s2, null);
    expect(v2.pyramid[1]![0]).toEqual({ faceUp: true, id: s0.pyramid[1][0], halves: ['red', 'red'] });
    expect(v2.pyramid[1]![1]).toEqual({ faceUp: false });
    expect(v2.available).toEqual([s0.pyramid[1][0], avail(s0, 2)]);
  });
});
