import { expect } from 'vitest';
import { RuleError } from '../../src/kernel/types.ts';

/**
 * What the engine tests of every game share (pure: no database, no server, so a test importing it
 * stays in the unit project).
 */

export const SEED_A = 'a'.repeat(64);
export const SEED_B = '0123456789abcdef'.repeat(4);

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** `fn` throws the RuleError `code`, with a message. */
export function expectRuleError(fn: () => unknown, code: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(RuleError);
  expect((caught as RuleError).code).toBe(code);
  expect((caught as RuleError).message.length).toBeGreaterThan(0);
}

/** Freezes `value` and everything in it: an engine that mutates its input then throws. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A small deterministic PRNG (mulberry32) for random games and legal-move generators: numbers in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
