-- AlterTable
ALTER TABLE "user_integrations" ADD COLUMN     "field_map" JSONB,
ADD COLUMN     "instance_url" TEXT,
ADD COLUMN     "region" TEXT;

