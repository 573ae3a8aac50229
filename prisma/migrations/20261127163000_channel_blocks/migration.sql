-- Discord refused a game's board in its channel (permissions taken away, the channel deleted): why,
-- as a moderator reads it. Set once (the players are told then), cleared when a board is posted again.
ALTER TABLE "games" ADD COLUMN "board_blocked" TEXT;

-- A channel where Discord refuses Stonehall's posts (issue 22): one row per reason while it lasts,
-- so the moderators are told once what to allow; removed when a post there succeeds again.
CREATE TABLE "channel_blocks" (
    "channel_id" TEXT NOT NULL,
    "guild_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "since" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "channel_blocks_pkey" PRIMARY KEY ("channel_id","reason")
);

CREATE INDEX "channel_blocks_guild_id_idx" ON "channel_blocks"("guild_id");
