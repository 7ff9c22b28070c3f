// customerExport: every customer of a stored query (its segment run again against the CRM) or of an
// unlocked Smart Segment, page by page, stateless, owner only, no quota. Checked against the sandbox's
// contacts evaluated in memory (expectedIds) and against the other download paths.
import { encodeGlobalID as gid } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSegmentsFor } from '../helpers/generation.js';
import { connectedUser, expectedIds } from '../helpers/crm.js';
import { Client, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '3000' });
});
afterAll(async () => {
  await t?.close();
});

const EXPORT = `query($source: ID!, $first: Int, $after: String, $withTotal: Boolean!) {
  customerExport(source: $source, first: $first, after: $after) {
    totalCount @include(if: $withTotal)
    edges { cursor node { id firstName email lifetimeValue } }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface Page {
  totalCount?: number;
  edges: { cursor: string; node: { id: string; lifetimeValue: number | null } }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

async function page(c: Client, source: string, vars: { first?: number; after?: string | null; withTotal?: boolean } = {}) {
  const r = await c.gql(EXPORT, { source, withTotal: false, ...vars });
  return r;
}

/** Reads the whole export; returns the ids in order, the total of the first page and the page count. */
async function readAll(c: Client, source: string, first = 200) {
  const ids: string[] = [];
  let after: string | null = null;
  let total: number | undefined;
  let pages = 0;
  for (;;) {
    const r = await page(c, source, { first, after, withTotal: after === null });
    expect(r.errors).toBeUndefined();
    const p = r.data.customerExport as Page;
    if (after === null) total = p.totalCount;
    pages++;
    ids.push(...p.edges.map((e) => e.node.id));
    if (!p.pageInfo.hasNextPage) return { ids, total, pages };
    after = p.pageInfo.endCursor;
  }
}

async function runQuery(c: Client, naturalLanguage: string) {
  const r = await c.gql('mutation($q: String!) { runQuery(input: { naturalLanguage: $q }) { query { id resultCount } hasError } }', { q: naturalLanguage });
  expect(r.errors).toBeUndefined();
  expect(r.data.runQuery.hasError).toBe(false);
  return r.data.runQuery.query as { id: string; resultCount: number };
}

const usage = async (c: Client) => (await c.gql('{ usage { chatQueriesUsed smartSegmentsUsed } }')).data.usage;

describe('customerExport of a stored query', () => {
  it('returns every customer of the segment once, in id order, beyond the 1,000 a query keeps, using no quota', async () => {
    const { c } = await connectedUser(t.app, t.url, 'enterprise');
    const question = 'customers';
    const expected = await expectedIds(t.app, question);
    expect(expected.length).toBeGreaterThan(1000); // more than a query stores
    const query = await runQuery(c, question);
    expect(query.resultCount).toBe(expected.length);
    const before = await usage(c);

    const { ids, total, pages } = await readAll(c, query.id, 200);
    expect(total).toBe(expected.length);
    expect(ids).toHaveLength(expected.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...expected].sort());
    expect(ids).toEqual([...ids].sort((a, b) => Number(a) - Number(b)));
    expect(pages).toBe(Math.ceil(expected.length / 200));
    expect(await usage(c)).toEqual(before);
  });

  it('reads a "top N" segment in its own order, the same customers the query stored', async () => {
    const { c } = await connectedUser(t.app, t.url, 'enterprise');
    const query = await runQuery(c, 'top 25 customers by lifetime value');
    const stored = await c.gql('query($id: ID!) { customerQuery(id: $id) { customers(first: 100) { edges { node { id } } } } }', { id: query.id });
    const storedIds = stored.data.customerQuery.customers.edges.map((e: any) => e.node.id);
    expect(storedIds).toHaveLength(25);
    const { ids, total, pages } = await readAll(c, query.id, 10);
    expect(total).toBe(25);
    expect(ids).toEqual(storedIds);
    expect(pages).toBe(3);
  });

  it('is stateless: a cursor can be read again, and any edge cursor resumes right after its customer', async () => {
    const { c } = await connectedUser(t.app, t.url, 'enterprise');
    const query = await runQuery(c, 'leads');
    const first = (await page(c, query.id, { first: 50 })).data.customerExport as Page;
    expect(first.edges).toHaveLength(50);
    const a = (await page(c, query.id, { first: 20, after: first.pageInfo.endCursor })).data.customerExport as Page;
    const b = (await page(c, query.id, { first: 20, after: first.pageInfo.endCursor })).data.customerExport as Page;
    expect(b.edges.map((e) => e.node.id)).toEqual(a.edges.map((e) => e.node.id));
    const fromEdge = (await page(c, query.id, { first: 5, after: first.edges[9].cursor })).data.customerExport as Page;
    expect(fromEdge.edges.map((e) => e.node.id)).toEqual(first.edges.slice(10, 15).map((e) => e.node.id));
  });

  it('refuses bad arguments, and hides other users\' queries as not found', async () => {
    const owner = await connectedUser(t.app, t.url);
    const other = await connectedUser(t.app, t.url);
    const query = await runQuery(owner.c, 'leads in Canada');
    expect((await page(other.c, query.id)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await page(new Client(t.url), query.id)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await page(owner.c, query.id, { first: 201 })).errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'first' } });
    expect((await page(owner.c, query.id, { first: 0 })).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await page(owner.c, query.id, { after: 'not-a-cursor' })).errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'after' } });
    const positional = Buffer.from(JSON.stringify({ by: 'position', offsets: [0], taken: 0 })).toString('base64url');
    expect((await page(owner.c, query.id, { after: positional })).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const segment = await owner.c.gql('mutation { createSavedSegment(input: { description: "leads" }) { savedSegment { id } } }');
    expect((await page(owner.c, segment.data.createSavedSegment.savedSegment.id)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await page(owner.c, 'garbage')).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('customerExport of a Smart Segment', () => {
  it('needs the segment unlocked, then returns the customers the download returns', async () => {
    const { c, userId } = await connectedUser(t.app, t.url, 'enterprise');
    await generateSegmentsFor(t.app.deps, [userId]);
    const rows = await t.app.deps.prisma.dailyGeneratedSegment.findMany({ where: { userId, hasError: false }, orderBy: { customerCount: 'desc' } });
    const segment = rows[0];
    expect(segment.customerCount).toBeGreaterThan(200);
    const source = gid('DailySegment', segment.id);

    const locked = await page(c, source);
    expect(locked.errors?.[0]).toMatchObject({ message: 'Unlock this segment before downloading its customers', extensions: { code: 'FORBIDDEN' } });

    expect((await c.gql('mutation($id: ID!) { unlockSmartSegment(input: { id: $id }) { dailySegment { isUnlocked } } }', { id: source })).errors).toBeUndefined();
    const download = await c.gql('mutation($id: ID!) { smartSegmentCustomers(input: { id: $id }) { total customers { id } } }', { id: source });
    const downloaded = download.data.smartSegmentCustomers.customers.map((x: any) => x.id) as string[];
    const before = await usage(c);
    const { ids, total } = await readAll(c, source, 150);
    expect(total).toBe(download.data.smartSegmentCustomers.total);
    expect([...ids].sort()).toEqual([...downloaded].sort());
    expect(await usage(c)).toEqual(before);
  });
});
