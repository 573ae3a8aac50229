import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/**
 * `expect` for the hot loops of property tests, which assert invariants after every move of
 * hundreds of random games (a million assertions in the unit project). Vitest's `expect(x)` does
 * per-call bookkeeping (its state object is copied property by property, chai builds a proxy) that
 * took more CPU than the checks themselves: about a third of `npm run test:unit`.
 *
 * `check(actual, message)` has the same matchers with the same meaning. Each one first decides with a
 * plain comparison that can only say "passes" when vitest's matcher passes too (`Object.is`,
 * `isDeepStrictEqual`, `<`, `includes`); otherwise it runs vitest's own `expect(actual, message)`
 * matcher, which passes or fails exactly as before, with the usual message and diff. So a check
 * fails exactly when the `expect` it replaces would, and reads the same.
 *
 * For anything else (asymmetric matchers, `toThrow`, `toMatchObject`...) use `expect`.
 */
export function check<T>(actual: T, message?: string) {
  const slow = () => expect(actual, message);
  const num = (e: unknown): e is number => typeof actual === 'number' && typeof e === 'number';
  const hasLength = (n: number) => actual != null && (actual as { length?: unknown }).length === n;
  const contains = (item: unknown) =>
    typeof actual === 'string' ? typeof item === 'string' && actual.includes(item) : Array.isArray(actual) && actual.indexOf(item) !== -1;
  const lacks = (item: unknown) => (typeof actual === 'string' ? typeof item === 'string' && !actual.includes(item) : Array.isArray(actual) && !actual.includes(item));
  // A regular expression with state (g, y) changes as it tests: leave those to vitest.
  const matches = (p: RegExp | string) => typeof actual === 'string' && (typeof p === 'string' ? actual.includes(p) : !p.global && !p.sticky && p.test(actual));
  const misses = (p: RegExp | string) => typeof actual === 'string' && (typeof p === 'string' ? !actual.includes(p) : !p.global && !p.sticky && !p.test(actual));
  return {
    toBe: (e: unknown) => void (Object.is(actual, e) || slow().toBe(e)),
    toEqual: (e: unknown) => void (isDeepStrictEqual(actual, e) || slow().toEqual(e)),
    toStrictEqual: (e: unknown) => void (isDeepStrictEqual(actual, e) || slow().toStrictEqual(e)),
    toBeNull: () => void (actual === null || slow().toBeNull()),
    toBeDefined: () => void (actual !== undefined || slow().toBeDefined()),
    toBeUndefined: () => void (actual === undefined || slow().toBeUndefined()),
    toBeLessThan: (e: number) => void ((num(e) && (actual as number) < e) || slow().toBeLessThan(e)),
    toBeLessThanOrEqual: (e: number) => void ((num(e) && (actual as number) <= e) || slow().toBeLessThanOrEqual(e)),
    toBeGreaterThan: (e: number) => void ((num(e) && (actual as number) > e) || slow().toBeGreaterThan(e)),
    toBeGreaterThanOrEqual: (e: number) => void ((num(e) && (actual as number) >= e) || slow().toBeGreaterThanOrEqual(e)),
    toHaveLength: (n: number) => void (hasLength(n) || slow().toHaveLength(n)),
    toContain: (item: unknown) => void (contains(item) || slow().toContain(item)),
    toMatch: (p: RegExp | string) => void (matches(p) || slow().toMatch(p)),
    not: {
      toBe: (e: unknown) => void (!Object.is(actual, e) || slow().not.toBe(e)),
      toBeNull: () => void (actual !== null || slow().not.toBeNull()),
      toContain: (item: unknown) => void (lacks(item) || slow().not.toContain(item)),
      toMatch: (p: RegExp | string) => void (misses(p) || slow().not.toMatch(p)),
      /** A plain key (no path): absent when `in` does not find it. */
      toHaveProperty: (key: string) =>
        void ((typeof actual === 'object' && actual !== null && !/[.[]/.test(key) && !(key in actual)) || slow().not.toHaveProperty(key)),
    },
  };
}
