/**
 * The Zoho connector against the Zoho sandbox over HTTP: compiling (criteria limits, negations, the
 * residual), reading and stateless paging in every order, purchases from won deals, and Zoho's failures
 * (an expired token refreshed once, concurrency 429s retried, credits used up refused up front, a cut
 * body retried, a malformed query reported without Zoho's words).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Segment } from '../../segmentation/ast.js';
import { compileRecordEvaluator } from '../../segmentation/evaluate.js';
import { collect } from '../connector.js';
import { CrmError, QUOTA_EXHAUSTED } from '../errors.js';
import { sortRecords, type CrmRecord } from '../record.js';
import { personIdOfRecord } from '../zoho-sandbox/data.js';
import { createZohoSandboxFaults, type ZohoSandboxFaults } from '../zoho-sandbox/faults.js';
import { startZohoSandboxServer, type RunningZohoSandbox } from '../zoho-sandbox/server.js';
import { resetZohoBudgets } from './budget.js';
import { compileZohoPlan, MAX_CRITERIA } from './compile.js';
import { ZohoConnector } from './connector.js';
import { ZOHO_FIELD_MAP } from './field-map.js';

const NOW = '2026-06-15T12:00:00Z';
const ctx = { now: new Date(NOW), timeZone: 'UTC' };
let running: RunningZohoSandbox;
let faults: ZohoSandboxFaults;
let token: string;
let refreshes = 0;

beforeAll(async () => {
  faults = createZohoSandboxFaults();
  running = await startZohoSandboxServer({ contactCount: 3000, seed: 7, now: NOW, faults, dataCentre: 'eu' });
  token = running.sandbox.issueTestToken().accessToken;
});
afterAll(async () => {
  await running?.close();
  await resetZohoBudgets();
});
afterEach(() => {
  faults.clear();
  running.sandbox.resetCredits();
});

function connector(extra: Partial<ConstructorParameters<typeof ZohoConnector>[0]> = {}) {
  return new ZohoConnector({
    baseUrl: `${running.url}/api/eu`,
    accountId: `test-${Math.random()}`,
    getAccessToken: (o) => {
      if (o?.forceRefresh) {
        refreshes++;
        token = running.sandbox.issueTestToken().accessToken;
      }
      return token;
    },
    baseBackoffMs: 5,
    retryDeadlineMs: 5000,
    ...extra,
  });
}

const people = () => running.sandbox.state.dataset.people;
const pids = (rs: CrmRecord[]) => rs.map((r) => personIdOfRecord(r.id)!);

async function run(z: ZohoConnector, segment: Segment): Promise<CrmRecord[]> {
  const plan = z.compile(segment, ctx);
  let rs = await collect(z.read(plan));
  if (plan.residual) {
    rs = sortRecords(rs.filter(compileRecordEvaluator(plan.residual, { now: NOW, timeZone: 'UTC' })), plan.sort);
    if (plan.limit !== undefined) rs = rs.slice(0, plan.limit);
  }
  return rs;
}

describe('compiling segments to COQL', () => {
  it('writes negations with "or X is null", lists of more than 50 values as several, and purchases as the residual', () => {
    const plan = compileZohoPlan(
      { version: 1, where: { and: [{ field: 'country', op: 'neq', value: 'Germany' }, { field: 'lifetimeValue', op: 'gt', value: 1000 }] } },
      ctx,
      ZOHO_FIELD_MAP,
    );
    expect(plan.residual).toEqual({ field: 'lifetimeValue', op: 'gt', value: 1000 });
    // Leads have no deals: a positive purchase test rules them out natively.
    expect(plan.native.queries.map((q) => q.module)).toEqual(['Contacts']);
    expect(plan.native.queries[0].where).toBe("(Mailing_Country != 'Germany' or Mailing_Country is null)");
    const many = compileZohoPlan({ version: 1, where: { field: 'city', op: 'in', values: Array.from({ length: 120 }, (_, i) => `City ${i}`) } }, ctx, ZOHO_FIELD_MAP);
    expect(many.residual).toBeUndefined();
    expect(many.native.queries.map((q) => [q.module, q.criteria])).toEqual([['Leads', 3], ['Contacts', 3]]);
    expect(many.native.queries[0].where).toMatch(/^\(\(City in \(.*\) or City in \(.*\)\) or City in \(.*\)\)$/);
    expect(many.native.queries[1].where).toMatch(/^\(\(Mailing_City in \(.*\) or Mailing_City in \(.*\)\) or Mailing_City in \(.*\)\)$/);
  });

  it('keeps a module query within 25 criteria, leaving what does not fit to the product', () => {
    const ors = Array.from({ length: 30 }, (_, i) => ({ field: 'email' as const, op: 'contains' as const, value: `x${i}` }));
    const plan = compileZohoPlan({ version: 1, where: { and: [{ field: 'country', op: 'eq', value: 'France' }, { or: ors }] } }, ctx, ZOHO_FIELD_MAP);
    expect(plan.residual).toEqual({ or: ors });
    for (const q of plan.native.queries) expect(q.criteria).toBeLessThanOrEqual(MAX_CRITERIA);
  });

  it('gives the same people as the segment on the synthetic people, through the residual too', async () => {
    const z = connector();
    const since = Date.parse('2026-01-01T00:00:00Z');
    const got = await run(z, {
      version: 1,
      where: { and: [{ field: 'region', op: 'eq', value: 'Europe' }, { field: 'lastPurchaseDate', op: 'gte', value: { kind: 'absolute', date: '2026-01-01' } }, { not: { field: 'company', op: 'contains', value: 'a' } }] },
    });
    const europe = new Set(['Germany', 'France', 'United Kingdom', 'Spain', 'Italy', 'Netherlands', 'Sweden', 'Poland', 'Ireland', 'Belgium', 'Switzerland', 'Austria', 'Denmark', 'Norway', 'Finland', 'Portugal']);
    const want = people().filter((p) => p.country && europe.has(p.country) && p.lastPurchaseAt !== null && p.lastPurchaseAt >= since && !(p.company ?? '').toLowerCase().includes('a'));
    expect(want.length).toBeGreaterThan(5);
    expect(pids(got).filter((id) => !want.some((p) => p.id === id))).toEqual([]);
    expect(got.length).toBe(want.length);
  });
});

describe('reading and paging', () => {
  it('reads purchases from won deals: the latest is the last purchase, the sum the lifetime value', async () => {
    const z = connector();
    const rs = await run(z, { version: 1, where: { field: 'hasPurchased', op: 'eq', value: true } });
    const buyers = people().filter((p) => p.purchases.length > 0);
    expect(pids(rs)).toEqual(buyers.map((p) => p.id));
    for (const [i, p] of buyers.entries()) {
      expect(Math.round(rs[i].lifetimeValue! * 100)).toBe(Math.round(p.lifetimeValue! * 100));
      expect(rs[i].lastPurchaseAmount).toBe(p.lastPurchaseAmount);
      expect(rs[i].lastPurchaseAt).toBe(Math.floor(p.lastPurchaseAt! / 86_400_000) * 86_400_000);
    }
  });

  it('pages statelessly in id order, by a field (values first, then none), and by a derived field', async () => {
    const z = connector();
    for (const segment of [
      { version: 1, where: { field: 'country', op: 'in', values: ['United States', 'Canada'] } },
      { version: 1, where: { field: 'country', op: 'in', values: ['United States', 'Canada'] }, sort: { field: 'company', direction: 'desc' } },
      { version: 1, where: { field: 'country', op: 'eq', value: 'Germany' }, sort: { field: 'lifetimeValue', direction: 'desc' }, limit: 40 },
    ] as Segment[]) {
      const plan = z.compile(segment, ctx);
      const all = await collect(z.read(plan));
      expect(all.length).toBeGreaterThan(30);
      const paged: string[] = [];
      let cursor: unknown = null;
      for (let n = 0; n < 1000; n++) {
        const page = await z.readPage(plan, { first: 29, cursor: cursor === null ? null : JSON.parse(JSON.stringify(cursor)) });
        paged.push(...page.records.map((r) => r.record.id));
        if (page.records.length) expect(page.records.at(-1)!.cursor).toEqual(page.next ?? page.records.at(-1)!.cursor);
        if (!page.next) break;
        cursor = page.next;
      }
      expect(paged).toEqual(all.map((r) => r.id));
      if (segment.sort) expect(all.map((r) => r.id)).toEqual(sortRecords([...all], segment.sort).map((r) => r.id));
      expect(await z.count(plan)).toBe(segment.limit ?? all.length);
    }
  });

  it('lists values most frequent first, and verifies the credentials with the org', async () => {
    const z = connector();
    const countries = await z.listValues('country');
    expect(countries[0]).toBe('United States');
    expect(await z.verifyCredentials()).toMatchObject({ accountId: running.sandbox.config.orgId, accountName: running.sandbox.config.orgName });
    const fields = await z.describeFields();
    expect(fields).toContainEqual(expect.objectContaining({ name: 'Lifecycle_Stage', kind: 'stage', description: expect.stringMatching(/lifecycle/i) }));
    expect(fields).toContainEqual(expect.objectContaining({ name: '$won_deals.total_amount', derived: true, kind: 'number' }));
  });
});

describe("Zoho's failures", () => {
  it('refreshes an expired token once, and retries a concurrency 429 and a cut body', async () => {
    const z = connector();
    const before = refreshes;
    faults.inject({ kind: 'expired-token', times: 1 }).inject({ kind: 'rate-limit', times: 1 }).inject({ kind: 'truncated-json', times: 1 });
    expect(await z.count(z.compile({ version: 1 }, ctx))).toBe(3000);
    expect(refreshes).toBe(before + 1);
    expect(faults.injected).toMatchObject({ 'expired-token': 1, 'rate-limit': 1, 'truncated-json': 1 });
  });

  it('stops before the credits reserved for the org run out, from what Zoho reported', async () => {
    const z = connector();
    await z.count(z.compile({ version: 1 }, ctx));
    expect(z.credits()).toMatchObject({ limit: 60_000 });
    // Zoho now says 60 credits are left: within the 5 % reserve, the connector sends nothing.
    running.sandbox.state.credits.charge(60_000 - 60 - (60_000 - running.sandbox.state.credits.remaining()));
    await z.count(z.compile({ version: 1 }, ctx)).catch(() => {});
    const calls = z.api.calls;
    const err = await z.count(z.compile({ version: 1 }, ctx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ code: 'RATE_LIMITED', category: QUOTA_EXHAUSTED });
    expect(z.api.calls).toBe(calls);
  });

  it("reports Zoho's own 429 when the credits are gone, without waiting a day", async () => {
    running.sandbox.state.credits.charge(running.sandbox.state.credits.remaining());
    const z = connector();
    const started = Date.now();
    const err = await z.count(z.compile({ version: 1 }, ctx)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'RATE_LIMITED', category: QUOTA_EXHAUSTED });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports a query Zoho refuses as a VALIDATION error without its raw words', async () => {
    const z = connector();
    const plan = { crmType: 'zoho' as const, native: { queries: [{ module: 'Leads' as const, where: 'Nope = 1', criteria: 1 }] } };
    const err = (await z.count(plan).catch((e: unknown) => e)) as CrmError;
    expect(err).toMatchObject({ code: 'VALIDATION', category: 'INVALID_QUERY', message: 'Zoho could not run this search.' });
    expect(JSON.stringify(err.details)).toContain('Nope');
  });
});
