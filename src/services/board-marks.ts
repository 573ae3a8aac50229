import { query, type Statement } from '../db/hot.ts';
import { perDb, type ServiceContext } from './context.ts';

/**
 * Board marks: after a click's answer has edited a board in place, the game row records the
 * version the board now shows (`board_version`), so the outbox's board row, which waits
 * BOARD_BY_REPLY_GRACE_MS as a fallback, finds the board current and makes no rate-limited edit.
 *
 * Marks are written together (a group commit): the first mark goes out at once, and the marks made
 * while a statement is in flight go out in the next one, so a busy bot writes one statement for
 * many clicks and a quiet one waits for nothing. Each caller's promise settles when the statement
 * that carries its mark has run, as if it had run its own.
 *
 * A board that must be drawn again although no move was made (a vacation shows on it) has
 * `board_version` BOARD_REDRAW until the outbox's board row has drawn it: no mark overwrites that,
 * so a click's mark that arrives late (after the vacation) cannot make the board row believe the
 * board already shows the vacation. Such a mark is dropped, and the board row edits the board.
 *
 * Marks of one game in one batch: the newest version is written. A mark is only ever a hint that
 * saves an edit (the board row edits the board when it is missing), so a mark skipped here (the
 * game's row locked by a move, or an older mark of a board reposted meanwhile) costs at most one
 * edit, never a stale board.
 */
export async function markBoardRendered(ctx: ServiceContext, gameId: number, version: number, messageId: string): Promise<void> {
  return perDb(batchers, ctx, () => new BoardMarks(ctx.db)).mark(gameId, version, messageId);
}

/**
 * `board_version` of a board that must be drawn again whatever the game's version (below the -1 of a
 * board never drawn, and below any version, so the board row finds the board not current).
 */
export const BOARD_REDRAW = -2;

/** One batcher per database client (the tests run several bots in one process). */
const batchers = new WeakMap<object, BoardMarks>();

/**
 * The marks of a batch, as JSON rows {id, version, message_id}. Never waits behind a move's lock
 * on a game row (SKIP LOCKED): that move's own answer records a newer board, or failing that its
 * board row edits the board. Locks taken with SKIP LOCKED never wait, so marks of many games in one
 * statement cannot deadlock with anything.
 */
const MARK_BOARDS: Statement = {
  name: 'stonehall-mark-boards',
  text: `WITH v AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(id int, version int, message_id text)),
    free AS (SELECT g.id FROM games g WHERE g.id IN (SELECT id FROM v) FOR NO KEY UPDATE SKIP LOCKED)
    UPDATE games g SET board_version = v.version, board_message_id = v.message_id
    FROM v WHERE g.id = v.id AND g.id IN (SELECT id FROM free)
      AND g.board_version < v.version AND g.board_version <> ${BOARD_REDRAW} AND (g.board_message_id = v.message_id OR g.board_message_id IS NULL)`,
};

interface Queued {
  version: number;
  messageId: string;
  waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }>;
}

class BoardMarks {
  private queued = new Map<number, Queued>();
  private flushing = false;

  constructor(private readonly db: ServiceContext['db']) {}

  mark(gameId: number, version: number, messageId: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const q = this.queued.get(gameId);
      if (!q) this.queued.set(gameId, { version, messageId, waiters: [{ resolve, reject }] });
      else {
        if (version >= q.version) Object.assign(q, { version, messageId });
        q.waiters.push({ resolve, reject });
      }
      if (!this.flushing) void this.flush();
    });
  }

  /** Writes what is queued, then what was queued meanwhile, until nothing is left. */
  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queued.size > 0) {
        const batch = this.queued;
        this.queued = new Map();
        const rows = [...batch].map(([id, q]) => ({ id, version: q.version, message_id: q.messageId }));
        try {
          await query(this.db, MARK_BOARDS, [JSON.stringify(rows)]);
          for (const q of batch.values()) for (const w of q.waiters) w.resolve();
        } catch (err) {
          for (const q of batch.values()) for (const w of q.waiters) w.reject(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
