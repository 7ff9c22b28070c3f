/**
 * The segment runner against the HubSpot sandbox over HTTP, through the real connector: a segment that
 * compiles into several searches must come back in the order one HubSpot search would return it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubSpotConnector } from '../crm/hubspot/connector.js';
import type { SandboxContact } from '../crm/hubspot-sandbox/data.js';
import { executeSearch } from '../crm/hubspot-sandbox/search.js';
import { startHubSpotSandboxServer, type RunningSandbox } from '../crm/hubspot-sandbox/server.js';
import type { Segment } from '../segmentation/ast.js';
import { compileToHubSpot } from '../segmentation/compile-hubspot.js';
import type { CompiledHubSpotQuery } from '../segmentation/hubspot-query.js';
import type { SegmentPlan } from '../crm/plan.js';
import { countSegment, fetchSegment, fetchSegmentPage, type SegmentCursor } from './segment-runner.js';

const NOW = Date.parse('2026-06-15T00:00:00Z');
const CTX = { now: new Date(NOW), timeZone: 'UTC' };
/** A compiled HubSpot query as HubSpot's plan (every condition native). */
const plan = (compiled: CompiledHubSpotQuery): SegmentPlan => ({ crmType: 'hubspot', native: compiled });

// Every contact matches one of six text conditions on six different properties, so the segment needs
// six filter groups: more than HubSpot's five per search, hence two searches whose results are merged.
// Lifetime values tie in threes (and some are missing) so that tie-breaking decides the order.
const WORDS = ['firstname', 'lastname', 'company', 'email', 'city', 'state'] as const;
const contacts: SandboxContact[] = Array.from({ length: 12 }, (_, i) => {
  const marked = WORDS[i % WORDS.length];
  const text = (p: (typeof WORDS)[number]) => (p === marked ? `zz${p}` : p === 'email' ? `x${i}@example.com` : `x${i}`);
  return {
    id: 1001 + i,
    firstname: text('firstname'),
    lastname: text('lastname'),
    email: marked === 'email' ? `zzemail${i}@example.com` : text('email'),
    company: text('company'),
    lifecyclestage: 'customer',
    recent_deal_close_date: null,
    recent_deal_amount: null,
    total_revenue: i % 4 === 3 ? null : [500, 900, 500][i % 3],
    city: text('city'),
    state: text('state'),
    country: null,
    createdate: NOW - (12 - i) * 86_400_000,
    lastmodifieddate: NOW,
  };
});

const segment = (direction: 'asc' | 'desc'): Segment => ({
  version: 1,
  where: {
    or: [
      { field: 'firstName', op: 'contains', value: 'zzfirstname' },
      { field: 'lastName', op: 'contains', value: 'zzlastname' },
      { field: 'company', op: 'contains', value: 'zzcompany' },
      { field: 'email', op: 'contains', value: 'zzemail' },
      { field: 'city', op: 'contains', value: 'zzcity' },
      { field: 'state', op: 'contains', value: 'zzstate' },
    ],
  },
  sort: { field: 'lifetimeValue', direction },
});

let running: RunningSandbox;
let connector: HubSpotConnector;

beforeAll(async () => {
  running = await startHubSpotSandboxServer({ contacts, rateLimitPerSecond: 0 });
  connector = new HubSpotConnector({
    baseUrl: running.url,
    getAccessToken: () => running.sandbox.config.privateAppTokens[0],
    accountId: String(running.sandbox.config.hubId),
    searchRequestsPerSecond: 1000,
  });
});
afterAll(async () => running?.close());

/** The order of one sandbox search over every contact (all of them are in the segment). */
function singleSearchOrder(direction: 'ASCENDING' | 'DESCENDING'): string[] {
  const page = executeSearch(running.sandbox.store, { filterGroups: [], sorts: [{ propertyName: 'total_revenue', direction }], limit: 100 });
  return page.results.map((r) => r.id);
}

describe('fetchSegment over several searches', () => {
  it.each([
    ['desc', 'DESCENDING'],
    ['asc', 'ASCENDING'],
  ] as const)('sorted %s, returns tied customers in the order of one HubSpot search', async (direction, hubspotDirection) => {
    const compiled = compileToHubSpot(segment(direction), { now: NOW });
    expect(compiled.searches.length).toBeGreaterThan(1);
    const { total, customers } = await fetchSegment(connector, plan(compiled), CTX);
    expect(total).toBe(contacts.length);
    expect(await countSegment(connector, plan(compiled), CTX)).toBe(contacts.length);
    expect(customers.map((c) => c.id)).toEqual(singleSearchOrder(hubspotDirection));
  });
});

/** Every page of the segment, `first` at a time: the ids in order and how many pages it took. */
async function readPages(compiled: CompiledHubSpotQuery, first: number) {
  const ids: string[] = [];
  let cursor: SegmentCursor | null = null;
  let pages = 0;
  do {
    const page = await fetchSegmentPage(connector, plan(compiled), CTX, { first, cursor });
    pages++;
    ids.push(...page.customers.map((c) => c.customer.id));
    cursor = page.next;
  } while (cursor);
  return { ids, pages };
}

describe('fetchSegmentPage (exports)', () => {
  it('pages a segment of several searches by id, each customer once', async () => {
    const compiled = compileToHubSpot({ ...segment('desc'), sort: undefined }, { now: NOW });
    expect(compiled.searches.length).toBeGreaterThan(1);
    const { ids, pages } = await readPages(compiled, 5);
    expect(ids).toEqual(contacts.map((c) => String(c.id)));
    expect(pages).toBe(3);
  });

  it('reads a group with no room for the id filter whole, still page by page', async () => {
    const group = { filters: WORDS.map((p) => ({ propertyName: p, operator: 'HAS_PROPERTY' as const })) };
    const compiled: CompiledHubSpotQuery = { searches: [{ filterGroups: [group], limit: 100, after: '0', properties: [] }] };
    const { ids, pages } = await readPages(compiled, 5);
    expect(ids).toEqual(contacts.map((c) => String(c.id)));
    expect(pages).toBe(3);
  });

  it.each(['desc', 'asc'] as const)('reads a "top N" segment of several searches in its order (%s), by position', async (direction) => {
    const compiled = compileToHubSpot({ ...segment(direction), limit: 7 }, { now: NOW });
    expect(compiled.searches.length).toBeGreaterThan(1);
    const whole = await fetchSegment(connector, plan(compiled), CTX);
    expect(whole.customers).toHaveLength(7);
    const { ids, pages } = await readPages(compiled, 3);
    expect(ids).toEqual(whole.customers.map((c) => c.id));
    expect(pages).toBe(3);
    // Every edge's cursor resumes right after that customer.
    const firstPage = await fetchSegmentPage(connector, plan(compiled), CTX, { first: 3, cursor: null });
    const resumed = await fetchSegmentPage(connector, plan(compiled), CTX, { first: 2, cursor: firstPage.customers[0].cursor });
    expect(resumed.customers.map((c) => c.customer.id)).toEqual(ids.slice(1, 3));
  });

  it('refuses a cursor of the other kind', async () => {
    const compiled = compileToHubSpot(segment('asc'), { now: NOW });
    await expect(fetchSegmentPage(connector, plan(compiled), CTX, { first: 3, cursor: { by: 'position', offset: 0 } })).rejects.toThrow(/another kind/);
  });
});

describe('a segment over HubSpot\'s filters per search', () => {
  it('leaves a long list of e-mail domains to the product and still answers exactly ("work emails")', async () => {
    // one NOT filter per domain: 8 domains and a stage are more than HubSpot's 6 filters in one group
    const free = ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'aol.com', 'proton.me', 'gmx.de'];
    const work: Segment = { version: 1, where: { and: [{ field: 'lifecycleStage', op: 'eq', value: 'customer' }, { field: 'emailDomain', op: 'not_in', values: [...free, 'zzemail0.com'] }] }, sort: { field: 'lifetimeValue', direction: 'desc' } };
    expect(() => compileToHubSpot(work, { now: NOW })).toThrow(/at most 6/);
    const workPlan = connector.compile(work, CTX);
    expect(workPlan.residual).toEqual(work.where && 'and' in work.where ? work.where.and[1] : undefined);
    // every contact is a customer at example.com, so all are kept
    const { total, customers } = await fetchSegment(connector, workPlan, CTX);
    expect(total).toBe(contacts.length);
    expect(customers.map((c) => c.id)).toEqual(singleSearchOrder('DESCENDING'));
    // excluding their own domain leaves nobody
    const none = { ...work, where: { and: [{ field: 'lifecycleStage', op: 'eq', value: 'customer' }, { field: 'emailDomain', op: 'not_in', values: [...free, 'example.com'] }] } } as Segment;
    expect(await countSegment(connector, connector.compile(none, CTX), CTX)).toBe(0);
  });
});
