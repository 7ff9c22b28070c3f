-- AlterTable
ALTER TABLE "daily_generated_segments" ADD COLUMN     "customers_stored_at" TIMESTAMPTZ(3),
ADD COLUMN     "customers_total" INTEGER;

-- CreateTable
CREATE TABLE "smart_segment_results" (
    "daily_segment_id" UUID NOT NULL,
    "customer_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "smart_segment_results_pkey" PRIMARY KEY ("daily_segment_id","customer_id")
);

-- CreateIndex
CREATE INDEX "smart_segment_results_daily_segment_id_position_idx" ON "smart_segment_results"("daily_segment_id", "position");

-- CreateIndex
CREATE INDEX "smart_segment_results_customer_id_user_id_idx" ON "smart_segment_results"("customer_id", "user_id");

-- AddForeignKey
ALTER TABLE "smart_segment_results" ADD CONSTRAINT "smart_segment_results_daily_segment_id_fkey" FOREIGN KEY ("daily_segment_id") REFERENCES "daily_generated_segments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "smart_segment_results" ADD CONSTRAINT "smart_segment_results_customer_id_user_id_fkey" FOREIGN KEY ("customer_id", "user_id") REFERENCES "customers"("id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;

