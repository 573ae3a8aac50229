-- Time controls and absence (issue 13, feature 3): time per move chosen by the challenger within
-- the server's limits, vacations that pause a player's clocks, one nudge per turn.
ALTER TABLE "guilds" ADD COLUMN "min_move_minutes" INTEGER NOT NULL DEFAULT 1440,
ADD COLUMN "max_move_minutes" INTEGER NOT NULL DEFAULT 10080,
ADD COLUMN "vacation_days" INTEGER NOT NULL DEFAULT 14;

ALTER TABLE "challenges" ADD COLUMN "turn_limit_minutes" INTEGER;

ALTER TABLE "games" ADD COLUMN "turn_limit_minutes" INTEGER;

ALTER TABLE "seats" ADD COLUMN "vacation_until" TIMESTAMP(3),
ADD COLUMN "nudged_turn" INTEGER;

-- CreateTable
CREATE TABLE "vacations" (
    "id" SERIAL NOT NULL,
    "guild_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "days" INTEGER NOT NULL,
    "starts_at" TIMESTAMP(3) NOT NULL,
    "ends_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vacations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "vacations_guild_id_player_id_period_idx" ON "vacations"("guild_id", "player_id", "period");
