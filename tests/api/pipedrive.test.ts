// A Pipedrive user of the whole product against the embedded Pipedrive sandbox (/pipedrive-sandbox):
// registering with Pipedrive, connecting by personal API token and by OAuth (refresh, revoke on
// disconnect), asking questions, the field map, Smart Segments (generate, unlock, download) and the
// export — answers checked against the synthetic people evaluated in memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS } from '../../api/crm/pipedrive-sandbox/index.js';
import { decryptSecret } from '../../api/crypto.js';
import { connectorForUser } from '../../api/services/crm.js';
import { generateSegmentsFor } from '../helpers/generation.js';
import { expectedPipedrive, PIPEDRIVE_TOKEN as TOKEN, pipedriveSandbox, pipedriveUser as makeUser } from '../helpers/pipedrive.js';
import { startTestApp, type Client, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '1500' });
});
afterAll(async () => {
  await t?.close();
});

const sandbox = () => pipedriveSandbox(t.app);
const pipedriveUser = () => makeUser(t.app, t.url, { connect: false });
const connected = (tier = 'free') => makeUser(t.app, t.url, { tier });
const expected = (question: string) => expectedPipedrive(t.app, question);

async function oauthDance(c: Client) {
  const start = await c.get('/api/auth/pipedrive/authorize');
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(start.headers.get('location')!);
  const consent = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  return { authorizeUrl, callback: new URL(consent.headers.get('location')!) };
}

describe('connecting Pipedrive', () => {
  it("offers Pipedrive's methods and field map, refuses a wrong API token and stores a right one encrypted", async () => {
    const { c, userId } = await pipedriveUser();
    const conn = await c.gql('{ crmConnection { connected supported crmLabel oauthAvailable tokenMethodLabel tokenMethodHelp tokenMethodFields { name secret required } fieldMap { field crmField defaultCrmField } } }');
    expect(conn.data.crmConnection).toMatchObject({
      connected: false, supported: true, crmLabel: 'PipeDrive', oauthAvailable: true, tokenMethodLabel: 'Personal API token',
      tokenMethodFields: [{ name: 'token', secret: true, required: true }],
    });
    expect(conn.data.crmConnection.tokenMethodHelp).toMatch(/Personal preferences → API/);
    expect(conn.data.crmConnection.fieldMap).toContainEqual({ field: 'lifetimeValue', crmField: 'won_deals.total_value', defaultCrmField: 'won_deals.total_value' });

    const wrong = await c.post('/api/crm/token', { token: 'f'.repeat(40) });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toMatch(/PipeDrive rejected this token/);
    const ok = await c.post('/api/crm/token', { token: ` ${TOKEN} ` });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ connected: true, tokenType: 'pat', accountId: String(sandbox().config.companyId) });
    expect(JSON.stringify(ok.json)).not.toContain(TOKEN);
    const row = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(row).toMatchObject({ provider: 'pipedrive', tokenType: 'pat', instanceUrl: null });
    expect(row.accessTokenCiphertext).not.toContain(TOKEN.slice(4, 20));
  });

  it("connects with OAuth through Pipedrive's authorize page, keeps the company's api_domain, refreshes, and revokes on disconnect", async () => {
    const { c, userId } = await pipedriveUser();
    const { authorizeUrl, callback } = await oauthDance(c);
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${t.url}/pipedrive-sandbox/oauth/authorize`);
    expect(authorizeUrl.searchParams.get('client_id')).toBe(DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.clientId);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${t.url}/api/auth/pipedrive/callback`);
    const done = await c.get(callback.pathname + callback.search);
    expect(done.headers.get('location')).toBe('/?oauth=success');
    expect((await c.get('/api/crm/connection')).json).toMatchObject({ connected: true, tokenType: 'oauth', instanceUrl: `${t.url}/pipedrive-sandbox` });

    // refresh before expiry
    const before = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(before.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    await t.app.deps.prisma.userIntegration.update({ where: { id: before.id }, data: { expiresAt: new Date(Date.now() + 60_000) } });
    const user = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    const connector = await connectorForUser(t.app.deps, user);
    expect(await connector.count(connector.compile({ version: 1 }, { now: new Date(), timeZone: 'UTC' }))).toBe(1500);
    const after = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(after.accessTokenCiphertext).not.toBe(before.accessTokenCiphertext);

    // disconnecting revokes the grant at Pipedrive
    const refresh = decryptSecret(after.refreshTokenCiphertext!, t.config.tokenEncryptionKey);
    expect(sandbox().tokens.refreshTokens.get(refresh)?.revoked).toBe(false);
    expect((await c.delete('/api/auth/pipedrive/disconnect')).json).toMatchObject({ success: true });
    expect(sandbox().tokens.refreshTokens.get(refresh)?.revoked).toBe(true);
    expect((await c.get('/api/crm/connection')).json.connected).toBe(false);
  });
});

describe('using the product with Pipedrive', () => {
  it('answers questions with exact counts and the customers in order', async () => {
    const { c } = await connected();
    for (const question of ['customers in Germany', 'top 10 customers by lifetime value', 'leads who signed up this year']) {
      const want = await expected(question);
      const r = await c.post('/api/queries', { naturalLanguage: question });
      expect(r.status).toBe(200);
      expect(r.json.resultCount).toBe(want.length);
      const stored = await c.get(`/api/customers?queryId=${r.json.query.id}`);
      expect(stored.status).toBe(200);
      expect((stored.json as { id: string }[]).map((x) => x.id)).toEqual(want.slice(0, stored.json.length).map((x) => x.id));
      expect(stored.json.length).toBe(Math.min(want.length, 1000));
    }
  });

  it("maps lifetime value and stage to Pipedrive fields of the connection's choosing", async () => {
    const { c } = await connected();
    const fields = (await c.gql('{ crmFields { name label kind } }')).data.crmFields as { name: string; label: string; kind: string }[];
    expect(fields).toContainEqual({ name: 'won_deals.total_value', label: 'Won deals — total value', kind: 'number' });
    const ltv = fields.find((f) => f.label === 'Lifetime value')!;
    expect(ltv.kind).toBe('number');
    const saved = await c.gql(`mutation { saveCrmFieldMap(input: { fields: [{ field: "lifetimeValue", crmField: "${ltv.name}" }], stages: [{ crmValue: "Lead", stage: "lead" }, { crmValue: "VIP", stage: "lead" }] }) { crmConnection { fieldMap { field crmField } } } }`);
    expect(saved.errors).toBeUndefined();
    const big = await c.post('/api/queries', { naturalLanguage: 'customers with lifetime value over 10000' });
    expect(big.json.resultCount).toBe(sandbox().data.persons.filter((p) => (p.lifetime_value ?? 0) > 10000).length);
    const stored = await t.app.deps.prisma.query.findUniqueOrThrow({ where: { id: big.json.query.id } });
    expect(JSON.stringify(stored.hubspotQuery)).toContain(ltv.name);
    // only the mapped labels are stages now: "Lead" and "VIP" mean lead
    const leads = await c.post('/api/queries', { naturalLanguage: 'leads' });
    expect(leads.json.resultCount).toBe(sandbox().data.persons.filter((p) => p.label_ids.includes(102) || p.label_ids.includes(109)).length);
  });

  it('generates Smart Segments, unlocks one and downloads it, and exports a query page by page', async () => {
    const { c, userId } = await connected('enterprise');
    const stats = await generateSegmentsFor(t.app.deps, [userId]);
    expect(stats.failedCount).toBe(0);
    const daily = (await c.get('/api/smart-segments/daily')).json as { id: string; customerCount: number; hasError: boolean }[];
    expect(daily.length).toBeGreaterThan(0);
    expect(daily.every((s) => !s.hasError)).toBe(true);
    const target = daily.filter((s) => s.customerCount > 0).sort((a, b) => b.customerCount - a.customerCount)[0];
    expect((await c.post(`/api/smart-segments/${target.id}/unlock`)).status).toBe(200);
    const dl = await c.post(`/api/smart-segments/${target.id}/customers`);
    expect(dl.json.total).toBe(target.customerCount);
    expect(new Set(dl.json.customers.map((x: { id: string }) => x.id)).size).toBe(target.customerCount);

    const want = await expected('customers');
    const q = await c.gql('mutation { runQuery(input: { naturalLanguage: "customers" }) { query { id resultCount } hasError } }');
    expect(q.data.runQuery).toMatchObject({ hasError: false, query: { resultCount: want.length } });
    const ids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const r = await c.gql('query($s: ID!, $a: String) { customerExport(source: $s, first: 200, after: $a) { edges { node { id } } pageInfo { hasNextPage endCursor } } }', { s: q.data.runQuery.query.id, a: after });
      expect(r.errors).toBeUndefined();
      ids.push(...r.data.customerExport.edges.map((e: { node: { id: string } }) => e.node.id));
      if (!r.data.customerExport.pageInfo.hasNextPage) break;
      after = r.data.customerExport.pageInfo.endCursor;
    }
    expect(ids).toEqual(want.map((x) => x.id));
  });
});
