// The database work of the hot GraphQL reads, recorded and snapshotted (the Pothos plugin-prisma
// model): history with messages and customers, a query's customers page, the admin user table and
// today's smart segments. Each read is measured at two data sizes: the calls must be the same, so an
// N+1 shows up as a failing test, and any new call shows up as a changed snapshot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSegmentsFor } from '../helpers/generation.js';
import { connectedUser } from '../helpers/crm.js';
import { recordPrismaCalls } from '../helpers/prisma-recorder.js';
import { ADMIN, Client, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '300' });
  admin = new Client(t.url);
  await admin.login(ADMIN);
});
afterAll(async () => {
  await t?.close();
});

async function plan(client: Client, query: string, variables?: Record<string, unknown>) {
  // The caller's session is read once and then served from the read cache (api/services/read-cache.ts):
  // warm it, so that the plan is the query's own reads.
  await client.gql('{ viewer { id } }');
  let errors: unknown;
  const calls = await recordPrismaCalls(t.app.deps, async () => {
    const r = await client.gql(query, variables);
    errors = r.errors;
  });
  expect(errors).toBeUndefined();
  return calls.map((c) => `${c.call}${c.shape ? ` {${c.shape}}` : ''}`);
}

const HISTORY = `{ queryHistory(first: 50) { totalCount edges { node { id naturalLanguage resultCount hasError
  understood { explanation ignoredPhrases clauses { anyOf { label } } }
  messages { role content }
  customers(first: 10) { totalCount edges { node { id email lifetimeValue } } } } } } }`;

describe('query plans of the hot reads', () => {
  it('history with messages, understood segment and first page of customers: independent of the number of queries', async () => {
    const u = await connectedUser(t.app, t.url, 'pro');
    for (const q of ['leads in Europe', 'customers with lifetime value over $1,000']) {
      expect((await u.c.post('/api/queries', { naturalLanguage: q })).status).toBe(200);
    }
    const small = await plan(u.c, HISTORY);
    for (const q of ['subscribers in Canada', 'opportunities', 'customers who bought in the last 90 days']) {
      expect((await u.c.post('/api/queries', { naturalLanguage: q })).status).toBe(200);
    }
    const large = await plan(u.c, HISTORY);
    expect(large.filter((c) => !c.startsWith('queryResult'))).toEqual(small.filter((c) => !c.startsWith('queryResult')));
    // A customers connection per query is one page read and one count each (the connection is per parent).
    expect(large.filter((c) => c.startsWith('queryResult')).length).toBe(5 * 2);
    expect(small).toMatchSnapshot();
  });

  it('a query customers page with filters', async () => {
    const u = await connectedUser(t.app, t.url);
    const r = await u.c.gql('mutation { runQuery(input: { naturalLanguage: "contacts with lifetime value over $100" }) { query { id } } }');
    const id = r.data.runQuery.query.id;
    const calls = await plan(
      u.c,
      `query($id: ID!) { customerQuery(id: $id) { customers(first: 10, filter: { region: "Europe", search: "a" }) { totalCount edges { cursor node { id } } pageInfo { hasNextPage } } } }`,
      { id },
    );
    expect(calls).toMatchSnapshot();
  });

  it('the admin user table: independent of the number of users', async () => {
    const Q = '{ adminUsers(first: 50) { totalCount edges { node { id email tierName chatQueryLimit smartSegmentLimit todaysUsage { chatQueriesUsed smartSegmentsUsed } isBanned } } } }';
    await connectedUser(t.app, t.url);
    const small = await plan(admin, Q);
    for (let i = 0; i < 4; i++) await connectedUser(t.app, t.url, i % 2 ? 'pro' : 'free');
    await t.app.deps.prisma.user.updateMany({ where: { email: { startsWith: 'u' } }, data: {} });
    const large = await plan(admin, Q);
    expect(large).toEqual(small);
    expect(small).toMatchSnapshot();
  });

  it("today's smart segments with preset and category: independent of the number of segments", async () => {
    const u = await connectedUser(t.app, t.url);
    const presets = await t.app.deps.prisma.smartSegmentPreset.findMany({ where: { isActive: true }, take: 2 });
    await t.app.deps.prisma.smartSegmentPreset.updateMany({ where: { id: { notIn: presets.map((p) => p.id) } }, data: { isActive: false } });
    await generateSegmentsFor(t.app.deps, [u.userId]);
    const Q = '{ dailySegments(first: 50) { totalCount edges { node { id impactScore customerCount isUnlocked preset { name isFavorite category { name isLocked } } } } } }';
    const small = await plan(u.c, Q);
    await t.app.deps.prisma.smartSegmentPreset.updateMany({ data: { isActive: true } });
    await generateSegmentsFor(t.app.deps, [u.userId]);
    expect(await t.app.deps.prisma.dailyGeneratedSegment.count({ where: { userId: u.userId } })).toBeGreaterThan(2);
    const large = await plan(u.c, Q);
    expect(large).toEqual(small);
    expect(small).toMatchSnapshot();
  });
});
