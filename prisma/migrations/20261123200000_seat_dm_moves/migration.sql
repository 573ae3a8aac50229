-- AlterTable
ALTER TABLE "seats" ADD COLUMN     "dm_moves" BOOLEAN NOT NULL DEFAULT true;
