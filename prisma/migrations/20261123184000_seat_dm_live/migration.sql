-- AlterTable
ALTER TABLE "seats" ADD COLUMN     "dm_live" BOOLEAN NOT NULL DEFAULT false;

-- A DM recorded before this column existed may still show its buttons: let its retire edit it once.
UPDATE "seats" SET "dm_live" = true WHERE "dm_message_id" IS NOT NULL AND "result" IS NULL;
