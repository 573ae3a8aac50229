-- AlterTable
ALTER TABLE "challenges" ADD COLUMN     "options" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "game_tables" (
    "id" SERIAL NOT NULL,
    "guild_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "seat_count" INTEGER NOT NULL,
    "host_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "message_id" TEXT,
    "game_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMP(3),

    CONSTRAINT "game_tables_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "table_seats" (
    "table_id" INTEGER NOT NULL,
    "seat" INTEGER NOT NULL,
    "player_id" TEXT NOT NULL,
    "joined_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "table_seats_pkey" PRIMARY KEY ("table_id","seat")
);

-- CreateIndex
CREATE INDEX "game_tables_guild_id_status_idx" ON "game_tables"("guild_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "table_seats_table_id_player_id_key" ON "table_seats"("table_id", "player_id");

-- AddForeignKey
ALTER TABLE "table_seats" ADD CONSTRAINT "table_seats_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "game_tables"("id") ON DELETE CASCADE ON UPDATE CASCADE;
