-- AlterTable
ALTER TABLE "seats" ADD COLUMN     "dm_message_id" TEXT;
