import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSnowflakes } from '../src/snowflake.ts';

describe('compareSnowflakes', () => {
  it('orders digit strings as numbers, leading zeros and all', () => {
    const digits = fc.oneof(fc.stringMatching(/^[1-9]\d{0,19}$/), fc.stringMatching(/^0\d{0,19}$/), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String));
    fc.assert(
      fc.property(digits, digits, (a, b) => {
        const x = BigInt(a);
        const y = BigInt(b);
        expect(Math.sign(compareSnowflakes(a, b))).toBe(x < y ? -1 : x > y ? 1 : 0);
      }),
      { numRuns: 2000 },
    );
    expect(compareSnowflakes('99', '100')).toBe(-1);
    expect(compareSnowflakes('0100', '99')).toBe(1);
    expect(compareSnowflakes('007', '7')).toBe(0);
  });
});
