import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPipedriveSandbox, type PipedriveSandbox } from './app.js';
import { createPipedriveSandboxFaults } from './faults.js';
import type { PipedriveSandboxOptions } from './state.js';

const NOW = '2026-06-01T00:00:00Z';
const REDIRECT = 'http://localhost:3000/api/auth/pipedrive/callback';

let sb: PipedriveSandbox;
let apiToken: string;
let t0: number;

function make(opts: PipedriveSandboxOptions = {}) {
  t0 = Date.parse('2026-06-02T10:00:00Z');
  sb = createPipedriveSandbox({ personCount: 400, seed: 5, now: NOW, clock: () => t0, ...opts });
  apiToken = sb.config.apiTokens[0];
}

beforeEach(() => make());

function call(path: string, init: RequestInit & { apiToken?: string | null; bearer?: string } = {}) {
  const headers = new Headers(init.headers);
  const token = init.apiToken === undefined ? apiToken : init.apiToken;
  if (token && !init.bearer) headers.set('x-api-token', token);
  if (init.bearer) headers.set('authorization', `Bearer ${init.bearer}`);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return sb.app.request(path, { ...init, headers });
}

const json = async (res: Response) => (await res.json()) as any;

function createFilter(body: unknown) {
  return call('/v1/filters', { method: 'POST', body: JSON.stringify(body) });
}

const peopleFilter = (and: unknown[], or: unknown[] = []) => ({ name: 'f', type: 'people', conditions: { glue: 'and', conditions: [{ glue: 'and', conditions: and }, { glue: 'or', conditions: or }] } });

async function allPersonIds(query: string, limit = 100): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await call(`/api/v2/persons?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    ids.push(...body.data.map((p: { id: number }) => p.id));
    cursor = body.additional_data.next_cursor;
    pages++;
  } while (cursor);
  return { ids, pages };
}

describe('credentials', () => {
  it('accepts the personal API token as x-api-token or api_token, and answers 401 without one', async () => {
    expect((await call('/api/v2/persons?limit=1')).status).toBe(200);
    expect((await call(`/api/v2/persons?limit=1&api_token=${apiToken}`, { apiToken: null })).status).toBe(200);
    const res = await call('/api/v2/persons', { apiToken: null });
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject({ success: false, error: 'unauthorized access', errorCode: 401, data: null });
    expect((await call('/api/v2/persons', { apiToken: 'f'.repeat(40) })).status).toBe(401);
  });

  it('tells which user and company a token belongs to', async () => {
    const me = await json(await call('/api/v1/users/me'));
    expect(me.data).toMatchObject({ id: 15_873_201, company_id: sb.config.companyId, company_name: 'Sandbox Trading Ltd', timezone_name: 'UTC', timezone_offset: '+00:00' });
    const other = await json(await call('/v1/users/me', { apiToken: sb.config.apiTokens[1] }));
    expect(other.data.id).toBe(15_873_202);
  });

  it('expires OAuth access tokens after 3599 s and checks the app scopes', async () => {
    const tok = sb.issueTestToken();
    expect(tok.expiresIn).toBe(3599);
    expect((await call('/api/v2/persons?limit=1', { bearer: tok.accessToken })).status).toBe(200);
    t0 += 3600 * 1000;
    const res = await call('/api/v2/persons?limit=1', { bearer: tok.accessToken });
    expect(res.status).toBe(401);
    expect((await json(res)).error).toBe('Invalid token: access token has expired');
    const narrow = sb.issueTestToken({ scopes: ['base', 'deals:read'] });
    const denied = await call('/api/v2/persons', { bearer: narrow.accessToken });
    expect(denied.status).toBe(403);
    expect((await json(denied)).error).toBe('Scope and URL mismatch');
    expect((await call('/api/v2/deals?limit=1', { bearer: narrow.accessToken })).status).toBe(200);
    expect((await call('/v1/filters', { method: 'POST', body: '{}', bearer: narrow.accessToken })).status).toBe(403);
  });
});

describe('OAuth', () => {
  const basic = (id = sb.config.clientId, secret = sb.config.clientSecret) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const token = (form: Record<string, string>, auth = basic()) =>
    sb.app.request('/oauth/token', { method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });

  async function code(): Promise<string> {
    const res = await sb.app.request(`/oauth/authorize?${new URLSearchParams({ client_id: sb.config.clientId, redirect_uri: REDIRECT, state: 'st-9' })}`);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect(to.searchParams.get('state')).toBe('st-9');
    return to.searchParams.get('code')!;
  }

  it('exchanges a code once for tokens carrying the api_domain of the sandbox as it was reached', async () => {
    const c = await code();
    // mounted as the product mounts it
    const parent = new Hono();
    parent.route('/pipedrive-sandbox', sb.app);
    const res = await parent.request('http://app.test/pipedrive-sandbox/oauth/token', {
      method: 'POST', headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT }).toString(),
    });
    const body = await json(res);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3599, scope: 'base,deals:read,contacts:full,users:read', api_domain: 'http://app.test/pipedrive-sandbox' });
    expect((await parent.request('http://app.test/pipedrive-sandbox/api/v2/persons?limit=1', { headers: { authorization: `Bearer ${body.access_token}` } })).status).toBe(200);
    expect(body.access_token).toMatch(/^v1u:/);
    expect(body.refresh_token).toMatch(new RegExp(`^${sb.config.companyId}:15873201:`));
    expect((await call('/api/v2/persons?limit=1', { bearer: body.access_token })).status).toBe(200);
    const again = await token({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT });
    expect(again.status).toBe(400);
    expect(await json(again)).toEqual({ success: false, error: 'invalid_grant', message: 'Invalid grant: authorization code is invalid' });
  });

  it('refuses wrong client credentials, redirect URIs, expired codes and grant types', async () => {
    expect((await token({ grant_type: 'authorization_code', code: await code(), redirect_uri: REDIRECT }, basic(sb.config.clientId, 'wrong'))).status).toBe(401);
    expect((await json(await token({ grant_type: 'authorization_code', code: await code(), redirect_uri: 'http://evil.test/cb' }))).error).toBe('invalid_request');
    const late = await code();
    t0 += 301_000;
    expect((await json(await token({ grant_type: 'authorization_code', code: late, redirect_uri: REDIRECT }))).message).toBe('Invalid grant: authorization code has expired');
    expect((await json(await token({ grant_type: 'password' }))).error).toBe('unsupported_grant_type');
    const page = await sb.app.request(`/oauth/authorize?client_id=${sb.config.clientId}&redirect_uri=${encodeURIComponent('http://evil.test/cb')}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('redirect_uri');
  });

  it('refreshes (same refresh token), and revoking the refresh token kills its access tokens', async () => {
    const first = await json(await token({ grant_type: 'authorization_code', code: await code(), redirect_uri: REDIRECT }));
    const second = await json(await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }));
    expect(second.refresh_token).toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    const revoke = await sb.app.request('/oauth/revoke', {
      method: 'POST', headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: first.refresh_token, token_type_hint: 'refresh_token' }).toString(),
    });
    expect(revoke.status).toBe(200);
    const res = await call('/api/v2/persons', { bearer: second.access_token });
    expect(res.status).toBe(401);
    expect((await json(res)).error).toBe('Invalid token: access token is invalid');
    expect((await json(await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }))).error).toBe('invalid_grant');
  });

  it('lets a refresh token lapse after 60 days without use', async () => {
    const first = await json(await token({ grant_type: 'authorization_code', code: await code(), redirect_uri: REDIRECT }));
    t0 += 59 * 86_400_000;
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).status).toBe(200);
    t0 += 61 * 86_400_000;
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).status).toBe(400);
  });
});

describe('v2 lists', () => {
  it('pages every person once with the cursor, in id order, and in any supported order', async () => {
    const expected = sb.data.persons.map((p) => p.id);
    const asc = await allPersonIds('sort_by=id', 37);
    expect(asc.ids).toEqual(expected);
    expect(asc.pages).toBe(Math.ceil(expected.length / 37));
    const byUpdate = await allPersonIds('sort_by=update_time&sort_direction=desc', 150);
    const want = [...sb.data.persons].sort((a, b) => b.update_time - a.update_time || b.id - a.id).map((p) => p.id);
    expect(byUpdate.ids).toEqual(want);
  });

  it('validates limit, sort and cursor as Pipedrive does', async () => {
    const over = await call('/api/v2/persons?limit=501');
    expect(over.status).toBe(400);
    expect(await json(over)).toMatchObject({ success: false, code: 'ERR_SCHEMA_VALIDATION_FAILED', error: 'Validation failed: limit: Value must be smaller than or equal to 500' });
    expect((await call('/api/v2/persons?sort_by=name')).status).toBe(400);
    expect((await call('/api/v2/persons?cursor=garbage')).status).toBe(400);
    const first = await json(await call('/api/v2/persons?limit=5&sort_by=add_time'));
    expect((await call(`/api/v2/persons?cursor=${first.additional_data.next_cursor}`)).status).toBe(400);
  });

  it('selects persons by ids (≤ 100) and organization; deals by person and status; includes counters on request', async () => {
    const some = sb.data.persons.slice(3, 8).map((p) => p.id);
    expect((await json(await call(`/api/v2/persons?ids=${some.join(',')}`))).data.map((p: { id: number }) => p.id)).toEqual(some);
    expect((await call(`/api/v2/persons?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`)).status).toBe(400);
    const org = sb.data.organizations[0];
    const members = await json(await call(`/api/v2/persons?org_id=${org.id}&include_fields=won_deals_count,lost_deals_count`));
    expect(members.data.map((p: { id: number }) => p.id)).toEqual(sb.data.persons.filter((p) => p.org_id === org.id).map((p) => p.id));
    const buyer = sb.data.people.find((p) => p.purchases.length > 1)!;
    const won = await json(await call(`/api/v2/deals?person_id=${buyer.id}&status=won`));
    expect(won.data.map((d: { value: number }) => d.value)).toEqual(buyer.purchases.map((p) => p.amount));
    expect(won.data[won.data.length - 1].won_time).toBe(`${new Date(buyer.lastPurchaseAt!).toISOString().slice(0, 19)}Z`);
    const person = await json(await call(`/api/v2/persons/${buyer.id}?include_fields=won_deals_count`));
    expect(person.data.won_deals_count).toBe(buyer.purchases.length);
    expect(person.data.custom_fields[sb.store.fields.keys.lifetimeValue]).toEqual({ value: buyer.lifetimeValue, currency: 'USD' });
  });
});

describe('filters', () => {
  it('creates, reads, lists, updates, applies and deletes people filters', async () => {
    const res = await createFilter(peopleFilter([{ object: 'person', field_id: '9013', operator: '>', value: '0', extra_value: null }]));
    expect(res.status).toBe(200);
    const created = (await json(res)).data;
    expect(created).toMatchObject({ name: 'f', type: 'people', active_flag: true, user_id: 15_873_201 });
    const buyers = sb.data.people.filter((p) => p.purchases.length > 0).map((p) => p.id);
    expect((await allPersonIds(`filter_id=${created.id}`, 500)).ids).toEqual(buyers);
    const fetched = (await json(await call(`/v1/filters/${created.id}`))).data;
    expect(fetched.conditions.conditions[0].conditions[0]).toEqual({ object: 'person', field_id: '9013', operator: '>', value: '0', extra_value: null });
    expect(fetched.last_used_time).not.toBeNull();
    const listed = (await json(await call('/v1/filters?type=people'))).data;
    expect(listed.map((f: { id: number }) => f.id)).toEqual([created.id]);
    expect(listed[0].conditions).toBeUndefined();
    expect((await json(await call('/v1/filters?type=deals'))).data).toEqual([]);

    const upd = await call(`/v1/filters/${created.id}`, { method: 'PUT', body: JSON.stringify({ conditions: peopleFilter([{ object: 'person', field_id: '9013', operator: '>', value: '1', extra_value: null }]).conditions }) });
    expect(upd.status).toBe(200);
    const repeat = sb.data.people.filter((p) => p.purchases.length > 1).map((p) => p.id);
    expect((await allPersonIds(`filter_id=${created.id}`, 500)).ids).toEqual(repeat);

    expect(await json(await call(`/v1/filters/${created.id}`, { method: 'DELETE' }))).toEqual({ success: true, data: { id: created.id } });
    expect((await call(`/v1/filters/${created.id}`)).status).toBe(404);
    expect((await call(`/api/v2/persons?filter_id=${created.id}`)).status).toBe(404);
    expect(sb.stats).toMatchObject({ filtersCreated: 1, filtersDeleted: 1 });
  });

  it('deletes in bulk, and refuses a filter of another type', async () => {
    const a = (await json(await createFilter(peopleFilter([])))).data.id;
    const b = (await json(await createFilter({ ...peopleFilter([]), type: 'deals' }))).data.id;
    const wrong = await call(`/api/v2/persons?filter_id=${b}`);
    expect(wrong.status).toBe(400);
    expect(await json(await call(`/v1/filters?ids=${a},${b},999`, { method: 'DELETE' }))).toEqual({ success: true, data: { id: [a, b] } });
    expect((await json(await call('/v1/filters'))).data).toEqual([]);
  });

  it('answers 400 with a readable error for definitions Pipedrive refuses', async () => {
    const res = await createFilter(peopleFilter([{ object: 'person', field_id: '9013', operator: "LIKE '%$%'", value: '1' }]));
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ success: false, error: 'Operator LIKE \'%$%\' cannot be used with field "Won deals" (int).' });
    expect((await createFilter({ name: 'x', type: 'people', conditions: { glue: 'or', conditions: [] } })).status).toBe(400);
    expect((await createFilter({ type: 'people', conditions: peopleFilter([]).conditions })).status).toBe(400);
    expect((await call('/v1/filters', { method: 'POST', body: 'not json' })).status).toBe(400);
  });

  it('describes helpers and fields (ids, keys, types, options)', async () => {
    const helpers = (await json(await call('/v1/filters/helpers'))).data;
    expect(helpers.operators.varchar).toMatchObject({ '=': 'is', "LIKE '%$%'": 'contains' });
    expect(Object.keys(helpers.address_field_components)).toContain('locality');
    const fields = (await json(await call('/v1/personFields?limit=500'))).data;
    expect(fields.find((f: { key: string }) => f.key === 'postal_address')).toMatchObject({ id: 9012, field_type: 'address', filtering_allowed: true });
    const page = await json(await call('/v1/dealFields?start=0&limit=5'));
    expect(page.data).toHaveLength(5);
    expect(page.additional_data.pagination).toEqual({ start: 0, limit: 5, more_items_in_collection: true, next_start: 5 });
  });
});

describe('rate limits', () => {
  it('counts requests per token over a rolling 2 s window (429 with Retry-After and x-ratelimit-*)', async () => {
    make({ burstLimit: 3 });
    for (let i = 0; i < 3; i++) {
      const ok = await call('/api/v2/persons?limit=1');
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
      expect(ok.headers.get('x-ratelimit-limit')).toBe('3');
      t0 += 400;
    }
    const res = await call('/api/v2/persons?limit=1');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await json(res)).toMatchObject({ success: false, errorCode: 429 });
    // another token has its own window
    expect((await call('/api/v2/persons?limit=1', { apiToken: sb.config.apiTokens[1] })).status).toBe(200);
    t0 += 800;
    expect((await call('/api/v2/persons?limit=1')).status).toBe(200);
    expect(sb.stats.rateLimited).toBe(1);
  });

  it('spends the company\'s daily token budget per endpoint cost and refuses when it is gone until midnight UTC', async () => {
    make({ dailyTokenBudget: 45, burstLimit: 0 });
    const a = await call('/api/v2/persons?limit=1'); // list: 10
    expect(a.headers.get('x-daily-ratelimit-token-limit')).toBe('45');
    expect(a.headers.get('x-daily-ratelimit-token-remaining')).toBe('35');
    expect((await call('/api/v1/personFields')).headers.get('x-daily-ratelimit-token-remaining')).toBe('15'); // v1 list: 20
    expect((await call('/api/v1/users/me')).headers.get('x-daily-ratelimit-token-remaining')).toBe('13'); // single: 2
    await call('/api/v2/persons/1001'); // v2 single: 1
    const refused = await call('/api/v2/persons?limit=1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-daily-ratelimit-token-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBe((Date.parse('2026-06-03T00:00:00Z') - t0) / 1000);
    t0 = Date.parse('2026-06-03T00:00:01Z');
    expect((await call('/api/v2/persons?limit=1')).status).toBe(200);
  });
});

describe('faults (tests only)', () => {
  it('answers with Pipedrive-shaped outages, limits and expired tokens', async () => {
    const faults = createPipedriveSandboxFaults();
    make({ faults });
    faults.inject({ kind: 'server-error', times: 1 }).inject({ kind: 'rate-limit', times: 1, retryAfterSeconds: 0.2 }).inject({ kind: 'expired-token', times: 1 });
    const outage = await call('/api/v2/persons');
    expect(outage.status).toBe(503);
    expect(await json(outage)).toMatchObject({ success: false, errorCode: 503 });
    const limited = await call('/v1/filters');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('0.2');
    const expired = await call('/api/v2/deals');
    expect(expired.status).toBe(401);
    expect((await json(expired)).error).toBe('Invalid token: access token has expired');
    expect((await call('/api/v2/deals')).status).toBe(200);
    expect(faults.injected).toMatchObject({ 'server-error': 1, 'rate-limit': 1, 'expired-token': 1 });
    // OAuth endpoints are not API calls: faults leave them alone by default
    expect(faults.requests).toBe(4);
  });
});
