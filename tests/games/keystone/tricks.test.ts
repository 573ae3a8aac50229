import { describe, expect, it } from 'vitest';
import { keystone, trickWinner, type KeystoneState } from '../../../src/games/keystone/engine/index.ts';
import { c, cs, expectRuleError, FOUR, makeState, THREE } from './helpers.ts';

/** Plays the cards of `spec` in order from the leader and returns the state after the trick. */
function playTrick(s: KeystoneState, spec: string): KeystoneState {
  for (const id of cs(spec)) s = keystone.apply(s, s.players[s.turn]!, { type: 'play', card: id });
  return s;
}

describe('who wins a trick', () => {
  // [cards in play order from the leader, index of the winner in play order]
  const rows: Array<[string, string, number]> = [
    ['everyone follows: the highest of the led colour', 'r5 r9 r2 r7', 1],
    ['the leader keeps it with the highest', 'r10 r1 r2 r3', 0],
    ['a higher card of another colour does not win', 'r5 b10 r6 g10', 2],
    ['nobody follows: the leader wins', 'r5 b10 g9 y8', 0],
    ['a 1 of the led colour beats every other colour', 'p1 r10 b10 g10', 0],
    ['a God card led wins', '=1 r10 b10 g10', 0],
    ['a God card second wins', 'r5 =1 r10 b2', 1],
    ['a God card last wins', 'r5 r6 r7 =2', 3],
    ['two God cards: the first played wins', 'r5 =2 r10 =1', 1],
    ['a God card led beats a later God card', '=3 =1 r1 b1', 0],
    ['three God cards: the first wins', 'r1 =1 =2 =3', 1],
    ['three players, all follow', 'y3 y4 y2', 1],
    ['three players, a God card last', 'y3 y10 =2', 2],
    ['three players, nobody follows a God lead but the God still wins', '=2 p10 g10', 0],
  ];
  it.each(rows)('%s (%s)', (_name, spec, winner) => {
    expect(trickWinner(cs(spec))).toBe(winner);
    // The same through the engine: last trick of game 1, one card each, the first seat leads.
    const ids = cs(spec);
    const players = ids.length === 3 ? THREE : FOUR;
    const s = playTrick(makeState({ players, hands: spec.split(' '), trick: 12 }), spec);
    expect(s.phase).toBe('place');
    expect(s.lastTrick).toMatchObject({ winner, cards: ids });
    expect(s.turn).toBe(winner);
    expect(s.pending).toEqual(ids);
  });

  it('the winner leads the next trick, and play goes clockwise from the leader', () => {
    // Trick 11 led by cat (seat 2): cat, dan, ann, ben.
    let s = makeState({ hands: ['r1 b1', 'r2 b2', 'r3 b3', 'r4 b4'], leader: 2 });
    expect(keystone.awaiting(s)).toEqual(['cat']);
    s = keystone.apply(s, 'cat', { type: 'play', card: c('r3') });
    expect(keystone.awaiting(s)).toEqual(['dan']);
    s = keystone.apply(s, 'dan', { type: 'play', card: c('r4') });
    expect(keystone.awaiting(s)).toEqual(['ann']);
    s = keystone.apply(s, 'ann', { type: 'play', card: c('r1') });
    s = keystone.apply(s, 'ben', { type: 'play', card: c('r2') });
    expect(keystone.awaiting(s)).toEqual(['dan']);
    s = keystone.apply(s, 'dan', { type: 'auto-place' });
    expect(s.trick).toBe(12);
    expect(keystone.awaiting(s)).toEqual(['dan']);
    expect(s.leader).toBe(3);
  });
});

describe('what may be played', () => {
  const playable = (s: KeystoneState) => keystone.legalMoves(s, s.players[s.turn]!).map((m) => (m.type === 'play' ? m.card : null));

  it('the leader may play anything', () => {
    const s = makeState({ hands: ['r1 b7 =1', 'r2 b2 g2', 'r3 b3 g3', 'r4 b4 g4'] });
    expect(playable(s)).toEqual(cs('r1 b7 =1'));
  });

  it('a player holding the led colour must follow it, but may play a God card', () => {
    const s = makeState({ hands: ['r1 b9', 'r2 b2 =1', 'r3 b3 g3', 'r4 b4 g4'], played: 'b7' });
    expect(playable(s)).toEqual(cs('b2 =1'));
    expectRuleError(() => keystone.apply(s, 'ben', { type: 'play', card: c('r2') }), 'keystone/must-follow');
    expect(keystone.apply(s, 'ben', { type: 'play', card: c('=1') }).played).toEqual(cs('b7 =1'));
  });

  it('a player without the led colour may play anything', () => {
    const s = makeState({ hands: ['r1 b9', 'r2 g2 =1', 'r3 b3 g3', 'r4 b4 g4'], played: 'b7' });
    expect(playable(s)).toEqual(cs('r2 g2 =1'));
  });

  it('a God card led frees everyone', () => {
    const s = makeState({ hands: ['r1 b9', 'r2 b2 g2', 'r3 b3 g3', 'r4 b4 g4'], played: '=1' });
    expect(playable(s)).toEqual(cs('r2 b2 g2'));
    expect(keystone.view(s, null).current.ledColour).toBeNull();
  });

  it('a God card played after the lead does not free the players after it', () => {
    let s = makeState({ hands: ['r1 b9', 'r2 =2 g2', 'r3 b3 g3', 'r4 b4 g4'], played: 'b7' });
    s = keystone.apply(s, 'ben', { type: 'play', card: c('=2') });
    expect(playable(s)).toEqual(cs('b3'));
    expectRuleError(() => keystone.apply(s, 'cat', { type: 'play', card: c('g3') }), 'keystone/must-follow');
    expect(keystone.view(s, null).current.ledColour).toBe('blue');
  });

  it('refuses a card not in hand, a move out of turn and placing while a trick is played', () => {
    const s = makeState({ hands: ['r1 b7', 'r2 b2', 'r3 b3', 'r4 b4'] });
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'play', card: c('r2') }), 'keystone/not-in-hand');
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'play', card: c('y9') }), 'keystone/not-in-hand');
    expectRuleError(() => keystone.apply(s, 'ben', { type: 'play', card: c('r2') }), 'keystone/not-your-turn');
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'auto-place' }), 'keystone/nothing-to-place');
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'place', card: c('r1'), line: 'new' }), 'keystone/nothing-to-place');
    expectRuleError(() => keystone.apply(s, 'zed', { type: 'play', card: c('r1') }), 'keystone/not-a-player');
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'play', card: 'red-11' } as never), 'keystone/bad-move');
    expectRuleError(() => keystone.apply(s, 'ann', { type: 'play', card: c('r1'), extra: 1 } as never), 'keystone/bad-move');
  });
});
