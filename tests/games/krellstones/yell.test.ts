import { describe, expect, it } from 'vitest';
import { SYSTEM } from '../../../src/kernel/index.ts';
import { krellstones, type KrellstonesOptions, type KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { expectRuleError, newGame, PLAYERS, step, values } from './helpers.ts';

/**
 * A real Pup in the Hangar: the first seed (of a fixed scan) whose first roller's Master rolls its
 * lowest side (1 of the default odd 1..39). Returns the state right after that roll.
 */
function pupAfterFirstRoll(players: string[], options: Partial<KrellstonesOptions> = {}): { s: KrellstonesState; owner: string } {
  for (let i = 0; i < 256; i++) {
    const { state } = newGame(players, options, {}, i.toString(16).padStart(2, '0').repeat(32));
    const s = step(state);
    const owner = state.order[0]!;
    if (s.announcements.some((a) => a.effect === 'pup')) return { s, owner };
  }
  throw new Error('no seed of the scan gives a Pup on the first roll');
}

const YELL = { type: 'yell', text: 'KRELLSTONES!' } as const;

describe('Pup in the Hangar and the yell', () => {
  const { s, owner } = pupAfterFirstRoll(PLAYERS[3]);
  const other = s.players.find((p) => p !== owner && p !== s.host)!;

  it('a Master rolled to its lowest side is announced and opens a window for its owner', () => {
    expect(values(s, owner)[5]).toBe(1);
    expect(s.announcements).toEqual([{ effect: 'pup', text: 'PUP IN THE HANGAR', pass: 0, player: owner, value: 1, stones: [`${owner}-master`] }]);
    expect(s.windows).toEqual([owner]);
    expect(krellstones.awaiting(s)).toEqual([owner]);
    expect(krellstones.legalMoves(s, owner)[0]).toEqual(YELL);
    expect(krellstones.legalMoves(s, other)).toEqual([]);
  });

  it('the yell window is a timer of the owner: the pace’s window (8 s in FAST; 1 h in SLOW), a turn at every pace (the owner is told at once)', () => {
    expect(krellstones.timers(s).find((t) => t.player === owner)).toEqual({
      key: 'yell:r1',
      player: owner,
      after: { ms: 8000 },
      onExpiry: { type: 'move', move: { type: 'timeout', key: 'yell:r1' } },
      turn: true,
    });
    const slow = pupAfterFirstRoll(PLAYERS[2], { pace: 'SLOW' });
    expect(krellstones.timers(slow.s).find((t) => t.player === slow.owner)).toMatchObject({ key: 'yell:r1', after: { ms: 3_600_000 }, turn: true });
  });

  it('only exactly KRELLSTONES! counts: other text does nothing, and the window stays open', () => {
    for (const text of ['krellstones!', 'KRELLSTONES', 'Krellstones!', ' KRELLSTONES!', 'KRELLSTONES!!', 'KRELLSTONES! ', '']) {
      expectRuleError(() => krellstones.apply(s, owner, { type: 'yell', text }), 'krellstones/not-a-yell');
    }
  });

  it('only the owner: a yell by anyone else does nothing', () => {
    expectRuleError(() => krellstones.apply(s, other, YELL), 'krellstones/no-window');
  });

  it('Captain on Deck turns the Master to its highest value at once and closes the window', () => {
    const t = krellstones.apply(s, owner, YELL);
    expect(values(t, owner)[5]).toBe(39);
    expect(t.announcements.map((a) => a.text)).toEqual(['PUP IN THE HANGAR', 'CAPTAIN ON DECK']);
    expect(t.windows).toEqual([]);
    expect(krellstones.awaiting(t)).toEqual([]);
    expectRuleError(() => krellstones.apply(t, owner, YELL), 'krellstones/already-yelled');
  });

  it('the flipped Master then meets the effects (effect 1 comes after Captain on Deck): here it is swamped', () => {
    let t = krellstones.apply(s, owner, YELL);
    // Every other player's Master is made to show 39 too (the default stones' other sides are lower).
    for (const p of t.order.slice(1)) {
      t = step(t);
      t.seats[p]!.stones[5]!.side = 19;
    }
    t = step(t);
    expect(t.announcements.find((a) => a.effect === 'swamp')).toMatchObject({ text: '39 IN THE SWAMP!' });
    expect(t.seats[owner]!.stones[5]!.status).toBe('discarded');
  });

  it('a window that expired is closed: the yell is late (and the expiry is not a choice expiry)', () => {
    const t = krellstones.apply(s, owner, { type: 'timeout', key: 'yell:r1' });
    expect(t.windows).toEqual([]);
    expect(t.seats[owner]!.expiries).toBe(0);
    expectRuleError(() => krellstones.apply(t, owner, YELL), 'krellstones/window-closed');
    expect(values(t, owner)[5]).toBe(1);
  });

  it('the window is cut at the end of the rolling phase', () => {
    let t = s;
    for (let k = 1; k < t.order.length; k++) {
      t = step(t);
      expect(t.windows).toContain(owner);
    }
    t = krellstones.apply(t, SYSTEM, { type: 'system', key: 'rolled:r1' });
    expect(t.windows).toEqual([]);
    expect(krellstones.timers(t).some((x) => x.key === 'yell:r1')).toBe(false);
    expectRuleError(() => krellstones.apply(t, owner, YELL), 'krellstones/window-closed');
    // Someone without a Pup this round has no window to be late for.
    expectRuleError(() => krellstones.apply(t, other, YELL), 'krellstones/no-window');
  });

  it('a practice seat of the autopilot lets its window pass at once: no yell, no Captain on Deck', () => {
    const move = krellstones.autopilot!(s, owner, s.rng);
    expect(move).toEqual({ type: 'timeout', key: 'yell:r1' });
    expect(krellstones.legalMoves(s, owner)).toContainEqual(move);
    const t = krellstones.apply(s, owner, move);
    expect(t.windows).toEqual([]);
    expect(t.announcements.map((a) => a.text)).toEqual(['PUP IN THE HANGAR']);
    expect(t.seats[owner]!.stones[5]).toEqual(s.seats[owner]!.stones[5]);
  });

  it('an autopilot seat gets the announcement but no window (it never yells)', () => {
    const { state } = newGame(PLAYERS[3], {}, {}, s.rng.seed);
    const t0 = structuredClone(state);
    t0.out = [owner];
    const t = step(t0);
    expect(t.announcements.map((a) => a.text)).toEqual(['PUP IN THE HANGAR']);
    expect(t.windows).toEqual([]);
  });
});
