-- Where storing a query's customers stands: the first page is answered at once, the rest follows
-- in the background (api/services/query-results.ts).
ALTER TABLE "queries" ADD COLUMN "results_state" TEXT NOT NULL DEFAULT 'complete';
