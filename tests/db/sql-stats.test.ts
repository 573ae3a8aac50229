import { describe, expect, it } from 'vitest';
import { SQL_SHAPE } from '../../src/db/hot.ts';
import { statementKey } from '../../src/db/sql-stats.ts';

/** The bench's round-trip counter names each statement sent (src/db/sql-stats.ts). */
describe('statementKey', () => {
  it('names a text with inlined values by its shape: one key whatever the values, its statements counted', () => {
    const shape = `UPDATE games SET state = $1::jsonb WHERE id = $2::int; COMMIT`;
    const a = statementKey({ text: `UPDATE games SET state = '{"a": "x; y"}'::jsonb WHERE id = (7)::int; COMMIT`, [SQL_SHAPE]: shape });
    const b = statementKey({ text: `UPDATE games SET state = '{"b": 2}'::jsonb WHERE id = (8)::int; COMMIT`, [SQL_SHAPE]: shape });
    expect(a).toEqual(b);
    expect(a.statements).toBe(2);
    expect(a.key).toContain('UPDATE games SET state = $1::jsonb');
  });

  it('without a shape, reads literals in the text as ? and does not count a ; inside one', () => {
    const a = statementKey(`SELECT 'a; b' AS x, 12 AS y`);
    expect(a).toEqual({ key: 'SELECT ? AS x, ? AS y', statements: 1 });
    expect(statementKey({ name: 'stonehall-x', text: 'SELECT $1::int' })).toEqual({ key: '[stonehall-x] SELECT $1::int', statements: 1 });
  });
});
