-- All-time Glicko-2 ratings per server, game and player (issue 13, feature 5).
CREATE TABLE "ratings" (
    "guild_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL DEFAULT 1500,
    "rd" DOUBLE PRECISION NOT NULL DEFAULT 350,
    "vol" DOUBLE PRECISION NOT NULL DEFAULT 0.06,
    "games" INTEGER NOT NULL DEFAULT 0,
    "wins" INTEGER NOT NULL DEFAULT 0,
    "draws" INTEGER NOT NULL DEFAULT 0,
    "losses" INTEGER NOT NULL DEFAULT 0,
    "forfeits" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ratings_pkey" PRIMARY KEY ("guild_id","kind","player_id")
);

-- CreateIndex
CREATE INDEX "ratings_player_id_idx" ON "ratings"("player_id");
