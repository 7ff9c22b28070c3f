// First rows in one CRM round trip (issue 24 part 4): a question is answered with its first page and
// exact total as soon as the CRM's first search is in; the rest of the customers to keep are stored in
// the background and announced by customerQueryUpdated. Every page, export and the REST routes stay
// exact (they wait for the rows still coming); the quota rule is unchanged.
// The sandbox answers each request 150 ms late (SANDBOX_LATENCY_MS) so that the background is still
// at work when the answer arrives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareIds } from '../../api/crm/hubspot/model/index.js';
import { connectedUser, expectedIds } from '../helpers/crm.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { collect, wsClient } from '../helpers/ws-client.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '2000', SANDBOX_LATENCY_MS: '150' });
});
afterAll(async () => {
  await t?.close();
});

// Every one of the 2,000 contacts: the first 1,000 (by id) are kept, five searches of 200.
const QUESTION = 'customers';
const searches = () => t.app.sandbox!.stats.searchRequests;
const cookieOf = (c: { cookies: Map<string, string> }) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

const RUN = `mutation($q: String!) { runQuery(input: { naturalLanguage: $q }) {
  resultCount hasError usage { chatQueriesUsed }
  query { id queryId resultsState resultCount customers(first: 10) { totalCount edges { node { id } } } }
} }`;

async function expectedFirst1000() {
  const ids = await expectedIds(t.app, QUESTION);
  expect(ids).toHaveLength(2000);
  return [...ids].sort(compareIds).slice(0, 1000);
}

describe('first rows in one CRM round trip', () => {
  it('answers after one search with the first page and the exact total; the rest arrives by subscription', async () => {
    const expected = await expectedFirst1000();
    const { c } = await connectedUser(t.app, t.url, 'enterprise');
    const before = searches();
    const r = await c.gql(RUN, { q: QUESTION });
    expect(r.errors).toBeUndefined();
    // answered before the CRM's last search (the second one may be under way: the background starts at once)
    expect(searches() - before).toBeLessThan(5);
    const run = r.data.runQuery;
    expect(run).toMatchObject({ resultCount: 2000, hasError: false, usage: { chatQueriesUsed: 1 } });
    expect(run.query.resultsState).toBe('LOADING');
    expect(run.query.customers.totalCount).toBe(1000);
    expect(run.query.customers.edges.map((e: any) => e.node.id)).toEqual(expected.slice(0, 10));

    const ws = wsClient(t.url, cookieOf(c));
    try {
      const sub = collect<any>(ws, `subscription { customerQueryUpdated(id: "${run.query.id}") { resultsState hasError resultCount customers(first: 10, offset: 990) { totalCount edges { node { id } } } } }`);
      await sub.next(1, 15_000);
      expect(sub.errors).toEqual([]);
      expect(sub.items[0].customerQueryUpdated).toMatchObject({ resultsState: 'COMPLETE', hasError: false, resultCount: 2000 });
      expect(sub.items[0].customerQueryUpdated.customers.totalCount).toBe(1000);
      expect(sub.items[0].customerQueryUpdated.customers.edges.map((e: any) => e.node.id)).toEqual(expected.slice(990));
      sub.dispose();
      expect(searches() - before).toBe(5);

      // subscribing once they are stored answers at once
      const late = collect<any>(ws, `subscription { customerQueryUpdated(id: "${run.query.id}") { resultsState } }`);
      await late.next(1);
      expect(late.items).toEqual([{ customerQueryUpdated: { resultsState: 'COMPLETE' } }]);
    } finally {
      await ws.dispose();
    }
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(1);
  });

  it('keeps later pages, filtered pages and the export exact while the rest is stored (they wait for it)', async () => {
    const expected = await expectedFirst1000();
    const { c } = await connectedUser(t.app, t.url, 'enterprise');
    const r = await c.gql(RUN, { q: QUESTION });
    const id = r.data.runQuery.query.id;
    expect(r.data.runQuery.query.resultsState).toBe('LOADING');
    const page = await c.gql(`query($id: ID!) { customerQuery(id: $id) {
      later: customers(first: 100, offset: 900) { edges { node { id } } }
      last: customers(last: 5) { edges { node { id } } }
      leads: customers(first: 5, filter: { lifecycle: "lead" }) { totalCount }
    } }`, { id });
    expect(page.errors).toBeUndefined();
    const q = page.data.customerQuery;
    expect(q.later.edges.map((e: any) => e.node.id)).toEqual(expected.slice(900, 1000));
    expect(q.last.edges.map((e: any) => e.node.id)).toEqual(expected.slice(995));
    const leads = await t.app.deps.prisma.queryResult.count({ where: { queryId: r.data.runQuery.query.queryId, customer: { lifecycleStage: 'lead' } } });
    expect(q.leads.totalCount).toBe(leads);
    expect(leads).toBeGreaterThan(0);
    const state = await c.gql(`query($id: ID!) { customerQuery(id: $id) { resultsState customers { totalCount } } }`, { id });
    expect(state.data.customerQuery).toEqual({ resultsState: 'COMPLETE', customers: { totalCount: 1000 } });
  });

  it('REST: after POST /api/queries answers, GET /api/customers returns the complete stored result', async () => {
    const expected = await expectedFirst1000();
    const { c } = await connectedUser(t.app, t.url, 'enterprise');
    const r = await c.post('/api/queries', { naturalLanguage: QUESTION });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ resultCount: 2000, hasError: false });
    const customers = (await c.get('/api/customers')).json as { id: string }[];
    expect(customers.map((x) => x.id)).toEqual(expected);
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(1);
  });

  it('a re-run while the rest is stored replaces it: no row twice, the order exact, one unit per run', async () => {
    const expected = await expectedFirst1000();
    const { c } = await connectedUser(t.app, t.url, 'enterprise');
    const r = await c.post('/api/queries', { naturalLanguage: QUESTION });
    const again = await c.post(`/api/queries/${r.json.query.id}/rerun`);
    expect(again.json).toMatchObject({ resultCount: 2000, hasError: false });
    const customers = (await c.get(`/api/customers?queryId=${r.json.query.id}`)).json as { id: string }[];
    expect(customers.map((x) => x.id)).toEqual(expected);
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(2);
  });

  it('answers a question whose customers fit one CRM page complete at once', async () => {
    const { c } = await connectedUser(t.app, t.url, 'enterprise');
    const r = await c.gql(RUN, { q: 'top 10 customers by lifetime value' });
    expect(r.data.runQuery.query).toMatchObject({ resultsState: 'COMPLETE', resultCount: 10, customers: { totalCount: 10 } });
  });
});
