import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_LIMIT } from '../../api/services/queries.js';
import type { Segment } from '../../api/segmentation/index.js';
import { connectedUser as connectedUserOf, expectedIds as expectedIdsOf, expectedSegmentIds } from '../helpers/crm.js';
import { Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '2000' });
});
afterAll(async () => {
  await t?.close();
});

const connectedUser = (tier = 'free') => connectedUserOf(t.app, t.url, tier);
const expectedIds = (q: string) => expectedIdsOf(t.app, q);
const expectedCount = async (segment: Segment) => expectedSegmentIds(t.app, segment).length;

describe('query pipeline (REST)', () => {
  it('validates the text before anything else and uses no quota', async () => {
    const { c } = await connectedUser();
    const empty = await c.post('/api/queries', { naturalLanguage: '   ' });
    expect(empty.status).toBe(400);
    const long = await c.post('/api/queries', { naturalLanguage: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.json.message).toMatch(/at most 1,000/);
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(0);
    expect((await c.get('/api/queries')).json).toEqual([]);
  });

  it('keeps a query with hasError when the CRM is not connected, without using quota', async () => {
    const c = new Client(t.url);
    await c.login(DEMO);
    const r = await c.post('/api/queries', { naturalLanguage: 'leads in Canada' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ resultCount: 0, hasError: true });
    const messages = (await c.get(`/api/queries/${r.json.query.id}/messages`)).json;
    expect(messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1].content).toMatch(/Not connected to CRM/);
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(0);
  });

  it('answers the spec question with exactly the right customers, an explanation and history', async () => {
    const { c } = await connectedUser();
    const question = 'customers in Europe who bought in the last 30 days with lifetime value over $5k';
    const r = await c.post('/api/queries', { naturalLanguage: question });
    expect(r.status).toBe(200);
    const expected = await expectedIds(question);
    expect(expected.length).toBeGreaterThan(0);
    expect(r.json).toMatchObject({ resultCount: expected.length, hasError: false });
    const customers = (await c.get('/api/customers')).json;
    expect(customers.map((x: any) => x.id).sort()).toEqual([...expected].sort());
    for (const cust of customers) {
      expect(Object.keys(cust).sort()).toEqual(
        ['city', 'company', 'country', 'email', 'firstName', 'id', 'lastName', 'lastPurchaseAmount', 'lastPurchaseDate', 'lifecycleStage', 'lifetimeValue', 'state'].sort(),
      );
      expect(cust.lifetimeValue).toBeGreaterThan(5000);
    }
    const messages = (await c.get(`/api/queries/${r.json.query.id}/messages`)).json;
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({ role: 'user', content: question, queryId: r.json.query.id });
    expect(messages[1].role).toBe('assistant');
    expect(messages[1].content).toContain(String(expected.length));
    expect(messages[1].content).toMatch(/Europe/);
    const history = (await c.get('/api/queries')).json;
    expect(history[0]).toMatchObject({ id: r.json.query.id, naturalLanguage: question, resultCount: expected.length });
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(1);

    const again = await c.post(`/api/queries/${r.json.query.id}/rerun`);
    expect(again.json).toMatchObject({ resultCount: expected.length, hasError: false, query: { id: r.json.query.id } });
    expect((await c.get('/api/queries')).json).toHaveLength(1);
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(2);
  });

  it('runs an edited segment instead of the text and keeps both', async () => {
    const { c } = await connectedUser();
    const first = await c.post('/api/queries', { naturalLanguage: 'leads in Germany' });
    expect(first.json.query.segment).toMatchObject({ version: 1 });
    const edited = {
      version: 1,
      where: { and: [{ field: 'lifecycleStage', op: 'eq', value: 'customer' }, { field: 'country', op: 'eq', value: 'Germany' }] },
    };
    const r = await c.post(`/api/queries/${first.json.query.id}/rerun`, { segment: edited });
    expect(r.status).toBe(200);
    expect(r.json.query.naturalLanguage).toBe('leads in Germany');
    expect(r.json.query.segment).toEqual(edited);
    expect(r.json.resultCount).toBe((await expectedIds('paying customers in Germany')).length);
    const customers = (await c.get(`/api/customers?queryId=${first.json.query.id}`)).json as any[];
    expect(customers.every((x) => x.lifecycleStage === 'customer' && x.country === 'Germany')).toBe(true);

    const fresh = await c.post('/api/queries', { segment: edited });
    expect(fresh.status).toBe(200);
    expect(fresh.json.query.naturalLanguage).toMatch(/Germany/);

    const invalid = await c.post(`/api/queries/${first.json.query.id}/rerun`, { segment: { version: 1, where: { field: 'shoeSize', op: 'eq', value: 9 } } });
    expect(invalid.status).toBe(400);
    expect(invalid.json.message).toMatch(/segment is not valid/);
  });

  it('answers NOT_UNDERSTOOD when nothing was understood: no quota, no query stored, what can be asked', async () => {
    const { c } = await connectedUser();
    const first = await c.post('/api/queries', { naturalLanguage: 'leads in Canada' });
    expect(first.status).toBe(200);
    const r = await c.post('/api/queries', { naturalLanguage: 'customers with a purple unicorn' });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: 'NOT_UNDERSTOOD', query: null, resultCount: 0, hasError: false });
    expect(r.json.ignoredPhrases).toEqual(['purple unicorn']);
    expect(r.json.message).toMatch(/didn't understand "purple unicorn".*no query was used/);
    expect(r.json.suggestions.length).toBeGreaterThan(5);
    expect(r.json.suggestions[0]).toEqual({ field: expect.any(String), label: expect.any(String), example: expect.any(String) });
    // the results list and history are untouched; only the first question was charged
    expect((await c.get('/api/queries')).json).toHaveLength(1);
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(1);

    const g = await c.gql('mutation { runQuery(input: { naturalLanguage: "how many tickets are open" }) { outcome query { id } resultCount message ignoredPhrases suggestions { field example } usage { chatQueriesUsed } } }');
    expect(g.errors).toBeUndefined();
    expect(g.data.runQuery).toMatchObject({ outcome: 'NOT_UNDERSTOOD', query: null, resultCount: 0, usage: { chatQueriesUsed: 1 } });
    expect(g.data.runQuery.ignoredPhrases.length).toBeGreaterThan(0);
    expect(g.data.runQuery.suggestions.map((f: any) => f.field)).toContain('lifecycleStage');
  });

  it('asks before running a partly understood question (no quota, nothing stored), then runs the pick', async () => {
    const { c } = await connectedUser();
    const ask = `mutation { runQuery(input: { naturalLanguage: "leads in Germany with open tickets" }) {
      outcome resultCount message ignoredPhrases query { id } usage { chatQueriesUsed }
      clarification { message notUnderstood understood { explanation clauses { anyOf { field label } } }
        issues { kind phrase message } choices { index id label explanation asUnderstood segment { explanation } } } } }`;
    const g = await c.gql(ask);
    expect(g.errors).toBeUndefined();
    expect(g.data.runQuery).toMatchObject({ outcome: 'CLARIFICATION', query: null, resultCount: 0, usage: { chatQueriesUsed: 0 }, ignoredPhrases: ['open tickets'] });
    const cl = g.data.runQuery.clarification;
    expect(cl.notUnderstood).toEqual(['open tickets']);
    expect(cl.issues).toEqual([{ kind: 'NOT_UNDERSTOOD', phrase: 'open tickets', message: 'I didn\'t understand "open tickets".' }]);
    expect(cl.understood.clauses.map((x: any) => x.anyOf[0].field)).toEqual(['lifecycleStage', 'country']);
    expect(cl.message).toMatch(/^I understood: Leads · in Germany\. I didn't understand "open tickets"\. Nothing was run and no query was used/);
    const own = cl.choices.find((ch: any) => ch.asUnderstood);
    expect(own).toMatchObject({ label: 'Search with what I understood', explanation: 'Leads · in Germany' });
    expect((await c.get('/api/queries')).json).toHaveLength(0);

    // a choice offered differently meanwhile is refused, not run
    const stale = await c.gql(`mutation { runQuery(input: { naturalLanguage: "leads in Germany with open tickets", choice: ${own.index}, choiceId: "000000000000" }) { outcome } }`);
    expect(stale.errors?.[0].message).toMatch(/choices for this question have changed/);
    // the pick runs once, is charged once and says what was left out
    const run = await c.gql(`mutation { runQuery(input: { naturalLanguage: "leads in Germany with open tickets", choice: ${own.index}, choiceId: "${own.id}" }) { outcome query { id } message usage { chatQueriesUsed } } }`);
    expect(run.errors).toBeUndefined();
    expect(run.data.runQuery).toMatchObject({ outcome: 'COMPLETED', usage: { chatQueriesUsed: 1 } });
    expect(run.data.runQuery.query).not.toBeNull();
    expect(run.data.runQuery.message).toMatch(/^(Found [\d,]+ leads?: in Germany\.|I found no leads matching: in Germany\.) I ignored: 'open tickets'\.$/);
    expect((await c.get('/api/queries')).json).toHaveLength(1);
  });

  it('answers a clarification over REST with a documented 422 body, and runs { asUnderstood: true }', async () => {
    const { c } = await connectedUser();
    const r = await c.post('/api/queries', { naturalLanguage: 'accts in ohio with more than 10 support tickets' });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({
      error: 'Clarification needed',
      code: 'CLARIFICATION',
      understood: { segment: { version: 1, where: { field: 'state', op: 'eq', value: 'Ohio' } }, explanation: 'Customers · in Ohio' },
      notUnderstood: ['more than 10 support tickets'],
      issues: [{ kind: 'count', phrase: 'more than 10 support tickets', message: expect.stringMatching(/counts something your contacts have no field for/) }],
      query: null,
      resultCount: 0,
      hasError: false,
    });
    // a bare number that counts something is never money: nothing about lifetime value was understood
    expect(JSON.stringify(r.json.understood.segment)).not.toMatch(/lifetimeValue/);
    expect(r.json.choices.at(-1)).toMatchObject({ index: r.json.choices.length - 1, id: expect.stringMatching(/^[0-9a-f]{12}$/), asUnderstood: true, segment: r.json.understood.segment });
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(0);
    const run = await c.post('/api/queries', { naturalLanguage: 'accts in ohio with more than 10 support tickets', asUnderstood: true });
    expect(run.status).toBe(200);
    expect(run.json.query.segment).toEqual(r.json.understood.segment);
    expect(run.json.resultCount).toBe(await expectedCount({ version: 1, where: { field: 'state', op: 'eq', value: 'Ohio' } }));
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(1);
    // a choice that does not exist
    const bad = await c.post('/api/queries', { naturalLanguage: 'accts in ohio with more than 10 support tickets', choice: 99 });
    expect(bad.status).toBe(400);
  });

  it('asks about a contradiction instead of running it (a city outside the named country, two stages at once)', async () => {
    const { c } = await connectedUser();
    const r = await c.post('/api/queries', { naturalLanguage: 'subscribers who are also paying customers in ohio' });
    expect(r.status).toBe(422);
    expect(r.json.issues.map((i: any) => i.kind)).toEqual(['contradiction']);
    // the choices resolve it: either stage, or one of them
    const labels = r.json.choices.map((ch: any) => ch.explanation);
    expect(labels).toEqual(expect.arrayContaining(['Subscribers and customers (stage: customer) · in Ohio', 'Subscribers · in Ohio', 'Customers (stage: customer) · in Ohio']));
    const place = await c.post('/api/queries', { naturalLanguage: 'leads in Munich, France' });
    expect(place.status).toBe(422);
    expect(place.json.issues[0]).toMatchObject({ kind: 'contradiction', message: 'Munich is not in France.' });
  });

  it("resolves places against the CRM's own values and searches them in its spelling", async () => {
    const { c } = await connectedUser();
    // warm-up: the values are read once per user, a question waits at most 1.5 s for them
    expect((await c.post('/api/queries', { naturalLanguage: 'leads in Canada' })).status).toBe(200);
    // stored as "Kraków" and "Gdańsk": typed without accents
    for (const [typed, stored] of [['krakow', 'Kraków'], ['gdansk', 'Gdańsk']] as const) {
      const r = await c.post('/api/queries', { naturalLanguage: `contacts in ${typed}` });
      expect(r.status).toBe(200);
      expect(r.json.query.segment.where).toEqual({ field: 'city', op: 'eq', value: stored });
      expect(r.json.resultCount).toBe(await expectedCount({ version: 1, where: { field: 'city', op: 'eq', value: stored } }));
      expect(r.json.resultCount).toBeGreaterThan(0);
    }
    // stored as "Zurich": typed with the accent
    const z = await c.post('/api/queries', { naturalLanguage: 'contacts in zürich' });
    expect(z.json.query.segment.where).toEqual({ field: 'city', op: 'eq', value: 'Zurich' });
    // a place the CRM does not hold is asked about, with its closest values
    const o = await c.post('/api/queries', { naturalLanguage: 'contacts in lausane' });
    expect(o.status).toBe(422);
    expect(o.json.issues[0]).toMatchObject({ kind: 'unknown-value' });
    expect(o.json.choices[0]).toMatchObject({ label: 'city Lausanne', segment: { version: 1, where: { field: 'city', op: 'eq', value: 'Lausanne' } } });
  });

  it("reads a company name typed in lower case whole, from the CRM's own company values", async () => {
    const { renderContact } = await import('../../api/crm/hubspot-sandbox/index.js');
    const { LEGAL_SUFFIXES } = await import('../../api/segmentation/parser/lexicon.js');
    const store = t.app.sandbox!.store;
    const counts = new Map<string, number>();
    for (let row = 0; row < store.size; row++) {
      const company = renderContact(store, row, ['company']).properties.company;
      // two words, neither a legal suffix ("Acme Corporation" is read as "Acme")
      if (company && /^[A-Za-z]+ [A-Za-z]+$/.test(company) && !company.split(' ').some((w) => LEGAL_SUFFIXES.has(w.toLowerCase()))) {
        counts.set(company, (counts.get(company) ?? 0) + 1);
      }
    }
    const [name] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    const { c } = await connectedUser();
    // the names are read once per user; a question waits at most 1.5 s for them (a warm-up absorbs a slow machine)
    expect((await c.post('/api/queries', { naturalLanguage: 'leads in Canada' })).status).toBe(200);
    const r = await c.post('/api/queries', { naturalLanguage: `contacts at ${name.toLowerCase()}` });
    expect(r.status).toBe(200);
    expect(r.json.query.segment.where).toEqual({ field: 'company', op: 'contains', value: name });
    expect(r.json.resultCount).toBe(counts.get(name));
  });

  it('refuses other users\' queries with 404', async () => {
    const a = await connectedUser();
    const b = await connectedUser();
    const r = await a.c.post('/api/queries', { naturalLanguage: 'subscribers' });
    expect((await b.c.get(`/api/queries/${r.json.query.id}/messages`)).status).toBe(404);
    expect((await b.c.post(`/api/queries/${r.json.query.id}/rerun`)).status).toBe(404);
    expect((await b.c.get(`/api/queries/not-a-uuid/messages`)).status).toBe(404);
  });

  it('consumes the daily quota atomically: 30 concurrent queries at a limit of 10', async () => {
    const { c } = await connectedUser();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => c.post('/api/queries', { naturalLanguage: `leads with lifetime value over ${i}` })));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(10);
    expect(limited).toHaveLength(20);
    for (const r of limited) {
      expect(r.json).toMatchObject({ used: 10, limit: 10, tier: 'Free Plan', remaining: 0 });
      expect(r.json.error).toBe('Daily limit reached');
    }
    expect((await c.get('/api/usage/current')).json.chatQueriesUsed).toBe(10);
    expect((await c.get('/api/queries')).json).toHaveLength(10);
  }, 60_000);

  it(`keeps only the ${HISTORY_LIMIT} most recent queries, with their messages`, async () => {
    const { c, userId } = await connectedUser('pro');
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < HISTORY_LIMIT; i++) {
      await t.app.deps.prisma.query.create({
        data: { userId, naturalLanguage: `old ${i}`, createdAt: new Date(base + i * 1000), messages: { create: { userId, role: 'user', content: `old ${i}` } } },
      });
    }
    await c.post('/api/queries', { naturalLanguage: 'subscribers in France' });
    await c.post('/api/queries', { naturalLanguage: 'leads in Spain' });
    const history = (await c.get('/api/queries')).json;
    expect(history).toHaveLength(HISTORY_LIMIT);
    expect(history[0].naturalLanguage).toBe('leads in Spain');
    expect(history.map((q: any) => q.naturalLanguage)).not.toContain('old 0');
    expect(history.map((q: any) => q.naturalLanguage)).not.toContain('old 1');
    expect(await t.app.deps.prisma.query.count({ where: { userId } })).toBe(HISTORY_LIMIT);
    expect(await t.app.deps.prisma.chatMessage.count({ where: { userId, content: 'old 0' } })).toBe(0);
  });
});

describe('query pipeline (GraphQL)', () => {
  it('runs a query and pages/filters its customers in the database', async () => {
    const { c } = await connectedUser();
    const run = await c.gql(`mutation { runQuery(input: { naturalLanguage: "customers with lifetime value over $1,000" }) {
      resultCount hasError message usage { chatQueriesUsed } query { id queryId understood { explanation } customers(first: 5) { totalCount edges { node { id lifetimeValue } } pageInfo { hasNextPage endCursor } } } } }`);
    expect(run.errors).toBeUndefined();
    const payload = run.data.runQuery;
    expect(payload.hasError).toBe(false);
    const total = Math.min(payload.resultCount, 1000);
    expect(payload.query.customers.totalCount).toBe(total);
    expect(payload.query.customers.edges).toHaveLength(Math.min(5, total));
    expect(payload.query.customers.pageInfo.hasNextPage).toBe(total > 5);
    expect(payload.query.understood.explanation).toMatch(/lifetime value/i);
    expect(payload.usage.chatQueriesUsed).toBe(1);
    const id = payload.query.queryId;
    const gqlId = payload.query.id;
    const page2 = await c.gql(`{ customerQuery(id: "${gqlId}") { customers(first: 5, after: "${payload.query.customers.pageInfo.endCursor}") { edges { node { id } } } } }`);
    const firstIds = payload.query.customers.edges.map((e: any) => e.node.id);
    for (const e of page2.data.customerQuery.customers.edges) expect(firstIds).not.toContain(e.node.id);
    const eu = await c.gql(`{ customerQuery(id: "${gqlId}") { customers(first: 100, filter: { region: "Europe", lifecycle: "customer" }) { totalCount edges { node { country lifecycleStage } } } } }`);
    for (const e of eu.data.customerQuery.customers.edges) expect(e.node.lifecycleStage).toBe('customer');
    const rest = (await c.get(`/api/customers?queryId=${id}`)).json as any[];
    const { REGION_COUNTRIES } = await import('../../api/segmentation/regions.js');
    const expectedEu = rest.filter((x) => x.lifecycleStage === 'customer' && REGION_COUNTRIES.Europe.includes(x.country));
    expect(eu.data.customerQuery.customers.totalCount).toBe(expectedEu.length);
    const history = await c.gql('{ queryHistory { totalCount edges { node { queryId naturalLanguage messages { role content } } } } }');
    expect(history.data.queryHistory.totalCount).toBe(1);
    expect(history.data.queryHistory.edges[0].node.messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    const empty = await c.gql('mutation { runQuery(input: { naturalLanguage: "  " }) { resultCount } }');
    expect(empty.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});
