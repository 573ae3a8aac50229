import { describe, expect, it } from 'vitest';
import { autopilotRng } from '../../../src/kernel/autopilot.ts';
import {
  ABILITIES,
  CHAOS_TILES,
  COLOURS,
  crystallia,
  describeTurn,
  PYRAMID_ROWS,
  REGULAR_TILES,
  rotateTile,
  STONES,
  SUPPLY_PER_COLOUR,
  TILES,
  parseSquare,
  squareName,
  type CrystalliaMove,
  type CrystalliaState,
} from '../../../src/games/crystallia/engine/index.ts';
import { avail, boardOf, expectRuleError, FOUR, hexSeed, place, play, position, SEED, THREE, TWO } from './helpers.ts';

describe('the edition data', () => {
  it('16 tiles of 3x3: 8 regular of 9 colours, 8 chaos of 6 colours and one each of Move, Extra Turn, Rotate', () => {
    expect(REGULAR_TILES).toHaveLength(8);
    expect(CHAOS_TILES).toHaveLength(8);
    expect(new Set(TILES.map((t) => t.id)).size).toBe(16);
    for (const t of TILES) {
      const flat = t.squares.flat();
      expect(flat).toHaveLength(9);
      const abilities = flat.filter((k) => (ABILITIES as readonly string[]).includes(k));
      expect(abilities.slice().sort()).toEqual(t.kind === 'regular' ? [] : ['extra-turn', 'move', 'rotate']);
    }
  });

  it('every colour appears equally often (on the regular tiles, on the chaos tiles, and in all)', () => {
    const count = (tiles: typeof TILES) => COLOURS.map((c) => tiles.flatMap((t) => t.squares.flat()).filter((k) => k === c).length);
    expect(count(REGULAR_TILES)).toEqual([18, 18, 18, 18]);
    expect(count(CHAOS_TILES)).toEqual([12, 12, 12, 12]);
  });

  it('no colour touches itself orthogonally inside a regular tile', () => {
    for (const t of REGULAR_TILES) {
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) {
          if (j < 2) expect(t.squares[i]![j], `${t.id} ${i},${j}`).not.toBe(t.squares[i]![j + 1]);
          if (i < 2) expect(t.squares[i]![j], `${t.id} ${i},${j}`).not.toBe(t.squares[i + 1]![j]);
        }
    }
  });

  it('24 stones: each pair of two colours 3 times, each double once, 2 wilds; yellow only on the wilds', () => {
    expect(STONES).toHaveLength(24);
    const key = (h: readonly string[]) => h.slice().sort().join('+');
    const counts = new Map<string, number>();
    for (const s of STONES) counts.set(key(s), (counts.get(key(s)) ?? 0) + 1);
    for (let a = 0; a < 4; a++) {
      expect(counts.get(key([COLOURS[a]!, COLOURS[a]!]))).toBe(1);
      for (let b = a + 1; b < 4; b++) expect(counts.get(key([COLOURS[a]!, COLOURS[b]!]))).toBe(3);
    }
    expect(counts.get('yellow+yellow')).toBe(2);
    expect(counts.size).toBe(6 + 4 + 1);
    expect(PYRAMID_ROWS.reduce((a, b) => a + b, 0)).toBe(24);
    expect(SUPPLY_PER_COLOUR).toBe(20);
  });
});

describe('square names', () => {
  it('row letter A-F from the top, column 1-9 from the left, as the picture\'s edges show them', () => {
    expect([0, 8, 9, 45, 53].map(squareName)).toEqual(['A1', 'A9', 'B1', 'F1', 'F9']);
    for (let sq = 0; sq < 54; sq++) expect(parseSquare(squareName(sq))).toBe(sq);
    expect(parseSquare(' c4 ')).toBe(2 * 9 + 3);
    for (const bad of ['G1', 'A0', 'A10', 'I6', '4C', '', 'C']) expect(parseSquare(bad)).toBeNull();
  });
});

describe('setup', () => {
  const seeds = Array.from({ length: 24 }, (_, i) => hexSeed(i + 1));

  it('2-3 players: 3 chaos and 3 regular tiles; 4 players: 6 chaos tiles; squares follow each tile and its rotation', () => {
    const rotations = new Set<number>();
    for (const [i, seed] of seeds.entries()) {
      const players = [TWO, THREE, FOUR][i % 3]!.slice();
      const s = crystallia.setup({ players, seed, options: { advanced: false } });
      const kinds = s.tiles.map((t) => TILES.find((d) => d.id === t.id)!.kind);
      expect(new Set(s.tiles.map((t) => t.id)).size).toBe(6);
      expect(kinds.filter((k) => k === 'chaos')).toHaveLength(players.length === 4 ? 6 : 3);
      s.tiles.forEach((t, k) => {
        rotations.add(t.rotation);
        const g = rotateTile(TILES.find((d) => d.id === t.id)!.squares, t.rotation);
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) expect(s.squares[(Math.floor(k / 3) * 3 + r) * 9 + (k % 3) * 3 + c]).toBe(g[r]![c]);
      });
    }
    expect(rotations).toEqual(new Set([0, 1, 2, 3]));
  });

  it('rotateTile turns a tile a quarter clockwise per step', () => {
    const t = CHAOS_TILES[0]!.squares;
    expect(rotateTile(t, 1)[0]).toEqual([t[2]![0], t[1]![0], t[0]![0]]);
    expect(rotateTile(t, 4)).toEqual(t.map((r) => r.slice()));
  });

  it('the pyramid holds the 24 stones in rows of 7, 8, 9; the bottom row is available; supplies of 20; a random first player, seating kept', () => {
    const firsts = new Set<string>();
    for (const seed of seeds) {
      const s = crystallia.setup({ players: FOUR.slice(), seed, options: { advanced: false } });
      expect(s.pyramid.map((r) => r.length)).toEqual([7, 8, 9]);
      expect(s.pyramid.flat().slice().sort((a, b) => a! - b!)).toEqual(STONES.map((_, i) => i));
      const v = crystallia.view(s, null);
      expect(v.available).toEqual(s.pyramid[2]);
      expect(v.pyramid[0]!.every((c) => c !== null && !c.faceUp)).toBe(true);
      expect(v.supply).toEqual({ red: 20, blue: 20, green: 20, purple: 20 });
      const i = FOUR.indexOf(s.players[0] as (typeof FOUR)[number]);
      expect(s.players).toEqual([...FOUR.slice(i), ...FOUR.slice(0, i)]);
      expect(s.turn).toMatchObject({ player: s.players[0], number: 0, step: 'take', second: false });
      firsts.add(s.players[0]!);
    }
    expect(firsts.size).toBe(4);
  });

  it('is a pure function of the seed', () => {
    const a = crystallia.setup({ players: TWO.slice(), seed: SEED, options: { advanced: false } });
    expect(crystallia.setup({ players: TWO.slice(), seed: SEED, options: { advanced: false } })).toEqual(a);
    expect(crystallia.setup({ players: TWO.slice(), seed: hexSeed(9), options: { advanced: false } })).not.toEqual(a);
  });

  it('refuses bad setups', () => {
    const bad = (players: string[], options: unknown = {}, seed = SEED) => expectRuleError(() => crystallia.setup({ players, seed, options: options as never }), 'bad-setup');
    bad(['a']);
    bad(['a', 'b', 'c', 'd', 'e']);
    bad(['a', 'a']);
    bad(['a', 'b'], { advanced: 'yes' });
    bad(['a', 'b'], { variant: 'x' });
    bad(['a', 'b'], {}, 'nothex');
  });
});

describe('Advanced Mode: the secret flip step', () => {
  const start = () => crystallia.setup({ players: THREE.slice(), seed: SEED, options: { advanced: true } });

  it('everyone chooses at once; choices stay secret until all have chosen, then the first turn starts', () => {
    const s0 = start();
    expect(crystallia.awaiting(s0)).toEqual(s0.players);
    expect(crystallia.legalMoves(s0, 'alice')).toHaveLength(16);
    expect(crystallia.legalMoves(s0, 'alice')[0]).toEqual({ type: 'flip', platforms: [] });
    expectRuleError(() => crystallia.apply(s0, s0.players[0]!, place(s0.pyramid[2][0]!, 'A1')), 'flip-first');
    const a = crystallia.apply(s0, 'alice', { type: 'flip', platforms: ['blue', 'red'] });
    const b = crystallia.apply(s0, 'alice', { type: 'flip', platforms: [] });
    expectRuleError(() => crystallia.apply(a, 'alice', { type: 'flip', platforms: [] }), 'already-chosen');
    expectRuleError(() => crystallia.apply(s0, 'alice', { type: 'flip', platforms: ['red', 'red'] }), 'bad-move');
    expect(crystallia.legalMoves(a, 'alice')).toEqual([]);
    expect(crystallia.awaiting(a)).toEqual(s0.players.filter((p) => p !== 'alice'));
    // Nobody else can tell Alice's choice; she sees it.
    for (const viewer of ['bob', 'carol', null]) expect(crystallia.view(a, viewer)).toEqual(crystallia.view(b, viewer));
    expect(crystallia.view(a, 'alice').flip).toEqual({ waitingFor: s0.players.filter((p) => p !== 'alice'), mine: ['red', 'blue'] });
    expect(crystallia.view(a, 'bob').seats.every((x) => x.flipped === null)).toBe(true);
    const done = play(a, { type: 'flip', platforms: ['purple'] }, { type: 'flip', platforms: [] });
    expect(done.flips).toBeNull();
    expect(done.turn).toMatchObject({ player: done.players[0], number: 0, step: 'take' });
    const seats = crystallia.view(done, null).seats;
    const flippedOf = (p: string) => seats.find((x) => x.player === p)!.flipped;
    expect(flippedOf('alice')).toEqual({ red: true, blue: true, green: false, purple: false });
  });

  it('each choosing player has a timer whose expiry chooses no flips', () => {
    const s0 = start();
    expect(crystallia.timers(s0)).toEqual(
      s0.players.map((player) => ({ key: 'flip', player, after: 'turn-limit', onExpiry: { type: 'move', move: { type: 'flip', platforms: [] } }, turn: true })),
    );
    let s = crystallia.apply(s0, 'bob', { type: 'flip', platforms: ['green'] });
    expect(crystallia.timers(s).map((t) => t.player)).toEqual(s0.players.filter((p) => p !== 'bob'));
    for (const t of crystallia.timers(s)) s = crystallia.apply(s, t.player!, (t.onExpiry as { move: CrystalliaMove }).move);
    expect(s.flips).toBeNull();
    expect(Object.values(s.platforms).map((p) => Object.values(p.flipped).filter(Boolean).length).sort()).toEqual([0, 0, 1]);
  });

  it('a seat that forfeits during the step has chosen no flips', () => {
    const s = crystallia.forfeit(start(), 'carol');
    expect(s.flips!.carol).toEqual([]);
    expect(crystallia.awaiting(s)).not.toContain('carol');
  });
});

describe('turns, steps and timers', () => {
  it('the turn timer keeps its key across the steps of a turn and changes with each turn, second turns included', () => {
    const s0 = position({ squares: boardOf('p', { C5: 'M', A1: 'E' }), placed: [['rb', 'F7', 'right']], pyramid: ['gp', 'bg', 'rr'] });
    const key = (s: CrystalliaState) => crystallia.timers(s).map((t) => `${t.key}|${t.player}|${t.onExpiry.type}|${JSON.stringify(t.after)}`);
    expect(key(s0)).toEqual(['turn:5|alice|forfeit|"turn-limit"']);
    const s1 = play(s0, place(avail(s0), 'C5'));
    expect(s1.turn!.step).toBe('ability');
    expect(key(s1)).toEqual(key(s0));
    const s2 = play(s1, { type: 'skip-ability' });
    expect(s2.turn!.step).toBe('isolate');
    expect(key(s2)).toEqual(key(s0));
    const s3 = play(s2, { type: 'isolate', colour: 'green' });
    expect(key(s3)).toEqual(['turn:6|bob|forfeit|"turn-limit"']);
    const s4 = play(s3, place(avail(s0, 1), 'A1'), { type: 'isolate', colour: 'blue' });
    // Bob covered Extra Turn: his second turn has a timer of its own.
    expect(s4.turn).toMatchObject({ player: 'bob', second: true });
    expect(key(s4)).toEqual(['turn:7|bob|forfeit|"turn-limit"']);
  });

  it('an earned second turn is the last: no player takes three turns in a row', () => {
    const s0 = position({ squares: boardOf('p', { A3: 'E', C3: 'E' }), pyramid: ['rb', 'gp', 'bg'] });
    const s1 = play(s0, place(avail(s0, 0), 'A3'), { type: 'isolate', colour: 'red' });
    expect(s1.turn).toMatchObject({ player: 'alice', second: true });
    const s2 = play(s1, place(avail(s0, 1), 'C3'), { type: 'isolate', colour: 'green' });
    expect(s2.turn).toMatchObject({ player: 'bob', second: false });
  });

  it('the one-line record of the last turn', () => {
    const s0 = position({ placed: [['rr', 'A1', 'right']], pyramid: ['rr', 'gp'] });
    const s1 = play(s0, place(avail(s0), 'A3'));
    const v = crystallia.view(s1, null);
    expect(v.lastTurn).toMatchObject({ player: 'alice', number: 5, second: false });
    expect(v.lastTurn!.text).toBe('placed red/red on A3–A4 · +2 purple (square) · +3 red (run) · second turn (run of 4)');
    expect(v.thisTurn).toMatchObject({ player: 'alice', second: true, text: '' });
    expect(describeTurn([{ kind: 'talisman', colour: 'green' }, { kind: 'black', why: 'empty-supply', platform: 'red', colour: 'green', source: 'talisman' }])).toBe(
      'used a talisman for green · +1 black (no green left, talisman)',
    );
    const noRed = { kind: 'black', why: 'empty-supply', platform: 'blue', colour: 'red', source: 'run' } as const;
    expect(describeTurn([noRed, noRed, { ...noRed, colour: 'green' }, { kind: 'black', why: 'bonus', platform: 'blue' }])).toBe(
      '+2 black (no red left, run) · +1 black (no green left, run) · +1 black (6+ crystals this turn)',
    );
  });
});

describe('the view', () => {
  it('shows no face-down stone: views do not change when the face-down stones are shuffled', () => {
    const s = crystallia.setup({ players: THREE.slice(), seed: SEED, options: { advanced: false } });
    const t = structuredClone(s);
    // Exchange the colours behind two face-down cards (the top row is all face down).
    const [a, b] = [t.pyramid[0][0]!, t.pyramid[0][1]!];
    t.stones[a] = s.stones[b]!;
    t.stones[b] = s.stones[a]!;
    expect(t.stones).not.toEqual(s.stones);
    for (const viewer of [...THREE, null]) expect(crystallia.view(t, viewer)).toEqual(crystallia.view(s, viewer));
    const text = JSON.stringify(crystallia.view(s, null));
    expect(text).not.toContain(s.rng.seed);
    expect(crystallia.view(s, null).pyramid[0]![0]).toEqual({ faceUp: false });
  });

  it('shows the platforms, scores and talismans of every player', () => {
    const s0 = position({ crystals: { alice: { red: 11, blue: 2 } }, blacks: { alice: { red: 1 } }, supercrystals: { red: 'alice' }, talismans: [{ player: 'bob', colour: 'green' }] });
    const v = crystallia.view(s0, 'bob');
    const alice = v.seats.find((x) => x.player === 'alice')!;
    expect(alice.score).toMatchObject({ crystalPoints: 9 - 2 + 2, blackPoints: -1, supercrystalPoints: 2, total: 10 });
    expect(alice.score.colours[0]).toMatchObject({ colour: 'red', crystals: 11, points: 9, beyond: 2, penalty: -2, blacks: 1 });
    expect(v.scores).toEqual({ alice: 10, bob: 0 });
    expect(v.talismans).toEqual({ used: [{ player: 'bob', colour: 'green' }], left: 2, colours: ['red', 'blue', 'purple'] });
    expect(v.seats.find((x) => x.player === 'bob')!.talismans).toEqual(['green']);
    expect(v.turn).toMatchObject({ player: 'alice', step: 'take', talismanAllowed: true, mustDiscard: false });
  });
});

describe('forfeits', () => {
  it('two players: the other wins at once', () => {
    const s = crystallia.forfeit(position(), 'alice');
    expect(s.outcome).toMatchObject({ reason: 'forfeit', winners: ['bob'], forfeited: 'alice' });
    expect(crystallia.awaiting(s)).toEqual([]);
    expectRuleError(() => crystallia.forfeit(s, 'bob'), 'game-over');
  });

  it('three or four: the seat stays in, listed by out, played by the autopilot, and ranks last', () => {
    const s0 = position({ players: THREE, pyramid: ['rb', 'gp', 'bg', 'rr'], crystals: { alice: { red: 9 } } });
    const s1 = crystallia.forfeit(s0, 'alice');
    expect(s1.outcome).toBeNull();
    expect(crystallia.out!(s1)).toEqual(['alice']);
    expectRuleError(() => crystallia.forfeit(s1, 'alice'), 'already-forfeited');
    // Alice's turn goes on under the autopilot, which the platform runs at once in the same
    // transaction (src/services/changes.ts): her turn runs no timer, so no deadline can forfeit her again.
    expect(crystallia.awaiting(s1)).toEqual(['alice']);
    expect(crystallia.timers(s1)).toEqual([]);
    const move = crystallia.autopilot!(s1, 'alice', autopilotRng(SEED, 0));
    expect(crystallia.legalMoves(s1, 'alice')).toContainEqual(move);
    let s = crystallia.apply(s1, 'alice', move);
    while (!s.outcome) {
      const p = crystallia.awaiting(s)[0]!;
      s = crystallia.apply(s, p, crystallia.autopilot!(s, p, autopilotRng(SEED, s.turn!.number)));
    }
    expect(s.outcome.places!.alice).toBe(3);
    expect(s.outcome.forfeits).toEqual(['alice']);
    expect(s.outcome.winners).not.toContain('alice');
  });

  it('when only one player is left standing, they win at once', () => {
    const s = crystallia.forfeit(crystallia.forfeit(position({ players: FOUR, eliminated: ['dave'], crystals: { dave: { red: 13 } } }), 'bob'), 'alice');
    expect(s.outcome).toMatchObject({ reason: 'forfeit', winners: ['carol'], places: { carol: 1, dave: 2, alice: 3, bob: 4 } });
  });
});

describe('the autopilot', () => {
  it('never goes out with 13 when it can avoid it (every purple square would put it out)', () => {
    const s0 = position({ squares: boardOf('p', { A1: 'r', A2: 'r' }), pyramid: ['bg', 'bp'], crystals: { alice: { purple: 12 } }, supply: { purple: 8 } });
    const m = crystallia.autopilot!(s0, 'alice', autopilotRng(SEED, 1));
    expect(m.type === 'place' || m.type === 'talisman').toBe(true);
    const s1 = crystallia.apply(s0, 'alice', m);
    const after = s1.turn?.step === 'isolate' ? crystallia.apply(s1, 'alice', crystallia.autopilot!(s1, 'alice', autopilotRng(SEED, 2))) : s1;
    expect(after.eliminated).toEqual([]);
    expect(after.platforms.alice!.crystals.purple).toBe(12);
  });
});
