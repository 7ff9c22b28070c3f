-- CreateTable
CREATE TABLE "contact_imports" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "integration_id" UUID,
    "file_name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "encoding" TEXT,
    "delimiter" TEXT,
    "byte_size" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "mapping" JSONB,
    "row_count" INTEGER NOT NULL DEFAULT 0,
    "imported_count" INTEGER NOT NULL DEFAULT 0,
    "skipped_count" INTEGER NOT NULL DEFAULT 0,
    "problem_count" INTEGER NOT NULL DEFAULT 0,
    "problems" JSONB,
    "bytes_read" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_import_chunks" (
    "import_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "contact_import_chunks_pkey" PRIMARY KEY ("import_id","seq")
);

-- CreateTable
CREATE TABLE "imported_contacts" (
    "import_id" UUID NOT NULL,
    "id" TEXT NOT NULL,
    "id_num" DOUBLE PRECISION,
    "first_name" TEXT,
    "last_name" TEXT,
    "email" TEXT,
    "company" TEXT,
    "city" TEXT,
    "state" TEXT,
    "country" TEXT,
    "first_name_key" TEXT,
    "last_name_key" TEXT,
    "email_key" TEXT,
    "company_key" TEXT,
    "city_key" TEXT,
    "state_key" TEXT,
    "country_key" TEXT,
    "email_domain_key" TEXT,
    "stage_value" TEXT,
    "stage" TEXT,
    "lifecycle_stage" TEXT NOT NULL,
    "last_purchase_at" TIMESTAMPTZ(3),
    "last_purchase_amount" DOUBLE PRECISION,
    "lifetime_value" DOUBLE PRECISION,
    "created_at" TIMESTAMPTZ(3),

    CONSTRAINT "imported_contacts_pkey" PRIMARY KEY ("import_id","id")
);

-- CreateTable
CREATE TABLE "contact_import_mappings" (
    "user_id" UUID NOT NULL,
    "mapping" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_import_mappings_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE INDEX "contact_imports_user_id_status_idx" ON "contact_imports"("user_id", "status");

-- CreateIndex
CREATE INDEX "contact_imports_integration_id_idx" ON "contact_imports"("integration_id");

-- CreateIndex
CREATE INDEX "imported_contacts_import_id_lifecycle_stage_idx" ON "imported_contacts"("import_id", "lifecycle_stage");

-- CreateIndex
CREATE INDEX "imported_contacts_import_id_country_key_idx" ON "imported_contacts"("import_id", "country_key");

-- CreateIndex
CREATE INDEX "imported_contacts_import_id_email_domain_key_idx" ON "imported_contacts"("import_id", "email_domain_key");

-- CreateIndex
CREATE INDEX "imported_contacts_import_id_lifetime_value_idx" ON "imported_contacts"("import_id", "lifetime_value");

-- CreateIndex
CREATE INDEX "imported_contacts_import_id_last_purchase_at_idx" ON "imported_contacts"("import_id", "last_purchase_at");

-- CreateIndex
CREATE INDEX "imported_contacts_import_id_last_purchase_amount_idx" ON "imported_contacts"("import_id", "last_purchase_amount");

-- CreateIndex
CREATE INDEX "imported_contacts_import_id_created_at_idx" ON "imported_contacts"("import_id", "created_at");

-- AddForeignKey
ALTER TABLE "contact_imports" ADD CONSTRAINT "contact_imports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_imports" ADD CONSTRAINT "contact_imports_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "user_integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_import_chunks" ADD CONSTRAINT "contact_import_chunks_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "contact_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "imported_contacts" ADD CONSTRAINT "imported_contacts_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "contact_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_import_mappings" ADD CONSTRAINT "contact_import_mappings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma's schema cannot say these):
-- the result order of imported contacts (ids numerically first, then as text in code-point order,
-- whatever the database's collation), the connector's keyset pages;
CREATE INDEX "imported_contacts_order_idx" ON "imported_contacts"("import_id", "id_num", "id" COLLATE "C");
-- one active import (the user's file connection), one previous (what undo restores) and one import
-- running per user.
CREATE UNIQUE INDEX "contact_imports_one_active_key" ON "contact_imports"("user_id") WHERE "status" = 'active';
CREATE UNIQUE INDEX "contact_imports_one_previous_key" ON "contact_imports"("user_id") WHERE "status" = 'previous';
CREATE UNIQUE INDEX "contact_imports_one_running_key" ON "contact_imports"("user_id") WHERE "status" = 'importing';
