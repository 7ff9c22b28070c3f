/**
 * The seam's promise: what a CRM cannot express natively is evaluated by the product on the records the
 * native part returns, and the answer is the segment's whole meaning. A connector that expresses only
 * some conditions (MemoryConnector) must give, through the runner, exactly what evaluating the whole
 * segment in memory gives: counts, customers in order, and every page of an export.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HUBSPOT_FIELD_MAP } from '../crm/hubspot/field-map.js';
import { hubspotRecord } from '../crm/hubspot/records.js';
import { splitSegment } from '../crm/plan.js';
import { sortRecords, toCustomer } from '../crm/record.js';
import { MemoryConnector } from '../crm/testing/memory-connector.js';
import type { Condition, Segment, SegmentNode } from '../segmentation/ast.js';
import { compileRecordEvaluator } from '../segmentation/evaluate.js';
import { NOW, contactsArb, datePool, segmentArb } from '../segmentation/testing/arbitraries.js';
import { countSegment, fetchSegment, fetchSegmentPage, type SegmentCursor } from './segment-runner.js';

const CTX = { now: new Date(NOW), timeZone: 'UTC' };
/** A CRM that cannot filter on e-mail domains, names, regions or dates. */
const partial = (c: Condition) => !['emailDomain', 'name', 'region', 'lastPurchaseDate', 'createdAt'].includes(c.field);

function expected(segment: Segment, records: ReturnType<typeof hubspotRecord>[]) {
  const out = sortRecords(records.filter(compileRecordEvaluator(segment.where, CTX)), segment.sort);
  return segment.limit !== undefined ? out.slice(0, segment.limit) : out;
}

describe('splitSegment', () => {
  it('keeps native conjuncts native and the rest for the product; an OR with one foreign condition goes whole', () => {
    const country: SegmentNode = { field: 'country', op: 'eq', value: 'Germany' };
    const domain: SegmentNode = { field: 'emailDomain', op: 'eq', value: 'acme.com' };
    const either: SegmentNode = { or: [{ field: 'lifetimeValue', op: 'gt', value: 5 }, { field: 'name', op: 'eq', value: 'Ann' }] };
    const seg: Segment = { version: 1, where: { and: [country, domain, either] }, sort: { field: 'lifetimeValue', direction: 'desc' }, limit: 5 };
    const { native, residual } = splitSegment(seg, partial);
    expect(native).toEqual({ version: 1, where: country });
    expect(residual).toEqual({ and: [domain, either] });
    expect(splitSegment({ ...seg, where: country }, partial)).toEqual({ native: { ...seg, where: country } });
  });
});

describe('runner over a connector that expresses only part of a segment', () => {
  it('counts, fetches and pages exactly the segment', async () => {
    const dates = datePool('UTC');
    await fc.assert(
      fc.asyncProperty(segmentArb, contactsArb(dates), fc.integer({ min: 1, max: 4 }), async (segment, contacts, first) => {
        const records = contacts.map((c) => hubspotRecord(c, HUBSPOT_FIELD_MAP));
        const connector = new MemoryConnector(records, partial);
        const plan = connector.compile(segment, CTX);
        const want = expected(segment, records);
        expect(await countSegment(connector, plan, CTX)).toBe(want.length);
        const fetched = await fetchSegment(connector, plan, CTX, { limit: 3 });
        expect(fetched.total).toBe(want.length);
        expect(fetched.customers).toEqual(want.slice(0, 3).map(toCustomer));
        const ids: string[] = [];
        let cursor: SegmentCursor | null = null;
        do {
          const page = await fetchSegmentPage(connector, plan, CTX, { first, cursor });
          ids.push(...page.customers.map((c) => c.customer.id));
          cursor = page.next;
        } while (cursor);
        // Without an order of its own a segment is read in the CRM's order; the same customers either way.
        if (segment.sort || segment.limit !== undefined) expect(ids).toEqual(want.map((r) => r.id));
        else expect([...ids].sort()).toEqual(want.map((r) => r.id).sort());
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('says when the product evaluates conditions itself: the plan keeps them as its residual, with the time it was made for', () => {
    const connector = new MemoryConnector([], partial);
    const plan = connector.compile({ version: 1, where: { field: 'emailDomain', op: 'eq', value: 'acme.com' } }, CTX);
    expect(plan.residual).toEqual({ field: 'emailDomain', op: 'eq', value: 'acme.com' });
    expect(plan.compiledAt).toBe(CTX.now.toISOString());
  });
});
