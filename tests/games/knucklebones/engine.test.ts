import { describe, expect, it } from 'vitest';
import { games } from '../../../src/games/index.ts';
import { RuleError } from '../../../src/kernel/types.ts';
import {
  knucklebones,
  moveSchema,
  replay,
  scoreColumn,
  scoreGrid,
  stateSchema,
  type Grid,
  type KnucklebonesMove,
  type KnucklebonesState,
} from '../../../src/games/knucklebones/engine/index.ts';
import { rngFromSeed, rollDie, shuffle } from '../../../src/kernel/rng.ts';
import { SEED_A, SEED_B, cells, deepFreeze, makeState, playGame } from './helpers.ts';
import { expectRuleError } from '../../helpers/engine.ts';

const place = (column: 1 | 2 | 3): KnucklebonesMove => ({ type: 'place', column });

describe('scoreColumn', () => {
  it.each<[number[], number, string]>([
    // RULINGS.md worked examples
    [[4, 4, 2], 18, 'RULINGS: 4x2 + 4x2 + 2'],
    [[3, 3, 3], 27, 'RULINGS: three 3s'],
    [[6, 5, 1], 12, 'RULINGS: all different'],
    // Rulebook: "the score awarded for each of those dice is multiplied by the number of dice of the same value"
    [[5, 5], 20, 'rulebook: pair, each die doubled'],
    [[2, 2, 2], 18, 'rulebook: triple, each die tripled'],
    // more rows
    [[], 0, 'empty column'],
    [[6], 6, 'single die'],
    [[1], 1, 'single 1'],
    [[6, 6], 24, 'pair of 6'],
    [[6, 6, 6], 54, 'triple 6 (maximum)'],
    [[5, 5, 5], 45, 'triple 5'],
    [[1, 1, 1], 9, 'triple 1'],
    [[4, 2, 4], 18, 'order does not matter'],
    [[2, 4, 4], 18, 'order does not matter (2)'],
    [[5, 5, 1], 21, 'pair plus single'],
    [[1, 2, 3], 6, 'plain sum'],
    [[6, 1], 7, 'two different'],
  ])('%j scores %i (%s)', (values, expected) => {
    expect(scoreColumn(values)).toBe(expected);
  });

  it('does not mutate its input', () => {
    const values = deepFreeze([4, 4, 2]);
    expect(scoreColumn(values)).toBe(18);
  });
});

describe('scoreGrid', () => {
  it.each<[number[][], number]>([
    [[[], [], []], 0],
    [[[4, 4, 2], [3, 3, 3], [6, 5, 1]], 57],
    [[[6, 6, 6], [6, 6, 6], [6, 6, 6]], 162],
    [[[1], [], [6, 6]], 25],
    [[[1, 2, 3], [4, 5, 6], [1, 1, 2]], 6 + 15 + 6],
  ])('%j totals %i', (grid, expected) => {
    expect(scoreGrid(grid)).toBe(expected);
    expect(scoreGrid(grid)).toBe(grid.reduce((s, c) => s + scoreColumn(c), 0));
  });
});

describe('destruction', () => {
  type Row = {
    name: string;
    roll: number;
    column: 1 | 2 | 3;
    alice: Grid;
    bob: Grid;
    aliceAfter: Grid;
    bobAfter: Grid;
  };
  it.each<Row>([
    {
      name: 'removes every matching die in the same column',
      roll: 3,
      column: 1,
      alice: [[], [], []],
      bob: [[3, 3, 1], [], []],
      aliceAfter: [[3], [], []],
      bobAfter: [[1], [], []],
    },
    {
      name: 'only the same-numbered column is affected',
      roll: 3,
      column: 1,
      alice: [[], [], []],
      bob: [[], [3], [3, 3]],
      aliceAfter: [[3], [], []],
      bobAfter: [[], [3], [3, 3]],
    },
    {
      name: 'no matching value: nothing removed',
      roll: 5,
      column: 2,
      alice: [[1], [2], []],
      bob: [[5], [1, 2, 4], [5]],
      aliceAfter: [[1], [2, 5], []],
      bobAfter: [[5], [1, 2, 4], [5]],
    },
    {
      name: 'a full column of the value is emptied',
      roll: 6,
      column: 3,
      alice: [[], [], [1]],
      bob: [[6], [6], [6, 6, 6]],
      aliceAfter: [[], [], [1, 6]],
      bobAfter: [[6], [6], []],
    },
    {
      name: 'remaining dice keep their order',
      roll: 3,
      column: 2,
      alice: [[], [], []],
      bob: [[], [1, 3, 2], []],
      aliceAfter: [[], [3], []],
      bobAfter: [[], [1, 2], []],
    },
    {
      name: "the placer's own matching dice stay (and combo)",
      roll: 4,
      column: 1,
      alice: [[4, 4], [], []],
      bob: [[2, 4], [4], []],
      aliceAfter: [[4, 4, 4], [], []],
      bobAfter: [[2], [4], []],
    },
    {
      name: 'empty opponent column',
      roll: 2,
      column: 3,
      alice: [[], [], [2, 2]],
      bob: [[2], [2], []],
      aliceAfter: [[], [], [2, 2, 2]],
      bobAfter: [[2], [2], []],
    },
  ])('$name', ({ roll, column, alice, bob, aliceAfter, bobAfter }) => {
    const before = makeState({ alice, bob, roll });
    const after = knucklebones.apply(before, 'alice', place(column));
    expect(after.grids.alice).toEqual(aliceAfter);
    expect(after.grids.bob).toEqual(bobAfter);
    expect(after.lastPlaced).toEqual({ alice: roll, bob: null });
  });

  it('works the same when the second seat moves', () => {
    const before = makeState({ turn: 'bob', roll: 1, alice: [[1, 1], [], [1]], bob: [[], [], []] });
    const after = knucklebones.apply(before, 'bob', place(1));
    expect(after.grids).toEqual({ alice: [[], [], [1]], bob: [[1], [], []] });
    expect(after.turn).toBe('alice');
  });
});

describe('setup', () => {
  it('builds a valid first state from the seed', () => {
    const s = knucklebones.setup({ seed: SEED_A, players: ['alice', 'bob'], options: {} });
    expect(stateSchema.safeParse(s).success).toBe(true);
    expect([...s.players].sort()).toEqual(['alice', 'bob']);
    expect(s.turn).toBe(s.players[0]);
    expect(s.roll).toBeGreaterThanOrEqual(1);
    expect(s.roll).toBeLessThanOrEqual(6);
    expect(s.grids).toEqual({ alice: [[], [], []], bob: [[], [], []] });
    expect(s.lastPlaced).toEqual({ alice: null, bob: null });
    expect(s.turnNumber).toBe(0);
    expect(s.outcome).toBeNull();
    expect(knucklebones.awaiting(s)).toEqual([s.turn]);
    expect(knucklebones.outcome(s)).toBeNull();
  });

  it('draws turn order then the first die from the rng, in that order', () => {
    for (const seed of [SEED_A, SEED_B]) {
      const s = knucklebones.setup({ seed, players: ['alice', 'bob'], options: {} });
      const [order, r1] = shuffle(rngFromSeed(seed), ['alice', 'bob']);
      const [roll, r2] = rollDie(r1);
      expect(s.players).toEqual(order);
      expect(s.roll).toBe(roll);
      expect(s.rng).toEqual(r2);
    }
  });

  it('is deterministic and the first player varies with the seed', () => {
    const firsts = new Set<string>();
    for (let i = 0; i < 32; i++) {
      const seed = i.toString(16).padStart(2, '0').repeat(32);
      const a = knucklebones.setup({ seed, players: ['alice', 'bob'], options: {} });
      const b = knucklebones.setup({ seed, players: ['alice', 'bob'], options: {} });
      expect(a).toStrictEqual(b);
      firsts.add(a.turn as string);
    }
    expect(firsts).toEqual(new Set(['alice', 'bob']));
  });

  it.each<[string, string[], string, unknown]>([
    ['one player', ['alice'], SEED_A, {}],
    ['three players', ['alice', 'bob', 'carol'], SEED_A, {}],
    ['duplicate players', ['alice', 'alice'], SEED_A, {}],
    ['empty id', ['alice', ''], SEED_A, {}],
    ['__proto__ as an id', ['__proto__', 'bob'], SEED_A, {}],
    ['short seed', ['alice', 'bob'], 'abcd', {}],
    ['uppercase seed', ['alice', 'bob'], 'A'.repeat(64), {}],
    ['unknown option', ['alice', 'bob'], SEED_A, { fast: true }],
  ])('refuses %s with knucklebones/bad-setup', (_name, players, seed, options) => {
    expectRuleError(
      () => knucklebones.setup({ seed, players, options: options as Record<string, never> }),
      'knucklebones/bad-setup',
    );
  });
});

describe('apply', () => {
  it('places the roll, passes the turn and rolls for the opponent', () => {
    const s0 = knucklebones.setup({ seed: SEED_B, players: ['alice', 'bob'], options: {} });
    const [first, second] = s0.players;
    const s1 = knucklebones.apply(s0, first, place(2));
    expect(s1.grids[first]).toEqual([[], [s0.roll], []]);
    expect(s1.turn).toBe(second);
    expect(s1.roll).toBe(rollDie(s0.rng)[0]);
    expect(s1.rng).toEqual(rollDie(s0.rng)[1]);
    expect(s1.turnNumber).toBe(1);
    expect(s1.lastPlaced[first]).toBe(s0.roll);
    expect(s1.lastPlaced[second]).toBeNull();
    expect(s1.players).toEqual(s0.players);
    expect(knucklebones.awaiting(s1)).toEqual([second]);
    expect(stateSchema.safeParse(s1).success).toBe(true);
  });

  it('keeps grid keys in seat order whoever moves', () => {
    const s = knucklebones.apply(makeState({ turn: 'bob', roll: 2 }), 'bob', place(1));
    expect(Object.keys(s.grids)).toEqual(['alice', 'bob']);
    expect(Object.keys(s.lastPlaced)).toEqual(['alice', 'bob']);
  });

  it('the state survives a JSON round trip unchanged', () => {
    const { states } = playGame(SEED_B, ['alice', 'bob'], [0, 1, 2]);
    for (const s of states) {
      const loaded = stateSchema.parse(JSON.parse(JSON.stringify(s)));
      expect(loaded).toStrictEqual(s);
    }
  });
});

describe('end of the game', () => {
  // alice has 8 dice; column 3 has room for one more.
  const nearlyFull: Grid = [
    [1, 1, 1],
    [2, 2, 2],
    [3, 3],
  ]; // 9 + 18 + 12 = 39 before the last die

  it('ends right after the placer fills their ninth cell; higher total wins', () => {
    const before = makeState({ alice: nearlyFull, bob: [[6], [5], []], roll: 3, turnNumber: 20 });
    const s = knucklebones.apply(before, 'alice', place(3));
    expect(cells(s.grids.alice as Grid)).toBe(9);
    expect(s.outcome).toEqual({ winners: ['alice'], scores: { alice: 9 + 18 + 27, bob: 11 }, reason: 'grid-full' });
    expect(s.turn).toBeNull();
    expect(s.roll).toBeNull();
    expect(s.turnNumber).toBe(21);
    expect(s.rng).toEqual(before.rng); // no die is rolled for a turn that never comes
    expect(knucklebones.awaiting(s)).toEqual([]);
    expect(knucklebones.outcome(s)).toEqual(s.outcome);
    const v = knucklebones.view(s, 'bob');
    expect(v.turn).toBeNull();
    expect(v.roll).toBeNull();
    expect(v.outcome).toEqual(s.outcome);
    expect(stateSchema.safeParse(s).success).toBe(true);
  });

  it('the placer can fill their grid and still lose', () => {
    const before = makeState({ alice: nearlyFull, bob: [[6, 6, 6], [6, 6], []], roll: 4 });
    const s = knucklebones.apply(before, 'alice', place(3));
    expect(s.outcome).toEqual({
      winners: ['bob'],
      scores: { alice: 9 + 18 + 6 + 6 + 4, bob: 54 + 24 },
      reason: 'grid-full',
    });
  });

  it('equal totals are a draw with no winners', () => {
    // alice after placing: [1,1,1]=9, [2,2,2]=18, [3,3,1]=13 -> 40
    const before = makeState({ alice: nearlyFull, bob: [[6, 6], [4, 4], []], roll: 1 }); // bob 24 + 16 = 40
    const s = knucklebones.apply(before, 'alice', place(3));
    expect(s.outcome).toEqual({ winners: [], scores: { alice: 40, bob: 40 }, reason: 'grid-full' });
  });

  it('scores the final placement after its destruction', () => {
    const before = makeState({ alice: nearlyFull, bob: [[], [], [3, 3, 6]], roll: 3 });
    const s = knucklebones.apply(before, 'alice', place(3));
    expect(s.grids.bob).toEqual([[], [], [6]]);
    expect(s.outcome?.scores).toEqual({ alice: 54, bob: 6 });
  });

  it('eight cells do not end the game', () => {
    const before = makeState({ alice: [[1, 1, 1], [2, 2], [3, 3]], roll: 5 });
    const s = knucklebones.apply(before, 'alice', place(2));
    expect(cells(s.grids.alice as Grid)).toBe(8);
    expect(s.outcome).toBeNull();
    expect(s.turn).toBe('bob');
  });
});

describe('forfeit', () => {
  it.each<['alice' | 'bob', 'alice' | 'bob']>([
    ['alice', 'alice'],
    ['bob', 'alice'],
  ])('%s forfeits on %s’s turn: the other player wins', (quitter, turn) => {
    const before = makeState({ turn, alice: [[6, 6], [], []], bob: [[1], [2], [3]] });
    const s = knucklebones.forfeit(before, quitter);
    const other = quitter === 'alice' ? 'bob' : 'alice';
    expect(s.outcome).toEqual({ winners: [other], scores: { alice: 24, bob: 6 }, reason: 'forfeit', forfeited: quitter });
    expect(s.turn).toBeNull();
    expect(s.roll).toBeNull();
    expect(s.grids).toEqual(before.grids);
    expect(s.turnNumber).toBe(before.turnNumber);
    expect(knucklebones.awaiting(s)).toEqual([]);
    expect(stateSchema.safeParse(s).success).toBe(true);
  });
});

describe('rule errors', () => {
  const over = knucklebones.forfeit(makeState(), 'bob');

  it('knucklebones/game-over: apply after the end', () => {
    expectRuleError(() => knucklebones.apply(over, 'alice', place(1)), 'knucklebones/game-over');
    expectRuleError(() => knucklebones.apply(over, 'bob', place(1)), 'knucklebones/game-over');
  });

  it('knucklebones/game-over: forfeit after the end', () => {
    expectRuleError(() => knucklebones.forfeit(over, 'alice'), 'knucklebones/game-over');
    const full = knucklebones.apply(makeState({ alice: [[1, 1, 1], [2, 2, 2], [3, 3]], roll: 3 }), 'alice', place(3));
    expectRuleError(() => knucklebones.forfeit(full, 'bob'), 'knucklebones/game-over');
  });

  it.each(['carol', '', 'toString', '__proto__', 'constructor'])('knucklebones/not-a-player: %j', (who) => {
    expectRuleError(() => knucklebones.apply(makeState(), who, place(1)), 'knucklebones/not-a-player');
    expectRuleError(() => knucklebones.forfeit(makeState(), who), 'knucklebones/not-a-player');
  });

  it('knucklebones/not-your-turn', () => {
    expectRuleError(() => knucklebones.apply(makeState({ turn: 'alice' }), 'bob', place(1)), 'knucklebones/not-your-turn');
    expectRuleError(() => knucklebones.apply(makeState({ turn: 'bob' }), 'alice', place(2)), 'knucklebones/not-your-turn');
  });

  it.each<1 | 2 | 3>([1, 2, 3])('knucklebones/column-full: column %i', (column) => {
    const alice: Grid = [[], [], []];
    alice[column - 1] = [1, 2, 3];
    expectRuleError(() => knucklebones.apply(makeState({ alice }), 'alice', place(column)), 'knucklebones/column-full');
  });

  it.each<[string, unknown]>([
    ['column 0', { type: 'place', column: 0 }],
    ['column 4', { type: 'place', column: 4 }],
    ['column as string', { type: 'place', column: '1' }],
    ['fractional column', { type: 'place', column: 1.5 }],
    ['missing column', { type: 'place' }],
    ['wrong type', { type: 'roll', column: 1 }],
    ['extra key', { type: 'place', column: 1, row: 2 }],
    ['null', null],
    ['a string', 'place 1'],
  ])('knucklebones/bad-move: %s', (_name, move) => {
    expectRuleError(() => knucklebones.apply(makeState(), 'alice', move as KnucklebonesMove), 'knucklebones/bad-move');
    expect(moveSchema.safeParse(move).success).toBe(false);
  });
});

describe('purity', () => {
  const states: Array<[string, KnucklebonesState, 1 | 2 | 3]> = [
    ['fresh, with destruction', makeState({ roll: 4, bob: [[4, 4], [], []] }), 1],
    ['nearly full, game ends', makeState({ alice: [[1, 1, 1], [2, 2, 2], [3, 3]], bob: [[], [], [3]], roll: 3 }), 3],
    ['bob to move', makeState({ turn: 'bob', roll: 6, alice: [[6], [6], [6]] }), 1],
  ];

  it.each(states)('apply, forfeit, view, awaiting and outcome never mutate their input (%s)', (_name, state, column) => {
    const snapshot = structuredClone(state);
    const frozen = deepFreeze(structuredClone(state));
    const mover = state.turn as string;
    const applied = knucklebones.apply(frozen, mover, place(column));
    knucklebones.forfeit(frozen, 'alice');
    knucklebones.view(frozen, 'alice');
    knucklebones.view(frozen, null);
    knucklebones.awaiting(frozen);
    knucklebones.outcome(frozen);
    expect(frozen).toStrictEqual(snapshot);

    // The unfrozen path too: nothing reached through the input changes.
    knucklebones.apply(state, mover, place(column));
    knucklebones.forfeit(state, 'bob');
    expect(state).toStrictEqual(snapshot);

    // The result shares no mutable structure with the input.
    (applied.grids.alice as Grid)[0].push(9);
    (applied.grids.bob as Grid)[0].push(9);
    applied.players[0] = 'x';
    expect(frozen).toStrictEqual(snapshot);
  });

  it('a view does not alias the state', () => {
    const state = makeState({ alice: [[1], [], []] });
    const snapshot = structuredClone(state);
    const v = knucklebones.view(state, 'alice');
    (v.grids.alice as Grid)[0].push(6);
    v.players[1] = 'mallory';
    expect(state).toStrictEqual(snapshot);
  });
});

describe('view', () => {
  it.each<[string | null]>([['alice'], ['bob'], [null], ['carol']])('is the same plain object for %j', (viewer) => {
    const state = makeState({ roll: 5, turnNumber: 7, alice: [[4, 4, 2], [3, 3, 3], [6, 5, 1]], bob: [[6], [], [2, 2]] });
    const v = knucklebones.view(state, viewer);
    expect(v).toStrictEqual({
      players: ['alice', 'bob'],
      turn: 'alice',
      roll: 5,
      grids: state.grids,
      columnScores: { alice: [18, 27, 12], bob: [6, 0, 8] },
      scores: { alice: 57, bob: 14 },
      turnNumber: 7,
      outcome: null,
    });
    expect(JSON.stringify(v)).not.toContain(SEED_A);
    expect(v).not.toHaveProperty('rng');
  });
});

describe('replay', () => {
  it('reproduces a played game from the seed and move log', () => {
    const { state, log, states } = playGame(SEED_A, ['alice', 'bob'], [2, 0, 1, 1]);
    expect(state.outcome).not.toBeNull();
    expect(replay(SEED_A, ['alice', 'bob'], log)).toStrictEqual(state);
    expect(replay(SEED_A, ['alice', 'bob'], log.slice(0, 5))).toStrictEqual(states[5]);
    expect(replay(SEED_A, ['alice', 'bob'], [])).toStrictEqual(states[0]);
  });

  it('throws the RuleError of an illegal log entry', () => {
    const { log } = playGame(SEED_A, ['alice', 'bob'], [0]);
    const first = log[0];
    if (!first) throw new Error('empty log');
    const other = first.actor === 'alice' ? 'bob' : 'alice';
    expectRuleError(() => replay(SEED_A, ['alice', 'bob'], [{ actor: other, move: place(1) }]), 'knucklebones/not-your-turn');
    expectRuleError(() => replay(SEED_A, ['alice', 'bob'], [...log, first]), 'knucklebones/game-over');
  });
});

describe('stateSchema', () => {
  const good = makeState();
  it.each<[string, (s: KnucklebonesState) => unknown]>([
    ['a column of four', (s) => ({ ...s, grids: { ...s.grids, alice: [[1, 2, 3, 4], [], []] } })],
    ['a die of 7', (s) => ({ ...s, grids: { ...s.grids, bob: [[7], [], []] } })],
    ['a turn for a stranger', (s) => ({ ...s, turn: 'carol' })],
    ['a running turn without a roll', (s) => ({ ...s, roll: null })],
    ['a finished game with a turn', (s) => ({ ...s, outcome: { winners: [], reason: 'grid-full' } })],
    ['a grid for a stranger', (s) => ({ ...s, grids: { alice: [[], [], []], carol: [[], [], []] } })],
    ['the same player twice', (s) => ({ ...s, players: ['alice', 'alice'] })],
    ['a bad rng seed', (s) => ({ ...s, rng: { seed: 'xyz', n: 0 } })],
    ['two columns', (s) => ({ ...s, grids: { ...s.grids, alice: [[], []] } })],
  ])('rejects %s', (_name, corrupt) => {
    expect(stateSchema.safeParse(good).success).toBe(true);
    expect(stateSchema.safeParse(corrupt(good)).success).toBe(false);
  });
});

describe('engine registry', () => {
  it('describes knucklebones', () => {
    expect(knucklebones.id).toBe('knucklebones');
    expect(knucklebones.name).toBe('Knucklebones');
    expect(knucklebones.minPlayers).toBe(2);
    expect(knucklebones.maxPlayers).toBe(2);
    expect(knucklebones.optionsSchema.parse(undefined)).toEqual({});
    expect(knucklebones.optionsSchema.parse({})).toEqual({});
    expect(knucklebones.optionsSchema.safeParse({ fast: true }).success).toBe(false);
  });

  it('is found in the games registry by its kind, and nothing else is', () => {
    expect(games.get('knucklebones')?.engine).toBe(knucklebones);
    for (const g of games.all) expect(g.engine.id).toBe(g.kind);
    for (const missing of ['chess', 'toString', '__proto__', 'constructor', '']) expect(games.get(missing)).toBeUndefined();
  });
});
