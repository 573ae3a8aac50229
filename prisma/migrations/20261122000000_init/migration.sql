-- CreateTable
CREATE TABLE "guilds" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "turn_limit_minutes" INTEGER NOT NULL DEFAULT 1440,
    "reminder_minutes" INTEGER[] DEFAULT ARRAY[720, 240, 60]::INTEGER[],
    "moderator_role_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "guilds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "players" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "reminders_enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "players_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "challenges" (
    "id" SERIAL NOT NULL,
    "guild_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "challenger_id" TEXT NOT NULL,
    "opponent_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "message_id" TEXT,
    "game_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMP(3),

    CONSTRAINT "challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "games" (
    "id" SERIAL NOT NULL,
    "guild_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "options" JSONB NOT NULL DEFAULT '{}',
    "state" JSONB NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "seed" TEXT NOT NULL,
    "seed_commitment" TEXT NOT NULL,
    "board_message_id" TEXT,
    "board_version" INTEGER NOT NULL DEFAULT -1,
    "outcome" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "seats" (
    "game_id" INTEGER NOT NULL,
    "seat" INTEGER NOT NULL,
    "player_id" TEXT NOT NULL,
    "result" TEXT,
    "turn_version" INTEGER,
    "turn_started_at" TIMESTAMP(3),
    "deadline_at" TIMESTAMP(3),

    CONSTRAINT "seats_pkey" PRIMARY KEY ("game_id","seat")
);

-- CreateTable
CREATE TABLE "moves" (
    "id" BIGSERIAL NOT NULL,
    "game_id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "actor_id" TEXT NOT NULL,
    "entry" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "moves_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "game_id" INTEGER,
    "due_at" TIMESTAMP(3) NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "done_at" TIMESTAMP(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "available_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMP(3),
    "last_error" TEXT,
    "result" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "challenges_guild_id_status_idx" ON "challenges"("guild_id", "status");

-- CreateIndex
CREATE INDEX "games_guild_id_status_idx" ON "games"("guild_id", "status");

-- CreateIndex
CREATE INDEX "seats_player_id_idx" ON "seats"("player_id");

-- CreateIndex
CREATE INDEX "seats_deadline_at_idx" ON "seats"("deadline_at");

-- CreateIndex
CREATE UNIQUE INDEX "seats_game_id_player_id_key" ON "seats"("game_id", "player_id");

-- CreateIndex
CREATE UNIQUE INDEX "moves_game_id_seq_key" ON "moves"("game_id", "seq");

-- CreateIndex
CREATE INDEX "jobs_status_due_at_idx" ON "jobs"("status", "due_at");

-- CreateIndex
CREATE INDEX "jobs_game_id_idx" ON "jobs"("game_id");

-- CreateIndex
CREATE INDEX "outbox_status_available_at_idx" ON "outbox"("status", "available_at");

-- AddForeignKey
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_guild_id_fkey" FOREIGN KEY ("guild_id") REFERENCES "guilds"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_guild_id_fkey" FOREIGN KEY ("guild_id") REFERENCES "guilds"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seats" ADD CONSTRAINT "seats_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seats" ADD CONSTRAINT "seats_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "moves" ADD CONSTRAINT "moves_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
