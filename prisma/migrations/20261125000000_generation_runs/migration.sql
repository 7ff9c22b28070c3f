-- CreateTable
CREATE TABLE "generation_runs" (
    "id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "users" INTEGER NOT NULL,
    "completed_users" INTEGER NOT NULL DEFAULT 0,
    "total_segments" INTEGER NOT NULL DEFAULT 0,
    "success_count" INTEGER NOT NULL DEFAULT 0,
    "failed_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "generation_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "generation_run_users" (
    "run_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,

    CONSTRAINT "generation_run_users_pkey" PRIMARY KEY ("run_id","user_id")
);

-- CreateIndex
CREATE INDEX "generation_runs_created_at_idx" ON "generation_runs"("created_at");

-- AddForeignKey
ALTER TABLE "generation_run_users" ADD CONSTRAINT "generation_run_users_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "generation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

