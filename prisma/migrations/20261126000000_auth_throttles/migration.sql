-- DropTable
DROP TABLE "login_attempts";

-- CreateTable
CREATE TABLE "auth_throttles" (
    "scope" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "window_ends_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "auth_throttles_pkey" PRIMARY KEY ("scope","email","address")
);

-- CreateIndex
CREATE INDEX "auth_throttles_window_ends_at_idx" ON "auth_throttles"("window_ends_at");

