// Runs a segment plan against the user's CRM connector, whatever the CRM: exact counts, the matching
// customers in the segment's order, and stateless pages for exports. The connector runs the plan's
// native part; the conditions it could not express (the plan's residual) are evaluated here, on the
// records the native part returned, and the survivors are ordered and capped here.
// Shared by chat queries, Smart Segment generation, saved-segment processing and CSV downloads.
import type { CrmConnector, NativeCursor, SegmentPlan } from '../crm/connector.js';
import { sortRecords, toCustomer, type CrmRecord, type Customer } from '../crm/record.js';
import { compileRecordEvaluator, type RecordPredicate } from '../segmentation/evaluate.js';

/** Dates in a residual resolve against the time the plan was made for (the caller's `now`). */
export interface RunContext {
  now: Date;
  timeZone: string;
}

function residualFilter(plan: SegmentPlan, ctx: RunContext): RecordPredicate {
  return compileRecordEvaluator(plan.residual, { now: ctx.now, timeZone: ctx.timeZone });
}

/** Every record of a plan with a residual: read, filtered, ordered and capped by the product. */
async function filteredRecords(connector: CrmConnector, plan: SegmentPlan, ctx: RunContext): Promise<CrmRecord[]> {
  const keep = residualFilter(plan, ctx);
  const out: CrmRecord[] = [];
  for await (const r of connector.read(plan)) if (keep(r)) out.push(r);
  sortRecords(out, plan.sort);
  return plan.limit !== undefined ? out.slice(0, plan.limit) : out;
}

/** Exact number of customers in the segment. */
export async function countSegment(connector: CrmConnector, plan: SegmentPlan, ctx: RunContext): Promise<number> {
  if (!plan.residual) return connector.count(plan);
  return (await filteredRecords(connector, plan, ctx)).length;
}

export interface FetchedSegment {
  /** exact size of the segment */
  total: number;
  /** customers in segment order; all of them unless `limit` cut the list */
  customers: Customer[];
}

/**
 * Fetches the segment's customers. `limit` caps how many are fetched and returned (the count stays
 * exact); without it the whole segment is fetched.
 */
export async function fetchSegment(connector: CrmConnector, plan: SegmentPlan, ctx: RunContext, opts: { limit?: number } = {}): Promise<FetchedSegment> {
  if (plan.residual) {
    const all = await filteredRecords(connector, plan, ctx);
    return { total: all.length, customers: all.slice(0, opts.limit).map(toCustomer) };
  }
  let total = 0;
  const customers: Customer[] = [];
  for await (const r of connector.read(plan, { limit: opts.limit, onTotal: (n) => (total = n) })) customers.push(toCustomer(r));
  return { total, customers };
}

// ---------------------------------------------------------------------------------------------
// Reading a whole segment page by page (exports): stateless, each page fetched from the CRM when asked

/**
 * Where the next page of a segment starts:
 *  - `native`: the connector's own cursor (a plan without residual, or a residual without order or cap:
 *    the native pages are filtered as they come, so a page may hold fewer than asked);
 *  - `position`: a residual with an order or a cap is ordered by the product, so each page reads the
 *    candidates again and takes the next `first` after `offset`.
 */
export type SegmentCursor = { by: 'native'; at: NativeCursor } | { by: 'position'; offset: number };

export interface SegmentPage {
  customers: { customer: Customer; cursor: SegmentCursor }[];
  /** Where the next page starts; null after the last page. */
  next: SegmentCursor | null;
}

/** The cursor kind a plan is read with. */
export const cursorKindOf = (plan: SegmentPlan): SegmentCursor['by'] =>
  plan.residual && (plan.sort || plan.limit !== undefined) ? 'position' : 'native';

/**
 * One page of at most `first` (1–200) customers of the segment, starting at `cursor` (null: the
 * beginning). Nothing is kept between pages.
 */
export async function fetchSegmentPage(
  connector: CrmConnector,
  plan: SegmentPlan,
  ctx: RunContext,
  opts: { first: number; cursor: SegmentCursor | null },
): Promise<SegmentPage> {
  const first = Math.min(200, Math.max(1, Math.floor(opts.first)));
  if (opts.cursor && opts.cursor.by !== cursorKindOf(plan)) throw new Error('cursor of another kind of segment');
  if (cursorKindOf(plan) === 'position') {
    const offset = opts.cursor?.by === 'position' ? opts.cursor.offset : 0;
    const all = await filteredRecords(connector, plan, ctx);
    const slice = all.slice(offset, offset + first);
    return {
      customers: slice.map((r, i) => ({ customer: toCustomer(r), cursor: { by: 'position', offset: offset + i + 1 } })),
      next: offset + slice.length < all.length ? { by: 'position', offset: offset + slice.length } : null,
    };
  }
  const page = await connector.readPage(plan, { first, cursor: opts.cursor?.by === 'native' ? opts.cursor.at : null });
  const keep = plan.residual ? residualFilter(plan, ctx) : () => true;
  return {
    customers: page.records.filter((r) => keep(r.record)).map((r) => ({ customer: toCustomer(r.record), cursor: { by: 'native', at: r.cursor } })),
    next: page.next === null ? null : { by: 'native', at: page.next },
  };
}

// ---------------------------------------------------------------------------------------------
// First rows at once, the rest after (chat queries): the CRM's first answer is enough to reply

export interface StreamedSegment {
  /** exact size of the segment */
  total: number;
  /** the first customers in segment order: every record the CRM had sent when the total was known and `firstRows` were in */
  first: Customer[];
  /** the customers after `first`, in segment order, a chunk per CRM answer (null: `first` is all) */
  rest: AsyncIterable<Customer[]> | null;
}

/** Resolves on the next macrotask: whatever a stream had already received is delivered before it. */
const nextMacrotask = () => new Promise<'later'>((resolve) => setImmediate(() => resolve('later')));

/**
 * Reads the segment through the connector's `read` (every CRM implements it) and resolves as soon as
 * the exact total is known and `firstRows` customers are in, with every further record the CRM had
 * already sent (one CRM page: HubSpot's first search holds 200 and the total). The remaining records,
 * up to `limit`, come from the same read through `rest`, which the caller drains (or aborts with
 * `signal`). A plan with a residual is read whole first: its count and order are the product's, known
 * only at the end.
 */
export async function streamSegment(
  connector: CrmConnector,
  plan: SegmentPlan,
  ctx: RunContext,
  opts: { limit: number; firstRows: number; signal?: AbortSignal },
): Promise<StreamedSegment> {
  if (plan.residual) {
    const all = await fetchSegment(connector, plan, ctx, { limit: opts.limit });
    return { total: all.total, first: all.customers, rest: null };
  }
  let total: number | null = null;
  const iterator = connector.read(plan, { limit: opts.limit, onTotal: (n) => (total = n), signal: opts.signal })[Symbol.asyncIterator]();
  const first: Customer[] = [];
  let pending: Promise<IteratorResult<CrmRecord>> | null = null;
  for (;;) {
    const next = pending ?? iterator.next();
    pending = null;
    const enough = total !== null && first.length >= opts.firstRows;
    const r = enough ? await Promise.race([next, nextMacrotask()]) : await next;
    if (r === 'later') {
      pending = next; // not there yet: the CRM's next request is under way, the first page is complete
      break;
    }
    if (r.done) return { total: total ?? first.length, first, rest: null };
    first.push(toCustomer(r.value));
  }
  // A read that fails before the caller drains `rest` must not be an unhandled rejection: it is seen there.
  pending.catch(() => {});
  async function* rest(): AsyncGenerator<Customer[]> {
    let batch: Customer[] = [];
    let next: Promise<IteratorResult<CrmRecord>> = pending!;
    try {
      for (;;) {
        // What the CRM has sent so far is one chunk: hand it over before waiting for its next answer.
        const r = batch.length ? await Promise.race([next, nextMacrotask()]) : await next;
        if (r === 'later') {
          yield batch;
          batch = [];
          continue;
        }
        if (r.done) break;
        batch.push(toCustomer(r.value));
        next = iterator.next();
      }
      if (batch.length) yield batch;
    } finally {
      await iterator.return?.();
    }
  }
  return { total: total!, first, rest: rest() };
}
