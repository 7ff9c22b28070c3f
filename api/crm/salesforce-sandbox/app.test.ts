import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSalesforceSandbox, type SalesforceSandbox } from './app.js';
import { createSandboxFaults, type SandboxFaults } from './faults.js';
import { startSalesforceSandboxServer } from './server.js';

const NOW = '2026-06-15T12:00:00Z';
const REDIRECT = 'http://localhost:3000/api/auth/salesforce/callback';
const V = '/services/data/v62.0';

let sb: SalesforceSandbox;
let token: string;
let t0: number;

beforeEach(() => {
  t0 = Date.parse('2026-06-15T12:00:00Z');
  sb = createSalesforceSandbox({ contactCount: 1200, seed: 3, now: NOW, clock: () => t0, timeZone: 'GMT' });
  token = sb.config.accessTokens[0];
});

function call(path: string, init: RequestInit & { token?: string | null } = {}, app: Hono = sb.app) {
  const headers = new Headers(init.headers);
  const t = init.token === undefined ? token : init.token;
  if (t) headers.set('authorization', `Bearer ${t}`);
  return app.request(path, { ...init, headers });
}
const query = (soql: string, init: RequestInit & { token?: string | null } = {}) => call(`${V}/query?q=${encodeURIComponent(soql)}`, init);
const form = (path: string, data: Record<string, string>, app?: Hono) =>
  call(path, { method: 'POST', token: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(data).toString() }, app);
const usage = (res: Response) => res.headers.get('sforce-limit-info');

async function authorize(params: Record<string, string> = {}) {
  const q = new URLSearchParams({ response_type: 'code', client_id: sb.config.clientId, redirect_uri: REDIRECT, scope: 'api refresh_token', state: 'st-1', ...params });
  return call(`/services/oauth2/authorize?${q}`, { token: null });
}
async function codeFrom(res: Response) {
  expect(res.status).toBe(302);
  const loc = new URL(res.headers.get('location')!);
  return loc.searchParams.get('code')!;
}

describe('the REST API gate', () => {
  it('lists versions without a session and without counting it', async () => {
    const res = await call('/services/data', { token: null });
    expect(res.status).toBe(200);
    const versions = (await res.json()) as { version: string; url: string }[];
    expect(versions.at(-1)).toEqual({ label: 'API 62.0', url: '/services/data/v62.0', version: '62.0' });
    expect(versions.map((v) => v.version)).toContain('50.0');
    expect(sb.allocation.used()).toBe(0);
  });

  it('answers 401 INVALID_SESSION_ID without a live session (Bearer or OAuth scheme)', async () => {
    for (const t of [null, 'nope']) {
      const res = await query('SELECT Id FROM Contact LIMIT 1', { token: t });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
    }
    const res = await call(`${V}/limits`, { token: null, headers: { authorization: `OAuth ${token}` } });
    expect(res.status).toBe(200);
  });

  it('answers 404 NOT_FOUND for an unknown version or resource', async () => {
    for (const path of ['/services/data/v12.0/limits', `${V}/nothing`, `${V}/sobjects/Widget/describe`]) {
      const res = await call(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual([{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }]);
    }
  });
});

describe('query and query locators', () => {
  it('pages through every record once with nextRecordsUrl (batchSize from Sforce-Query-Options)', async () => {
    const expected = sb.org.rows.Lead.filter((l) => !l.IsConverted).map((l) => l.Id);
    expect(expected.length).toBeGreaterThan(500);
    const soql = 'SELECT Id, Status FROM Lead WHERE IsConverted = false';
    let res = await query(soql, { headers: { 'Sforce-Query-Options': 'batchSize=200' } });
    let body = await res.json();
    const got: string[] = [];
    let pages = 0;
    for (;;) {
      expect(res.status).toBe(200);
      expect(body.totalSize).toBe(expected.length);
      got.push(...body.records.map((r: { Id: string }) => r.Id));
      pages++;
      if (body.done) break;
      expect(body.nextRecordsUrl).toMatch(/^\/services\/data\/v62\.0\/query\/01g\w{15}-\d+$/);
      res = await call(body.nextRecordsUrl);
      body = await res.json();
    }
    expect(got).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 200));
    expect(body.nextRecordsUrl).toBeUndefined();
  });

  it('closes a locator after its last batch, after 15 idle minutes, and beyond 10 open per user', async () => {
    const first = await (await query('SELECT Id FROM Contact', { headers: { 'Sforce-Query-Options': 'batchSize=200' } })).json();
    const next = first.nextRecordsUrl as string;
    sb.clock.advance(14 * 60_000);
    expect((await call(next)).status).toBe(200);
    sb.clock.advance(15 * 60_000);
    const dead = await call(next);
    expect(dead.status).toBe(400);
    expect(await dead.json()).toEqual([{ message: 'invalid query locator', errorCode: 'INVALID_QUERY_LOCATOR' }]);

    const urls: string[] = [];
    for (let i = 0; i < 11; i++) urls.push((await (await query('SELECT Id FROM Contact', { headers: { 'Sforce-Query-Options': 'batchSize=200' } })).json()).nextRecordsUrl);
    expect((await call(urls[0])).status).toBe(400);
    expect((await call(urls[10])).status).toBe(200);

    // reading to the end closes it
    let url: string | undefined = urls[9];
    let last = '';
    while (url) {
      last = url;
      url = (await (await call(url)).json()).nextRecordsUrl;
    }
    expect((await call(last)).status).toBe(400);
  });

  it('answers COUNT() with totalSize and no records, and aggregates without a locator', async () => {
    const count = await (await query('SELECT COUNT() FROM Contact')).json();
    expect(count).toEqual({ totalSize: sb.org.rows.Contact.length, done: true, records: [] });
    const agg = await (await query('SELECT Status, COUNT(Id) n FROM Lead WHERE IsConverted = false GROUP BY Status ORDER BY Status')).json();
    expect(agg.done).toBe(true);
    expect(agg.records.reduce((s: number, r: { n: number }) => s + r.n, 0)).toBe(sb.org.rows.Lead.filter((l) => !l.IsConverted).length);
    expect(agg.records[0].attributes).toEqual({ type: 'AggregateResult' });
  });

  it('answers query errors with Salesforce\'s bodies, and requires q', async () => {
    const res = await query('SELECT Id FROM Contact WHERE Name = ');
    expect(res.status).toBe(400);
    const [err] = await res.json();
    expect(err.errorCode).toBe('MALFORMED_QUERY');
    expect(err.message).toMatch(/^\nSELECT Id FROM Contact WHERE Name = \n\s*\^\nERROR at Row:1:Column:\d+\n/);
    const none = await call(`${V}/query`);
    expect(await none.json()).toEqual([{ message: 'A query string has to be specified', errorCode: 'MALFORMED_QUERY' }]);
  });

  it('serves queryAll with its own locator path', async () => {
    const body = await (await call(`${V}/queryAll?q=${encodeURIComponent('SELECT Id FROM Lead')}`, { headers: { 'Sforce-Query-Options': 'batchSize=300' } })).json();
    expect(body.totalSize).toBe(sb.org.rows.Lead.length);
    expect(body.nextRecordsUrl).toMatch(/\/queryAll\/01g/);
  });
});

describe('limits', () => {
  it('counts every REST call in Sforce-Limit-Info and the limits resource, OAuth endpoints not at all', async () => {
    sb = createSalesforceSandbox({ contactCount: 200, seed: 3, now: NOW, clock: () => t0, dailyApiRequests: 5000 });
    token = sb.config.accessTokens[0];
    expect(usage(await query('SELECT COUNT() FROM Lead'))).toBe('api-usage=1/5000');
    expect(usage(await query('SELECT Foo FROM Lead'))).toBe('api-usage=2/5000');
    const limits = await call(`${V}/limits`);
    expect(usage(limits)).toBe('api-usage=3/5000');
    expect((await limits.json()).DailyApiRequests).toEqual({ Max: 5000, Remaining: 4997 });
    await call('/services/oauth2/userinfo');
    await call('/services/data');
    expect(sb.allocation.used()).toBe(3);
  });

  it('refuses calls with 403 REQUEST_LIMIT_EXCEEDED when the rolling 24-hour allocation is used up', async () => {
    sb = createSalesforceSandbox({ contactCount: 200, seed: 3, now: NOW, clock: () => t0, dailyApiRequests: 100 });
    token = sb.config.accessTokens[0];
    sb.allocation.record(99);
    expect((await query('SELECT COUNT() FROM Lead')).status).toBe(200);
    const res = await query('SELECT COUNT() FROM Lead');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual([{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }]);
    expect(usage(res)).toBe('api-usage=100/100');
    expect(sb.stats.refusedDaily).toBe(1);
    sb.clock.advance(24 * 3_600_000 + 60_000);
    expect((await query('SELECT COUNT() FROM Lead')).status).toBe(200);
  });

  it('refuses a request while the org has too many long-running requests in flight', async () => {
    const faults = createSandboxFaults().inject({ kind: 'latency', latencyMs: 500, path: /\/query/, times: 2 });
    sb = createSalesforceSandbox({ contactCount: 200, seed: 3, now: NOW, concurrentRequestLimit: 2, longRunningThresholdMs: 100, faults });
    token = sb.config.accessTokens[0];
    const slow = [query('SELECT COUNT() FROM Lead'), query('SELECT COUNT() FROM Lead')];
    await new Promise((r) => setTimeout(r, 250));
    expect(sb.concurrency.inFlight).toBe(2);
    const refused = await call(`${V}/limits`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual([{ message: 'ConcurrentRequests (Concurrent API Requests) Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }]);
    expect(sb.stats.refusedConcurrent).toBe(1);
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200]);
    expect((await call(`${V}/limits`)).status).toBe(200);
    // short requests never count, however many are in flight
    const many = await Promise.all(Array.from({ length: 10 }, () => query('SELECT COUNT() FROM Lead')));
    expect(many.every((r) => r.status === 200)).toBe(true);
  });
});

describe('describe, retrieve, composite', () => {
  it('describes the org and its objects', async () => {
    const global = await (await call(`${V}/sobjects`)).json();
    expect(global.sobjects.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['Lead', 'Contact', 'Account', 'Opportunity', 'OpportunityContactRole']));
    const contact = await (await call(`${V}/sobjects/contact/describe`)).json();
    expect(contact.name).toBe('Contact');
    expect(contact.keyPrefix).toBe('003');
    const stage = contact.fields.find((f: { name: string }) => f.name === 'Lifecycle_Stage__c');
    expect(stage).toMatchObject({ type: 'picklist', custom: true, label: 'Lifecycle Stage', filterable: true });
    expect(stage.picklistValues.map((p: { value: string }) => p.value)).toEqual(['Subscriber', 'Lead', 'Marketing Qualified Lead', 'Sales Qualified Lead', 'Opportunity', 'Customer', 'Evangelist', 'Other']);
    expect(contact.fields.find((f: { name: string }) => f.name === 'AccountId')).toMatchObject({ type: 'reference', referenceTo: ['Account'], relationshipName: 'Account' });
    expect(contact.childRelationships).toContainEqual(expect.objectContaining({ relationshipName: 'OpportunityContactRoles', childSObject: 'OpportunityContactRole', field: 'ContactId' }));
    const lead = await (await call(`${V}/sobjects/Lead/describe`)).json();
    expect(lead.fields.find((f: { name: string }) => f.name === 'Status').picklistValues.find((p: { defaultValue: boolean }) => p.defaultValue).value).toBe('Open - Not Contacted');
  });

  it('retrieves a record by a 15- or 18-character id', async () => {
    const c = sb.org.rows.Contact[0];
    for (const id of [c.Id as string, (c.Id as string).slice(0, 15)]) {
      const body = await (await call(`${V}/sobjects/Contact/${id}?fields=Email,CreatedDate`)).json();
      expect(body).toEqual({ attributes: { type: 'Contact', url: `${V}/sobjects/Contact/${c.Id}` }, Email: c.Email, CreatedDate: new Date(c.CreatedDate as number).toISOString().slice(0, 23) + '+0000' });
    }
  });

  it('runs composite subrequests as one API call, with references to earlier answers', async () => {
    const res = await call(`${V}/composite`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        compositeRequest: [
          { method: 'GET', url: `${V}/query?q=${encodeURIComponent('SELECT COUNT() FROM Lead WHERE IsConverted = false')}`, referenceId: 'leads' },
          { method: 'GET', url: `${V}/query?q=${encodeURIComponent('SELECT Id FROM Contact ORDER BY Id LIMIT 1')}`, referenceId: 'first' },
          { method: 'GET', url: `${V}/sobjects/Contact/@{first.records[0].Id}?fields=Email`, referenceId: 'email' },
          { method: 'PATCH', url: `${V}/sobjects/Contact/@{first.records[0].Id}`, referenceId: 'write', body: { Email: 'x@y.z' } },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect(usage(res)).toBe('api-usage=1/100000');
    const { compositeResponse } = await res.json();
    expect(compositeResponse.map((r: { referenceId: string; httpStatusCode: number }) => [r.referenceId, r.httpStatusCode])).toEqual([
      ['leads', 200], ['first', 200], ['email', 200], ['write', 405],
    ]);
    expect(compositeResponse[0].body.totalSize).toBe(sb.org.rows.Lead.filter((l) => !l.IsConverted).length);
    expect(compositeResponse[2].body.Email).toBe(sb.org.rows.Contact[0].Email);
    expect(sb.allocation.used()).toBe(1);

    const tooMany = await call(`${V}/composite`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ compositeRequest: Array.from({ length: 6 }, (_, i) => ({ method: 'GET', url: `${V}/query?q=SELECT+Id+FROM+Lead`, referenceId: `q${i}` })) }),
    });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json())[0].message).toMatch(/query subrequests allowed is 5/);
  });
});

describe('OAuth 2.0 web-server flow', () => {
  it('authorizes, exchanges the code, refreshes, and hands out the instance URL with the mount prefix', async () => {
    const parent = new Hono();
    parent.route('/salesforce-sandbox', sb.app);
    const q = new URLSearchParams({ response_type: 'code', client_id: sb.config.clientId, redirect_uri: REDIRECT, scope: 'api refresh_token', state: 'st-9' });
    const auth = await parent.request(`http://app.test/salesforce-sandbox/services/oauth2/authorize?${q}`);
    const loc = new URL(auth.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
    expect(loc.searchParams.get('state')).toBe('st-9');
    const code = loc.searchParams.get('code')!;
    const tokenRes = await parent.request('http://app.test/salesforce-sandbox/services/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: sb.config.clientId, client_secret: sb.config.clientSecret, redirect_uri: REDIRECT }).toString(),
    });
    expect(tokenRes.status).toBe(200);
    const tok = await tokenRes.json();
    expect(tok).toMatchObject({
      token_type: 'Bearer',
      scope: 'api refresh_token',
      instance_url: 'http://app.test/salesforce-sandbox',
      id: `http://app.test/salesforce-sandbox/id/${sb.identity.orgId}/${sb.identity.userId}`,
    });
    expect(tok.access_token.startsWith(`${sb.identity.orgId.slice(0, 15)}!`)).toBe(true);
    expect(tok.expires_in).toBeUndefined();
    expect(tok.refresh_token).toBeTruthy();
    expect((await query('SELECT COUNT() FROM Contact', { token: tok.access_token })).status).toBe(200);

    const refreshed = await (await form('/services/oauth2/token', { grant_type: 'refresh_token', refresh_token: tok.refresh_token, client_id: sb.config.clientId, client_secret: sb.config.clientSecret })).json();
    expect(refreshed.access_token).not.toBe(tok.access_token);
    expect(refreshed.refresh_token).toBeUndefined();
    expect((await query('SELECT COUNT() FROM Contact', { token: refreshed.access_token })).status).toBe(200);
  });

  it('refuses bad clients, callback URLs, codes and secrets with Salesforce\'s errors', async () => {
    const badClient = await authorize({ client_id: 'nope' });
    expect(badClient.status).toBe(400);
    expect(await badClient.text()).toContain('invalid_client_id');
    const badRedirect = await authorize({ redirect_uri: 'http://evil.example/cb' });
    expect(await badRedirect.text()).toContain('redirect_uri_mismatch');
    const badScope = await authorize({ scope: 'api chatter_api_x' });
    expect(new URL(badScope.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');

    const code = await codeFrom(await authorize());
    const exchange = (extra: Record<string, string>) =>
      form('/services/oauth2/token', { grant_type: 'authorization_code', code, client_id: sb.config.clientId, client_secret: sb.config.clientSecret, redirect_uri: REDIRECT, ...extra });
    expect(await (await exchange({ client_secret: 'wrong' })).json()).toEqual({ error: 'invalid_client', error_description: 'invalid client credentials' });
    expect(await (await exchange({ client_id: 'x' })).json()).toEqual({ error: 'invalid_client_id', error_description: 'client identifier invalid' });
    expect(await (await exchange({ redirect_uri: 'http://localhost:3000/other' })).json()).toEqual({ error: 'redirect_uri_mismatch', error_description: 'redirect_uri must match configuration' });
    expect((await exchange({})).status).toBe(200);
    expect(await (await exchange({})).json()).toEqual({ error: 'invalid_grant', error_description: 'invalid authorization code' });
    const late = await codeFrom(await authorize());
    sb.clock.advance(16 * 60_000);
    expect(await (await form('/services/oauth2/token', { grant_type: 'authorization_code', code: late, client_id: sb.config.clientId, client_secret: sb.config.clientSecret, redirect_uri: REDIRECT })).json()).toEqual({
      error: 'invalid_grant',
      error_description: 'expired authorization code',
    });
    expect(await (await form('/services/oauth2/token', { grant_type: 'password', client_id: sb.config.clientId })).json()).toEqual({ error: 'unsupported_grant_type', error_description: 'grant type not supported' });
  });

  it('checks PKCE when the authorize request carried a challenge', async () => {
    const verifier = 'v'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await codeFrom(await authorize({ code_challenge: challenge, code_challenge_method: 'S256' }));
    const base = { grant_type: 'authorization_code', code, client_id: sb.config.clientId, redirect_uri: REDIRECT };
    expect(await (await form('/services/oauth2/token', { ...base, code_verifier: 'w'.repeat(64) })).json()).toEqual({ error: 'invalid_grant', error_description: 'invalid code verifier' });
    const ok = await form('/services/oauth2/token', { ...base, code_verifier: verifier });
    expect(ok.status).toBe(200);
  });

  it('issues no refresh token without the refresh_token / offline_access scope', async () => {
    const code = await codeFrom(await authorize({ scope: 'api' }));
    const tok = await (await form('/services/oauth2/token', { grant_type: 'authorization_code', code, client_id: sb.config.clientId, client_secret: sb.config.clientSecret, redirect_uri: REDIRECT })).json();
    expect(tok.access_token).toBeTruthy();
    expect(tok.refresh_token).toBeUndefined();
  });

  it('ends sessions after the timeout of inactivity (use extends them) and on revocation', async () => {
    const t = sb.issueTestToken();
    sb.clock.advance(100 * 60_000);
    expect((await query('SELECT COUNT() FROM Lead', { token: t.accessToken })).status).toBe(200);
    sb.clock.advance(100 * 60_000);
    expect((await query('SELECT COUNT() FROM Lead', { token: t.accessToken })).status).toBe(200);
    sb.clock.advance(2 * 3_600_000);
    expect((await query('SELECT COUNT() FROM Lead', { token: t.accessToken })).status).toBe(401);

    const u = sb.issueTestToken();
    const fresh = await (await form('/services/oauth2/token', { grant_type: 'refresh_token', refresh_token: u.refreshToken, client_id: sb.config.clientId, client_secret: sb.config.clientSecret })).json();
    expect((await form('/services/oauth2/revoke', { token: u.refreshToken })).status).toBe(200);
    expect((await query('SELECT COUNT() FROM Lead', { token: u.accessToken })).status).toBe(401);
    expect((await query('SELECT COUNT() FROM Lead', { token: fresh.access_token })).status).toBe(401);
    expect(await (await form('/services/oauth2/token', { grant_type: 'refresh_token', refresh_token: u.refreshToken, client_id: sb.config.clientId, client_secret: sb.config.clientSecret })).json()).toEqual({
      error: 'invalid_grant',
      error_description: 'expired access/refresh token',
    });
    expect(await (await form('/services/oauth2/revoke', { token: u.refreshToken })).json()).toEqual({ error: 'invalid_token', error_description: 'invalid token' });
  });

  it('tells who the token belongs to (userinfo, identity URL); a dead token gets 403 Bad_OAuth_Token', async () => {
    const info = await (await call('/services/oauth2/userinfo')).json();
    expect(info).toMatchObject({ user_id: sb.identity.userId, organization_id: sb.identity.orgId, zoneinfo: 'GMT', locale: 'en_US', active: true });
    expect(info.urls.query).toBe('http://localhost/services/data/v{version}/query/');
    const id = await (await call(`/id/${sb.identity.orgId}/${sb.identity.userId}?format=json&oauth_token=${encodeURIComponent(token)}`, { token: null })).json();
    expect(id).toMatchObject({ user_id: sb.identity.userId, organization_id: sb.identity.orgId, username: sb.identity.username });
    const bad = await call('/services/oauth2/userinfo', { token: 'nope' });
    expect(bad.status).toBe(403);
    expect(await bad.text()).toBe('Bad_OAuth_Token');
  });
});

describe('faults (tests only)', () => {
  let faults: SandboxFaults;
  beforeEach(() => {
    faults = createSandboxFaults();
    sb = createSalesforceSandbox({ contactCount: 200, seed: 3, now: NOW, faults });
    token = sb.config.accessTokens[0];
  });
  afterEach(() => faults.clear());

  it('answers Salesforce\'s bodies for the error kinds, after `skip` requests and for `times` requests', async () => {
    faults.inject({ kind: 'server-error', skip: 1, times: 1 });
    expect((await query('SELECT COUNT() FROM Lead')).status).toBe(200);
    const down = await query('SELECT COUNT() FROM Lead');
    expect(down.status).toBe(503);
    expect((await down.json())[0].errorCode).toBe('SERVER_UNAVAILABLE');
    expect((await query('SELECT COUNT() FROM Lead')).status).toBe(200);
    faults.clear();

    const cases = [
      ['rate-limit', 403, 'REQUEST_LIMIT_EXCEEDED', 'TotalRequests Limit exceeded.'],
      ['concurrent-limit', 403, 'REQUEST_LIMIT_EXCEEDED', 'ConcurrentRequests (Concurrent API Requests) Limit exceeded.'],
      ['expired-token', 401, 'INVALID_SESSION_ID', 'Session expired or invalid'],
    ] as const;
    for (const [kind, status, errorCode, message] of cases) {
      faults.inject({ kind, times: 1 });
      const res = await query('SELECT COUNT() FROM Lead');
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual([{ message, errorCode }]);
    }
    expect(faults.injected).toMatchObject({ 'server-error': 1, 'rate-limit': 1, 'concurrent-limit': 1, 'expired-token': 1 });
  });

  it('cuts bodies, slows them and resets connections over a real socket', async () => {
    const running = await startSalesforceSandboxServer({ sandbox: sb });
    try {
      const url = `${running.url}${V}/query?q=${encodeURIComponent('SELECT Id, Email FROM Lead')}`;
      const headers = { authorization: `Bearer ${token}` };
      faults.inject({ kind: 'truncated-json', times: 1 });
      const cut = await fetch(url, { headers });
      expect(cut.status).toBe(200);
      await expect(cut.json()).rejects.toThrow();
      faults.inject({ kind: 'slow-body', times: 1, chunkDelayMs: 5 });
      const slow = await fetch(url, { headers });
      expect((await slow.json()).totalSize).toBeGreaterThan(0);
      faults.inject({ kind: 'connection-reset', times: 1 });
      await expect(fetch(url, { headers })).rejects.toThrow();
      expect((await fetch(url, { headers })).status).toBe(200);
      expect(faults.requests).toBe(4);
    } finally {
      await running.close();
    }
  });
});
