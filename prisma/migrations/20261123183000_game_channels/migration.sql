-- Moderators may limit where games are started (issue 13, feature 6). Empty: anywhere.
ALTER TABLE "guilds" ADD COLUMN "game_channel_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];
