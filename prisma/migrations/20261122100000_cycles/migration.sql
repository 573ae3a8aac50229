-- AlterTable
ALTER TABLE "games" ADD COLUMN     "cycle_id" INTEGER;

-- AlterTable
ALTER TABLE "guilds" ADD COLUMN     "announcement_channel_id" TEXT,
ADD COLUMN     "battle_cron" TEXT,
ADD COLUMN     "commencement_channel_id" TEXT,
ADD COLUMN     "leaderboard_channel_id" TEXT,
ADD COLUMN     "rest_cron" TEXT,
ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "seasons" (
    "id" SERIAL NOT NULL,
    "guild_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "seasons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cycles" (
    "id" SERIAL NOT NULL,
    "guild_id" TEXT NOT NULL,
    "season_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "phase" TEXT,
    "phase_seq" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "cycles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "phases" (
    "id" SERIAL NOT NULL,
    "cycle_id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'command',
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "phases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "intents" (
    "id" SERIAL NOT NULL,
    "phase_id" INTEGER NOT NULL,
    "statement" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "opponent_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "match_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMP(3),

    CONSTRAINT "intents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "matches" (
    "id" SERIAL NOT NULL,
    "phase_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "player_a" TEXT NOT NULL,
    "player_b" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "game_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "matches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_items" (
    "cycle_id" INTEGER NOT NULL,
    "player_id" TEXT NOT NULL,
    "item" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "inventory_items_pkey" PRIMARY KEY ("cycle_id","player_id","item")
);

-- CreateIndex
CREATE INDEX "games_cycle_id_idx" ON "games"("cycle_id");

-- CreateIndex
CREATE INDEX "seasons_guild_id_status_idx" ON "seasons"("guild_id", "status");

-- CreateIndex
CREATE INDEX "cycles_guild_id_status_idx" ON "cycles"("guild_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "phases_cycle_id_seq_key" ON "phases"("cycle_id", "seq");

-- CreateIndex
CREATE INDEX "intents_phase_id_opponent_id_status_idx" ON "intents"("phase_id", "opponent_id", "status");

-- CreateIndex
CREATE INDEX "intents_phase_id_player_id_status_idx" ON "intents"("phase_id", "player_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "matches_phase_id_kind_player_a_player_b_key" ON "matches"("phase_id", "kind", "player_a", "player_b");

-- CreateIndex
CREATE INDEX "inventory_items_player_id_idx" ON "inventory_items"("player_id");

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_cycle_id_fkey" FOREIGN KEY ("cycle_id") REFERENCES "cycles"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seasons" ADD CONSTRAINT "seasons_guild_id_fkey" FOREIGN KEY ("guild_id") REFERENCES "guilds"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cycles" ADD CONSTRAINT "cycles_season_id_fkey" FOREIGN KEY ("season_id") REFERENCES "seasons"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "phases" ADD CONSTRAINT "phases_cycle_id_fkey" FOREIGN KEY ("cycle_id") REFERENCES "cycles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intents" ADD CONSTRAINT "intents_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "matches" ADD CONSTRAINT "matches_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_cycle_id_fkey" FOREIGN KEY ("cycle_id") REFERENCES "cycles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
