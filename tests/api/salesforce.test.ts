// A Salesforce user end to end against the embedded Salesforce sandbox: register, connect by access
// token + instance URL and by OAuth, ask, generate Smart Segments, download; sessions that end are
// refreshed, disconnecting revokes the grant, a spent API allocation is said plainly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SalesforceSandbox } from '../../api/crm/salesforce-sandbox/index.js';
import { DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS } from '../../api/crm/salesforce-sandbox/index.js';
import { resetAllocations } from '../../api/crm/salesforce/allocation.js';
import { decryptSecret } from '../../api/crypto.js';
import { compileEvaluator, parseSegment } from '../../api/segmentation/index.js';
import { generateSegmentsFor } from '../helpers/generation.js';
import { registerUser } from '../helpers/crm.js';
import { Client, startTestApp, type TestApp } from '../helpers/test-app.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { buildCli, crm } from '../cli/run-crm.js';
import { generateContacts } from '../../api/crm/hubspot-sandbox/data.js';
import type { HubSpotContact } from '../../api/crm/hubspot/model/index.js';

let t: TestApp;
let sf: SalesforceSandbox;
let instanceUrl: string;
const TOKEN = DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS.accessToken;

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '1500' });
  sf = t.app.sandboxes.get('salesforce') as unknown as SalesforceSandbox;
  instanceUrl = `${t.url}/salesforce-sandbox`;
});
afterAll(async () => {
  await t?.close();
});

/** The people a question selects (the same synthetic people as HubSpot's, evaluated in memory), as person ids. */
async function expectedPeople(question: string): Promise<string[]> {
  const now = t.app.deps.now();
  const opts = { now, timeZone: t.app.deps.config.usageTimeZone };
  const { segment } = await parseSegment(question, opts);
  const matches = compileEvaluator(segment, opts);
  const contacts: HubSpotContact[] = generateContacts({ count: 1500, seed: t.config.sandbox.seed }).map((c) => ({
    id: String(c.id),
    properties: Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v === null ? null : String(v)])),
  }));
  for (const c of contacts) c.properties.hs_object_id = c.id;
  return contacts.filter(matches).map((c) => c.id).sort();
}
const people = (ids: string[]) => ids.map((id) => String(sf.personOf(id)!.id)).sort();

async function oauthDance(c: Client) {
  const start = await c.get('/api/auth/salesforce/authorize');
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(start.headers.get('location')!);
  const provider = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(provider.status).toBe(302);
  return { authorizeUrl, callback: new URL(provider.headers.get('location')!) };
}

describe('a Salesforce user', () => {
  it('sees Salesforce named, and both connection methods described', async () => {
    const { c } = await registerUser(t.url, { crmType: 'salesforce' });
    const g = await c.gql('{ crmConnection { connected supported crmLabel oauthAvailable tokenMethodLabel tokenMethodFields { name secret required } fieldMap { field crmField } } }');
    expect(g.errors).toBeUndefined();
    expect(g.data.crmConnection).toMatchObject({
      connected: false,
      supported: true,
      crmLabel: 'Salesforce',
      oauthAvailable: true,
      tokenMethodLabel: 'Access token and instance URL',
      tokenMethodFields: [{ name: 'token', secret: true, required: true }, { name: 'instanceUrl', secret: false, required: true }],
    });
    expect(g.data.crmConnection.fieldMap).toContainEqual({ field: 'lifetimeValue', crmField: 'WonOpportunities.TotalAmount' });
    const q = await c.post('/api/queries', { naturalLanguage: 'customers in Germany' });
    expect(JSON.stringify(q.json)).toMatch(/Connect your Salesforce account/);
  });

  it('connects with an access token and instance URL (checked, stored encrypted), asks and downloads', async () => {
    const { c, userId } = await registerUser(t.url, { crmType: 'salesforce' });
    const noUrl = await c.post('/api/crm/token', { token: TOKEN });
    expect(noUrl.status).toBe(400);
    const elsewhere = await c.post('/api/crm/token', { token: TOKEN, instanceUrl: 'http://169.254.169.254' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.message).toMatch(/instance URL/);
    const bad = await c.post('/api/crm/token', { token: '00D000000000000!nope', instanceUrl });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/Salesforce rejected this token/);
    expect(await t.app.deps.prisma.userIntegration.count({ where: { userId } })).toBe(0);

    const ok = await c.post('/api/crm/token', { token: TOKEN, instanceUrl });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ connected: true, tokenType: 'pat' });
    const row = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(row).toMatchObject({ provider: 'salesforce', instanceUrl, accountId: sf.identity.orgId });
    expect(row.accessTokenCiphertext).not.toContain(TOKEN.slice(16, 40));

    for (const question of ['customers in Germany', 'leads in Canada created this year', 'customers with lifetime value over $5k']) {
      const r = await c.post('/api/queries', { naturalLanguage: question });
      expect(r.status).toBe(200);
      const expected = await expectedPeople(question);
      expect(r.json.resultCount).toBe(expected.length);
      const run = await c.gql('mutation($q: String!) { runQuery(input: { naturalLanguage: $q }) { query { id } hasError } }', { q: question });
      const stored = await c.gql('query($id: ID!) { customerQuery(id: $id) { customers(first: 1000) { edges { node { id } } } } }', { id: run.data.runQuery.query.id });
      expect(stored.errors).toBeUndefined();
      expect(people(stored.data.customerQuery.customers.edges.map((e: { node: { id: string } }) => e.node.id))).toEqual(expected);
    }

    // a saved segment is counted from the org
    const saved = await c.gql('mutation { createSavedSegment(input: { description: "leads in Canada created this year" }) { savedSegment { id } } }');
    const processed = await c.gql('mutation($id: ID!) { processSavedSegment(input: { id: $id }) { savedSegment { latestResult { customerCount } } } }', { id: saved.data.createSavedSegment.savedSegment.id });
    expect(processed.errors).toBeUndefined();
    expect(processed.data.processSavedSegment.savedSegment.latestResult.customerCount).toBe((await expectedPeople('leads in Canada created this year')).length);

    // the whole download, page by page (stateless cursors), is the same people
    const run = await c.gql('mutation($q: String!) { runQuery(input: { naturalLanguage: $q }) { query { id resultCount } hasError } }', { q: 'leads in the United States' });
    expect(run.data.runQuery.hasError).toBe(false);
    const ids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const p = await c.gql('query($s: ID!, $a: String) { customerExport(source: $s, first: 200, after: $a) { edges { node { id } } pageInfo { hasNextPage endCursor } } }', { s: run.data.runQuery.query.id, a: after });
      expect(p.errors).toBeUndefined();
      ids.push(...p.data.customerExport.edges.map((e: { node: { id: string } }) => e.node.id));
      if (!p.data.customerExport.pageInfo.hasNextPage) break;
      after = p.data.customerExport.pageInfo.endCursor;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(people(ids)).toEqual(await expectedPeople('leads in the United States'));
  }, 120_000);

  it('connects with OAuth (state bound to the session), refreshes an ended session, and revokes on disconnect', async () => {
    const { c, userId } = await registerUser(t.url, { crmType: 'salesforce' });
    const { authorizeUrl, callback } = await oauthDance(c);
    expect(authorizeUrl.pathname).toBe('/salesforce-sandbox/services/oauth2/authorize');
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${t.url}/api/auth/salesforce/callback`);
    expect(authorizeUrl.searchParams.get('scope')).toBe('api refresh_token');
    const done = await c.get(callback.pathname + callback.search);
    expect(done.headers.get('location')).toBe('/?oauth=success');
    const conn = (await c.get('/api/crm/connection')).json;
    expect(conn).toMatchObject({ connected: true, tokenType: 'oauth', instanceUrl });
    const row = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(row.expiresAt).toBeNull(); // Salesforce announces no lifetime
    const access = decryptSecret(row.accessTokenCiphertext, t.config.tokenEncryptionKey);
    const refresh = decryptSecret(row.refreshTokenCiphertext!, t.config.tokenEncryptionKey);

    // the session ends (timeout): the next question refreshes once and answers
    expect(sf.revokeToken(access)).toBe(true);
    const r = await c.post('/api/queries', { naturalLanguage: 'customers in France' });
    expect(r.status).toBe(200);
    expect(r.json.resultCount).toBe((await expectedPeople('customers in France')).length);
    const after = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(decryptSecret(after.accessTokenCiphertext, t.config.tokenEncryptionKey)).not.toBe(access);

    // switching to the token method replaces the OAuth connection; disconnecting an OAuth one revokes it
    const dis = await c.delete('/api/auth/salesforce/disconnect');
    expect(dis.json).toMatchObject({ success: true, connected: false });
    expect(sf.tokens.refreshTokens.get(refresh)?.revoked).toBe(true);
  }, 60_000);

  it('generates Smart Segments from the org and downloads an unlocked one', async () => {
    const { c, userId } = await registerUser(t.url, { crmType: 'salesforce' });
    expect((await c.post('/api/crm/token', { token: TOKEN, instanceUrl })).status).toBe(200);
    const stats = await generateSegmentsFor(t.app.deps, [userId]);
    expect(stats.failedCount).toBe(0);
    expect(stats.successCount).toBeGreaterThan(5);
    const daily = (await c.get('/api/smart-segments/daily')).json as { id: string; customerCount: number; hasError: boolean }[];
    expect(daily.every((s) => !s.hasError)).toBe(true);
    const target = daily.find((s) => s.customerCount > 0)!;
    expect((await c.post(`/api/smart-segments/${target.id}/unlock`)).status).toBe(200);
    const dl = await c.post(`/api/smart-segments/${target.id}/customers`);
    expect(dl.status).toBe(200);
    const rows = Array.isArray(dl.json) ? dl.json : dl.json.customers;
    expect(rows.length).toBe(target.customerCount);
  }, 120_000);

  it('uses the CLI: asks and exports to CSV', async () => {
    buildCli();
    const { c, email } = await registerUser(t.url, { crmType: 'salesforce' });
    expect((await c.post('/api/crm/token', { token: TOKEN, instanceUrl })).status).toBe(200);
    const home = mkdtempSync(path.join(os.tmpdir(), 'crm-sf-'));
    const login = await crm(['login', '--server', t.url, '--email', email], { home, input: 'pw-123456\n' });
    expect(login.code, login.stderr).toBe(0);
    const who = await crm(['whoami', '--json'], { home });
    expect(JSON.parse(who.stdout)).toMatchObject({ crmConnected: true });
    const question = 'customers in North America';
    const q = await crm(['query', question, '--json', '--limit', '3'], { home });
    expect(q.code, q.stderr).toBe(0);
    const expected = await expectedPeople(question);
    expect(JSON.parse(q.stdout)).toMatchObject({ resultCount: expected.length, hasError: false });
    const [{ queryId }] = JSON.parse((await crm(['history', '--json'], { home })).stdout);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'crm-sf-export-')), 'na.csv');
    const ex = await crm(['export', queryId, '-o', file, '--page-size', '100'], { home });
    expect(ex.code, ex.stderr).toBe(0);
    const rows = parse(readFileSync(file, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    expect(people(rows.map((r) => r.id))).toEqual(expected);
  }, 120_000);

  it('says so when the org has spent its daily API allocation, instead of failing at random', async () => {
    const { c } = await registerUser(t.url, { crmType: 'salesforce' });
    expect((await c.post('/api/crm/token', { token: TOKEN, instanceUrl })).status).toBe(200);
    const max = sf.allocation.max;
    sf.allocation.record(max - sf.allocation.used() - 3); // the org's other integrations used the rest
    try {
      const r = await c.post('/api/queries', { naturalLanguage: 'customers in Spain' });
      expect(JSON.stringify(r.json)).toMatch(/daily API request/);
    } finally {
      sf.resetLimits();
      resetAllocations();
    }
  }, 60_000);
});
