import { describe, expect, it } from 'vitest';
import {
  autopilotCard,
  keystone,
  scoreLines,
  stateSchema,
  type KeystoneState,
} from '../../../src/games/keystone/engine/index.ts';
import { autopilotMove, autopilotRng } from '../../../src/kernel/index.ts';
import { c, cs, expectRuleError, FOUR, makeState, playMatch, SEED_A, THREE } from './helpers.ts';

const play = (s: KeystoneState, short: string) => keystone.apply(s, s.players[s.turn]!, { type: 'play', card: c(short) });

/** The last trick of game 1: ann leads r5, ben r9, cat b2, dan r1; ben wins. */
const lastTrickOfGame1 = () =>
  makeState({ hands: ['r5', 'r9', 'b2', 'r1'], trick: 12, lines: [['p1 p2'], ['p10', 'y3 g3'], []] });

describe('from game 1 to game 2 and the end of the match', () => {
  it('scores game 1, deals all 53 again, and the winner of its last trick leads game 2', () => {
    let s = lastTrickOfGame1();
    for (const x of ['r5', 'r9', 'b2', 'r1']) s = play(s, x);
    expect(s).toMatchObject({ phase: 'place', turn: 1, trick: 12, game: 1 });
    s = keystone.apply(s, 'ben', { type: 'place-all', placements: cs('r5 r9 b2 r1').map((card) => ({ card, line: 'new' as const })) });
    const linesOfGame1 = lastTrickOfGame1().lines.map((l, seat) => (seat === 1 ? [...l, ...cs('r5 r9 b2 r1').map((x) => [x])] : l));
    expect(s.gameScores).toEqual([linesOfGame1.map((l) => scoreLines(l))]);
    expect(s).toMatchObject({ game: 2, trick: 1, phase: 'play', leader: 1, turn: 1, played: [], pending: [] });
    expect(s.lines).toEqual([[], [], [], []]);
    expect(s.hands.map((h) => h.length)).toEqual([12, 12, 12, 12]);
    expect(s.undealt).toHaveLength(5);
    expect(stateSchema.parse(s)).toEqual(s);
    // Game 1's last trick names cards dealt again: game 2 starts with no last trick; ben leads.
    expect(keystone.view(s, null).lastTrick).toBeNull();
    expect(keystone.view(s, null).current.leader).toBe('ben');
    // Game 1's final lines stay public, with how each was scored (the board shows them in game 2).
    expect(s.finishedLines).toEqual([linesOfGame1]);
    const past = keystone.view(s, 'ann').finishedGames;
    expect(past).toHaveLength(1);
    expect(past[0]!.game).toBe(1);
    expect(past[0]!.seats.map((x) => x.score)).toEqual(s.gameScores[0]);
    // ben's lines p10 | y3 g3 | r5 | r9 | b2 | r1: the two-card line is the Sun; each line costs 3.
    expect(past[0]!.seats[1]!.lines).toEqual([
      { length: 1, keystones: 6, sun: false, score: 3 },
      { length: 2, keystones: 4, sun: true, score: -3 },
      { length: 1, keystones: 0, sun: false, score: -3 },
      { length: 1, keystones: 0, sun: false, score: -3 },
      { length: 1, keystones: 0, sun: false, score: -3 },
      { length: 1, keystones: 1, sun: false, score: -2 },
    ]);
  });

  it('game 2 is a new shuffle: the deal follows the generator carried in the state', () => {
    let a = lastTrickOfGame1();
    for (const x of ['r5', 'r9', 'b2', 'r1']) a = play(a, x);
    const other = { ...a, rng: { seed: 'b'.repeat(64), n: 0 } };
    const doneA = keystone.apply(a, 'ben', { type: 'auto-place' });
    const doneB = keystone.apply(other, 'ben', { type: 'auto-place' });
    expect(doneA.hands).not.toEqual(doneB.hands);
    expect(doneA.rng.n).toBeGreaterThan(a.rng.n);
  });

  it('after game 2 the highest total wins, ties share the win and places', () => {
    // ann wins the last trick of game 2 (r10); everyone's game-2 score is then known.
    const base = (gameScores: number[][]) =>
      makeState({ players: THREE, hands: ['r10', 'r3', 'b4'], trick: 12, game: 2, gameScores, lines: [['p1 p2'], ['y5 y6', 'g10'], []], filler: 2 });
    const finish = (s: KeystoneState) => {
      for (const x of ['r10', 'r3', 'b4']) s = play(s, x);
      return keystone.apply(s, 'ann', { type: 'auto-place' });
    };
    const g2 = finish(base([[0, 0, 0]])).gameScores[1]!;
    // Game-1 scores chosen so that ann and ben tie on 10 and cat has 4.
    const end = finish(base([[10 - g2[0]!, 10 - g2[1]!, 4 - g2[2]!]]));
    expect(end.phase).toBe('over');
    expect(keystone.outcome(end)).toEqual({
      winners: ['ann', 'ben'],
      scores: { ann: 10, ben: 10, cat: 4 },
      places: { ann: 1, ben: 1, cat: 3 },
      reason: 'scored',
    });
    expect(keystone.awaiting(end)).toEqual([]);
    expect(keystone.timers(end)).toEqual([]);
    expect(keystone.view(end, null).totals).toEqual({ ann: 10, ben: 10, cat: 4 });
    expectRuleError(() => keystone.apply(end, 'ann', { type: 'play', card: c('r1') }), 'keystone/game-over');
    expectRuleError(() => keystone.forfeit(end, 'ann'), 'keystone/game-over');
  });
});

describe('timers', () => {
  it('one turn timer per card played, one for the whole placement; keys name the game and the trick', () => {
    let s = makeState({ hands: ['r1 b1', 'r2 b2', 'r3 b3', 'r4 b4'], leader: 2 });
    expect(keystone.timers(s)).toEqual([{ key: 'turn:g1:t11:play0', player: 'cat', after: 'turn-limit', onExpiry: { type: 'forfeit' } }]);
    s = play(s, 'r3');
    expect(keystone.timers(s)).toEqual([{ key: 'turn:g1:t11:play1', player: 'dan', after: 'turn-limit', onExpiry: { type: 'forfeit' } }]);
    s = play(play(play(s, 'r4'), 'r1'), 'r2');
    const placing = keystone.timers(s);
    expect(placing).toEqual([{ key: 'turn:g1:t11:place', player: 'dan', after: 'turn-limit', onExpiry: { type: 'forfeit' } }]);
    // Placing one card at a time keeps the deadline (same key), the next lead is a new turn.
    for (const x of ['r3', 'r4', 'r1']) {
      s = keystone.apply(s, 'dan', { type: 'place', card: c(x), line: 'new' });
      expect(keystone.timers(s)).toEqual(placing);
    }
    s = keystone.apply(s, 'dan', { type: 'place', card: c('r2'), line: 'new' });
    expect(keystone.timers(s)).toEqual([{ key: 'turn:g1:t12:play0', player: 'dan', after: 'turn-limit', onExpiry: { type: 'forfeit' } }]);
  });

  it('a forfeited seat runs no timer (the autopilot moves for it at once); the next seat still in gets a turn', () => {
    const s = keystone.forfeit(makeState({ hands: ['r1 b1', 'r2 b2', 'r3 b3', 'r4 b4'], leader: 2 }), 'cat');
    expect(keystone.awaiting(s)).toEqual(['cat']);
    expect(keystone.timers(s)).toEqual([]);
    const next = keystone.apply(s, 'cat', keystone.autopilot!(s, 'cat', s.rng));
    expect(keystone.timers(next)).toEqual([{ key: 'turn:g1:t11:play1', player: 'dan', after: 'turn-limit', onExpiry: { type: 'forfeit' } }]);
  });
});

describe('forfeits', () => {
  it('the seat stays in, is listed as out, is still awaited and played by the autopilot', () => {
    let s = keystone.setup({ players: FOUR.slice(), seed: SEED_A, options: {} });
    const first = s.players[s.turn]!;
    s = keystone.forfeit(s, first);
    expect(keystone.out!(s)).toEqual([first]);
    expect(keystone.awaiting(s)).toEqual([first]);
    expect(keystone.outcome(s)).toBeNull();
    const m = autopilotMove(keystone, s, first, autopilotRng(SEED_A, 1));
    expect(keystone.legalMoves(s, first)).toContainEqual(m);
    expect(keystone.view(s, null).seats.find((x) => x.player === first)!.out).toBe(true);
    expectRuleError(() => keystone.forfeit(s, first), 'keystone/already-out');
    expectRuleError(() => keystone.forfeit(s, 'zed'), 'keystone/not-a-player');
  });

  it('a forfeited seat ranks last and wins nothing, even with the best score', () => {
    const base = makeState({ players: THREE, hands: ['r10', 'r3', 'b4'], trick: 12, game: 2, gameScores: [[100, 0, 0]], out: [] });
    let s = keystone.forfeit(base, 'ann');
    for (let i = 0; s.phase !== 'over'; i++) {
      const p = keystone.awaiting(s)[0]!;
      s = keystone.apply(s, p, autopilotMove(keystone, s, p, autopilotRng(SEED_A, i)) as never);
    }
    const o = keystone.outcome(s)!;
    expect(o.scores!.ann).toBeGreaterThan(50);
    expect(o.winners).not.toContain('ann');
    expect(o.places!.ann).toBe(3);
    expect(o.forfeits).toEqual(['ann']);
    expect(o.reason).toBe('scored');
  });

  it('when all but one have forfeited the game ends at once and the remaining player wins', () => {
    let s = keystone.setup({ players: FOUR.slice(), seed: SEED_A, options: {} });
    s = keystone.forfeit(s, 'ben');
    s = keystone.forfeit(s, 'dan');
    expect(keystone.outcome(s)).toBeNull();
    s = keystone.forfeit(s, 'ann');
    expect(keystone.outcome(s)).toEqual({
      winners: ['cat'],
      scores: { ann: 0, ben: 0, cat: 0, dan: 0 },
      places: { cat: 1, ann: 2, dan: 3, ben: 4 },
      forfeits: ['ben', 'dan', 'ann'],
      reason: 'forfeit',
    });
    expect(keystone.awaiting(s)).toEqual([]);
    expect(keystone.timers(s)).toEqual([]);
    for (const p of FOUR) expect(keystone.legalMoves(s, p)).toEqual([]);
    expect(stateSchema.safeParse(s).success).toBe(true);
  });

  it('an early end counts finished games and the lines as they stand', () => {
    const s0 = makeState({ players: THREE, hands: ['r10 r1', 'r3 b3', 'b4 y4'], gameScores: [[5, -2, 1]], game: 2, lines: [['p1 p2', 'p10'], [], []], filler: 2 });
    const s = keystone.forfeit(keystone.forfeit(s0, 'cat'), 'ann');
    expect(keystone.outcome(s)!.scores).toEqual({ ann: 5 + scoreLines(s0.lines[0]!), ben: -2, cat: 1 + scoreLines(s0.lines[2]!) });
    expect(keystone.outcome(s)!.winners).toEqual(['ben']);
  });

  it('matches where seats forfeit along the way finish with the autopilot playing them', () => {
    let forfeited = 0;
    for (let k = 0; k < 4; k++) {
      const { state } = playMatch(SEED_A.slice(0, 60) + k.toString().padStart(4, '0'), k % 2 ? THREE : FOUR, 77 + k, { forfeitRate: 0.01 });
      const o = keystone.outcome(state)!;
      forfeited += state.out.length;
      const n = state.players.length;
      state.out.forEach((p, i) => expect(o.places![p]).toBe(n - i));
      for (const w of o.winners) expect(state.out).not.toContain(w);
    }
    expect(forfeited).toBeGreaterThan(0);
  });
});

describe('the autopilot plays a card', () => {
  const at = (opts: { hands: string[]; played?: string; players?: readonly string[] }) => {
    const s = makeState({ players: opts.players ?? FOUR, ...opts });
    return autopilotCard(s, s.turn);
  };
  it.each([
    ['leads its highest number', { hands: ['r3 b9 =1', 'r1 r2 r4', 'b1 b2 b3', 'g1 g2 g3'] }, 'b9'],
    ['leads a God card when it holds nothing else', { hands: ['=1 =2 =3', 'r1 r2 r4', 'b1 b2 b3', 'g1 g2 g3'] }, '=1'],
    ['takes the trick with its highest when others follow', { hands: ['y1 y2', 'r5 r9 r10', 'b1 b2 b3', 'g1 g2 g3'], played: 'r7' }, 'r10'],
    ['takes it with the lowest winning card when last', { hands: ['y1 y2', 'y3 y4', 'y5 y6', 'r5 r9 r10'], played: 'r7 b5 r8', players: FOUR }, 'r9'],
    ['plays low when it cannot win the colour', { hands: ['y1 y2', 'r5 r3 b10', 'b1 b2 b3', 'g1 g2 g3'], played: 'r7' }, 'r3'],
    ['throws the cheapest card when it cannot follow (the -2 card)', { hands: ['y1 y2', 'b4 b10 g9', 'b1 b2 b3', 'g1 g2 g3'], played: 'r7' }, 'b4'],
    ['uses a God card on a trick worth 6 keystones it cannot win', { hands: ['y1 y2', 'y4 y10 =1', 'b1 b2 b3', 'g1 g2 g3'], played: 'r10' }, '=1'],
    ['keeps the God card on a poor trick', { hands: ['y1 y2', 'y5 y10 =1', 'b1 b2 b3', 'g1 g2 g3'], played: 'r7' }, 'y5'],
    ['after a God card throws the cheapest playable card', { hands: ['r2 r3', 'r5 r6 r10', 'b1 b2 b3', 'g1 g2 g3'], played: '=1', players: FOUR }, 'r5'],
  ])('%s', (_name, opts, expected) => {
    expect(at(opts as never)).toBe(c(expected));
  });
});

describe('views', () => {
  it('show the viewer their own hand in order and everyone the public table, never another hand', () => {
    let s = makeState({ hands: ['r7 b9', 'r2 =1 g2', 'r3 b3 g3', 'r4 b4 g4'], played: 'b7', lines: [['p2 =2 p1'], [], [], []], filler: 3 });
    s = play(s, '=1');
    const ann = keystone.view(s, 'ann');
    expect(ann.hand!.map((x) => x.id)).toEqual(cs('r7 b9'));
    expect(ann.hand![1]).toEqual({ id: 'blue-9', god: false, colour: 'blue', number: 9, keystone: 0 });
    expect(ann.playable).toEqual([]);
    const cat = keystone.view(s, 'cat');
    expect(cat.playable).toEqual(cs('b3'));
    expect(cat.turn).toBe('cat');
    expect(cat.current).toEqual({
      leader: 'ann',
      ledColour: 'blue',
      cards: [
        { player: 'ann', card: { id: 'blue-7', god: false, colour: 'blue', number: 7, keystone: 0 } },
        { player: 'ben', card: { id: 'god-1', god: true, colour: null, number: null, keystone: null } },
      ],
    });
    expect(cat.seats.map((x) => x.handCount)).toEqual([2, 2, 3, 3]);
    const line = cat.seats[0]!.lines[0]!;
    expect(line.cards.map((x) => [x.card.id, x.number, x.keystone, x.runningKeystones])).toEqual([
      ['purple-2', 2, 0, 0],
      ['god-2', 2, 0, 0],
      ['purple-1', 1, 1, 1],
    ]);
    expect(line).toMatchObject({ direction: 'down', length: 3, keystones: 1, sun: true, score: -3 });
    expect(cat.seats[0]).toMatchObject({ gameScore: -3, total: -3 });
    const spectator = keystone.view(s, null);
    expect(spectator.hand).toBeNull();
    expect(keystone.view(s, 'zed').hand).toBeNull();
    for (const v of [spectator, cat, keystone.view(s, 'ben')]) for (const id of cs('r7 b9')) expect(JSON.stringify(v)).not.toContain(`"${id}"`);
  });

  it('show the waiting cards with their legal targets and the last trick with its winner', () => {
    let s = makeState({ players: THREE, hands: ['r7 b9', 'r2 g2', 'r3 b3'], lines: [['p2 p5'], [], []], filler: 2 });
    s = play(play(play(s, 'r7'), 'r2'), 'r3');
    const v = keystone.view(s, null);
    expect(v.phase).toBe('place');
    expect(v.waiting).toEqual({
      player: 'ann',
      cards: [
        { card: expect.objectContaining({ id: 'red-7' }), targets: [0, 'new'] },
        { card: expect.objectContaining({ id: 'red-2' }), targets: ['new'] },
        { card: expect.objectContaining({ id: 'red-3' }), targets: ['new'] },
      ],
    });
    expect(v.lastTrick).toMatchObject({ game: 1, trick: 11, leader: 'ann', winner: 'ann' });
    expect(v.lastTrick!.cards.map((x) => [x.player, x.card.id])).toEqual([
      ['ann', 'red-7'],
      ['ben', 'red-2'],
      ['cat', 'red-3'],
    ]);
    expect(v.current.cards).toEqual([]);
  });
});
