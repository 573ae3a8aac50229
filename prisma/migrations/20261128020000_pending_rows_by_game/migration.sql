-- Every move's write looks up its game's pending jobs (to cancel its timers) and its game's
-- pending DM rows (a retire row is queued only while the player's DM is live or a DM row of this
-- game waits for them, src/services/changes.ts). Both went through the status indexes, so each
-- move read every pending job and every pending outbox row of every game: 5 ms and 34 ms a move
-- with 16,000 pending timers and 13,000 undelivered rows (tests/reliability/load.test.ts; a real
-- outbox backlog while Discord is down or rate limits, or a server with many running games).

-- A game's jobs by status (replaces the index on game_id alone, which this one also serves).
DROP INDEX "jobs_game_id_idx";
CREATE INDEX "jobs_game_id_status_idx" ON "jobs"("game_id", "status");

-- A game's pending outbox rows: the game is in the payload (a DM's in its notification).
-- schema.prisma cannot declare an index on an expression; tests/db/schema-matches.test.ts checks it.
CREATE INDEX "outbox_pending_game_idx" ON "outbox" ((COALESCE(payload->>'gameId', payload->'notification'->>'gameId'))) WHERE status = 'pending';
