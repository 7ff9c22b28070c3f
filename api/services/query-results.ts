// The stored customers of a chat query. A question is answered as soon as the CRM's first answer is in
// (services/segment-runner.ts `streamSegment`): the query is stored with its first customers and
// `resultsState: 'loading'`, and the rest of the customers to keep are read and stored here, in the
// background, a chunk per CRM answer, in the CRM's order. When they are all in, the query becomes
// `complete` and `customerQueryUpdated` carries it to the user's subscribers. When the CRM fails
// half-way (after its retries) the query becomes what a CRM failure always makes it: kept with
// hasError, no customers, the unit given back (services/queries.ts); the event says so too. A process
// that stopped mid-way (a crash) leaves a `loading` that nothing moves: after STALE_MS it reads
// `incomplete` (the stored customers are the first ones only).
//
// Readers that need rows not stored yet wait for them (`waitForStoredResults`): a page beyond the
// stored ones, a filtered page, GET /api/customers. The wait is on this process's task when it runs
// here, else on the database (another API process runs it).
import { Prisma, type Query } from '@prisma/client';
import type { Customer } from '../crm/record.js';
import type { ServiceDeps } from './deps.js';

export type ResultsState = 'loading' | 'complete' | 'incomplete';

type Tx = Prisma.TransactionClient;

interface Task {
  deps: ServiceDeps;
  controller: AbortController;
  done: Promise<void>;
  /** customers stored so far */
  stored: number;
  /** told after each chunk is stored */
  waiters: Set<() => void>;
}

/** Background reads running in this process, by query id. */
const tasks = new Map<string, Task>();

/** One statement for any number of customers (INSERT … SELECT unnest … ON CONFLICT DO UPDATE). */
export async function upsertCustomers(tx: Tx, userId: string, customers: Customer[]) {
  const col = <K extends keyof Customer>(k: K) => customers.map((c) => c[k]);
  await tx.$executeRaw`
    INSERT INTO customers (id, user_id, first_name, last_name, email, company, lifecycle_stage, last_purchase_date,
      last_purchase_amount, lifetime_value, city, state, country, created_at, updated_at)
    SELECT t.id, ${userId}::uuid, t.first_name, t.last_name, t.email, t.company, t.lifecycle_stage, t.last_purchase_date,
      t.last_purchase_amount, t.lifetime_value, t.city, t.state, t.country, now(), now()
    FROM unnest(${col('id')}::text[], ${col('firstName')}::text[], ${col('lastName')}::text[], ${col('email')}::text[],
      ${col('company')}::text[], ${col('lifecycleStage')}::text[], ${col('lastPurchaseDate')}::text[],
      ${col('lastPurchaseAmount')}::int[], ${col('lifetimeValue')}::int[], ${col('city')}::text[], ${col('state')}::text[],
      ${col('country')}::text[])
      AS t(id, first_name, last_name, email, company, lifecycle_stage, last_purchase_date, last_purchase_amount,
           lifetime_value, city, state, country)
    ON CONFLICT (id, user_id) DO UPDATE SET
      first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, email = EXCLUDED.email,
      company = EXCLUDED.company, lifecycle_stage = EXCLUDED.lifecycle_stage,
      last_purchase_date = EXCLUDED.last_purchase_date, last_purchase_amount = EXCLUDED.last_purchase_amount,
      lifetime_value = EXCLUDED.lifetime_value, city = EXCLUDED.city, state = EXCLUDED.state,
      country = EXCLUDED.country, updated_at = now()`;
}

/** The customers as the query's results from `position` on (with their rows), in one statement each. */
export async function storeResults(tx: Tx, userId: string, queryId: string, customers: Customer[], position: number) {
  if (!customers.length) return;
  await upsertCustomers(tx, userId, customers);
  // One statement for the links too (createMany of 1,000 rows costs several times more).
  await tx.$executeRaw`
    INSERT INTO query_results (query_id, customer_id, user_id, position)
    SELECT ${queryId}::uuid, t.id, ${userId}::uuid, (t.ord - 1 + ${position})::int
    FROM unnest(${customers.map((c) => c.id)}::text[]) WITH ORDINALITY AS t(id, ord)`;
}

/**
 * Stores the customers of `rest` after the first `position` ones, as they come, then marks the query
 * complete and tells the user's subscribers. `controller` aborts the CRM read (a re-run, shutdown).
 */
export function storeRestInBackground(
  deps: ServiceDeps,
  run: {
    userId: string;
    queryId: string;
    /** how many customers are stored already */
    position: number;
    rest: AsyncIterable<Customer[]>;
    controller: AbortController;
    /**
     * The CRM failed (after its retries) before every customer was read: the query becomes what a CRM
     * failure makes it (services/queries.ts). Answers false when the query was no longer loading.
     */
    onFailed: (err: unknown) => Promise<boolean>;
  },
): void {
  const { userId, queryId, rest, controller } = run;
  let position = run.position;
  const work = async () => {
    let changed = false;
    try {
      try {
        for await (const chunk of rest) {
          if (controller.signal.aborted) return;
          await deps.prisma.$transaction((tx) => storeResults(tx, userId, queryId, chunk, position));
          position += chunk.length;
          task.stored = position;
          for (const w of task.waiters) w();
        }
      } catch (err) {
        if (controller.signal.aborted) return;
        changed = await run.onFailed(err);
        return;
      }
      if (controller.signal.aborted) return;
      // Only the run that stored these rows finishes them (a re-run stopped this one first).
      // Raw: updated_at stays when the query was run (the web app tells runs apart by it).
      changed = (await deps.prisma.$executeRaw`UPDATE queries SET results_state = 'complete' WHERE id = ${queryId}::uuid AND results_state = 'loading'`) > 0;
    } catch (err) {
      // the query went meanwhile (pushed out of the history), or the database is gone (shutdown)
      deps.logger.warn({ userId, queryId, stored: position, err: err instanceof Error ? err.message : String(err) }, 'the rest of a query result could not be stored');
    } finally {
      if (changed) deps.events.pubsub.publish('customerQueryUpdated', userId, { queryId });
    }
  };
  const task: Task = { deps, controller, done: Promise.resolve(), stored: position, waiters: new Set() };
  task.done = work().finally(() => {
    if (tasks.get(queryId) === task) tasks.delete(queryId);
  });
  tasks.set(queryId, task);
}

/** Stops this process's background read of a query (a re-run replaces its results) and waits until it has. */
export async function stopBackground(queryId: string): Promise<void> {
  const task = tasks.get(queryId);
  if (!task) return;
  task.controller.abort();
  await task.done;
}

/** Shutdown: lets the app's background reads finish for up to `timeoutMs`, then stops the others. */
export async function finishBackground(deps: ServiceDeps, timeoutMs: number): Promise<void> {
  const mine = [...tasks.entries()].filter(([, t]) => t.deps === deps);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)));
  await Promise.race([Promise.all(mine.map(([, t]) => t.done)), deadline]);
  clearTimeout(timer);
  await Promise.all(mine.map(([id]) => stopBackground(id)));
}

/** A query whose rows another process was storing but that has not moved for this long is taken as incomplete. */
const STALE_MS = 5 * 60_000;

/** The state of a query's stored customers, a `loading` no process has moved for STALE_MS being `incomplete` (a crash). */
export function effectiveResultsState(q: Pick<Query, 'id' | 'resultsState' | 'updatedAt'>): ResultsState {
  if (q.resultsState === 'loading' && !tasks.has(q.id) && Date.now() - q.updatedAt.getTime() > STALE_MS) return 'incomplete';
  return q.resultsState as ResultsState;
}

/**
 * Waits until every customer of the query's last run is stored (or the read failed), or with `rows`
 * until at least that many are. Answers the query's state then. `timeoutMs` bounds the wait on another
 * process's task.
 */
export async function waitForStoredResults(
  deps: ServiceDeps,
  query: Pick<Query, 'id' | 'resultsState'>,
  opts: { rows?: number; timeoutMs?: number } = {},
): Promise<ResultsState> {
  if (query.resultsState !== 'loading') return query.resultsState as ResultsState;
  const rows = opts.rows ?? Number.POSITIVE_INFINITY;
  const task = tasks.get(query.id);
  if (task) {
    while (task.stored < rows && tasks.get(query.id) === task) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          task.waiters.delete(wake);
          resolve();
        };
        task.waiters.add(wake);
        void task.done.then(wake);
      });
    }
    if (task.stored >= rows) return 'loading';
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (let wait = 20; ; wait = Math.min(250, wait * 2)) {
    const now = await deps.prisma.query.findUnique({ where: { id: query.id }, select: { resultsState: true, updatedAt: true } });
    if (!now) return 'complete';
    if (now.resultsState !== 'loading') return now.resultsState as ResultsState;
    if (!tasks.has(query.id) && Date.now() - now.updatedAt.getTime() > STALE_MS) return 'incomplete';
    if (Number.isFinite(rows) && (await deps.prisma.queryResult.count({ where: { queryId: query.id } })) >= rows) return 'loading';
    if (Date.now() > deadline) return 'loading';
    await new Promise((r) => setTimeout(r, wait));
  }
}
