-- CreateTable
CREATE TABLE "rematches" (
    "game_id" INTEGER NOT NULL,
    "accepted" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "new_game_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rematches_pkey" PRIMARY KEY ("game_id")
);
