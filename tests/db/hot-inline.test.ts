import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { inlineStatement, quoteLiteral, type Statement } from '../../src/db/hot.ts';
import { WRITE_CHANGE_CHECKED } from '../../src/services/changes.ts';
import { adminUrl } from '../helpers/pg.ts';

/**
 * The hot path's write is sent with its values inlined as literals (src/db/hot.ts `commitWith`):
 * the literals must be exactly what node-postgres's escapeLiteral wrote, and Postgres must read
 * each back as the very value.
 */

// Text Postgres can hold (no NUL), with the characters that matter to a literal made likely.
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => s.replaceAll('\u0000', '')),
  fc.array(fc.constantFrom("'", '\\', "''", '\\\\', 'E', ' ', 'a', '$1', '"', ';', '\n', 'é', '💥'), { maxLength: 30 }).map((a) => a.join('')),
);

/** The implementation before: a regular expression's replace, each string quoted by node-postgres. */
function reference(st: Statement, values: unknown[]): string {
  return st.text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = values[Number(n) - 1];
    if (v === null || v === undefined) return 'NULL';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number') return `(${v})`;
    return pg.escapeLiteral(v as string);
  });
}

describe('quoteLiteral', () => {
  it('writes what node-postgres escapeLiteral writes', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(quoteLiteral(s)).toBe(pg.escapeLiteral(s));
      }),
      { numRuns: 2000 },
    );
    expect(quoteLiteral(`it's a \\ path`)).toBe(` E'it''s a \\\\ path'`);
  });

  it('is read back by Postgres as the very string', async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 8 }), async (strings) => {
          const { rows } = await client.query<{ v: string[] }>(`SELECT ARRAY[${strings.map((s) => `${quoteLiteral(s)}::text`).join(', ')}] AS v`);
          expect(rows[0]!.v).toEqual(strings);
        }),
        { numRuns: 60 },
      );
    } finally {
      await client.end();
    }
  });
});

describe('inlineStatement', () => {
  const value = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -1e9, max: 1e9 }), text);

  it('gives the text the regular-expression replace gave, for the real write and for any statement', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 12, maxLength: 12 }), (values) => {
        expect(inlineStatement(WRITE_CHANGE_CHECKED, values)).toBe(reference(WRITE_CHANGE_CHECKED, values));
      }),
      { numRuns: 300 },
    );
    const statement = fc
      .array(fc.oneof(fc.constantFrom('SELECT ', ', ', '::int', ' AS x', "'$' ", ' WHERE '), fc.integer({ min: 1, max: 4 }).map((n) => `$${n}`)), { maxLength: 12 })
      .map((p) => ({ name: 'probe', text: p.join('') }));
    fc.assert(
      fc.property(statement, fc.array(value, { minLength: 4, maxLength: 4 }), (st, values) => {
        expect(inlineStatement(st, values)).toBe(reference(st, values));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a parameter past the values, and values it has no literal for', () => {
    expect(() => inlineStatement({ name: 'x', text: 'SELECT $1::int, $3::int' }, [1, 2])).toThrow('x: no value for $3');
    expect(() => inlineStatement({ name: 'y', text: 'SELECT $1::text' }, [new Date()])).toThrow('no literal for a object');
    expect(() => inlineStatement({ name: 'z', text: 'SELECT $1::float8' }, [0.5])).toThrow('no literal for a number');
  });
});
