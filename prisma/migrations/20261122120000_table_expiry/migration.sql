-- AlterTable
ALTER TABLE "game_tables" ADD COLUMN     "expires_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "guilds" ADD COLUMN     "table_open_minutes" INTEGER NOT NULL DEFAULT 4320;
