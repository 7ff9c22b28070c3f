/**
 * A Zoho CRM user end to end against the embedded Zoho sandbox (its org in the EU data centre): the
 * connection methods on screen, a self client's grant code (data centre detected), OAuth with the data
 * centre taken from the callback, questions answered with HubSpot's people, tokens refreshed when Zoho
 * says they expired, the export, Smart Segments, and disconnect revoking the grant at Zoho.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZohoSandbox } from '../../api/crm/zoho-sandbox/index.js';
import { personIdOfRecord } from '../../api/crm/zoho-sandbox/data.js';
import { OAUTH_MESSAGES } from '../../api/services/crm.js';
import { generateSegmentsFor } from '../helpers/generation.js';
import { expectedIds, registerUser } from '../helpers/crm.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
const zoho = () => t.app.sandboxes.get('zoho') as ZohoSandbox;

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '1500', SANDBOX_ZOHO_DC: 'eu' });
});
afterAll(async () => {
  await t?.close();
});

function selfClientJson(code = zoho().issueSelfClientGrant().code) {
  const { selfClientId, selfClientSecret } = zoho().config;
  return JSON.stringify({ client_id: selfClientId, client_secret: selfClientSecret, code, grant_type: 'authorization_code' });
}

const people = (ids: string[]) => ids.map((id) => personIdOfRecord(id)).sort((a, b) => a! - b!);
const hubspotPeople = (ids: string[]) => ids.map(Number).sort((a, b) => a - b);

describe('a Zoho user', () => {
  it("sees Zoho's connection methods", async () => {
    const { c } = await registerUser(t.url, { crmType: 'zoho' });
    const g = await c.gql('{ crmConnection { connected supported crmLabel oauthAvailable tokenMethodLabel tokenMethodFields { name secret required } } }');
    expect(g.data.crmConnection).toMatchObject({
      connected: false,
      supported: true,
      crmLabel: 'Zoho',
      oauthAvailable: true,
      tokenMethodLabel: 'Self-client grant code',
      tokenMethodFields: [{ name: 'token', secret: true, required: true }, { name: 'region', secret: false, required: false }],
    });
  });

  it('connects with a self-client grant code, asks, exports, generates Smart Segments, survives token expiry and disconnects', async () => {
    const { c, userId } = await registerUser(t.url, { crmType: 'zoho' });
    const bad = await c.post('/api/crm/token', { token: 'not a grant' });
    expect(bad.status).toBe(400);
    const used = zoho().issueSelfClientGrant().code;
    expect((await c.post('/api/crm/token', { token: selfClientJson(used), region: 'us' })).status).toBe(400); // wrong data centre, no detection
    const ok = await c.post('/api/crm/token', { token: selfClientJson(used) }); // detected: eu
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ connected: true, tokenType: 'pat' });
    expect(ok.json.scopes).toContain('ZohoCRM.coql.READ'); // as the token answer granted them
    const row = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(row.instanceUrl).toBe(`${t.url}/zoho-sandbox/api/eu`);
    expect(row.refreshTokenCiphertext).not.toContain(zoho().config.selfClientSecret);
    expect(row.expiresAt).not.toBeNull();

    const question = 'customers in Germany or France';
    const r = await c.post('/api/queries', { naturalLanguage: question });
    expect(r.status).toBe(200);
    const expected = await expectedIds(t.app, question);
    expect(expected.length).toBeGreaterThan(10);
    expect(r.json).toMatchObject({ resultCount: expected.length, hasError: false });
    const customers = (await c.get('/api/customers')).json as { id: string; lifecycleStage: string }[];
    expect(people(customers.map((x) => x.id))).toEqual(hubspotPeople(expected));

    // Zoho says the token expired (its clock moved on): the product refreshes with the self client's credentials.
    const grantsBefore = zoho().stats.tokenGrants;
    zoho().clock.advance(2 * 3600_000);
    const again = await c.post('/api/queries', { naturalLanguage: 'customers with lifetime value over 5000' });
    expect(again.status).toBe(200);
    expect(again.json.resultCount).toBe((await expectedIds(t.app, 'customers with lifetime value over 5000')).length);
    expect(zoho().stats.tokenGrants).toBe(grantsBefore + 1);

    const run = await c.gql('mutation($q: String!) { runQuery(input: { naturalLanguage: $q }) { query { id resultCount } } }', { q: question });
    expect(run.data.runQuery.query.resultCount).toBe(expected.length);
    const exported: string[] = [];
    let after: string | null = null;
    for (;;) {
      const p = await c.gql('query($s: ID!, $a: String) { customerExport(source: $s, first: 7, after: $a) { edges { node { id } } pageInfo { hasNextPage endCursor } } }', { s: run.data.runQuery.query.id, a: after });
      expect(p.errors).toBeUndefined();
      exported.push(...p.data.customerExport.edges.map((e: { node: { id: string } }) => e.node.id));
      if (!p.data.customerExport.pageInfo.hasNextPage) break;
      after = p.data.customerExport.pageInfo.endCursor;
    }
    expect(people(exported)).toEqual(hubspotPeople(expected));

    const stats = await generateSegmentsFor(t.app.deps, [userId]);
    expect(stats).toMatchObject({ failedCount: 0, successCount: 12 });
    const daily = (await c.get('/api/smart-segments/daily')).json as { id: string; customerCount: number; hasError: boolean }[];
    expect(daily.length).toBeGreaterThan(0);
    expect(daily.every((s) => !s.hasError)).toBe(true);
    const target = daily.filter((s) => s.customerCount > 0).sort((a, b) => b.customerCount - a.customerCount)[0];
    expect((await c.post(`/api/smart-segments/${target.id}/unlock`)).status).toBe(200);
    const dl = await c.post(`/api/smart-segments/${target.id}/customers`);
    expect(dl.json.total).toBe(target.customerCount);
    expect(new Set(dl.json.customers.map((x: { id: string }) => x.id)).size).toBe(target.customerCount);

    const grants = [...zoho().state.tokens.refreshTokens.values()].filter((g) => g.clientId === zoho().config.selfClientId && !g.revoked);
    expect(grants).toHaveLength(1);
    expect((await c.delete('/api/auth/zoho/disconnect')).json).toMatchObject({ success: true, connected: false });
    expect(grants[0].revoked).toBe(true);
  }, 120_000);

  it('connects with OAuth: the data centre comes from the callback, a forged accounts server is refused', async () => {
    const { c } = await registerUser(t.url, { crmType: 'zoho' });
    const start = await c.get('/api/auth/zoho/authorize?region=us');
    expect(start.status).toBe(302);
    const authorizeUrl = new URL(start.headers.get('location')!);
    expect(authorizeUrl.pathname).toBe('/zoho-sandbox/accounts/us/oauth/v2/auth');
    expect(authorizeUrl.searchParams.get('access_type')).toBe('offline');
    const consent = await fetch(authorizeUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    expect(callback.searchParams.get('location')).toBe('eu');

    const forged = new URL(callback);
    forged.searchParams.set('accounts-server', 'https://accounts.evil.example');
    const refused = await c.get(forged.pathname + forged.search);
    expect(refused.headers.get('location')).toBe(`/?oauth=error&message=${encodeURIComponent(OAUTH_MESSAGES.refused)}`);
    expect((await c.get('/api/crm/connection')).json.connected).toBe(false);

    const again = new URL((await fetch(new URL((await c.get('/api/auth/zoho/authorize')).headers.get('location')!), { redirect: 'manual' })).headers.get('location')!);
    const done = await c.get(again.pathname + again.search);
    expect(done.headers.get('location')).toBe('/?oauth=success');
    expect((await c.get('/api/crm/connection')).json).toMatchObject({ connected: true, tokenType: 'oauth', crmType: 'zoho' });
    const r = await c.post('/api/queries', { naturalLanguage: 'leads in Canada' });
    expect(r.json.resultCount).toBe((await expectedIds(t.app, 'leads in Canada')).length);
  }, 60_000);
});
