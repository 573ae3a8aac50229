-- DropIndex
DROP INDEX "matches_phase_id_kind_player_a_player_b_key";

-- AlterTable
ALTER TABLE "matches" ADD COLUMN     "players" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Every match made so far is a pair.
UPDATE "matches" SET "players" = ARRAY["player_a", "player_b"];

-- AlterTable
ALTER TABLE "game_tables" ADD COLUMN     "invited" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "min_seats" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "matches_phase_id_kind_players_key" ON "matches"("phase_id", "kind", "players");
