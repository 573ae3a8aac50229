// The least a move's transaction can be on Postgres: BEGIN, the game's version read under a row
// lock, a write conditional on that version, COMMIT, with plain pg and prepared statements. The
// clicks section's floor runs it from the bench process (bench/concurrency.ts plainFloor), and the
// floor bot runs it for each click (bench/floor-bot-main.ts).
import type { Pool } from 'pg';

export interface PlainMoveStatements {
  /** Reads `version` of row $1 FOR UPDATE. */
  read: { name: string; text: string };
  /** Writes row $1 where its version is still $2. */
  write: { name: string; text: string };
}

export async function plainMove(pool: Pool, statements: PlainMoveStatements, id: number): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const r = await c.query<{ version: number }>({ ...statements.read, values: [id] });
    await c.query({ ...statements.write, values: [id, r.rows[0]!.version] });
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}
