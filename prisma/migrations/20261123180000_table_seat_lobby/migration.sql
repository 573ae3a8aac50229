-- A table's seat may carry what its player brings (a lobby: chosen stones, a sideboard, the
-- host's mat) and whether they are ready; games with a lobby start when every seat is ready.
-- AlterTable
ALTER TABLE "table_seats" ADD COLUMN     "data" JSONB,
ADD COLUMN     "ready" BOOLEAN NOT NULL DEFAULT false;
