-- AlterTable
ALTER TABLE "games" ADD COLUMN     "player_data" JSONB,
ADD COLUMN     "practice" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "seats" ADD COLUMN     "autopilot" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "assets" (
    "id" SERIAL NOT NULL,
    "guild_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "game" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "locked_by_game_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "assets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "assets_guild_id_player_id_game_type_idx" ON "assets"("guild_id", "player_id", "game", "type");

-- CreateIndex
CREATE INDEX "assets_locked_by_game_id_idx" ON "assets"("locked_by_game_id");

-- AddForeignKey
ALTER TABLE "assets" ADD CONSTRAINT "assets_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assets" ADD CONSTRAINT "assets_locked_by_game_id_fkey" FOREIGN KEY ("locked_by_game_id") REFERENCES "games"("id") ON DELETE SET NULL ON UPDATE CASCADE;
