import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextInt, rngFromSeed, rngStateSchema, rollDie, shuffle, type RngState } from '../../src/kernel/rng.ts';
import { hex } from '../games/knucklebones/helpers.ts';

const SEED = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex);

function rolls(seed: string, count: number, sides = 6): number[] {
  let r: RngState = rngFromSeed(seed);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const [v, next] = rollDie(r, sides);
    out.push(v);
    r = next;
  }
  return out;
}

describe('rng', () => {
  it('starts at draw 0 and its state is plain JSON', () => {
    const r = rngFromSeed(SEED);
    expect(r).toStrictEqual({ seed: SEED, n: 0 });
    expect(rngStateSchema.parse(JSON.parse(JSON.stringify(r)))).toStrictEqual(r);
  });

  it('is deterministic: the same seed gives the same sequence', () => {
    fc.assert(
      fc.property(seedArb, (seed) => {
        expect(rolls(seed, 50)).toEqual(rolls(seed, 50));
      }),
      { numRuns: 50 },
    );
  });

  it('different seeds give different sequences', () => {
    expect(rolls(SEED, 40)).not.toEqual(rolls('f'.repeat(64), 40));
  });

  it('does not mutate the state it is given', () => {
    const r = Object.freeze(rngFromSeed(SEED));
    const [, next] = nextInt(r, 6);
    expect(r).toStrictEqual({ seed: SEED, n: 0 });
    expect(next.n).toBe(1);
  });

  it('matches the documented derivation (HMAC-SHA256(seed, "stonehall:" + n), first accepted word)', () => {
    let r = rngFromSeed(SEED);
    for (let i = 0; i < 20; i++) {
      const digest = createHmac('sha256', Buffer.from(SEED, 'hex')).update(`stonehall:${r.n}`).digest();
      const w = digest.readUInt32BE(0); // for bound 6 a rejection needs w >= 4294967292, practically never
      const [v, next] = rollDie(r);
      expect(v).toBe((w % 6) + 1);
      expect(next.n).toBe(r.n + 1);
      r = next;
    }
  });

  it('nextInt stays in range and refuses bad bounds', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 1000 }), (seed, bound) => {
        const [v] = nextInt(rngFromSeed(seed), bound);
        expect(Number.isInteger(v) && v >= 0 && v < bound).toBe(true);
      }),
      { numRuns: 100 },
    );
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 32 + 1]) expect(() => nextInt(rngFromSeed(SEED), bad)).toThrow(RangeError);
  });

  it('dice look uniform (chi-square over 6000 rolls) and cover every face', () => {
    const n = 6000;
    const counts = [0, 0, 0, 0, 0, 0];
    for (const v of rolls(SEED, n)) {
      expect(v >= 1 && v <= 6).toBe(true);
      counts[v - 1] = (counts[v - 1] as number) + 1;
    }
    const expected = n / 6;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    // 5 degrees of freedom: P(chi2 > 20.52) = 0.001. A constant die would score 30000.
    expect(chi2).toBeLessThan(20.52);
    for (const c of counts) expect(c).toBeGreaterThan(0);
  });

  it('rollDie honours other sizes', () => {
    const d20 = rolls(SEED, 2000, 20);
    expect(Math.min(...d20)).toBe(1);
    expect(Math.max(...d20)).toBe(20);
  });

  it('shuffle returns a permutation and leaves its input alone', () => {
    fc.assert(
      fc.property(seedArb, fc.array(fc.integer(), { maxLength: 30 }), (seed, items) => {
        const input = Object.freeze(items.slice());
        const [out, next] = shuffle(rngFromSeed(seed), input);
        expect(out).not.toBe(input);
        expect([...out].sort((a, b) => a - b)).toEqual([...items].sort((a, b) => a - b));
        expect(input).toEqual(items);
        expect(next.n).toBe(Math.max(0, items.length - 1)); // one draw per swap, rejections aside
        expect(shuffle(rngFromSeed(seed), input)[0]).toEqual(out); // deterministic
      }),
      { numRuns: 200 },
    );
  });

  it('shuffle reaches every ordering of three items', () => {
    const seen = new Set<string>();
    let r = rngFromSeed(SEED);
    for (let i = 0; i < 200; i++) {
      const [out, next] = shuffle(r, ['a', 'b', 'c']);
      seen.add(out.join(''));
      r = next;
    }
    expect(seen.size).toBe(6);
  });
});
