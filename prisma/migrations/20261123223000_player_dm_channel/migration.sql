-- The DM channel between the bot and this player (stable per bot and user): opened once, not once per process.
ALTER TABLE "players" ADD COLUMN "dm_channel_id" TEXT;
