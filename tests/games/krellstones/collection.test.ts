import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rngFromSeed, type RngState } from '../../../src/kernel/index.ts';
import {
  completeSelection,
  currentValues,
  facePack,
  faceSchema,
  newFace,
  newStone,
  rollChances,
  rollStone,
  slot,
  starterKit,
  stoneSchema,
  unslot,
  unslotAll,
  type Face,
  type Stone,
} from '../../../src/games/krellstones/collection.ts';
import { FACE_PACK_SIZE, PRICES, STONE_KINDS, STONE_TYPES, allowedValues, type StoneType } from '../../../src/games/krellstones/data.ts';
import { expectRuleError, hex, SEED_A, SEED_B } from './helpers.ts';

const pawn = (values: number[]): Stone => ({ type: 'pawn', sides: values.map((printed) => ({ printed, face: null })) });
const face = (value: number, weight: 0 | 1 | 2 = 0, type: StoneType = 'pawn'): Face => ({ type, value, weight, promo: false });

/** Pearson's chi-square of observed counts against expected proportions. */
function chiSquare(observed: number[], proportions: number[]): number {
  const n = observed.reduce((a, b) => a + b, 0);
  return observed.reduce((acc, o, i) => acc + (o - n * proportions[i]!) ** 2 / (n * proportions[i]!), 0);
}
/** Critical values at p = 0.001 by degrees of freedom: a correct generator fails one seed in a thousand. */
const CHI2_999 = { 1: 10.83, 2: 13.82, 3: 16.27 } as const;

describe('slot and unslot', () => {
  const base = pawn([1, 2, 3, 4]);

  it('slotting sets the side value and adds the face weight to the base weight of 1', () => {
    const s = slot(base, 2, face(9, 2));
    expect(currentValues(s)).toEqual([1, 9, 3, 4]);
    expect(rollChances(s).map((c) => c.weight)).toEqual([1, 3, 1, 1]);
    expect(base.sides[1]!.face).toBeNull(); // the input is untouched
    expect(stoneSchema.safeParse(s).success).toBe(true);
  });

  it('refuses a side that already holds a face (unslot first)', () => {
    const s = slot(base, 1, face(9));
    expectRuleError(() => slot(s, 1, face(8)), 'krellstones/side-has-face');
  });

  it("refuses a face whose value repeats another side's current value (printed or slotted)", () => {
    expectRuleError(() => slot(base, 1, face(3)), 'krellstones/value-repeats');
    const s = slot(base, 1, face(9));
    expectRuleError(() => slot(s, 2, face(9)), 'krellstones/value-repeats');
    // Its own side's printed value is not "another side": a heavier 2 on side 2 is fine.
    expect(currentValues(slot(base, 2, face(2, 1)))).toEqual([1, 2, 3, 4]);
  });

  it('refuses a face of another stone type and a side that does not exist', () => {
    expectRuleError(() => slot(base, 1, face(9, 0, 'krell')), 'krellstones/wrong-stone-type');
    expectRuleError(() => slot(base, 5, face(9)), 'krellstones/no-such-side');
    expectRuleError(() => slot(base, 0, face(9)), 'krellstones/no-such-side');
  });

  it('unslot returns the face and restores the printed value', () => {
    const s = slot(base, 3, face(7, 1));
    const [back, f] = unslot(s, 3);
    expect(back).toEqual(base);
    expect(f).toEqual(face(7, 1));
    expectRuleError(() => unslot(base, 3), 'krellstones/no-face');
  });

  it("refuses to unslot when the printed value would repeat another side's value", () => {
    // Side 1 printed 1 shows 9; side 2 printed 2 shows 1: unslotting side 1 would show 1 twice.
    const s = slot(slot(base, 1, face(9)), 2, face(1));
    expectRuleError(() => unslot(s, 1), 'krellstones/value-repeats');
    // Unslotting everything at once is always consistent: printed values are distinct.
    const [all, faces] = unslotAll(s);
    expect(all).toEqual(base);
    expect(faces).toEqual([face(9), face(1)]);
  });

  it('the stone schema refuses repeated values, wrong side counts, out-of-range values and foreign faces', () => {
    expect(stoneSchema.safeParse(pawn([1, 2, 3, 4])).success).toBe(true);
    expect(stoneSchema.safeParse(pawn([1, 2, 3, 3])).success).toBe(false);
    expect(stoneSchema.safeParse(pawn([1, 2, 3])).success).toBe(false);
    expect(stoneSchema.safeParse(pawn([1, 2, 3, 11])).success).toBe(false);
    expect(stoneSchema.safeParse({ type: 'pawn', sides: [{ printed: 1, face: face(2) }, ...pawn([2, 3, 4]).sides] }).success).toBe(false);
    expect(stoneSchema.safeParse({ type: 'pawn', sides: [{ printed: 1, face: face(9, 0, 'krell') }, ...pawn([2, 3, 4]).sides] }).success).toBe(false);
    expect(faceSchema.safeParse({ type: 'master', value: 2, weight: 0, promo: false }).success).toBe(false); // Masters are odd
    expect(faceSchema.safeParse({ type: 'master', value: 67, weight: 3, promo: false }).success).toBe(false);
  });
});

describe('new stones and faces', () => {
  const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex);

  it('a new stone has the type’s side count and distinct values within its range', () => {
    fc.assert(
      fc.property(seedArb, fc.constantFrom(...STONE_TYPES), (seed, type) => {
        const [s, rng] = newStone(type, rngFromSeed(seed));
        const values = currentValues(s);
        expect(values).toHaveLength(STONE_KINDS[type].sides);
        expect(new Set(values).size).toBe(values.length);
        for (const v of values) expect(allowedValues(type)).toContain(v);
        expect(stoneSchema.safeParse(s).success).toBe(true);
        expect(rng.n).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });

  it('is deterministic from the seed', () => {
    expect(newStone('master', rngFromSeed(SEED_A))).toEqual(newStone('master', rngFromSeed(SEED_A)));
    expect(newStone('master', rngFromSeed(SEED_A))[0]).not.toEqual(newStone('master', rngFromSeed(SEED_B))[0]);
  });

  it('face weights come 0/1/2 with 70/25/5% and one face in ten is promo (chi-square, 6,000 faces)', () => {
    let r: RngState = rngFromSeed(SEED_B);
    const weights = [0, 0, 0];
    const promo = [0, 0];
    const types: Record<string, number> = {};
    for (let i = 0; i < 6_000; i++) {
      const [f, next] = newFace(r);
      r = next;
      if (i < 100) expect(faceSchema.safeParse(f).success).toBe(true);
      weights[f.weight]! += 1;
      promo[f.promo ? 1 : 0]! += 1;
      types[f.type] = (types[f.type] ?? 0) + 1;
    }
    expect(chiSquare(weights, [0.7, 0.25, 0.05])).toBeLessThan(CHI2_999[2]);
    expect(chiSquare(promo, [0.9, 0.1])).toBeLessThan(CHI2_999[1]);
    expect(chiSquare(STONE_TYPES.map((t) => types[t] ?? 0), [0.25, 0.25, 0.25, 0.25])).toBeLessThan(CHI2_999[3]);
    // The same test catches a generator that ignores the odds.
    expect(chiSquare([2000, 2000, 2000], [0.7, 0.25, 0.05])).toBeGreaterThan(CHI2_999[2]);
  });

  it('a face of a given type stays in that type’s range', () => {
    let r: RngState = rngFromSeed(SEED_A);
    for (let i = 0; i < 200; i++) {
      const [f, next] = newFace(r, 'master');
      r = next;
      expect(f.type).toBe('master');
      expect(f.value % 2).toBe(1);
    }
  });

  it('a face pack holds three faces; a starter kit one loadout, one mat and two faces; prices as the edition says', () => {
    const [pack] = facePack(rngFromSeed(SEED_A));
    expect(pack).toHaveLength(FACE_PACK_SIZE);
    const [kit] = starterKit(rngFromSeed(SEED_A));
    expect(kit.stones.map((s) => s.type)).toEqual(['pawn', 'dancer', 'krell', 'krell', 'krell', 'master']);
    expect(kit.mats).toBe(1);
    expect(kit.faces).toHaveLength(2);
    expect(PRICES).toEqual({ starterKit: 100, facePack: 30, mat: 50, promoTradeIn: 10 });
  });
});

describe('rolls', () => {
  it('roll chances are weight / total per side', () => {
    const s = slot(slot(pawn([1, 2, 3, 4]), 1, face(7, 2)), 3, face(9, 1));
    expect(rollChances(s)).toEqual([
      { side: 1, value: 7, weight: 3, chance: 3 / 7 },
      { side: 2, value: 2, weight: 1, chance: 1 / 7 },
      { side: 3, value: 9, weight: 2, chance: 2 / 7 },
      { side: 4, value: 4, weight: 1, chance: 1 / 7 },
    ]);
  });

  it('a weighted roll follows the weights (chi-square over 7,000 seeded rolls)', () => {
    const s = slot(slot(pawn([1, 2, 3, 4]), 1, face(7, 2)), 3, face(9, 1));
    const counts = [0, 0, 0, 0];
    let r: RngState = rngFromSeed(SEED_A);
    for (let i = 0; i < 7_000; i++) {
      const [{ side, value }, next] = rollStone(s, r);
      r = next;
      expect(value).toBe(currentValues(s)[side - 1]);
      counts[side - 1]! += 1;
    }
    expect(chiSquare(counts, [3 / 7, 1 / 7, 2 / 7, 1 / 7])).toBeLessThan(CHI2_999[3]);
    expect(chiSquare(counts, [1 / 4, 1 / 4, 1 / 4, 1 / 4])).toBeGreaterThan(CHI2_999[3]); // unweighted would not pass
  });
});

describe('completing a selection (READY with fewer than six)', () => {
  const owned = [
    { id: 'p1', type: 'pawn' as const },
    { id: 'd1', type: 'dancer' as const },
    { id: 'k1', type: 'krell' as const },
    { id: 'k2', type: 'krell' as const },
    { id: 'k3', type: 'krell' as const },
    { id: 'k4', type: 'krell' as const },
    { id: 'm1', type: 'master' as const },
  ];

  it('keeps the chosen stones and fills the rest at random, in slot order', () => {
    const [ids] = completeSelection(owned, ['k4', 'm1'], rngFromSeed(SEED_A));
    expect(ids[0]).toBe('p1');
    expect(ids[1]).toBe('d1');
    expect(ids[2]).toBe('k4');
    expect(new Set(ids.slice(2, 5)).size).toBe(3);
    expect(ids[5]).toBe('m1');
  });

  it('refuses clearly when a type is missing, too many are chosen, or a stone is not owned', () => {
    expectRuleError(() => completeSelection(owned.filter((s) => s.type !== 'master'), [], rngFromSeed(SEED_A)), 'krellstones/missing-stones');
    expectRuleError(() => completeSelection(owned, ['k1', 'k2', 'k3', 'k4'], rngFromSeed(SEED_A)), 'krellstones/too-many');
    expectRuleError(() => completeSelection(owned, ['zz'], rngFromSeed(SEED_A)), 'krellstones/not-owned');
    expectRuleError(() => completeSelection(owned, ['k1', 'k1'], rngFromSeed(SEED_A)), 'krellstones/duplicate-stone');
  });
});
