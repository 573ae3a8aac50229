import { describe, expect, it } from 'vitest';
import { check } from './check.ts';

type Run = (m: Record<string, unknown> & { not: Record<string, unknown> }) => void;

/** Each case runs the same matcher on `check` and on vitest's `expect`: both pass, or both fail with the same message. */
const call =
  (name: string, ...args: unknown[]): Run =>
  (m) => {
    const [negated, matcher] = name.startsWith('not.') ? [true, name.slice(4)] : [false, name];
    const target = (negated ? m.not : m) as Record<string, (...a: unknown[]) => unknown>;
    target[matcher]!(...args);
  };

const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
class Point {
  constructor(public x: number) {}
}
const cases: Array<[string, unknown, Run, boolean]> = [
  ['toBe same', 3, call('toBe', 3), true],
  ['toBe other', 3, call('toBe', 4), false],
  ['toBe NaN', NaN, call('toBe', NaN), true],
  ['toBe -0', 0, call('toBe', -0), false],
  ['toBe objects', {}, call('toBe', {}), false],
  ['toEqual deep', { a: [1, { b: 2 }] }, call('toEqual', { a: [1, { b: 2 }] }), true],
  ['toEqual differs', { a: [1, { b: 2 }] }, call('toEqual', { a: [1, { b: 3 }] }), false],
  ['toEqual undefined key (vitest decides)', { a: 1, b: undefined }, call('toEqual', { a: 1 }), true],
  ['toEqual asymmetric (vitest decides)', { a: 5 }, call('toEqual', { a: expect.any(Number) }), true],
  ['toEqual class vs plain (vitest decides)', new Point(1), call('toEqual', { x: 1 }), true],
  ['toStrictEqual deep', [{ a: 1 }], call('toStrictEqual', [{ a: 1 }]), true],
  ['toStrictEqual undefined key', { a: 1, b: undefined }, call('toStrictEqual', { a: 1 }), false],
  ['toStrictEqual sparse', sparse, call('toStrictEqual', [1, undefined, 3]), false],
  ['toStrictEqual class vs plain', new Point(1), call('toStrictEqual', { x: 1 }), false],
  ['toBeNull', null, call('toBeNull'), true],
  ['toBeNull undefined', undefined, call('toBeNull'), false],
  ['toBeDefined', 0, call('toBeDefined'), true],
  ['toBeDefined undefined', undefined, call('toBeDefined'), false],
  ['toBeUndefined', undefined, call('toBeUndefined'), true],
  ['toBeUndefined null', null, call('toBeUndefined'), false],
  ['toBeLessThan', 1, call('toBeLessThan', 2), true],
  ['toBeLessThan equal', 2, call('toBeLessThan', 2), false],
  ['toBeLessThan string (vitest refuses)', '1', call('toBeLessThan', 2), false],
  ['toBeLessThanOrEqual', 2, call('toBeLessThanOrEqual', 2), true],
  ['toBeLessThanOrEqual over', 3, call('toBeLessThanOrEqual', 2), false],
  ['toBeGreaterThan', 3, call('toBeGreaterThan', 2), true],
  ['toBeGreaterThan NaN', NaN, call('toBeGreaterThan', 2), false],
  ['toBeGreaterThanOrEqual', 2, call('toBeGreaterThanOrEqual', 2), true],
  ['toBeGreaterThanOrEqual under', 1, call('toBeGreaterThanOrEqual', 2), false],
  ['toHaveLength array', [1, 2], call('toHaveLength', 2), true],
  ['toHaveLength string', 'abc', call('toHaveLength', 2), false],
  ['toHaveLength undefined', undefined, call('toHaveLength', 0), false],
  ['toContain string', 'hello', call('toContain', 'ell'), true],
  ['toContain string missing', 'hello', call('toContain', 'x'), false],
  ['toContain array', [1, 2], call('toContain', 2), true],
  ['toContain array missing', [1, 2], call('toContain', 3), false],
  ['toContain NaN (vitest compares with ===)', [NaN], call('toContain', NaN), false],
  ['not.toContain NaN (vitest decides)', [NaN], call('not.toContain', NaN), true],
  ['toContain set (vitest decides)', new Set([1]), call('toContain', 1), true],
  ['toMatch regexp', 'abc', call('toMatch', /b/), true],
  ['toMatch string', 'abc', call('toMatch', 'bc'), true],
  ['toMatch missing', 'abc', call('toMatch', /x/), false],
  ['toMatch global regexp (vitest decides)', 'abc', call('toMatch', /b/g), true],
  ['not.toBe', 1, call('not.toBe', 2), true],
  ['not.toBe same', 1, call('not.toBe', 1), false],
  ['not.toBeNull', 0, call('not.toBeNull'), true],
  ['not.toBeNull null', null, call('not.toBeNull'), false],
  ['not.toContain string', 'abc', call('not.toContain', 'x'), true],
  ['not.toContain string found', 'abc', call('not.toContain', 'b'), false],
  ['not.toContain array', [1], call('not.toContain', 2), true],
  ['not.toContain array found', [1], call('not.toContain', 1), false],
  ['not.toMatch', 'abc', call('not.toMatch', /x/), true],
  ['not.toMatch found', 'abc', call('not.toMatch', /b/), false],
  ['not.toHaveProperty', { a: 1 }, call('not.toHaveProperty', 'b'), true],
  ['not.toHaveProperty found', { a: 1 }, call('not.toHaveProperty', 'a'), false],
  ['not.toHaveProperty inherited', {}, call('not.toHaveProperty', 'toString'), false],
  ['not.toHaveProperty path (vitest decides)', { a: { b: 1 } }, call('not.toHaveProperty', 'a.b'), false],
];

const outcome = (f: () => void): string => {
  try {
    f();
    return 'passed';
  } catch (err) {
    return `failed: ${(err as Error).message}`;
  }
};

describe('check: the matchers of expect for hot loops', () => {
  it.each(cases)('%s: passes or fails exactly as expect does, with its message', (_name, actual, run, passes) => {
    const viaExpect = outcome(() => run(expect(actual, 'the label') as never));
    const viaCheck = outcome(() => run(check(actual, 'the label') as never));
    expect(viaExpect.startsWith('passed'), viaExpect).toBe(passes);
    expect(viaCheck).toBe(viaExpect);
  });
});
