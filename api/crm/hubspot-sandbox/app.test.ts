import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHubSpotSandbox, type HubSpotSandbox } from './app.js';

const NOW = '2026-06-01T00:00:00Z';
const REDIRECT = 'http://localhost:3000/api/auth/hubspot/callback';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let sb: HubSpotSandbox;
let pat: string;
let t0: number;

beforeEach(() => {
  t0 = Date.parse('2026-06-02T10:00:00Z');
  sb = createHubSpotSandbox({ contactCount: 300, seed: 5, now: NOW, clock: () => t0, rateLimitPerSecond: 5 });
  pat = sb.config.privateAppTokens[0];
});

function call(path: string, init: RequestInit & { token?: string | null } = {}, app: Hono = sb.app) {
  const headers = new Headers(init.headers);
  const token = init.token === undefined ? pat : init.token;
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return app.request(path, { ...init, headers });
}

const search = (body: unknown, token?: string | null) => call('/crm/v3/objects/contacts/search', { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), token });

function form(data: Record<string, string>) {
  return call('/oauth/v1/token', {
    method: 'POST',
    token: null,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(data).toString(),
  });
}

async function authorize(params: Record<string, string> = {}) {
  const q = new URLSearchParams({ client_id: sb.config.clientId, redirect_uri: REDIRECT, scope: 'oauth crm.objects.contacts.read', state: 'st-123', ...params });
  return call(`/oauth/authorize?${q}`, { token: null });
}

describe('authentication', () => {
  it('rejects calls without a token with HubSpot\'s 401 body', async () => {
    const res = await search({}, null);
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'error', category: 'INVALID_AUTHENTICATION' });
    expect(body.message).toMatch(/^Authentication credentials not found/);
    expect(body.correlationId).toMatch(UUID);
    expect((await call('/crm/v3/objects/contacts', { token: 'pat-na1-wrong' })).status).toBe(401);
  });

  it('accepts the private-app token', async () => {
    const res = await search({ limit: 1 });
    expect(res.status).toBe(200);
    expect((await res.json()).total).toBe(300);
  });

  it('expires OAuth access tokens after 30 minutes with EXPIRED_AUTHENTICATION', async () => {
    const tok = sb.issueTestToken();
    expect(tok.expiresIn).toBe(1800);
    expect((await search({ limit: 1 }, tok.accessToken)).status).toBe(200);
    sb.clock.advance(1800 * 1000 + 5 * 60_000);
    const res = await search({ limit: 1 }, tok.accessToken);
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.category).toBe('EXPIRED_AUTHENTICATION');
    expect(body.message).toMatch(/expired 5 minute\(s\) ago/);
  });

  it('answers 403 MISSING_SCOPES for a token without contacts scopes', async () => {
    const tok = sb.issueTestToken({ scopes: ['oauth'] });
    const res = await search({}, tok.accessToken);
    expect(res.status).toBe(403);
    expect((await res.json()).category).toBe('MISSING_SCOPES');
  });
});

describe('search over HTTP', () => {
  it('throttles at 5 searches per second per account with a 429 RATE_LIMIT body and Retry-After', async () => {
    for (let i = 0; i < 5; i++) expect((await search({ limit: 1 })).status).toBe(200);
    const res = await search({ limit: 1 });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = await res.json();
    expect(body).toMatchObject({ status: 'error', message: 'You have reached your secondly limit.', errorType: 'RATE_LIMIT', policyName: 'SECONDLY' });
    expect(body.correlationId).toMatch(UUID);
    // the budget is per account: an OAuth token of the same portal is throttled too
    expect((await search({ limit: 1 }, sb.issueTestToken().accessToken)).status).toBe(429);
    sb.clock.advance(1000);
    expect((await search({ limit: 1 })).status).toBe(200);
    expect(sb.stats.rateLimited).toBe(2);
  });

  it('answers HubSpot-shaped 400s for limit violations', async () => {
    const f = { propertyName: 'email', operator: 'HAS_PROPERTY' };
    const g = (n: number) => ({ filters: Array.from({ length: n }, () => f) });
    const bodies = [
      { filterGroups: Array.from({ length: 6 }, () => g(1)) },
      { filterGroups: [g(7)] },
      { filterGroups: [g(6), g(6), g(6), g(1)] },
      { limit: 201 },
      { after: '9900', limit: 200 },
      JSON.stringify({ query: 'x'.repeat(3001) }),
      { filterGroups: [{ filters: [{ propertyName: 'shoe_size', operator: 'EQ', value: '42' }] }] },
    ];
    for (const b of bodies) {
      sb.resetRateLimits();
      const res = await search(b);
      expect(res.status, JSON.stringify(b).slice(0, 80)).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
      expect(body.correlationId).toMatch(UUID);
    }
  });
});

describe('objects, batch read and properties', () => {
  it('lists contacts with cursor paging and absolute links that keep the mount prefix', async () => {
    const parent = new Hono();
    parent.route('/hubspot-sandbox', sb.app);
    const res = await call('http://localhost:3000/hubspot-sandbox/crm/v3/objects/contacts?limit=2&properties=country,city', {}, parent);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results).toHaveLength(2);
    expect(Object.keys(body.results[0].properties)).toEqual(['city', 'country', 'hs_object_id']);
    expect(body.paging.next.link).toBe(`http://localhost:3000/hubspot-sandbox/crm/v3/objects/contacts?limit=2&properties=country%2Ccity&after=${body.paging.next.after}`);
    const next = await call(body.paging.next.link, {}, parent);
    const nextBody = await next.json();
    expect(nextBody.results[0].id).toBe(body.paging.next.after);
    expect(Number(nextBody.results[0].id)).toBeGreaterThan(Number(body.results[1].id));
    // mounted search works too
    const s = await call('/hubspot-sandbox/crm/v3/objects/contacts/search', { method: 'POST', body: '{"limit":1}' }, parent);
    expect(s.status).toBe(200);
  });

  it('reads one contact by id or e-mail, 404 otherwise', async () => {
    const c = sb.contacts[3];
    const res = await call(`/crm/v3/objects/contacts/${c.id}?properties=lifecyclestage`);
    expect(await res.json()).toMatchObject({ id: String(c.id), properties: { hs_object_id: String(c.id), lifecyclestage: c.lifecyclestage }, archived: false });
    const withEmail = sb.contacts.find((x) => x.email)!;
    const byEmail = await call(`/crm/v3/objects/contacts/${encodeURIComponent(withEmail.email!.toUpperCase())}?idProperty=email`);
    expect((await byEmail.json()).id).toBe(String(withEmail.id));
    const missing = await call('/crm/v3/objects/contacts/1');
    expect(missing.status).toBe(404);
    expect((await missing.json()).category).toBe('OBJECT_NOT_FOUND');
  });

  it('batch-reads, with 207 and an error entry for unknown ids', async () => {
    const [a, b] = sb.contacts;
    const ok = await call('/crm/v3/objects/contacts/batch/read', { method: 'POST', body: JSON.stringify({ inputs: [{ id: String(a.id) }, { id: String(b.id) }], properties: ['country'], propertiesWithHistory: [] }) });
    expect(ok.status).toBe(200);
    const okBody = await ok.json();
    expect(okBody.status).toBe('COMPLETE');
    expect(okBody.results.map((r: { id: string }) => r.id)).toEqual([String(a.id), String(b.id)]);
    const partial = await call('/crm/v3/objects/contacts/batch/read', { method: 'POST', body: JSON.stringify({ inputs: [{ id: String(a.id) }, { id: '7' }], properties: [] }) });
    expect(partial.status).toBe(207);
    const pb = await partial.json();
    expect(pb.results).toHaveLength(1);
    expect(pb.errors[0]).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { ids: ['7'] } });
    const tooMany = await call('/crm/v3/objects/contacts/batch/read', { method: 'POST', body: JSON.stringify({ inputs: Array.from({ length: 101 }, (_, i) => ({ id: String(i) })) }) });
    expect(tooMany.status).toBe(400);
  });

  it('describes contact properties like HubSpot, incl. lifecycle stage options', async () => {
    const res = await call('/crm/v3/properties/contacts');
    const { results } = await res.json();
    const byName = Object.fromEntries(results.map((p: { name: string }) => [p.name, p]));
    expect(byName.lifecyclestage).toMatchObject({ type: 'enumeration', fieldType: 'radio' });
    expect(byName.lifecyclestage.options.map((o: { value: string }) => o.value)).toEqual([
      'subscriber', 'lead', 'marketingqualifiedlead', 'salesqualifiedlead', 'opportunity', 'customer', 'evangelist', 'other',
    ]);
    expect(byName.recent_deal_close_date).toMatchObject({ type: 'datetime', fieldType: 'date' });
    expect(byName.total_revenue).toMatchObject({ type: 'number', fieldType: 'number' });
    expect(byName.email).toMatchObject({ type: 'string', fieldType: 'text' });
    expect((await call('/crm/v3/properties/contacts/country')).status).toBe(200);
    expect((await call('/crm/v3/properties/contacts/nope')).status).toBe(404);
  });
});

describe('OAuth', () => {
  it('runs the authorization-code round trip; codes are single-use', async () => {
    const res = await authorize();
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st-123');
    const code = location.searchParams.get('code')!;
    const grant = { grant_type: 'authorization_code', client_id: sb.config.clientId, client_secret: sb.config.clientSecret, redirect_uri: REDIRECT, code };

    const tokenRes = await form(grant);
    expect(tokenRes.status).toBe(200);
    const tokens = await tokenRes.json();
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 1800 });
    expect(tokens.access_token).toEqual(expect.any(String));
    expect(tokens.refresh_token).toMatch(/^na1-/);
    expect((await search({ limit: 1 }, tokens.access_token)).status).toBe(200);

    const info = await (await call(`/oauth/v1/access-tokens/${tokens.access_token}`, { token: null })).json();
    expect(info).toMatchObject({ hub_id: sb.config.hubId, token_type: 'access', expires_in: 1800, scopes: ['oauth', 'crm.objects.contacts.read'] });

    const again = await form(grant);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ status: 'BAD_AUTH_CODE' });
  });

  it('rejects codes after 10 minutes', async () => {
    const code = new URL((await authorize()).headers.get('location')!).searchParams.get('code')!;
    sb.clock.advance(11 * 60_000);
    const res = await form({ grant_type: 'authorization_code', client_id: sb.config.clientId, client_secret: sb.config.clientSecret, redirect_uri: REDIRECT, code });
    expect(await res.json()).toMatchObject({ status: 'BAD_AUTH_CODE' });
  });

  it('rejects a bad client secret, an unknown client and a mismatched redirect_uri', async () => {
    const code = new URL((await authorize()).headers.get('location')!).searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', client_id: sb.config.clientId, client_secret: sb.config.clientSecret, redirect_uri: REDIRECT, code };
    const badSecret = await form({ ...base, client_secret: 'nope' });
    expect(badSecret.status).toBe(400);
    expect(await badSecret.json()).toMatchObject({ status: 'BAD_CLIENT_SECRET', message: expect.any(String), correlationId: expect.stringMatching(UUID) });
    expect(await (await form({ ...base, client_id: 'nope' })).json()).toMatchObject({ status: 'BAD_CLIENT_ID' });
    expect(await (await form({ ...base, redirect_uri: 'http://evil.test/cb' })).json()).toMatchObject({ status: 'BAD_REDIRECT_URI' });
    expect(await (await form({ ...base, grant_type: 'password' })).json()).toMatchObject({ status: 'BAD_GRANT_TYPE' });
    // the failed attempts did not burn the code
    expect((await form(base)).status).toBe(200);
  });

  it('refuses to authorize an unknown client, an unregistered redirect_uri or unknown scopes (no redirect)', async () => {
    const cases: Record<string, string>[] = [{ client_id: 'nope' }, { redirect_uri: 'http://evil.test/cb' }, { scope: 'crm.objects.deals.write' }];
    for (const params of cases) {
      const res = await authorize(params);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('refreshes access tokens and stops after the refresh token is revoked', async () => {
    const issued = sb.issueTestToken();
    const refresh = { grant_type: 'refresh_token', client_id: sb.config.clientId, client_secret: sb.config.clientSecret, refresh_token: issued.refreshToken };
    const r1 = await (await form(refresh)).json();
    expect(r1).toMatchObject({ token_type: 'bearer', refresh_token: issued.refreshToken, expires_in: 1800 });
    expect(r1.access_token).not.toBe(issued.accessToken);
    expect((await search({ limit: 1 }, r1.access_token)).status).toBe(200);

    const rt = await (await call(`/oauth/v1/refresh-tokens/${issued.refreshToken}`, { token: null })).json();
    expect(rt).toMatchObject({ token_type: 'refresh', hub_id: sb.config.hubId, client_id: sb.config.clientId });

    expect((await call(`/oauth/v1/refresh-tokens/${issued.refreshToken}`, { method: 'DELETE', token: null })).status).toBe(204);
    const r2 = await form(refresh);
    expect(r2.status).toBe(400);
    expect(await r2.json()).toMatchObject({ status: 'BAD_REFRESH_TOKEN', message: 'missing or unknown refresh token' });
    // access tokens minted from it stop working too
    expect((await search({ limit: 1 }, r1.access_token)).status).toBe(401);
    expect((await call(`/oauth/v1/refresh-tokens/${issued.refreshToken}`, { method: 'DELETE', token: null })).status).toBe(404);
    expect(sb.revokeRefreshToken(sb.issueTestToken().refreshToken)).toBe(true);
  });

  it('describes private-app tokens', async () => {
    const res = await call('/oauth/v2/private-apps/get/access-token-info', { method: 'POST', token: null, body: JSON.stringify({ tokenKey: pat }) });
    expect(await res.json()).toMatchObject({ hubId: sb.config.hubId, scopes: ['crm.objects.contacts.read', 'crm.schemas.contacts.read'] });
    const bad = await call('/oauth/v2/private-apps/get/access-token-info', { method: 'POST', token: null, body: JSON.stringify({ tokenKey: 'pat-na1-x' }) });
    expect(bad.status).toBe(401);
  });
});
