import { createHmac } from 'node:crypto';
import { z } from 'zod';

/**
 * The seeded generator carried inside every game's state.
 *
 * Draw number n (0, 1, 2, ...) is HMAC-SHA256(key = seed, message = "stonehall:" + n), read as
 * eight big-endian 32-bit words; a die or any uniform integer below `bound` takes the first word
 * w with w < floor(2^32 / bound) * bound and returns w % bound (rejection sampling, so no bias).
 * If all eight words are rejected (probability < 2^-200) the next draw number is used.
 *
 * The state is just { seed, n }: a replay needs nothing but the seed and the move log, and anyone
 * holding the revealed seed can recompute every roll with a few lines in any language.
 * The seed has 256 bits, so watching rolls does not let a player predict the next one.
 */
export const rngStateSchema = z.object({ seed: z.string().regex(/^[0-9a-f]{64}$/), n: z.number().int().nonnegative() });
export type RngState = z.infer<typeof rngStateSchema>;

export function rngFromSeed(seed: string): RngState {
  return { seed, n: 0 };
}

/** Returns a uniform integer in [0, bound) and the advanced generator state. */
export function nextInt(rng: RngState, bound: number): [number, RngState] {
  if (!Number.isInteger(bound) || bound < 1 || bound > 2 ** 32) throw new RangeError(`bad bound ${bound}`);
  const limit = Math.floor(2 ** 32 / bound) * bound;
  let n = rng.n;
  for (;;) {
    const digest = createHmac('sha256', Buffer.from(rng.seed, 'hex')).update(`stonehall:${n}`).digest();
    n += 1;
    for (let i = 0; i < 32; i += 4) {
      const w = digest.readUInt32BE(i);
      if (w < limit) return [w % bound, { seed: rng.seed, n }];
    }
  }
}

/** A die roll 1..sides. */
export function rollDie(rng: RngState, sides = 6): [number, RngState] {
  const [v, next] = nextInt(rng, sides);
  return [v + 1, next];
}

/** Fisher-Yates shuffle returning a new array. */
export function shuffle<T>(rng: RngState, items: readonly T[]): [T[], RngState] {
  const out = items.slice();
  let r = rng;
  for (let i = out.length - 1; i > 0; i--) {
    const [j, next] = nextInt(r, i + 1);
    r = next;
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return [out, r];
}

/**
 * An index drawn with probability weight / total (weights are non-negative integers, at least one
 * positive): one uniform draw below the total, then the first index whose running sum exceeds it.
 */
export function weightedIndex(rng: RngState, weights: readonly number[]): [number, RngState] {
  if (weights.some((w) => !Number.isInteger(w) || w < 0)) throw new RangeError('weights must be non-negative integers');
  const total = weights.reduce((a, b) => a + b, 0);
  if (total < 1) throw new RangeError('at least one weight must be positive');
  const [x, next] = nextInt(rng, total);
  let acc = 0;
  for (let i = 0; i < weights.length; i++) {
    acc += weights[i]!;
    if (x < acc) return [i, next];
  }
  throw new Error('unreachable');
}
