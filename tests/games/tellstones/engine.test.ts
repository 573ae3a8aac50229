import { RuleError } from '../../../src/kernel/types.ts';
import { describe, expect, it } from 'vitest';
import { games } from '../../../src/games/index.ts';
import { nextInt, rngFromSeed } from '../../../src/kernel/rng.ts';
import {
  SYMBOLS,
  moveSchema,
  optionsSchema,
  replay,
  stateSchema,
  tellstones,
  type TellstonesLogEntry,
  type TellstonesMove,
  type TellstonesOptions,
  type TellstonesState,
} from '../../../src/games/tellstones/engine/index.ts';
import {
  FOUR,
  SEED_A,
  SEED_B,
  TWO,
  deepFreeze,
  expectRuleError,
  line,
  makeState,
  playGame,
} from './helpers.ts';

const STD: TellstonesOptions = { variant: 'standard', firstStone: 'random' };
const KC: TellstonesOptions = { variant: 'kings-circle', firstStone: 'random' };
const VG: TellstonesOptions = { variant: 'fearless-vanguard', firstStone: 'random' };

const valid = (s: TellstonesState): boolean => {
  const r = stateSchema.safeParse(s);
  if (!r.success) throw new Error(r.error.message);
  return true;
};

/** Applies moves in order, checking every state against the schema. */
function play(state: TellstonesState, ...steps: Array<[string, TellstonesMove]>): TellstonesState {
  let s = state;
  for (const [actor, move] of steps) {
    s = tellstones.apply(s, actor, move);
    expect(valid(s)).toBe(true);
  }
  return s;
}

const symbolsOf = (s: TellstonesState, l = 0): string[] => (s.lines[l] ?? []).map((x) => (x.faceUp ? x.symbol : `-${x.symbol}`));

describe('setup', () => {
  it('standard: one face-up stone in the middle, six in the pool, seats as given, seeded first player', () => {
    const s = tellstones.setup({ seed: SEED_A, players: ['alice', 'bob'], options: STD });
    expect(valid(s)).toBe(true);
    expect(s.seats).toEqual(['alice', 'bob']);
    expect(s.lines).toHaveLength(1);
    expect(s.lines[0]).toHaveLength(1);
    expect(s.lines[0]?.[0]?.faceUp).toBe(true);
    expect(s.pools[0]).toHaveLength(6);
    expect(s.pools[0]).not.toContain(s.lines[0]?.[0]?.symbol);
    expect(s.points).toEqual([0, 0]);
    expect(s.pending).toBeNull();
    expect(s.knowledge).toEqual([[], []]);
    expect(s.log).toEqual([{ kind: 'start', line: 0, symbol: s.lines[0]?.[0]?.symbol }]);
    expect(tellstones.awaiting(s)).toEqual([s.turn]);
    expect(tellstones.outcome(s)).toBeNull();
  });

  it('draws the first stone of each line, then the first player, from the seed', () => {
    for (const seed of [SEED_A, SEED_B]) {
      const [k, r1] = nextInt(rngFromSeed(seed), 7);
      const [f, r2] = nextInt(r1, 2);
      const s = tellstones.setup({ seed, players: ['alice', 'bob'], options: STD });
      expect(s.lines[0]?.[0]?.symbol).toBe(SYMBOLS[k]);
      expect(s.turn).toBe(['alice', 'bob'][f]);
      expect(s.rng).toEqual(r2);

      const [k0, v1] = nextInt(rngFromSeed(seed), 7);
      const [k1, v2] = nextInt(v1, 7);
      const [vf, v3] = nextInt(v2, 2);
      const vg = tellstones.setup({ seed, players: ['alice', 'bob'], options: VG });
      expect(vg.lines.map((l) => l[0]?.symbol)).toEqual([SYMBOLS[k0], SYMBOLS[k1]]);
      expect(vg.turn).toBe(['alice', 'bob'][vf]);
      expect(vg.rng).toEqual(v3);
    }
  });

  it('first player and first stone vary with the seed; setup is deterministic', () => {
    const firsts2 = new Set<string>();
    const firsts4 = new Set<string>();
    const stones = new Set<string>();
    for (let i = 0; i < 48; i++) {
      const seed = i.toString(16).padStart(2, '0').repeat(32);
      const a = tellstones.setup({ seed, players: ['alice', 'bob'], options: STD });
      expect(tellstones.setup({ seed, players: ['alice', 'bob'], options: STD })).toStrictEqual(a);
      firsts2.add(a.turn as string);
      stones.add(a.lines[0]?.[0]?.symbol as string);
      firsts4.add(tellstones.setup({ seed, players: [...FOUR], options: KC }).turn as string);
    }
    expect(firsts2).toEqual(new Set(TWO));
    expect(firsts4).toEqual(new Set(FOUR));
    expect(stones.size).toBeGreaterThanOrEqual(6);
  });

  it.each([STD, KC, VG].map((o) => ({ ...o, firstStone: 'scales' as const })))(
    'firstStone scales puts the Scales in the middle of every line ($variant)',
    (options) => {
      const players = options.variant === 'kings-circle' ? [...FOUR] : [...TWO];
      const s = tellstones.setup({ seed: SEED_B, players, options });
      for (const [i, l] of s.lines.entries()) {
        expect(l).toEqual([{ symbol: 'scales', faceUp: true }]);
        expect(s.pools[i]).toEqual(SYMBOLS.filter((x) => x !== 'scales'));
      }
      expect(valid(s)).toBe(true);
    },
  );

  it('Fearless Vanguard: two lines and two pools, each set on its own', () => {
    const s = tellstones.setup({ seed: SEED_A, players: ['alice', 'bob'], options: VG });
    expect(s.lines).toHaveLength(2);
    expect(s.pools).toHaveLength(2);
    for (const [i, l] of s.lines.entries()) expect([...l.map((x) => x.symbol), ...(s.pools[i] ?? [])].sort()).toEqual([...SYMBOLS].sort());
    const v = tellstones.view(s, null);
    expect(v.lines.map((l) => l.owner)).toEqual(['alice', 'bob']);
  });

  it("King's Circle seats A1 B1 A2 B2 clockwise in the order given", () => {
    const s = tellstones.setup({ seed: SEED_A, players: ['w', 'x', 'y', 'z'], options: KC });
    expect(s.seats).toEqual(['w', 'x', 'y', 'z']);
    const v = tellstones.view(s, 'w');
    expect(v.seats.map((x) => `${x.player}:${x.team}`)).toEqual(['w:A', 'x:B', 'y:A', 'z:B']);
    expect(v.sides.map((x) => x.players)).toEqual([
      ['w', 'y'],
      ['x', 'z'],
    ]);
    expect(v.partner).toBe('y');
    expect(tellstones.view(s, 'x').partner).toBe('z');
    expect(tellstones.view(s, null).partner).toBeNull();
  });

  it.each<[string, string[], string, unknown]>([
    ['one player', ['alice'], SEED_A, {}],
    ['three players', ['alice', 'bob', 'carol'], SEED_A, {}],
    ['four players in standard', [...FOUR], SEED_A, {}],
    ['two players in kings-circle', ['alice', 'bob'], SEED_A, { variant: 'kings-circle' }],
    ['three players in kings-circle', ['a1', 'b1', 'a2'], SEED_A, { variant: 'kings-circle' }],
    ['four players in vanguard', [...FOUR], SEED_A, { variant: 'fearless-vanguard' }],
    ['duplicate players', ['alice', 'alice'], SEED_A, {}],
    ['empty id', ['alice', ''], SEED_A, {}],
    ['__proto__ as an id', ['__proto__', 'bob'], SEED_A, {}],
    ['short seed', ['alice', 'bob'], 'abcd', {}],
    ['uppercase seed', ['alice', 'bob'], 'A'.repeat(64), {}],
    ['unknown option', ['alice', 'bob'], SEED_A, { fast: true }],
    ['unknown variant', ['alice', 'bob'], SEED_A, { variant: 'blitz' }],
    ['unknown first stone', ['alice', 'bob'], SEED_A, { firstStone: 'crown' }],
  ])('refuses %s with tellstones/bad-setup', (_name, players, seed, options) => {
    expectRuleError(() => tellstones.setup({ seed, players, options: options as TellstonesOptions }), 'tellstones/bad-setup');
  });

  it('options default to standard with a random first stone', () => {
    expect(optionsSchema.parse(undefined)).toEqual({ variant: 'standard', firstStone: 'random' });
    expect(optionsSchema.parse({})).toEqual({ variant: 'standard', firstStone: 'random' });
    expect(optionsSchema.parse({ variant: 'kings-circle' })).toEqual({ variant: 'kings-circle', firstStone: 'random' });
    // setup accepts partial options too (it parses them itself).
    const s = tellstones.setup({ seed: SEED_A, players: ['alice', 'bob'], options: {} as TellstonesOptions });
    expect(s.variant).toBe('standard');
  });
});

describe('place', () => {
  it.each<[string, 'left' | 'right', string[]]>([
    ['left', 'left', ['flag', 'crown', '-shield', 'sword']],
    ['right', 'right', ['crown', '-shield', 'sword', 'flag']],
  ])('puts a pool stone face up at the %s end and passes the turn', (_n, end, after) => {
    const s = play(makeState(), ['alice', { type: 'place', symbol: 'flag', end }]);
    expect(symbolsOf(s)).toEqual(after);
    expect(s.pools[0]).toEqual(['knight', 'hammer', 'scales']);
    expect(s.turn).toBe('bob');
    expect(s.turnNumber).toBe(5);
    expect(s.recentTurns).toEqual([{ player: 'alice', gained: [] }]);
    expect(s.log.at(-1)).toEqual({ kind: 'place', turnNumber: 5, actor: 'alice', line: 0, symbol: 'flag', end });
  });

  it('tellstones/line-full: seven on the line (the pool is empty)', () => {
    const full = makeState({ lines: [['crown', '-shield', 'sword', 'flag', 'knight', '-hammer', 'scales']] });
    expect(full.pools[0]).toEqual([]);
    expectRuleError(() => tellstones.apply(full, 'alice', { type: 'place', symbol: 'crown', end: 'left' }), 'tellstones/line-full');
    expect(tellstones.view(full, 'alice').legal).not.toContain('place');
  });

  it.each(['crown', 'shield'] as const)('tellstones/not-in-pool: %s is on the line', (symbol) => {
    expectRuleError(() => tellstones.apply(makeState(), 'alice', { type: 'place', symbol, end: 'right' }), 'tellstones/not-in-pool');
  });
});

describe('hide', () => {
  it('turns a face-up stone face down without moving it; nobody gains `known`', () => {
    const s = play(makeState(), ['alice', { type: 'hide', position: 2 }]);
    expect(symbolsOf(s)).toEqual(['crown', '-shield', '-sword']);
    expect(s.knowledge).toEqual([[], []]);
    expect(tellstones.view(s, 'alice').known).toEqual([]);
    expect(s.turn).toBe('bob');
  });

  it.each<[string, string[], number, string]>([
    ['tellstones/not-face-up', ['crown', '-shield', 'sword'], 1, 'a face-down stone'],
    ['tellstones/no-face-up', ['-crown', '-shield'], 0, 'no face-up stone at all'],
    ['tellstones/no-such-position', ['crown', '-shield', 'sword'], 3, 'past the end'],
  ])('%s (%s)', (code, l, position) => {
    expectRuleError(() => tellstones.apply(makeState({ lines: [l] }), 'alice', { type: 'hide', position }), code);
  });
});

describe('swap', () => {
  it('exchanges two stones of either facing, without flipping them', () => {
    const s = play(makeState(), ['alice', { type: 'swap', a: 0, b: 1 }]);
    expect(symbolsOf(s)).toEqual(['-shield', 'crown', 'sword']);
    const t = play(makeState(), ['alice', { type: 'swap', a: 2, b: 0 }]);
    expect(symbolsOf(t)).toEqual(['sword', '-shield', 'crown']);
  });

  it.each<[string, string[], number, number]>([
    ['tellstones/too-few-stones', ['-crown'], 0, 1],
    ['tellstones/same-position', ['crown', '-shield', 'sword'], 1, 1],
    ['tellstones/no-such-position', ['crown', '-shield', 'sword'], 0, 3],
  ])('%s', (code, l, a, b) => {
    expectRuleError(() => tellstones.apply(makeState({ lines: [l] }), 'alice', { type: 'swap', a, b }), code);
  });

  it('a single stone: swap is not legal', () => {
    expect(tellstones.view(makeState({ lines: [['-crown']] }), 'alice').legal).toEqual(['place', 'peek', 'challenge', 'boast']);
  });
});

describe('peek', () => {
  it('shows the stone only to the peeker, logs where but never what', () => {
    const s = play(makeState(), ['alice', { type: 'peek', positions: [1] }]);
    expect(tellstones.view(s, 'alice').known).toEqual([{ line: 0, position: 1, symbol: 'shield' }]);
    expect(tellstones.view(s, 'bob').known).toEqual([]);
    expect(tellstones.view(s, null).known).toEqual([]);
    expect(s.log.at(-1)).toEqual({ kind: 'peek', turnNumber: 5, actor: 'alice', viewer: 'alice', line: 0, positions: [1] });
    expect(JSON.stringify(tellstones.view(s, 'bob'))).not.toContain('shield');
    expect(s.turn).toBe('bob');
  });

  it('knowledge follows the stone through swaps and left placements, and ends when it is revealed', () => {
    let s = play(makeState(), ['alice', { type: 'peek', positions: [1] }]);
    s = play(s, ['bob', { type: 'swap', a: 1, b: 2 }]);
    expect(tellstones.view(s, 'alice').known).toEqual([{ line: 0, position: 2, symbol: 'shield' }]);
    s = play(s, ['alice', { type: 'place', symbol: 'flag', end: 'left' }]);
    expect(tellstones.view(s, 'alice').known).toEqual([{ line: 0, position: 3, symbol: 'shield' }]);
    s = play(s, ['bob', { type: 'challenge', position: 3 }], ['alice', { type: 'answer-challenge', symbol: 'shield' }]);
    expect(s.lines[0]?.[3]).toEqual({ symbol: 'shield', faceUp: true });
    expect(tellstones.view(s, 'alice').known).toEqual([]);
    expect(s.knowledge).toEqual([[], []]);
    // Hidden again in public: nobody `knows` it until someone peeks again.
    s = play(s, ['alice', { type: 'hide', position: 3 }]);
    expect(tellstones.view(s, 'alice').known).toEqual([]);
  });

  it('peeking a stone already known keeps one entry', () => {
    const s = play(
      makeState({ knowledge: [[{ line: 0, symbol: 'shield' }], []] }),
      ['alice', { type: 'peek', positions: [1] }],
    );
    expect(s.knowledge[0]).toEqual([{ line: 0, symbol: 'shield' }]);
  });

  it.each<[string, string[], number[], string]>([
    ['tellstones/not-face-down', ['crown', '-shield', 'sword'], [0], 'a face-up stone'],
    ['tellstones/no-face-down', ['crown', 'shield'], [0], 'nothing face down'],
    ['tellstones/no-such-position', ['crown', '-shield'], [5], 'past the end'],
    ['tellstones/peek-too-many', ['-crown', '-shield', 'sword'], [0, 1], 'two without the right to three'],
  ])('%s (%s)', (code, l, positions) => {
    expectRuleError(() => tellstones.apply(makeState({ lines: [l] }), 'alice', { type: 'peek', positions }), code);
  });

  it('tellstones/duplicate-position when three are allowed', () => {
    const s = makeState({ lines: [['-crown', '-shield', 'sword']], recentTurns: [{ player: 'bob', gained: [1] }] });
    expectRuleError(() => tellstones.apply(s, 'alice', { type: 'peek', positions: [0, 0] }), 'tellstones/duplicate-position');
  });

  it('tellstones/no-partner: shareWith outside King’s Circle', () => {
    expectRuleError(() => tellstones.apply(makeState(), 'alice', { type: 'peek', positions: [1], shareWith: 'bob' }), 'tellstones/no-partner');
  });

  it('tellstones/bad-move: no positions, or more than three', () => {
    expectRuleError(() => tellstones.apply(makeState(), 'alice', { type: 'peek', positions: [] }), 'tellstones/bad-move');
    expectRuleError(() => tellstones.apply(makeState(), 'alice', { type: 'peek', positions: [0, 1, 2, 3] }), 'tellstones/bad-move');
  });
});

describe('peek of three', () => {
  const L = [['-crown', '-shield', '-sword', 'flag']];
  const three: TellstonesMove = { type: 'peek', positions: [0, 1, 2] };

  it.each<[string, 1 | 3, TellstonesState['recentTurns']]>([
    ['no history', 1, []],
    ['opponent gained on the most recent turn (theirs)', 3, [{ player: 'alice', gained: [] }, { player: 'bob', gained: [1] }]],
    ['opponent gained on the second most recent turn (mine)', 3, [{ player: 'alice', gained: [1] }, { player: 'bob', gained: [] }]],
    ['only I gained', 1, [{ player: 'alice', gained: [0] }, { player: 'bob', gained: [0] }]],
    ['nobody gained', 1, [{ player: 'alice', gained: [] }, { player: 'bob', gained: [] }]],
  ])('%s: peek limit %i', (_n, limit, recentTurns) => {
    const s = makeState({ lines: L, recentTurns });
    expect(tellstones.view(s, 'alice').peekLimit).toBe(limit);
    expect(tellstones.view(s, null).peekLimit).toBe(limit);
    if (limit === 3) {
      const after = play(s, ['alice', three]);
      expect(tellstones.view(after, 'alice').known.map((k) => k.symbol)).toEqual(['crown', 'shield', 'sword']);
      expect(tellstones.view(after, 'bob').known).toEqual([]);
    } else {
      expectRuleError(() => tellstones.apply(s, 'alice', three), 'tellstones/peek-too-many');
    }
  });

  it('played out: a point on either of the two most recent turns counts, on the third it does not', () => {
    // T5 alice challenges, bob names it right: bob gains on alice's turn.
    let s = play(makeState({ lines: [['-crown', '-shield', '-sword', 'flag']] }), ['alice', { type: 'challenge', position: 0 }], [
      'bob',
      { type: 'answer-challenge', symbol: 'crown' },
    ]);
    expect(s.points).toEqual([0, 1]);
    expect(tellstones.view(s, 'bob').peekLimit).toBe(1); // bob's own point does not count
    s = play(s, ['bob', { type: 'swap', a: 0, b: 3 }]); // T6
    expect(tellstones.view(s, 'alice').peekLimit).toBe(3); // second most recent turn (alice's own)
    s = play(s, ['alice', { type: 'place', symbol: 'hammer', end: 'right' }]); // T7
    s = play(s, ['bob', { type: 'place', symbol: 'knight', end: 'right' }]); // T8
    expect(tellstones.view(s, 'alice').peekLimit).toBe(1); // the gain is three turns back now
    expectRuleError(() => tellstones.apply(s, 'alice', { type: 'peek', positions: [1, 2] }), 'tellstones/peek-too-many');

    // Bob gains on his own turn (T9), then two quiet turns: the third most recent does not count.
    let t = play(makeState({ turn: 'bob', lines: [['-crown', '-shield', '-sword', 'flag']] }), ['bob', { type: 'challenge', position: 0 }], [
      'alice',
      { type: 'answer-challenge', symbol: 'flag' },
    ]);
    expect(t.points).toEqual([0, 1]);
    expect(tellstones.view(t, 'alice').peekLimit).toBe(3); // most recent turn
    t = play(t, ['alice', { type: 'hide', position: 3 }]);
    expect(tellstones.view(t, 'bob').peekLimit).toBe(1);
    t = play(t, ['bob', { type: 'swap', a: 0, b: 1 }]);
    expect(tellstones.view(t, 'alice').peekLimit).toBe(1); // third most recent
  });

  it("King's Circle: the opposing team's point on either of the two most recent turns", () => {
    // a1 challenges, b1 names wrong: team A gains on a1's turn.
    let s = play(makeState({ variant: 'kings-circle', lines: [['-crown', '-shield', '-sword', '-flag']] }), [
      'a1',
      { type: 'challenge', position: 0 },
    ], ['b1', { type: 'answer-challenge', symbol: 'flag' }]);
    expect(s.points).toEqual([1, 0]);
    expect(s.turn).toBe('b1');
    expect(tellstones.view(s, 'b1').peekLimit).toBe(3);
    s = play(s, ['b1', { type: 'peek', positions: [3, 1, 2], shareWith: 'b2' }]);
    expect(tellstones.view(s, 'b2').known.map((k) => k.symbol)).toEqual(['shield', 'sword', 'flag']);
    expect(tellstones.view(s, 'b1').known).toEqual([]);
    expect(tellstones.view(s, 'a2').peekLimit).toBe(1); // team A's own point
    s = play(s, ['a2', { type: 'swap', a: 0, b: 1 }]);
    expect(tellstones.view(s, 'b2').peekLimit).toBe(1); // a1's turn is third most recent now
  });
});

describe('challenge', () => {
  const base = () => makeState({ lines: [['crown', '-shield', '-sword']] });

  it('waits for the opponent to name the stone', () => {
    const s = play(base(), ['alice', { type: 'challenge', position: 2 }]);
    expect(s.pending).toEqual({ kind: 'challenge', challenger: 'alice', answerer: 'bob', line: 0, position: 2 });
    expect(s.turn).toBe('alice');
    expect(tellstones.awaiting(s)).toEqual(['bob']);
    expect(tellstones.view(s, 'bob').legal).toEqual(['answer-challenge']);
    expect(tellstones.view(s, 'alice').legal).toEqual([]);
    expect(tellstones.view(s, null).pending).toEqual(s.pending);
  });

  it.each<[string, 'sword' | 'crown', [number, number], string]>([
    ['right: the answerer scores', 'sword', [0, 1], 'bob'],
    ['wrong: the challenger scores', 'crown', [1, 0], 'alice'],
  ])('%s; the stone is turned face up and the turn passes', (_n, symbol, points, scorer) => {
    const s = play(base(), ['alice', { type: 'challenge', position: 2 }], ['bob', { type: 'answer-challenge', symbol }]);
    expect(s.points).toEqual(points);
    expect(symbolsOf(s)).toEqual(['crown', '-shield', 'sword']);
    expect(s.pending).toBeNull();
    expect(s.turn).toBe('bob');
    expect(s.turnNumber).toBe(5);
    expect(s.recentTurns).toEqual([{ player: 'alice', gained: [scorer === 'alice' ? 0 : 1] }]);
    expect(s.log.at(-1)).toMatchObject({ kind: 'answer-challenge', named: symbol, symbol: 'sword', correct: symbol === 'sword', scorer });
    expect(tellstones.view(s, 'alice').sides.map((x) => x.points)).toEqual(points);
  });

  it.each<[string, string[], number]>([
    ['tellstones/not-face-down', ['crown', '-shield'], 0],
    ['tellstones/no-face-down', ['crown', 'shield'], 0],
    ['tellstones/no-such-position', ['crown', '-shield'], 2],
  ])('%s', (code, l, position) => {
    expectRuleError(() => tellstones.apply(makeState({ lines: [l] }), 'alice', { type: 'challenge', position }), code);
  });

  it.each<[string, 'alice' | 'bob', [number, number]]>([
    ['the answerer', 'bob', [2, 2]],
    ['the challenger', 'alice', [2, 2]],
  ])('3 points win the game (%s reaches 3)', (_n, winner, points) => {
    const s = play(makeState({ lines: [['crown', '-shield']], points }), ['alice', { type: 'challenge', position: 1 }], [
      'bob',
      { type: 'answer-challenge', symbol: winner === 'bob' ? 'shield' : 'flag' },
    ]);
    expect(s.outcome).toEqual({
      winners: [winner],
      scores: winner === 'bob' ? { alice: 2, bob: 3 } : { alice: 3, bob: 2 },
      reason: 'points',
    });
    expect(s.turn).toBeNull();
    expect(s.pending).toBeNull();
    expect(tellstones.awaiting(s)).toEqual([]);
    expect(tellstones.view(s, 'alice').legal).toEqual([]);
    expect(tellstones.view(s, 'alice').peekLimit).toBeNull();
  });
});

describe('boast', () => {
  const base = (points: [number, number] = [0, 0]) => makeState({ lines: [['crown', '-shield', '-sword']], points });

  it('waits for the opponent: believe, doubt or counter', () => {
    const s = play(base(), ['alice', { type: 'boast' }]);
    expect(s.pending).toEqual({ kind: 'boast', boaster: 'alice', answerer: 'bob', countered: false });
    expect(tellstones.awaiting(s)).toEqual(['bob']);
    expect(tellstones.view(s, 'bob').pending).toEqual({ kind: 'boast', boaster: 'alice', answerer: 'bob', countered: false, canCounter: true });
    expect(tellstones.view(s, 'bob').legal).toEqual(['answer-boast']);
  });

  it('tellstones/no-face-down: nothing to boast about', () => {
    const s = makeState({ lines: [['crown', 'shield']] });
    expectRuleError(() => tellstones.apply(s, 'alice', { type: 'boast' }), 'tellstones/no-face-down');
    expect(tellstones.view(s, 'alice').legal).toEqual(['place', 'hide', 'swap']);
  });

  it('believe: the boaster scores a point, nothing is revealed, the turn passes', () => {
    const s = play(base(), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'believe' }]);
    expect(s.points).toEqual([1, 0]);
    expect(symbolsOf(s)).toEqual(['crown', '-shield', '-sword']);
    expect(s.turn).toBe('bob');
    expect(s.outcome).toBeNull();
    expect(s.recentTurns.at(-1)).toEqual({ player: 'alice', gained: [0] });
  });

  it('believe at 2 points wins the game', () => {
    const s = play(base([2, 0]), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'believe' }]);
    expect(s.outcome).toEqual({ winners: ['alice'], scores: { alice: 3, bob: 0 }, reason: 'points' });
  });

  it('doubt, all right: the boaster wins whatever the points', () => {
    let s = play(base([0, 2]), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'doubt' }]);
    expect(s.pending).toEqual({ kind: 'proof', boaster: 'alice', doubter: 'bob', provers: ['alice'], next: 0, named: 0 });
    expect(tellstones.awaiting(s)).toEqual(['alice']);
    expect(tellstones.view(s, 'alice').legal).toEqual(['prove']);
    expect(tellstones.view(s, null).pending).toMatchObject({ kind: 'proof', prover: 'alice', remaining: 2, named: 0 });
    // Any order: the right-hand stone first.
    s = play(s, ['alice', { type: 'prove', position: 2, symbol: 'sword' }]);
    expect(s.outcome).toBeNull();
    expect(symbolsOf(s)).toEqual(['crown', '-shield', 'sword']);
    expect(tellstones.view(s, null).pending).toMatchObject({ kind: 'proof', remaining: 1, named: 1 });
    s = play(s, ['alice', { type: 'prove', position: 1, symbol: 'shield' }]);
    expect(s.outcome).toEqual({ winners: ['alice'], scores: { alice: 0, bob: 2 }, reason: 'boast-proven' });
    expect(symbolsOf(s)).toEqual(['crown', 'shield', 'sword']);
  });

  it('doubt, first name wrong: the boaster loses at once, stones left unnamed, points do not matter', () => {
    const s = play(base([2, 0]), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'doubt' }], [
      'alice',
      { type: 'prove', position: 1, symbol: 'sword' },
    ]);
    expect(s.outcome).toEqual({ winners: ['bob'], scores: { alice: 2, bob: 0 }, reason: 'boast-failed' });
    expect(symbolsOf(s)).toEqual(['crown', 'shield', '-sword']);
    expect(s.log.at(-1)).toMatchObject({ kind: 'prove', named: 'sword', symbol: 'shield', correct: false });
  });

  it('doubt, second name wrong: still lost at once', () => {
    const s = play(base(), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'doubt' }], [
      'alice',
      { type: 'prove', position: 1, symbol: 'shield' },
    ], ['alice', { type: 'prove', position: 2, symbol: 'hammer' }]);
    expect(s.outcome?.reason).toBe('boast-failed');
    expect(s.outcome?.winners).toEqual(['bob']);
  });

  it('counter then believe: the counter-boaster scores; the turn passes from the original boaster', () => {
    let s = play(base(), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'counter' }]);
    expect(s.pending).toEqual({ kind: 'boast', boaster: 'bob', answerer: 'alice', countered: true });
    expect(s.turn).toBe('alice');
    expect(tellstones.awaiting(s)).toEqual(['alice']);
    expect(tellstones.view(s, 'alice').pending).toMatchObject({ canCounter: false });
    s = play(s, ['alice', { type: 'answer-boast', answer: 'believe' }]);
    expect(s.points).toEqual([0, 1]);
    expect(s.turn).toBe('bob');
    expect(s.recentTurns.at(-1)).toEqual({ player: 'alice', gained: [1] });
  });

  it('counter then doubt: the counter-boaster proves (and can win)', () => {
    let s = play(base(), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'counter' }], [
      'alice',
      { type: 'answer-boast', answer: 'doubt' },
    ]);
    expect(s.pending).toEqual({ kind: 'proof', boaster: 'bob', doubter: 'alice', provers: ['bob'], next: 0, named: 0 });
    s = play(s, ['bob', { type: 'prove', position: 1, symbol: 'shield' }], ['bob', { type: 'prove', position: 2, symbol: 'sword' }]);
    expect(s.outcome).toEqual({ winners: ['bob'], scores: { alice: 0, bob: 0 }, reason: 'boast-proven' });
  });

  it('counter then doubt, wrong name: the counter-boaster loses', () => {
    const s = play(base(), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'counter' }], [
      'alice',
      { type: 'answer-boast', answer: 'doubt' },
    ], ['bob', { type: 'prove', position: 2, symbol: 'shield' }]);
    expect(s.outcome?.winners).toEqual(['alice']);
    expect(s.outcome?.reason).toBe('boast-failed');
  });

  it('tellstones/no-counter-to-counter', () => {
    const s = play(base(), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'counter' }]);
    expectRuleError(() => tellstones.apply(s, 'alice', { type: 'answer-boast', answer: 'counter' }), 'tellstones/no-counter-to-counter');
  });
});

describe('whose move', () => {
  const challenged = () => play(makeState(), ['alice', { type: 'challenge', position: 1 }]);
  const boasted = () => play(makeState(), ['alice', { type: 'boast' }]);
  const proving = () => play(boasted(), ['bob', { type: 'answer-boast', answer: 'doubt' }]);
  const over = () => tellstones.forfeit(makeState(), 'bob');

  it.each<[string, () => TellstonesState, string, TellstonesMove, string]>([
    ['not your turn', () => makeState(), 'bob', { type: 'place', symbol: 'flag', end: 'left' }, 'tellstones/not-your-turn'],
    ['not your turn (an answer)', () => makeState(), 'bob', { type: 'answer-challenge', symbol: 'flag' }, 'tellstones/not-your-turn'],
    ['nothing to answer (challenge)', () => makeState(), 'alice', { type: 'answer-challenge', symbol: 'flag' }, 'tellstones/nothing-to-answer'],
    ['nothing to answer (boast)', () => makeState(), 'alice', { type: 'answer-boast', answer: 'believe' }, 'tellstones/nothing-to-answer'],
    ['nothing to prove', () => makeState(), 'alice', { type: 'prove', position: 1, symbol: 'shield' }, 'tellstones/nothing-to-answer'],
    ['the challenger cannot answer', challenged, 'alice', { type: 'answer-challenge', symbol: 'shield' }, 'tellstones/not-answering-player'],
    ['the challenger cannot act', challenged, 'alice', { type: 'place', symbol: 'flag', end: 'left' }, 'tellstones/not-answering-player'],
    ['the answerer must answer the challenge', challenged, 'bob', { type: 'place', symbol: 'flag', end: 'left' }, 'tellstones/answer-pending'],
    ['a challenge is not a boast', challenged, 'bob', { type: 'answer-boast', answer: 'believe' }, 'tellstones/answer-pending'],
    ['the boaster cannot answer', boasted, 'alice', { type: 'answer-boast', answer: 'believe' }, 'tellstones/not-answering-player'],
    ['a boast is not a challenge', boasted, 'bob', { type: 'answer-challenge', symbol: 'shield' }, 'tellstones/answer-pending'],
    ['the doubter cannot prove', proving, 'bob', { type: 'prove', position: 1, symbol: 'shield' }, 'tellstones/not-prover'],
    ['the prover must prove', proving, 'alice', { type: 'boast' }, 'tellstones/proof-pending'],
    ['prove a face-up stone', proving, 'alice', { type: 'prove', position: 0, symbol: 'crown' }, 'tellstones/not-face-down'],
    ['prove past the end', proving, 'alice', { type: 'prove', position: 5, symbol: 'crown' }, 'tellstones/no-such-position'],
    ['game over', over, 'alice', { type: 'place', symbol: 'flag', end: 'left' }, 'tellstones/game-over'],
    ['a stranger', () => makeState(), 'carol', { type: 'place', symbol: 'flag', end: 'left' }, 'tellstones/not-a-player'],
  ])('%s', (_n, state, actor, move, code) => {
    const s = state();
    const snapshot = structuredClone(s);
    expectRuleError(() => tellstones.apply(s, actor, move), code);
    expect(s).toStrictEqual(snapshot);
  });

  it.each(['carol', '', 'toString', '__proto__', 'constructor'])('tellstones/not-a-player: %j (apply and forfeit)', (who) => {
    expectRuleError(() => tellstones.apply(makeState(), who, { type: 'boast' }), 'tellstones/not-a-player');
    expectRuleError(() => tellstones.forfeit(makeState(), who), 'tellstones/not-a-player');
  });

  it.each<[string, unknown]>([
    ['unknown type', { type: 'flip', position: 0 }],
    ['position as string', { type: 'hide', position: '1' }],
    ['negative position', { type: 'hide', position: -1 }],
    ['position 7', { type: 'challenge', position: 7 }],
    ['fractional position', { type: 'challenge', position: 0.5 }],
    ['unknown symbol', { type: 'place', symbol: 'dragon', end: 'left' }],
    ['bad end', { type: 'place', symbol: 'flag', end: 'middle' }],
    ['line 2', { type: 'hide', line: 2, position: 0 }],
    ['extra key', { type: 'boast', loud: true }],
    ['missing field', { type: 'swap', a: 0 }],
    ['bad answer', { type: 'answer-boast', answer: 'maybe' }],
    ['null', null],
    ['a string', 'boast'],
  ])('tellstones/bad-move: %s', (_n, move) => {
    expectRuleError(() => tellstones.apply(makeState(), 'alice', move as TellstonesMove), 'tellstones/bad-move');
    expect(moveSchema.safeParse(move).success).toBe(false);
  });

  it('tellstones/no-such-line: line 1 outside Fearless Vanguard', () => {
    expectRuleError(() => tellstones.apply(makeState(), 'alice', { type: 'hide', line: 1, position: 0 }), 'tellstones/no-such-line');
  });

  it('tellstones/game-over: forfeit after the end', () => {
    expectRuleError(() => tellstones.forfeit(over(), 'alice'), 'tellstones/game-over');
  });
});

describe("King's Circle", () => {
  const kc = (o: Parameters<typeof makeState>[0] = {}) => makeState({ variant: 'kings-circle', lines: [['crown', '-shield', '-sword']], ...o });

  it('turns go clockwise A1 B1 A2 B2', () => {
    let s = kc();
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      order.push(s.turn as string);
      s = play(s, [s.turn as string, { type: 'swap', a: 0, b: 1 }]);
    }
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a1']);
  });

  it.each<[string, string]>([
    ['a1', 'b1'],
    ['b1', 'a2'],
    ['a2', 'b2'],
    ['b2', 'a1'],
  ])('%s is answered by %s (the next seat clockwise), for challenges and boasts', (actor, answerer) => {
    const c = play(kc({ turn: actor }), [actor, { type: 'challenge', position: 1 }]);
    expect(tellstones.awaiting(c)).toEqual([answerer]);
    for (const other of FOUR.filter((p) => p !== answerer)) {
      expectRuleError(() => tellstones.apply(c, other, { type: 'answer-challenge', symbol: 'shield' }), 'tellstones/not-answering-player');
    }
    const b = play(kc({ turn: actor }), [actor, { type: 'boast' }]);
    expect(tellstones.awaiting(b)).toEqual([answerer]);
  });

  it('team points are shared; 3 team points win for both partners', () => {
    let s = play(kc(), ['a1', { type: 'challenge', position: 1 }], ['b1', { type: 'answer-challenge', symbol: 'shield' }]);
    expect(s.points).toEqual([0, 1]);
    const v = tellstones.view(s, 'b2');
    expect(v.sides).toEqual([
      { side: 0, team: 'A', players: ['a1', 'a2'], points: 0 },
      { side: 1, team: 'B', players: ['b1', 'b2'], points: 1 },
    ]);
    s = play(kc({ points: [2, 2], turn: 'b2' }), ['b2', { type: 'challenge', position: 2 }], ['a1', { type: 'answer-challenge', symbol: 'crown' }]);
    expect(s.outcome).toEqual({ winners: ['b1', 'b2'], scores: { a1: 2, b1: 3, a2: 2, b2: 3 }, reason: 'points' });
  });

  it('a peek can be handed to the partner: only the partner learns', () => {
    const s = play(kc(), ['a1', { type: 'peek', positions: [1], shareWith: 'a2' }]);
    expect(tellstones.view(s, 'a2').known).toEqual([{ line: 0, position: 1, symbol: 'shield' }]);
    for (const p of ['a1', 'b1', 'b2', null]) expect(tellstones.view(s, p).known).toEqual([]);
    expect(s.log.at(-1)).toMatchObject({ kind: 'peek', actor: 'a1', viewer: 'a2', positions: [1] });
    expect(s.turn).toBe('b1');
  });

  it.each(['b1', 'b2', 'a1', 'zed'])('tellstones/not-partner: shareWith %s', (who) => {
    expectRuleError(() => tellstones.apply(kc(), 'a1', { type: 'peek', positions: [1], shareWith: who }), 'tellstones/not-partner');
  });

  it('a doubted boast is proven by the partners in turn, the boaster first', () => {
    let s = play(
      kc({ lines: [['-crown', '-shield', '-sword', 'flag']] }),
      ['a1', { type: 'boast' }],
      ['b1', { type: 'answer-boast', answer: 'doubt' }],
    );
    expect(s.pending).toMatchObject({ kind: 'proof', provers: ['a1', 'a2'], next: 0 });
    expect(tellstones.awaiting(s)).toEqual(['a1']);
    expectRuleError(() => tellstones.apply(s, 'a2', { type: 'prove', position: 0, symbol: 'crown' }), 'tellstones/not-prover');
    s = play(s, ['a1', { type: 'prove', position: 1, symbol: 'shield' }]);
    expect(tellstones.awaiting(s)).toEqual(['a2']);
    expectRuleError(() => tellstones.apply(s, 'a1', { type: 'prove', position: 0, symbol: 'crown' }), 'tellstones/not-prover');
    s = play(s, ['a2', { type: 'prove', position: 0, symbol: 'crown' }]);
    expect(tellstones.awaiting(s)).toEqual(['a1']);
    s = play(s, ['a1', { type: 'prove', position: 2, symbol: 'sword' }]);
    expect(s.outcome).toEqual({ winners: ['a1', 'a2'], scores: { a1: 0, b1: 0, a2: 0, b2: 0 }, reason: 'boast-proven' });
  });

  it('a partner’s wrong name loses for the team', () => {
    const s = play(
      kc(),
      ['a1', { type: 'boast' }],
      ['b1', { type: 'answer-boast', answer: 'doubt' }],
      ['a1', { type: 'prove', position: 1, symbol: 'shield' }],
      ['a2', { type: 'prove', position: 2, symbol: 'knight' }],
    );
    expect(s.outcome).toMatchObject({ winners: ['b1', 'b2'], reason: 'boast-failed' });
  });

  it('a counter-boast is answered by the opponent to the counter-boaster’s left (RULINGS); the counter team proves, counter-boaster first', () => {
    // Seats A1 B1 A2 B2: A2 boasts, B2 (on A2's left) counters; A1 (on B2's left) answers the counter.
    let s = play(kc({ turn: 'a2' }), ['a2', { type: 'boast' }], ['b2', { type: 'answer-boast', answer: 'counter' }]);
    expect(tellstones.awaiting(s)).toEqual(['a1']);
    expect(() => tellstones.apply(s, 'a2', { type: 'answer-boast', answer: 'doubt' })).toThrow(RuleError);
    s = play(s, ['a1', { type: 'answer-boast', answer: 'doubt' }]);
    expect(s.pending).toMatchObject({ kind: 'proof', boaster: 'b2', doubter: 'a1', provers: ['b2', 'b1'] });
    s = play(s, ['b2', { type: 'prove', position: 1, symbol: 'shield' }]);
    expect(tellstones.awaiting(s)).toEqual(['b1']);
  });

  it('counter then believe: the turn passes clockwise from the original boaster', () => {
    // B1 boasts, A2 counters, B2 (on A2's left) believes the counter.
    const s = play(kc({ turn: 'b1' }), ['b1', { type: 'boast' }], ['a2', { type: 'answer-boast', answer: 'counter' }], [
      'b2',
      { type: 'answer-boast', answer: 'believe' },
    ]);
    expect(s.points).toEqual([1, 0]);
    expect(s.turn).toBe('a2');
  });

  it('a peek of three may be split between the partners (RULINGS); each sees only their own', () => {
    // A1 to move; team B scored on the last turn: a peek of up to three.
    const s0 = makeState({ variant: 'kings-circle', lines: [['-crown', '-shield', '-sword', 'flag']], turn: 'a1', recentTurns: [{ player: 'b2', gained: [1] }] });
    expect(tellstones.view(s0, 'a1').peekLimit).toBe(3);
    const s = play(s0, ['a1', { type: 'peek', positions: [0], shareWith: 'a2', forPartner: [1, 2] }]);
    expect(tellstones.view(s, 'a1').known.map((k) => k.symbol)).toEqual(['crown']);
    expect(tellstones.view(s, 'a2').known.map((k) => k.symbol).sort()).toEqual(['shield', 'sword']);
    expect(tellstones.view(s, 'b1').known).toEqual([]);
    expect(tellstones.legalMoves(s0, 'a1')).toContainEqual({ type: 'peek', positions: [0], shareWith: 'a2', forPartner: [1, 2] });
    // More than three in all, a stone twice, no partner named, or a peek of one: refused.
    expectRuleError(() => tellstones.apply(s0, 'a1', { type: 'peek', positions: [0, 3], shareWith: 'a2', forPartner: [1, 2] }), 'tellstones/peek-too-many');
    expectRuleError(() => tellstones.apply(s0, 'a1', { type: 'peek', positions: [0], shareWith: 'a2', forPartner: [0] }), 'tellstones/duplicate-position');
    expectRuleError(() => tellstones.apply(s0, 'a1', { type: 'peek', positions: [0], forPartner: [1] }), 'tellstones/no-partner');
    const one = makeState({ variant: 'kings-circle', lines: [['-crown', '-shield', '-sword']], turn: 'a1' });
    expectRuleError(() => tellstones.apply(one, 'a1', { type: 'peek', positions: [0], shareWith: 'a2', forPartner: [1] }), 'tellstones/peek-too-many');
  });

  it("a forfeit loses for the forfeiting player's team", () => {
    const s = tellstones.forfeit(kc({ points: [1, 2] }), 'a2');
    expect(s.outcome).toEqual({ winners: ['b1', 'b2'], scores: { a1: 1, b1: 2, a2: 1, b2: 2 }, reason: 'forfeit', forfeited: 'a2' });
    expect(valid(s)).toBe(true);
  });
});

describe('Fearless Vanguard', () => {
  const vg = (o: Parameters<typeof makeState>[0] = {}) =>
    makeState({ variant: 'fearless-vanguard', lines: [['crown', '-shield', 'sword'], ['-crown', 'knight']], ...o });

  it('every line-bound move must name its line', () => {
    const moves: TellstonesMove[] = [
      { type: 'place', symbol: 'flag', end: 'left' },
      { type: 'hide', position: 0 },
      { type: 'swap', a: 0, b: 1 },
      { type: 'peek', positions: [1] },
      { type: 'challenge', position: 1 },
    ];
    for (const m of moves) expectRuleError(() => tellstones.apply(vg(), 'alice', m), 'tellstones/line-required');
  });

  it('places from the named line’s pool; the two sets never mix', () => {
    const s = play(vg(), ['alice', { type: 'place', line: 1, symbol: 'sword', end: 'left' }]);
    expect(symbolsOf(s, 1)).toEqual(['sword', '-crown', 'knight']);
    expect(symbolsOf(s, 0)).toEqual(['crown', '-shield', 'sword']);
    expect(s.pools[1]).toEqual(['shield', 'flag', 'hammer', 'scales']);
    expect(s.pools[0]).toEqual(['flag', 'knight', 'hammer', 'scales']);
    // The crown of line 1 is on its line, the crown of line 0 too: neither pool has one.
    expectRuleError(() => tellstones.apply(vg(), 'alice', { type: 'place', line: 1, symbol: 'crown', end: 'left' }), 'tellstones/not-in-pool');
  });

  it('a swap stays within one line', () => {
    const s = play(vg(), ['alice', { type: 'swap', line: 1, a: 0, b: 1 }]);
    expect(symbolsOf(s, 1)).toEqual(['knight', '-crown']);
    expect(symbolsOf(s, 0)).toEqual(['crown', '-shield', 'sword']);
    expectRuleError(() => tellstones.apply(vg(), 'alice', { type: 'swap', line: 1, a: 0, b: 2 }), 'tellstones/no-such-position');
  });

  it('hide, peek and challenge act on the named line', () => {
    const h = play(vg(), ['alice', { type: 'hide', line: 1, position: 1 }]);
    expect(symbolsOf(h, 1)).toEqual(['-crown', '-knight']);
    const p = play(vg(), ['alice', { type: 'peek', line: 1, positions: [0] }]);
    expect(tellstones.view(p, 'alice').known).toEqual([{ line: 1, position: 0, symbol: 'crown' }]);
    expectRuleError(() => tellstones.apply(vg(), 'alice', { type: 'peek', line: 1, positions: [1] }), 'tellstones/not-face-down');
    const c = play(vg(), ['alice', { type: 'challenge', line: 1, position: 0 }], ['bob', { type: 'answer-challenge', symbol: 'crown' }]);
    expect(symbolsOf(c, 1)).toEqual(['crown', 'knight']);
    expect(symbolsOf(c, 0)).toEqual(['crown', '-shield', 'sword']);
    expect(c.points).toEqual([0, 1]);
  });

  it('a line with nothing face down cannot be challenged, even when the other line can', () => {
    const s = vg({ lines: [['crown', 'shield'], ['-crown']] });
    expectRuleError(() => tellstones.apply(s, 'alice', { type: 'challenge', line: 0, position: 0 }), 'tellstones/no-face-down');
    expect(tellstones.view(s, 'alice').legal).toContain('challenge');
  });

  it('a boast covers every face-down stone on both lines', () => {
    let s = play(vg(), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'doubt' }]);
    expect(tellstones.view(s, null).pending).toMatchObject({ remaining: 2 });
    s = play(s, ['alice', { type: 'prove', line: 0, position: 1, symbol: 'shield' }]);
    expect(s.outcome).toBeNull(); // line 1 still has a face-down stone
    expectRuleError(() => tellstones.apply(s, 'alice', { type: 'prove', position: 0, symbol: 'crown' }), 'tellstones/line-required');
    s = play(s, ['alice', { type: 'prove', line: 1, position: 0, symbol: 'crown' }]);
    expect(s.outcome).toMatchObject({ winners: ['alice'], reason: 'boast-proven' });
  });

  it('a boast is possible when only the other line has face-down stones', () => {
    const s = play(vg({ lines: [['crown'], ['-crown']] }), ['alice', { type: 'boast' }]);
    expect(s.pending?.kind).toBe('boast');
  });
});

describe('forfeit', () => {
  it.each<['alice' | 'bob', () => TellstonesState]>([
    ['alice', () => makeState({ points: [2, 1] })],
    ['bob', () => makeState({ points: [2, 1] })],
    ['bob', () => play(makeState({ points: [2, 1] }), ['alice', { type: 'challenge', position: 1 }])],
  ])('%s forfeits: the other player wins', (quitter, state) => {
    const before = state();
    const s = tellstones.forfeit(before, quitter);
    const other = quitter === 'alice' ? 'bob' : 'alice';
    expect(s.outcome).toEqual({ winners: [other], scores: { alice: 2, bob: 1 }, reason: 'forfeit', forfeited: quitter });
    expect(s.turn).toBeNull();
    expect(s.pending).toBeNull();
    expect(s.lines).toEqual(before.lines);
    expect(s.log.at(-1)).toEqual({ kind: 'forfeit', turnNumber: before.turnNumber + 1, actor: quitter });
    expect(tellstones.awaiting(s)).toEqual([]);
    expect(tellstones.outcome(s)).toEqual(s.outcome);
    expect(valid(s)).toBe(true);
  });
});

describe('purity', () => {
  const cases: Array<[string, () => TellstonesState, string, TellstonesMove]> = [
    ['place', () => makeState(), 'alice', { type: 'place', symbol: 'flag', end: 'left' }],
    ['swap with knowledge', () => makeState({ knowledge: [[{ line: 0, symbol: 'shield' }], []] }), 'alice', { type: 'swap', a: 1, b: 2 }],
    ['peek', () => makeState(), 'alice', { type: 'peek', positions: [1] }],
    ['answer a challenge', () => play(makeState(), ['alice', { type: 'challenge', position: 1 }]), 'bob', { type: 'answer-challenge', symbol: 'shield' }],
    ['prove', () => play(makeState(), ['alice', { type: 'boast' }], ['bob', { type: 'answer-boast', answer: 'doubt' }]), 'alice', { type: 'prove', position: 1, symbol: 'shield' }],
  ];

  it.each(cases)('apply, forfeit, view, awaiting and outcome never mutate their input (%s)', (_n, state, actor, move) => {
    const s = state();
    const snapshot = structuredClone(s);
    const frozen = deepFreeze(structuredClone(s));
    const next = tellstones.apply(frozen, actor, move);
    tellstones.forfeit(frozen, 'alice');
    for (const v of [...TWO, null]) tellstones.view(frozen, v);
    tellstones.awaiting(frozen);
    tellstones.outcome(frozen);
    expect(frozen).toStrictEqual(snapshot);
    // The result shares nothing with the input.
    next.lines[0]?.push({ symbol: 'scales', faceUp: false });
    next.knowledge[0]?.push({ line: 0, symbol: 'crown' });
    next.seats[0] = 'x';
    next.log.push({ kind: 'forfeit', turnNumber: 1, actor: 'x' });
    expect(frozen).toStrictEqual(snapshot);
  });

  it('a view does not alias the state', () => {
    const s = makeState({ knowledge: [[{ line: 0, symbol: 'shield' }], []] });
    const snapshot = structuredClone(s);
    const v = tellstones.view(s, 'alice');
    v.lines[0]?.stones.push({ position: 9, faceUp: false });
    v.lines[0]?.pool.push('crown');
    v.seats[0] = { player: 'x', seat: 0, side: 0, team: 'A' };
    v.known.push({ line: 0, position: 0, symbol: 'crown' });
    expect(s).toStrictEqual(snapshot);
  });
});

describe('view', () => {
  it('a complete spectator view', () => {
    const s = play(makeState({ lines: [['crown', '-shield', 'sword']] }), ['alice', { type: 'peek', positions: [1] }], [
      'bob',
      { type: 'challenge', position: 1 },
    ]);
    expect(tellstones.view(s, null)).toStrictEqual({
      variant: 'standard',
      seats: [
        { player: 'alice', seat: 0, side: 0, team: 'A' },
        { player: 'bob', seat: 1, side: 1, team: 'B' },
      ],
      sides: [
        { side: 0, team: 'A', players: ['alice'], points: 0 },
        { side: 1, team: 'B', players: ['bob'], points: 0 },
      ],
      lines: [
        {
          line: 0,
          owner: null,
          stones: [
            { position: 0, faceUp: true, symbol: 'crown' },
            { position: 1, faceUp: false },
            { position: 2, faceUp: true, symbol: 'sword' },
          ],
          pool: ['flag', 'knight', 'hammer', 'scales'],
        },
      ],
      turn: 'bob',
      turnNumber: 5,
      awaiting: ['alice'],
      pending: { kind: 'challenge', challenger: 'bob', answerer: 'alice', line: 0, position: 1 },
      peekLimit: 1,
      partner: null,
      known: [],
      legal: [],
      log: [
        { kind: 'peek', turnNumber: 5, actor: 'alice', viewer: 'alice', line: 0, positions: [1] },
        { kind: 'challenge', turnNumber: 6, actor: 'bob', answerer: 'alice', line: 0, position: 1 },
      ],
      outcome: null,
    });
    const mine = tellstones.view(s, 'alice');
    expect(mine.known).toEqual([{ line: 0, position: 1, symbol: 'shield' }]);
    expect(mine.legal).toEqual(['answer-challenge']);
    expect(tellstones.view(s, 'carol')).toStrictEqual(tellstones.view(s, null));
    expect(JSON.stringify(tellstones.view(s, null))).not.toContain(SEED_A);
  });

  it('legal lists the kinds the viewer may use now', () => {
    const s = makeState({ lines: [['crown', '-shield']] });
    expect(tellstones.view(s, 'alice').legal).toEqual(['place', 'hide', 'swap', 'peek', 'challenge', 'boast']);
    expect(tellstones.view(s, 'bob').legal).toEqual([]);
    expect(tellstones.view(s, null).legal).toEqual([]);
  });

  it('known is sorted by line and position', () => {
    const s = makeState({
      variant: 'fearless-vanguard',
      lines: [['-crown', '-shield', 'sword'], ['-flag', '-knight']],
      knowledge: [
        [
          { line: 0, symbol: 'crown' },
          { line: 0, symbol: 'shield' },
          { line: 1, symbol: 'flag' },
          { line: 1, symbol: 'knight' },
        ],
        [],
      ],
    });
    const swapped = play(s, ['alice', { type: 'swap', line: 0, a: 0, b: 1 }]);
    expect(tellstones.view(swapped, 'alice').known).toEqual([
      { line: 0, position: 0, symbol: 'shield' },
      { line: 0, position: 1, symbol: 'crown' },
      { line: 1, position: 0, symbol: 'flag' },
      { line: 1, position: 1, symbol: 'knight' },
    ]);
  });

  it('the log blanks any symbol that is face down now, also wrong guesses; it keeps the last 20 events', () => {
    let s = makeState({ lines: [['crown', '-shield', 'sword']] });
    s = play(s, ['alice', { type: 'place', symbol: 'flag', end: 'right' }], ['bob', { type: 'hide', position: 3 }]);
    s = play(s, ['alice', { type: 'challenge', position: 3 }], ['bob', { type: 'answer-challenge', symbol: 'shield' }]);
    const log = tellstones.view(s, null).log;
    expect(log[0]).toEqual({ kind: 'place', turnNumber: 5, actor: 'alice', line: 0, symbol: 'flag', end: 'right' });
    expect(log[3]).toMatchObject({ kind: 'answer-challenge', named: null, symbol: 'flag', correct: false });
    s = play(s, ['bob', { type: 'hide', position: 3 }]);
    const after = tellstones.view(s, null).log;
    expect(after[0]).toMatchObject({ kind: 'place', symbol: null });
    expect(after[3]).toMatchObject({ kind: 'answer-challenge', named: null, symbol: null });
    for (let i = 0; i < 30; i++) s = play(s, [s.turn as string, { type: 'swap', a: 0, b: 1 }]);
    expect(s.log).toHaveLength(20);
    expect(tellstones.view(s, null).log.at(-1)).toMatchObject({ kind: 'swap', turnNumber: s.turnNumber });
  });
});

describe('replay', () => {
  it('reproduces a played game from the seed, options and log, also through JSON', () => {
    for (const [options, rngSeed] of [[STD, 1], [KC, 2], [VG, 3]] as const) {
      const { state, log, states } = playGame(SEED_A, options, rngSeed);
      const players = state.seats;
      expect(state.outcome).not.toBeNull();
      expect(replay(SEED_A, players, options, log)).toStrictEqual(state);
      expect(replay(SEED_A, players, options, JSON.parse(JSON.stringify(log)) as TellstonesLogEntry[])).toStrictEqual(state);
      expect(replay(SEED_A, players, options, log.slice(0, 3))).toStrictEqual(states[3]);
      expect(replay(SEED_A, players, options, [])).toStrictEqual(states[0]);
    }
  });

  it('replays forfeits; default options when none are given', () => {
    const { state, log } = playGame(SEED_B, STD, 4, undefined, { forfeitAt: 3 });
    expect(state.outcome?.reason).toBe('forfeit');
    expect(replay(SEED_B, [...TWO], undefined, log)).toStrictEqual(state);
    expect(replay(SEED_B, [...TWO], {}, log)).toStrictEqual(state);
  });

  it('throws the RuleError of an illegal entry', () => {
    const s0 = tellstones.setup({ seed: SEED_A, players: [...TWO], options: STD });
    const other = s0.turn === 'alice' ? 'bob' : 'alice';
    expectRuleError(() => replay(SEED_A, [...TWO], STD, [{ actor: other, move: { type: 'swap', a: 0, b: 1 } }]), 'tellstones/not-your-turn');
    expectRuleError(
      () => replay(SEED_A, [...TWO], STD, [{ actor: 'alice', forfeit: true }, { actor: 'bob', forfeit: true }]),
      'tellstones/game-over',
    );
  });
});

describe('stateSchema', () => {
  const good = makeState({ knowledge: [[{ line: 0, symbol: 'shield' }], []] });
  it.each<[string, (s: TellstonesState) => unknown]>([
    ['eight stones on a line', (s) => ({ ...s, lines: [line('crown', 'shield', 'sword', 'flag', 'knight', 'hammer', 'scales', 'crown')] })],
    ['a stone both on the line and in the pool', (s) => ({ ...s, pools: [['crown', 'flag', 'knight', 'hammer', 'scales']] })],
    ['a missing stone', (s) => ({ ...s, pools: [['flag', 'knight', 'hammer']] })],
    ['an unsorted pool', (s) => ({ ...s, pools: [['scales', 'flag', 'knight', 'hammer']] })],
    ['an empty line', (s) => ({ ...s, lines: [[]], pools: [[...SYMBOLS]] })],
    ['two lines in standard', (s) => ({ ...s, lines: [...s.lines, line('crown')], pools: [...s.pools, SYMBOLS.filter((x) => x !== 'crown')] })],
    ['four seats in standard', (s) => ({ ...s, seats: [...FOUR], knowledge: [[], [], [], []] })],
    ['duplicate seats', (s) => ({ ...s, seats: ['alice', 'alice'] })],
    ['knowledge of a face-up stone', (s) => ({ ...s, knowledge: [[{ line: 0, symbol: 'crown' }], []] })],
    ['knowledge of a pool stone', (s) => ({ ...s, knowledge: [[{ line: 0, symbol: 'flag' }], []] })],
    ['knowledge listed twice', (s) => ({ ...s, knowledge: [[{ line: 0, symbol: 'shield' }, { line: 0, symbol: 'shield' }], []] })],
    ['missing knowledge list', (s) => ({ ...s, knowledge: [[]] })],
    ['a turn for a stranger', (s) => ({ ...s, turn: 'carol' })],
    ['a running game without a turn', (s) => ({ ...s, turn: null })],
    ['a running game at 3 points', (s) => ({ ...s, points: [3, 0] })],
    ['4 points', (s) => ({ ...s, points: [4, 0], turn: null, outcome: { winners: ['alice'], reason: 'points' } })],
    ['a finished game with a turn', (s) => ({ ...s, outcome: { winners: ['alice'], reason: 'points' } })],
    ['a challenge of a face-up stone', (s) => ({ ...s, pending: { kind: 'challenge', challenger: 'alice', answerer: 'bob', line: 0, position: 0 } })],
    ['a challenge answered by the challenger', (s) => ({ ...s, pending: { kind: 'challenge', challenger: 'alice', answerer: 'alice', line: 0, position: 1 } })],
    ['a boast by the wrong player', (s) => ({ ...s, pending: { kind: 'boast', boaster: 'bob', answerer: 'alice', countered: false } })],
    ['a proof with nothing face down', (s) => ({ ...s, lines: [line('crown', 'shield', 'sword')], knowledge: [[], []], pending: { kind: 'proof', boaster: 'alice', doubter: 'bob', provers: ['alice'], next: 0, named: 0 } })],
    ['winners who are not seated', (s) => ({ ...s, turn: null, outcome: { winners: ['carol'], reason: 'points' } })],
    ['a bad rng seed', (s) => ({ ...s, rng: { seed: 'xyz', n: 0 } })],
    ['an unknown key', (s) => ({ ...s, extra: 1 })],
  ])('rejects %s', (_n, corrupt) => {
    expect(valid(good)).toBe(true);
    expect(stateSchema.safeParse(corrupt(good)).success).toBe(false);
  });

  it('a played game survives a JSON round trip unchanged', () => {
    const { states } = playGame(SEED_B, KC, 9);
    for (const s of states) expect(stateSchema.parse(JSON.parse(JSON.stringify(s)))).toStrictEqual(s);
  });
});

describe('engine registry', () => {
  it('describes tellstones', () => {
    expect(tellstones.id).toBe('tellstones');
    expect(tellstones.name).toBe('Tellstones');
    expect(tellstones.minPlayers).toBe(2);
    expect(tellstones.maxPlayers).toBe(4);
    expect(games.get('tellstones')?.engine).toBe(tellstones);
  });
});
