-- The REST budget every process of a bot token shares (src/bot/rest-budget.ts): one row per bot,
-- holding the start of the next free send slot in the database's epoch milliseconds.
CREATE TABLE "rest_budget" (
    "key" TEXT NOT NULL,
    "next_slot_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "rest_budget_pkey" PRIMARY KEY ("key")
);
