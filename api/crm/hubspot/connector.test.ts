/**
 * HubSpotConnector against the sandbox served on a real loopback port.
 * Most tests link the connector's clock to the sandbox clock ("fast clock"): a connector sleep
 * advances sandbox time instantly, so throttling and Retry-After are exercised without waiting.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectContacts, type CrmContact } from '../connector.js';
import { CrmError } from '../errors.js';
import type { SandboxContact } from '../hubspot-sandbox/data.js';
import { generateContacts } from '../hubspot-sandbox/data.js';
import { startHubSpotSandboxServer, type RunningSandbox } from '../hubspot-sandbox/server.js';
import { HubSpotConnector, parseRetryAfter, toCrmError, type HubSpotConnectorOptions } from './connector.js';
import { resetSearchBuckets, searchBucketFor, type LimiterClock } from './rate-limiter.js';
import type { HubSpotSearchRequest } from './model/index.js';

const T0 = Date.parse('2026-06-02T10:00:00Z');
const NOW = '2026-06-01T00:00:00Z';

function fastClock(r: RunningSandbox): LimiterClock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => r.sandbox.clock.now(),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      r.sandbox.clock.advance(Math.max(0, ms));
      await new Promise((res) => setImmediate(res));
    },
  };
}

function makeConnector(r: RunningSandbox, opts: Partial<HubSpotConnectorOptions> = {}) {
  return new HubSpotConnector({
    baseUrl: r.url,
    getAccessToken: () => r.sandbox.config.privateAppTokens[0],
    accountId: String(r.sandbox.config.hubId),
    random: () => 0.5,
    ...opts,
  });
}

const connector = makeConnector;
const ids = (list: CrmContact[]) => list.map((c) => c.id);
const idsOf = (list: readonly SandboxContact[]) => list.map((c) => String(c.id));

beforeEach(() => resetSearchBuckets());

describe('rate limiting', () => {
  let r: RunningSandbox;
  afterEach(async () => r?.close());

  it('retries 429s honouring Retry-After (sandbox at 2 req/s, client bucket wide open)', async () => {
    r = await startHubSpotSandboxServer({ contactCount: 1200, seed: 2, now: NOW, clock: () => T0, rateLimitPerSecond: 2 });
    const clock = fastClock(r);
    const retries: { delayMs: number; code: string; retryAfterMs?: number }[] = [];
    const c = connector(r, { clock, searchRequestsPerSecond: 1000, onRetry: (i) => retries.push({ delayMs: i.delayMs, code: i.error.code, retryAfterMs: i.error.retryAfterMs }) });
    const got = await collectContacts(c.searchContacts({ filterGroups: [] }, { pageSize: 100 }));
    expect(ids(got)).toEqual(idsOf(r.sandbox.contacts));
    expect(r.sandbox.stats.rateLimited).toBeGreaterThan(0);
    expect(retries.length).toBe(r.sandbox.stats.rateLimited);
    for (const x of retries) {
      expect(x.code).toBe('RATE_LIMITED');
      expect(x.retryAfterMs).toBe(1000);
      expect(x.delayMs).toBeGreaterThanOrEqual(1000); // never earlier than Retry-After
      expect(x.delayMs).toBeLessThanOrEqual(1250 + 1); // + at most 25 % jitter
    }
  });

  it('gives up after maxAttempts with a RATE_LIMITED CrmError carrying Retry-After', async () => {
    r = await startHubSpotSandboxServer({ contactCount: 50, seed: 2, now: NOW, clock: () => T0, rateLimitPerSecond: 1 });
    const c = connector(r, { clock: fastClock(r), searchRequestsPerSecond: 1000, maxAttempts: 1 });
    await c.countContacts({ filterGroups: [] });
    const err = await c.countContacts({ filterGroups: [] }).catch((e) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterMs: 1000 });
  });

  it('keeps under HubSpot\'s 5/s with its own bucket: no 429 at all', async () => {
    r = await startHubSpotSandboxServer({ contactCount: 3000, seed: 2, now: NOW, clock: () => T0, rateLimitPerSecond: 5 });
    const clock = fastClock(r);
    const start = r.sandbox.clock.now();
    const got = await collectContacts(connector(r, { clock }).searchContacts({ filterGroups: [] }, { pageSize: 100 }));
    expect(got).toHaveLength(3000);
    expect(r.sandbox.stats.searchRequests).toBe(30);
    expect(r.sandbox.stats.rateLimited).toBe(0);
    // 30 requests at ≤ 5 per ~second take at least 5 (virtual) seconds
    expect(r.sandbox.clock.now() - start).toBeGreaterThanOrEqual(5000);
  });

  it('shares one bucket between connector instances of the same account', async () => {
    r = await startHubSpotSandboxServer({ contactCount: 20, seed: 2, now: NOW, clock: () => T0, rateLimitPerSecond: 0 });
    const clock = fastClock(r);
    const a = connector(r, { clock });
    const b = connector(r, { clock });
    const count = (x: HubSpotConnector) => x.countContacts({ filterGroups: [] });
    // 6 searches from two instances: the shared budget of 5 per window makes the 6th wait
    await Promise.all([count(a), count(a), count(a), count(b), count(b), count(b)]);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(1000);
    // another account has its own budget
    const other = connector(r, { clock, accountId: '999' });
    await Promise.all([count(other), count(other), count(other), count(other), count(other)]);
    expect(clock.sleeps).toHaveLength(1);
    expect(searchBucketFor(`${r.url}#${r.sandbox.config.hubId}`)).toBe(searchBucketFor(`${r.url}#${r.sandbox.config.hubId}`));
  });

  it('really waits on a real clock (sandbox at 3/s)', async () => {
    r = await startHubSpotSandboxServer({ contactCount: 900, seed: 2, now: NOW, rateLimitPerSecond: 3 });
    const started = Date.now();
    const got = await collectContacts(connector(r, { searchRequestsPerSecond: 1000 }).searchContacts({ filterGroups: [] }, { pageSize: 100 }));
    expect(got).toHaveLength(900);
    expect(r.sandbox.stats.rateLimited).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  }, 15_000);
});

describe('beyond the 10,000-result window', () => {
  let r: RunningSandbox;
  let c: HubSpotConnector;
  let contacts: readonly SandboxContact[];
  beforeAll(async () => {
    r = await startHubSpotSandboxServer({ contacts: generateContacts({ count: 27_000, seed: 21, now: NOW }), clock: () => T0, rateLimitPerSecond: 5 });
    contacts = r.sandbox.contacts;
  });
  beforeEach(() => {
    // buckets are reset between tests: let the sandbox's one-second window pass too
    r.sandbox.clock.advance(2000);
    c = connector(r, { clock: fastClock(r) });
  });
  afterAll(async () => r?.close());

  async function expectExactlyOnce(request: HubSpotSearchRequest, predicate: (c: SandboxContact) => boolean) {
    const before = r.sandbox.stats.rateLimited;
    const got = await collectContacts(c.searchContacts(request, { properties: ['hs_object_id'] }));
    const expected = idsOf(contacts.filter(predicate));
    expect(expected.length).toBeGreaterThan(10_000);
    expect(got.length).toBe(expected.length);
    expect(new Set(ids(got)).size).toBe(got.length);
    expect([...ids(got)].sort()).toEqual([...expected].sort());
    expect(r.sandbox.stats.rateLimited).toBe(before);
    return got;
  }

  it('returns 25,000 matching contacts whole and exactly once (single batch, id ranges)', async () => {
    const cutoff = contacts[24_999].id;
    const req: HubSpotSearchRequest = { filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'LTE', value: String(cutoff) }] }] };
    expect(await c.countContacts(req)).toBe(25_000);
    const before = r.sandbox.stats.searchRequests;
    const got = await expectExactlyOnce(req, (x) => x.id <= cutoff);
    expect(got).toHaveLength(25_000);
    expect(ids(got)).toEqual(idsOf(contacts.slice(0, 25_000))); // in id order
    expect(r.sandbox.stats.searchRequests - before).toBe(125); // 25,000 / 200, no wasted request
  });

  it('handles OR groups and no filters at all', async () => {
    await expectExactlyOnce({ filterGroups: [] }, () => true);
    await expectExactlyOnce(
      {
        filterGroups: [
          { filters: [{ propertyName: 'country', operator: 'NOT_IN', values: ['united states'] }] },
          { filters: [{ propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' }] },
        ],
      },
      (x) => x.country?.toLowerCase() !== 'united states' || x.lifecyclestage === 'customer',
    );
  });

  it('splits groups into several searches when the extra filter would break the limits, and de-duplicates', async () => {
    const has = (p: string) => ({ propertyName: p, operator: 'HAS_PROPERTY' as const });
    // 5 groups × 3 filters = 15; +1 per group = 20 > 18 → two batches. Groups overlap heavily.
    const groups = ['subscriber', 'lead', 'customer', 'opportunity', 'marketingqualifiedlead'].map((stage, i) => ({
      filters: [has('createdate'), i % 2 ? has('email') : has('firstname'), { propertyName: 'lifecyclestage', operator: 'NEQ' as const, value: stage }],
    }));
    await expectExactlyOnce({ filterGroups: groups }, (x) =>
      ['subscriber', 'lead', 'customer', 'opportunity', 'marketingqualifiedlead'].some((stage, i) => (i % 2 ? x.email : x.firstname) !== null && x.lifecyclestage !== stage),
    );
  });

  it('searches a 6-filter group on its own when it fits the window', async () => {
    const six = {
      filters: [
        { propertyName: 'country', operator: 'EQ' as const, value: 'germany' },
        { propertyName: 'email', operator: 'HAS_PROPERTY' as const },
        { propertyName: 'createdate', operator: 'HAS_PROPERTY' as const },
        { propertyName: 'hs_object_id', operator: 'GT' as const, value: '0' },
        { propertyName: 'lastmodifieddate', operator: 'HAS_PROPERTY' as const },
        { propertyName: 'firstname', operator: 'HAS_PROPERTY' as const },
      ],
    };
    const big = { filters: [{ propertyName: 'lifecyclestage', operator: 'NEQ' as const, value: 'customer' }] };
    await expectExactlyOnce({ filterGroups: [big, six] }, (x) => x.lifecyclestage !== 'customer' || (x.country === 'Germany' && x.email !== null && x.firstname !== null));

    const hugeSix = { filters: [...six.filters.slice(1), { propertyName: 'lifecyclestage', operator: 'NEQ' as const, value: 'nope' }] };
    const err = await collectContacts(c.searchContacts({ filterGroups: [big, hugeSix] })).catch((e) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err.code).toBe('VALIDATION');
  });

  it('keeps a custom sort beyond 10,000 (HubSpot order: missing values last, ties by id)', async () => {
    const got = await collectContacts(
      c.searchContacts({ filterGroups: [], sorts: [{ propertyName: 'recent_deal_amount', direction: 'DESCENDING' }] }, { properties: ['recent_deal_amount'] }),
    );
    expect(got).toHaveLength(contacts.length);
    const withAmount = contacts.filter((x) => x.recent_deal_amount !== null).sort((a, b) => b.recent_deal_amount! - a.recent_deal_amount! || b.id - a.id);
    const without = contacts.filter((x) => x.recent_deal_amount === null);
    expect(ids(got)).toEqual(idsOf([...withAmount, ...without]));
  });
});

describe('other calls', () => {
  let r: RunningSandbox;
  beforeAll(async () => {
    r = await startHubSpotSandboxServer({ contactCount: 400, seed: 4, now: NOW, clock: () => T0, rateLimitPerSecond: 0 });
  });
  afterAll(async () => r?.close());
  const connector = (run: RunningSandbox, opts: Partial<HubSpotConnectorOptions> = {}) => makeConnector(run, { searchRequestsPerSecond: 1000, ...opts });

  it('paginates a small search in the requested order and maps nothing away', async () => {
    const c = connector(r);
    const got = await collectContacts(
      c.searchContacts({ filterGroups: [{ filters: [{ propertyName: 'total_revenue', operator: 'GT', value: '1000' }] }], sorts: [{ propertyName: 'total_revenue', direction: 'ASCENDING' }] }, { pageSize: 7 }),
    );
    const expected = r.sandbox.contacts.filter((x) => (x.total_revenue ?? 0) > 1000).sort((a, b) => a.total_revenue! - b.total_revenue! || a.id - b.id);
    expect(ids(got)).toEqual(idsOf(expected));
    expect(Object.keys(got[0].properties).sort()).toEqual(
      ['city', 'company', 'country', 'createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname', 'lifecyclestage', 'recent_deal_amount', 'recent_deal_close_date', 'state', 'total_revenue'],
    );
  });

  it('counts with one request', async () => {
    const c = connector(r);
    const before = r.sandbox.stats.searchRequests;
    expect(await c.countContacts({ filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' }] }] })).toBe(
      r.sandbox.contacts.filter((x) => x.lifecyclestage === 'customer').length,
    );
    expect(r.sandbox.stats.searchRequests - before).toBe(1);
  });

  it('reads contacts by ids in the order asked, skipping unknown ids, in chunks of 100', async () => {
    const c = connector(r);
    const wanted = [...r.sandbox.contacts].reverse().slice(0, 150).map((x) => String(x.id));
    const got = await c.getContactsByIds([...wanted, '5', wanted[0]]);
    expect(ids(got)).toEqual([...wanted, wanted[0]]);
  });

  it('lists company names by frequency, from at most maxContacts contacts, without a search', async () => {
    const c = connector(r);
    const before = r.sandbox.stats.searchRequests;
    const counts = new Map<string, number>();
    for (const x of r.sandbox.contacts.slice(0, 250)) if (x.company) counts.set(x.company, (counts.get(x.company) ?? 0) + 1);
    const names = await c.listCompanyNames({ maxContacts: 250 });
    expect(new Set(names)).toEqual(new Set(counts.keys()));
    expect(names.map((n) => counts.get(n))).toEqual([...counts.values()].sort((a, b) => b - a));
    expect(r.sandbox.stats.searchRequests).toBe(before);
  });

  it('describes properties', async () => {
    const props = await connector(r).describeProperties();
    expect(props.find((p) => p.name === 'lifecyclestage')).toMatchObject({ type: 'enumeration', options: expect.arrayContaining([{ label: 'Customer', value: 'customer' }]) });
  });

  it('verifies private-app and OAuth tokens, and rejects unknown ones', async () => {
    expect(await connector(r).verifyCredentials()).toEqual({ accountId: String(r.sandbox.config.hubId), scopes: ['crm.objects.contacts.read', 'crm.schemas.contacts.read'], tokenType: 'pat' });
    const t = r.sandbox.issueTestToken();
    expect(await connector(r, { getAccessToken: () => t.accessToken }).verifyCredentials()).toMatchObject({ accountId: String(r.sandbox.config.hubId), tokenType: 'oauth', expiresInSeconds: 1800 });
    await expect(connector(r, { getAccessToken: () => 'CNnot-a-token' }).verifyCredentials()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(connector(r, { getAccessToken: () => 'pat-na1-unknown' }).verifyCredentials()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('looks the account up once when accountId is not given', async () => {
    const c = connector(r, { accountId: undefined });
    expect(await c.countContacts({ filterGroups: [] })).toBe(400);
  });

  it('asks getAccessToken for a fresh token once on EXPIRED_AUTHENTICATION', async () => {
    let current = r.sandbox.issueTestToken({ ttlSeconds: 60 });
    const calls: Array<boolean | undefined> = [];
    const c = connector(r, {
      getAccessToken: (o) => {
        calls.push(o?.forceRefresh);
        if (o?.forceRefresh) current = r.sandbox.issueTestToken();
        return current.accessToken;
      },
    });
    r.sandbox.clock.advance(120_000);
    expect(await c.countContacts({ filterGroups: [] })).toBe(400);
    expect(calls).toEqual([undefined, true]);

    const stale = r.sandbox.issueTestToken({ ttlSeconds: 1 });
    r.sandbox.clock.advance(5000);
    const err = await connector(r, { getAccessToken: () => stale.accessToken }).countContacts({ filterGroups: [] }).catch((e) => e);
    expect(err).toMatchObject({ code: 'UNAUTHORIZED', status: 401, category: 'EXPIRED_AUTHENTICATION' });
  });

  it('reports a revoked token as UNAUTHORIZED', async () => {
    const t = r.sandbox.issueTestToken();
    r.sandbox.revokeRefreshToken(t.refreshToken);
    await expect(connector(r, { getAccessToken: () => t.accessToken }).countContacts({ filterGroups: [] })).rejects.toMatchObject({ code: 'UNAUTHORIZED', category: 'INVALID_AUTHENTICATION' });
  });

  it('checks limits and the 3,000-character body before sending', async () => {
    const c = connector(r);
    const before = r.sandbox.stats.searchRequests;
    const values = Array.from({ length: 400 }, (_, i) => `city-number-${i}`);
    const big = collectContacts(c.searchContacts({ filterGroups: [{ filters: [{ propertyName: 'city', operator: 'IN', values }] }] }));
    await expect(big).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/3000|3,000/) });
    const six = { filters: [{ propertyName: 'email', operator: 'HAS_PROPERTY' as const }] };
    await expect(c.countContacts({ filterGroups: Array.from({ length: 6 }, () => six) })).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(r.sandbox.stats.searchRequests).toBe(before);
  });

  it('maps HubSpot 400s to VALIDATION', async () => {
    await expect(
      connector(r).countContacts({ filterGroups: [{ filters: [{ propertyName: 'shoe_size', operator: 'EQ', value: '9' }] }] }),
    ).rejects.toMatchObject({ code: 'VALIDATION', status: 400, category: 'VALIDATION_ERROR' });
  });
});

describe('failure mapping', () => {
  it('retries network failures, then reports UNAVAILABLE', async () => {
    const closed = await startHubSpotSandboxServer({ contactCount: 1 });
    const url = closed.url;
    await closed.close();
    const sleeps: number[] = [];
    const c = new HubSpotConnector({
      baseUrl: url,
      accountId: '1',
      getAccessToken: () => 'pat-na1-x',
      maxAttempts: 3,
      random: () => 0,
      clock: { now: () => 0, sleep: async (ms) => void sleeps.push(ms) },
    });
    await expect(c.countContacts({ filterGroups: [] })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(sleeps).toEqual([500, 1000]); // capped exponential backoff
  });

  it('maps statuses to CrmError codes', () => {
    const e = (code: number, body: unknown = {}, headers: Record<string, string> = {}) => toCrmError({ code, body, headers });
    expect(e(401, { category: 'EXPIRED_AUTHENTICATION' })).toMatchObject({ code: 'UNAUTHORIZED', category: 'EXPIRED_AUTHENTICATION' });
    expect(e(403)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(e(429, {}, { 'Retry-After': '2' })).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 2000 });
    expect(e(502)).toMatchObject({ code: 'UNAVAILABLE' });
    expect(e(400)).toMatchObject({ code: 'VALIDATION' });
    expect(() => toCrmError(new RangeError('bug'))).toThrow(RangeError);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('caps backoff and adds at most 25 % jitter', () => {
    const c = new HubSpotConnector({ getAccessToken: () => 'x', random: () => 1, baseBackoffMs: 500, maxBackoffMs: 4000 });
    expect(c.backoff(1)).toBe(625);
    expect(c.backoff(2, 1000)).toBe(1250);
    expect(c.backoff(10)).toBe(5000);
    expect(c.backoff(1, 60_000)).toBe(5000);
  });
});

describe('limit and onTotal', () => {
  let r: RunningSandbox;
  afterEach(async () => r?.close());

  it('reads only the wanted top N of a sorted search beyond the 10,000 window, and reports the exact total', async () => {
    r = await startHubSpotSandboxServer({ contactCount: 12_000, seed: 5, now: NOW, clock: () => T0, rateLimitPerSecond: 0 });
    const c = connector(r, { clock: fastClock(r), searchRequestsPerSecond: 1000 });
    const before = r.sandbox.stats.searchRequests;
    let total = -1;
    const request: HubSpotSearchRequest = { filterGroups: [], sorts: [{ propertyName: 'hs_object_id', direction: 'DESCENDING' }] };
    const got = await collectContacts(c.searchContacts(request, { limit: 250, onTotal: (n) => (total = n) }));
    expect(total).toBe(12_000);
    expect(got).toHaveLength(250);
    const expected = [...r.sandbox.contacts].sort((a, b) => b.id - a.id).slice(0, 250);
    expect(ids(got)).toEqual(idsOf(expected));
    expect(r.sandbox.stats.searchRequests - before).toBe(2); // 200 + 50, not 60 pages
    const small = await collectContacts(c.searchContacts({ filterGroups: [] }, { limit: 3 }));
    expect(ids(small)).toEqual(idsOf(r.sandbox.contacts.slice(0, 3)));
  });
});
