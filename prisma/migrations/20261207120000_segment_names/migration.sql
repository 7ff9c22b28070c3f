-- AlterTable
ALTER TABLE "segments" ADD COLUMN     "name" TEXT;
