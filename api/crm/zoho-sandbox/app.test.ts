import { beforeEach, describe, expect, it } from 'vitest';
import { createZohoSandbox, ZOHO_READ_SCOPES, type ZohoSandbox } from './app.js';
import { createZohoSandboxFaults } from './faults.js';

const NOW = '2026-06-01T00:00:00Z';
const REDIRECT = 'http://localhost:3000/api/auth/zoho/callback';
const ORIGIN = 'http://sandbox.test';

let sb: ZohoSandbox;
let token: string;
let t0: number;

beforeEach(() => {
  t0 = Date.parse('2026-06-02T10:00:00Z');
  sb = createZohoSandbox({ contactCount: 300, seed: 5, now: NOW, clock: () => t0, dataCentre: 'eu' });
  token = sb.issueTestToken().accessToken;
});

function call(path: string, init: RequestInit & { token?: string | null } = {}) {
  const headers = new Headers(init.headers);
  const tok = init.token === undefined ? token : init.token;
  if (tok) headers.set('authorization', `Zoho-oauthtoken ${tok}`);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return sb.app.request(`${ORIGIN}${path}`, { ...init, headers });
}
const coql = (q: string, opts: { token?: string | null; dc?: string } = {}) =>
  call(`/api/${opts.dc ?? 'eu'}/crm/v7/coql`, { method: 'POST', body: JSON.stringify({ select_query: q }), token: opts.token });
const tokenCall = (dc: string, params: Record<string, string>) => call(`/accounts/${dc}/oauth/v2/token?${new URLSearchParams(params)}`, { method: 'POST', token: null });

describe('the API: tokens, data centres, scopes', () => {
  it('answers COQL with data and info, and 204 when nothing matches', async () => {
    const res = await coql("select Email, Account_Name.Account_Name from Contacts where Email is not null limit 5");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.info).toEqual({ count: 5, more_records: true });
    expect(body.data[0]).toEqual({ Email: expect.any(String), 'Account_Name.Account_Name': expect.anything(), id: expect.stringMatching(/^\d{19}$/) });
    expect((await coql("select Email from Contacts where Email = 'nobody@nowhere.test'")).status).toBe(204);
  });

  it("needs Zoho's own authorization scheme and a live token of this data centre", async () => {
    expect(await (await coql('select id from Leads where id is not null', { token: null })).json()).toMatchObject({ code: 'AUTHENTICATION_FAILURE', status: 'error' });
    const bearer = await call('/api/eu/crm/v7/org', { headers: { authorization: `Bearer ${token}` }, token: null });
    expect(bearer.status).toBe(401);
    expect((await bearer.json()).code).toBe('INVALID_TOKEN');
    const elsewhere = await coql('select id from Leads where id is not null', { dc: 'us' });
    expect(elsewhere.status).toBe(401);
    expect((await elsewhere.json()).code).toBe('INVALID_TOKEN');
    sb.clock.advance(3600_000);
    const expired = await coql('select id from Leads where id is not null');
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ code: 'INVALID_TOKEN', details: {}, message: 'invalid oauth token', status: 'error' });
  });

  it('checks the scopes of the query and of the module it reads', async () => {
    const leadsOnly = sb.issueTestToken({ scopes: ['ZohoCRM.coql.READ', 'ZohoCRM.modules.leads.READ'] }).accessToken;
    expect((await coql('select id from Leads where id is not null', { token: leadsOnly })).status).toBe(200);
    const res = await coql('select id from Contacts where id is not null', { token: leadsOnly });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('OAUTH_SCOPE_MISMATCH');
    const broad = sb.issueTestToken({ scopes: ['ZohoCRM.modules.ALL', 'ZohoCRM.coql.READ', 'ZohoCRM.settings.ALL'] }).accessToken;
    expect((await coql('select id from Deals where id is not null', { token: broad })).status).toBe(200);
    expect((await call('/api/eu/crm/v7/settings/fields?module=Deals', { token: broad })).status).toBe(200);
    expect((await call('/api/eu/crm/v7/org', { token: broad })).status).toBe(401);
  });

  it('serves field metadata with help text, the org and the current user', async () => {
    const fields = await (await call('/api/eu/crm/v7/settings/fields?module=Contacts')).json();
    const stage = fields.fields.find((f: { api_name: string }) => f.api_name === 'Lifecycle_Stage');
    expect(stage).toMatchObject({ data_type: 'picklist', custom_field: true, tooltip: { value: expect.stringMatching(/lifecycle stage/i) } });
    expect(stage.pick_list_values.map((v: { actual_value: string }) => v.actual_value)).toContain('Marketing Qualified Lead');
    expect(fields.fields.find((f: { api_name: string }) => f.api_name === 'Account_Name').lookup.module.api_name).toBe('Accounts');
    expect((await (await call('/api/eu/crm/v7/settings/fields')).json()).code).toBe('REQUIRED_PARAM_MISSING');
    expect((await (await call('/api/eu/crm/v7/settings/fields?module=Nope')).json()).code).toBe('INVALID_MODULE');
    const org = (await (await call('/api/eu/crm/v7/org')).json()).org[0];
    expect(org).toMatchObject({ zgid: sb.config.orgId, license_details: { paid_type: 'enterprise', users_license_purchased: 10 } });
    const me = (await (await call('/api/eu/crm/v7/users?type=CurrentUser')).json()).users[0];
    expect(me).toMatchObject({ email: expect.stringContaining('@'), status: 'active' });
  });
});

describe('API credits and concurrency', () => {
  it('charges credits per call by COQL LIMIT and reports them in the headers', async () => {
    const before = Number((await call('/api/eu/crm/v7/org')).headers.get('x-ratelimit-day-remaining'));
    const res = await coql('select id from Leads where id is not null limit 2000');
    expect(res.headers.get('x-ratelimit-day-limit')).toBe('60000');
    expect(Number(res.headers.get('x-ratelimit-day-remaining'))).toBe(before - 3);
  });

  it('refuses calls with 429 LIMIT_REACHED once the 24 hours\' credits are used up, until they roll out', async () => {
    sb = createZohoSandbox({ contactCount: 50, seed: 5, now: NOW, clock: () => t0, dailyCredits: 5 });
    token = sb.issueTestToken().accessToken;
    const q = (limit: number) => call('/api/us/crm/v7/coql', { method: 'POST', body: JSON.stringify({ select_query: `select id from Leads where id is not null limit ${limit}` }) });
    expect((await q(1000)).status).toBe(200); // 2
    expect((await q(2000)).status).toBe(200); // 3
    const refused = await q(10);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-day-remaining')).toBe('0');
    expect(await refused.json()).toMatchObject({ code: 'LIMIT_REACHED', details: { limit_type: 'credits', limit: 5, remaining: 0, reset_time: expect.any(String) } });
    sb.clock.advance(86_400_000);
    token = sb.issueTestToken().accessToken;
    expect((await q(10)).status).toBe(200);
  });

  it('answers 429 TOO_MANY_REQUESTS beyond the concurrency limit', async () => {
    const faults = createZohoSandboxFaults().inject({ kind: 'latency', latencyMs: 60 });
    sb = createZohoSandbox({ contactCount: 50, seed: 5, now: NOW, concurrencyLimit: 2, faults });
    token = sb.issueTestToken().accessToken;
    const answers = await Promise.all(Array.from({ length: 4 }, () => call('/api/us/crm/v7/org')));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS', details: { limit_type: 'concurrency', limit: 2 } });
    expect((await call('/api/us/crm/v7/org')).status).toBe(200);
  });
});

describe('the accounts server', () => {
  async function consent(params: Record<string, string> = {}, dc = 'us') {
    const q = new URLSearchParams({ response_type: 'code', client_id: sb.config.clientId, scope: ZOHO_READ_SCOPES.join(','), redirect_uri: REDIRECT, access_type: 'offline', state: 'st-1', ...params });
    return call(`/accounts/${dc}/oauth/v2/auth?${q}`, { token: null });
  }

  it('auto-approves consent at any data centre and names the org\'s own', async () => {
    const res = await consent({}, 'us');
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect(to.searchParams.get('state')).toBe('st-1');
    expect(to.searchParams.get('location')).toBe('eu');
    expect(to.searchParams.get('accounts-server')).toBe(`${ORIGIN}/accounts/eu`);
    expect((await consent({ client_id: 'nope' })).status).toBe(400);
    expect((await consent({ redirect_uri: 'http://evil.test/cb' })).status).toBe(400);
    expect((await consent({ scope: 'ZohoMail.messages.ALL' })).status).toBe(400);
  });

  it('exchanges a code once, at its own data centre, for tokens and the API domain', async () => {
    const code = new URL((await consent()).headers.get('location')!).searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', client_id: sb.config.clientId, client_secret: sb.config.clientSecret, redirect_uri: REDIRECT, code };
    const wrongDc = await tokenCall('us', base);
    expect(wrongDc.status).toBe(200);
    expect(await wrongDc.json()).toEqual({ error: 'invalid_code' });
    expect(await (await tokenCall('eu', { ...base, client_secret: 'x' })).json()).toEqual({ error: 'invalid_client_secret' });
    expect(await (await tokenCall('eu', { ...base, redirect_uri: 'http://localhost:3000/other' })).json()).toEqual({ error: 'invalid_redirect_uri' });
    const ok = await (await tokenCall('eu', base)).json();
    expect(ok).toEqual({ access_token: expect.stringMatching(/^1000\.[0-9a-f]{32}\.[0-9a-f]{32}$/), refresh_token: expect.any(String), scope: ZOHO_READ_SCOPES.join(' '), api_domain: `${ORIGIN}/api/eu`, token_type: 'Bearer', expires_in: 3600 });
    expect(await (await tokenCall('eu', base)).json()).toEqual({ error: 'invalid_code' });
    expect((await coql('select id from Leads where id is not null', { token: ok.access_token })).status).toBe(200);
    // online access: no refresh token
    const online = new URL((await consent({ access_type: 'online' })).headers.get('location')!).searchParams.get('code')!;
    expect((await (await tokenCall('eu', { ...base, code: online })).json()).refresh_token).toBeUndefined();
  });

  it('refreshes (no new refresh token; at most 10 in 10 minutes) and revokes', async () => {
    const issued = sb.issueTestToken();
    const refresh = { grant_type: 'refresh_token', client_id: sb.config.clientId, client_secret: sb.config.clientSecret, refresh_token: issued.refreshToken };
    const form = await call('/accounts/eu/oauth/v2/token', { method: 'POST', token: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(refresh).toString() });
    const fresh = await form.json();
    expect(fresh).toEqual({ access_token: expect.any(String), scope: expect.any(String), api_domain: `${ORIGIN}/api/eu`, token_type: 'Bearer', expires_in: 3600 });
    for (let i = 0; i < 8; i++) expect((await (await tokenCall('eu', refresh)).json()).access_token).toBeDefined();
    const denied = await tokenCall('eu', refresh);
    expect(denied.status).toBe(400);
    expect((await denied.json()).error).toBe('Access Denied');
    sb.clock.advance(10 * 60_000 + 1);
    expect((await (await tokenCall('eu', refresh)).json()).access_token).toBeDefined();
    const revoke = await call(`/accounts/eu/oauth/v2/token/revoke?token=${issued.refreshToken}`, { method: 'POST', token: null });
    expect(await revoke.json()).toEqual({ status: 'success' });
    expect(await (await tokenCall('eu', refresh)).json()).toEqual({ error: 'invalid_code' });
    expect((await coql('select id from Leads where id is not null', { token: fresh.access_token })).status).toBe(401);
  });

  it('gives self-client grant codes in the org\'s data centre, exchanged without a redirect', async () => {
    const res = await call(`/accounts/eu/developerconsole/self-client/code?scope=${ZOHO_READ_SCOPES.join(',')}&duration=3`, { method: 'POST', token: null });
    const grant = await res.json();
    expect(grant).toMatchObject({ code: expect.any(String), client_id: sb.config.selfClientId, expires_in: 180 });
    expect((await call('/accounts/us/developerconsole/self-client/code?scope=ZohoCRM.coql.READ', { method: 'POST', token: null })).status).toBe(404);
    const base = { grant_type: 'authorization_code', client_id: sb.config.selfClientId, client_secret: sb.config.selfClientSecret, code: grant.code };
    sb.clock.advance(181_000);
    expect(await (await tokenCall('eu', base)).json()).toEqual({ error: 'invalid_code' });
    const fresh = sb.issueSelfClientGrant({ minutes: 3 });
    const tokens = await (await tokenCall('eu', { ...base, code: fresh.code })).json();
    expect(tokens).toMatchObject({ refresh_token: expect.any(String), api_domain: `${ORIGIN}/api/eu` });
    expect(await (await tokenCall('eu', { ...base, code: fresh.code, client_id: sb.config.clientId, client_secret: sb.config.clientSecret })).json()).toEqual({ error: 'invalid_code' });
  });
});

describe('faults (test code only)', () => {
  it('injects Zoho-shaped failures on the API, then lets calls through', async () => {
    const faults = createZohoSandboxFaults();
    sb = createZohoSandbox({ contactCount: 50, seed: 5, now: NOW, faults });
    token = sb.issueTestToken().accessToken;
    faults.inject({ kind: 'expired-token', times: 1 }).inject({ kind: 'server-error', times: 1 }).inject({ kind: 'rate-limit', times: 1, retryAfterSeconds: 0.2 });
    const q = () => call('/api/us/crm/v7/org');
    expect(await (await q()).json()).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await q()).status).toBe(500);
    const limited = await q();
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '0.2']);
    expect((await q()).status).toBe(200);
    faults.inject({ kind: 'truncated-json', times: 1 });
    await expect((await q()).json()).rejects.toThrow();
    expect(faults.injected).toMatchObject({ 'expired-token': 1, 'server-error': 1, 'rate-limit': 1, 'truncated-json': 1 });
    // the accounts server is untouched by default
    expect((await tokenCall('us', { grant_type: 'refresh_token', client_id: sb.config.clientId, client_secret: sb.config.clientSecret, refresh_token: 'x' })).status).toBe(200);
  });
});
