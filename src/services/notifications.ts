import { z } from 'zod';
import type { Tx } from '../db/client.ts';

/**
 * What the outbox carries. Rows describe what happened (facts fixed in the transaction that
 * caused them); src/outbox renders them into Discord messages at delivery time.
 */
export const notificationSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('turn'),
    gameId: z.number().int(),
    kind: z.string(),
    /** The engine view for the recipient (safe: it is their own view). */
    view: z.unknown(),
    deadlineAt: z.string(),
    opponents: z.array(z.string()),
  }),
  z.object({
    type: z.literal('reminder'),
    gameId: z.number().int(),
    kind: z.string(),
    view: z.unknown(),
    deadlineAt: z.string(),
  }),
  z.object({
    /** A move concerns this player privately (playMove's `notify`); `view` is their own. */
    type: z.literal('update'),
    gameId: z.number().int(),
    kind: z.string(),
    view: z.unknown(),
    actor: z.string(),
  }),
  z.object({
    type: z.literal('game-over'),
    gameId: z.number().int(),
    kind: z.string(),
    winners: z.array(z.string()),
    reason: z.string(),
    forfeited: z.string().optional(),
    /** Players whose turn ran out (their forfeit was a timeout, not a choice). */
    timedOut: z.array(z.string()).optional(),
    scores: z.record(z.string(), z.number()).optional(),
  }),
]);
export type Notification = z.infer<typeof notificationSchema>;

export const outboxPayloadSchemas = {
  dm: z.object({
    userId: z.string(),
    fallbackChannelId: z.string(),
    notification: notificationSchema,
    /**
     * A turn DM that edits the player's newest DM of this game in place (no new message, no ping)
     * when there is one (TimerSpec.dm 'edit'); else, or when that DM is gone, it is posted.
     */
    edit: z.boolean().optional(),
    /**
     * The game as the change committed it, for rendering the DM without reading the game again.
     * `boardMessageId` null: the board was not posted yet (a new game), read it at delivery.
     * Rows written before this existed have none: the dispatcher reads the game then.
     */
    meta: z
      .object({
        guildId: z.string(),
        channelId: z.string(),
        boardMessageId: z.string().nullable(),
        version: z.number().int(),
        active: z.boolean(),
        cycle: z.boolean(),
        players: z.array(z.string()),
      })
      .optional(),
  }),
  board: z.object({ gameId: z.number().int() }),
  /**
   * A finished game's result, posted in its channel (an edited board notifies nobody): the
   * winners first, the players mentioned, a Rematch button. Rendered from the database at delivery.
   */
  result: z.object({ gameId: z.number().int() }),
  /**
   * The player's newest DM of a game, edited in place: `refresh` re-renders their running turn
   * (they moved and their turn goes on: a die item, a step of a longer turn), `retire` removes its
   * game buttons (their turn ended, wherever they moved). `version`: the game version at which this
   * was written; a retire is skipped when a newer turn of theirs has begun.
   */
  'dm-edit': z.object({ gameId: z.number().int(), userId: z.string(), mode: z.enum(['refresh', 'retire']), version: z.number().int() }),
  'channel-message': z.object({
    channelId: z.string(),
    content: z.string().max(2000),
    allowedUserIds: z.array(z.string()).default([]),
  }),
  /** A plain DM (cycles: games started, intents lapsed, rewards); a mention in the fallback channel if DMs are closed. */
  'text-dm': z.object({ userId: z.string(), fallbackChannelId: z.string(), content: z.string().max(1800) }),
  /** A table's message (src/bot/tables.ts), re-rendered from the database at delivery. */
  table: z.object({ tableId: z.number().int() }),
  /** A cycle's leaderboard, rendered from the database at delivery. */
  leaderboard: z.object({ channelId: z.string(), cycleId: z.number().int(), kind: z.string() }),
} as const;
/**
 * SQL: the game of outbox row `alias` (a DM carries it in its notification). The statements that
 * look up a game's pending rows (a move's write, a turn DM's target, the claim's retire test) name
 * the game with this expression, the one the partial index `outbox_pending_game_idx` is built on
 * (prisma/migrations/20261128020000_pending_rows_by_game), so that the index serves them.
 */
export const outboxRowGame = (alias: string): string => `COALESCE(${alias}.payload->>'gameId', ${alias}.payload->'notification'->>'gameId')`;

export type OutboxKind = keyof typeof outboxPayloadSchemas;
export type OutboxPayload<K extends OutboxKind> = z.infer<(typeof outboxPayloadSchemas)[K]>;

export async function enqueue<K extends OutboxKind>(tx: Tx, kind: K, payload: OutboxPayload<K>, now: Date): Promise<void> {
  await tx.outbox.create({ data: { kind, payload: payload as object, availableAt: now, createdAt: now } });
}
