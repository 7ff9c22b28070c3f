// A Smart Segment's customers in the app: after unlocking, the owner opens them in the same results
// table as a question's answer, paged, filtered and sorted in the database. The first time they are
// asked for (after each generation of the segment) they are read from the CRM with the segment's
// stored searches — as the CSV download reads them, under the same rule (the owner's, unlocked,
// generated without error: downloadableSegment) — and the first 1,000 are stored in
// smart_segment_results, in the CRM's order; the exact total is kept with them.
import type { DailyGeneratedSegment, Prisma, User } from '@prisma/client';
import type { Customer } from '../../crm/mapping.js';
import { connectorForUser } from '../crm.js';
import type { ServiceDeps } from '../deps.js';
import { customerWhere, MAX_STORED_RESULTS, resultOrderBy, type CustomerFilter, type ResultPageArgs } from '../queries.js';
import { upsertCustomers } from '../query-results.js';
import { countriesOfRegion } from '../regions-filter.js';
import { fetchSegment } from '../segment-runner.js';
import { downloadableSegment } from './user.js';

/** Stored for the segment as it was last generated (a new generation updates the row and its generatedAt). */
const isStored = (s: DailyGeneratedSegment) => s.customersStoredAt !== null && s.customersStoredAt >= s.generatedAt;

/**
 * The owner's unlocked segment with its customers stored (read from the CRM and stored now when they
 * are not yet). Refused as the download is: another user's segment is not found, a locked one FORBIDDEN.
 */
export async function storedSmartSegment(deps: ServiceDeps, user: User, id: string): Promise<DailyGeneratedSegment> {
  const { segment, plan } = await downloadableSegment(deps, user, id);
  if (isStored(segment)) return segment;
  // The CRM is read outside any transaction (the embedded database has one connection for everyone).
  const connector = await connectorForUser(deps, user);
  const now = plan.compiledAt ? new Date(plan.compiledAt) : deps.now();
  const fetched = await fetchSegment(connector, plan, { now, timeZone: deps.config.usageTimeZone }, { limit: MAX_STORED_RESULTS });
  const seen = new Set<string>();
  const customers = fetched.customers.filter((c) => !seen.has(c.id) && seen.add(c.id));
  return deps.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`smart-segment-results:${segment.id}`}))`;
    const current = await tx.dailyGeneratedSegment.findUniqueOrThrow({ where: { id: segment.id } });
    // Stored meanwhile by a second request, or generated again while the CRM was read: keep what is there.
    if (isStored(current) || current.generatedAt.getTime() !== segment.generatedAt.getTime()) return current;
    await tx.smartSegmentResult.deleteMany({ where: { dailySegmentId: segment.id } });
    await storeSmartSegmentResults(tx, user.id, segment.id, customers);
    return tx.dailyGeneratedSegment.update({
      where: { id: segment.id },
      data: { customersStoredAt: deps.now(), customersTotal: fetched.total },
    });
  });
}

async function storeSmartSegmentResults(tx: Prisma.TransactionClient, userId: string, dailySegmentId: string, customers: Customer[]) {
  if (!customers.length) return;
  await upsertCustomers(tx, userId, customers);
  await tx.$executeRaw`
    INSERT INTO smart_segment_results (daily_segment_id, customer_id, user_id, position)
    SELECT ${dailySegmentId}::uuid, t.id, ${userId}::uuid, (t.ord - 1)::int
    FROM unnest(${customers.map((c) => c.id)}::text[]) WITH ORDINALITY AS t(id, ord)`;
}

/** Where-clause over a segment's stored customers with the table's filters. */
export const smartResultWhere = (dailySegmentId: string, filter: CustomerFilter = {}): Prisma.SmartSegmentResultWhereInput => ({
  dailySegmentId,
  customer: customerWhere(filter, countriesOfRegion),
});

/** One page of a segment's stored customers with the table's filters, in the CRM's order or a column's. */
export async function smartResultPage(deps: ServiceDeps, dailySegmentId: string, filter: CustomerFilter, page: ResultPageArgs) {
  const rows = await deps.prisma.smartSegmentResult.findMany({
    where: smartResultWhere(dailySegmentId, filter),
    // the same order as a query's results (the relation and the position have the same names)
    orderBy: resultOrderBy(page.order) as Prisma.SmartSegmentResultOrderByWithRelationInput[],
    skip: page.offset,
    take: page.limit,
    select: { customer: true },
  });
  return rows.map((r) => r.customer);
}

export const countSmartResults = (deps: ServiceDeps, dailySegmentId: string, filter: CustomerFilter) =>
  deps.prisma.smartSegmentResult.count({ where: smartResultWhere(dailySegmentId, filter) });
