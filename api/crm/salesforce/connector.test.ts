import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Segment } from '../../segmentation/ast.js';
import { compileRecordEvaluator } from '../../segmentation/evaluate.js';
import { collect } from '../connector.js';
import { CrmError } from '../errors.js';
import { effectiveFieldMap, suggestFieldMap } from '../field-map.js';
import { sortRecords, type CrmRecord } from '../record.js';
import { createSalesforceSandbox } from '../salesforce-sandbox/app.js';
import { createSandboxFaults } from '../salesforce-sandbox/faults.js';
import { startSalesforceSandboxServer, type RunningSalesforceSandbox } from '../salesforce-sandbox/server.js';
import { resetAllocations } from './allocation.js';
import { resetSalesforceCaches, SalesforceConnector, type SalesforceConnectorOptions } from './connector.js';
import { checkInstanceUrl } from './endpoints.js';
import { SALESFORCE_FIELD_MAP } from './field-map.js';
import { salesforceRecord } from './records.js';

const NOW = '2026-06-17T12:00:00Z';
const ctx = { now: new Date(NOW), timeZone: 'UTC' };
const faults = createSandboxFaults();
let gmt: RunningSalesforceSandbox;
let la: RunningSalesforceSandbox;

beforeAll(async () => {
  // The orgs' clocks stand at the questions' "now" (date literals are evaluated by the org).
  const clock = () => Date.parse(NOW);
  gmt = await startSalesforceSandboxServer({ sandbox: createSalesforceSandbox({ contactCount: 1200, seed: 5, now: NOW, timeZone: 'GMT', faults, clock }) });
  la = await startSalesforceSandboxServer({ contactCount: 1200, seed: 5, now: NOW, timeZone: 'America/Los_Angeles', clock });
});
afterAll(async () => {
  await gmt?.close();
  await la?.close();
});
afterEach(() => {
  faults.clear();
  resetAllocations();
  resetSalesforceCaches();
  gmt.sandbox.resetLimits();
});

function connect(on: RunningSalesforceSandbox = gmt, extra: Partial<SalesforceConnectorOptions> = {}) {
  const clock = { now: () => Date.parse(NOW), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
  return new SalesforceConnector({ getAccessToken: () => on.sandbox.config.accessTokens[0], instanceUrl: on.url, requestsPerSecond: 1000, baseBackoffMs: 5, clock, ...extra });
}

/** The answer the product's own evaluator gives on every record of the org (read with no condition). */
async function reference(seg: Segment, on = gmt): Promise<string[]> {
  const c = connect(on);
  const all = await collect(c.read(c.compile({ version: 1 }, ctx)));
  const keep = compileRecordEvaluator(seg.where, ctx);
  const out = sortRecords(all.filter(keep), seg.sort);
  return (seg.limit !== undefined ? out.slice(0, seg.limit) : out).map((r) => r.id);
}

async function answer(seg: Segment, on = gmt, extra: Partial<SalesforceConnectorOptions> = {}): Promise<string[]> {
  const c = connect(on, extra);
  return (await collect(c.read(c.compile(seg, ctx)))).map((r) => r.id);
}

const lastQueries = (on: RunningSalesforceSandbox, n: number) => on.sandbox.queryLog.slice(-n);

describe('questions in SOQL', () => {
  it('uses date literals where the org\'s calendar says the same, explicit values where it does not', async () => {
    const thisMonth: Segment = { version: 1, where: { field: 'createdAt', op: 'between', from: { kind: 'anchor', unit: 'month', offset: 0 }, to: { kind: 'anchor', unit: 'month', offset: 1 } } };
    let ref = await reference(thisMonth);
    expect(await answer(thisMonth)).toEqual(ref);
    expect(lastQueries(gmt, 2).join('\n')).toContain('CreatedDate = THIS_MONTH');
    ref = await reference(thisMonth, la);
    expect(await answer(thisMonth, la)).toEqual(ref);
    const q = lastQueries(la, 2).join('\n');
    expect(q).not.toContain('THIS_MONTH'); // midnight UTC is not a Los Angeles midnight
    expect(q).toContain('CreatedDate >= 2026-06-01T00:00:00Z');

    const bought: Segment = { version: 1, where: { field: 'lastPurchaseDate', op: 'gte', value: { kind: 'relative', amount: 30, unit: 'day', direction: 'past' } } };
    ref = await reference(bought);
    expect(await answer(bought)).toEqual(ref);
    // a purchase is a day: "since May 18, noon" is "from May 19" = the last 29 days
    expect(lastQueries(gmt, 1)[0]).toContain('Id IN (SELECT ContactId FROM OpportunityContactRole WHERE Opportunity.IsWon = true AND Opportunity.CloseDate >= LAST_N_DAYS:29)');
  });

  it('reads Leads and Contacts in one composite call, and skips an object that cannot match', async () => {
    const seg: Segment = { version: 1, where: { field: 'country', op: 'eq', value: 'Germany' } };
    let ref = await reference(seg);
    const before = gmt.sandbox.stats.apiCalls;
    expect(await answer(seg)).toEqual(ref);
    expect(gmt.sandbox.stats.apiCalls - before).toBe(1);
    expect(lastQueries(gmt, 2).join('\n')).toMatch(/FROM Lead WHERE IsConverted = false AND \(Country = 'Germany'/);
    // leads never bought: a purchase question reads contacts only
    const buyers: Segment = { version: 1, where: { and: [{ field: 'hasPurchased', op: 'eq', value: true }, { field: 'city', op: 'eq', value: 'London' }] } };
    ref = await reference(buyers);
    const n = gmt.sandbox.queryLog.length;
    expect(await answer(buyers)).toEqual(ref);
    expect(gmt.sandbox.queryLog.slice(n)).toEqual([expect.stringMatching(/FROM Contact WHERE \(Id IN \(SELECT ContactId FROM OpportunityContactRole WHERE Opportunity.IsWon = true\) AND MailingCity = 'London'\)/)]);
  });

  it('answers lifetime value in two steps (an aggregate finds the contacts) and never misses the converted-lead noise', async () => {
    const seg: Segment = { version: 1, where: { and: [{ field: 'lifetimeValue', op: 'gt', value: 3000 }, { not: { field: 'region', op: 'eq', value: 'Europe' } }] } };
    const ref = await reference(seg);
    expect(await answer(seg)).toEqual(ref);
    const log = lastQueries(gmt, 2).join('\n');
    expect(log).toContain('GROUP BY ContactId HAVING SUM(Opportunity.Amount) > 3000');
    expect(log).toMatch(/FROM Contact WHERE .*Id IN \('003/);
    const negated: Segment = { version: 1, where: { not: { field: 'lifetimeValue', op: 'gte', value: 1000 } }, sort: { field: 'lifetimeValue', direction: 'desc' }, limit: 40 };
    expect(await answer(negated)).toEqual(await reference(negated));
  });

  it('turns purchase conditions SOQL cannot join where they stand (under OR) into id sets', async () => {
    const seg: Segment = {
      version: 1,
      where: { or: [{ field: 'hasPurchased', op: 'eq', value: false }, { field: 'lastPurchaseDate', op: 'lt', value: { kind: 'anchor', unit: 'year', offset: 0 } }] },
    };
    const ref = await reference(seg);
    expect(await answer(seg)).toEqual(ref);
    const log = lastQueries(gmt, 3).join('\n');
    expect(log).not.toMatch(/OR Id (NOT )?IN \(SELECT/);
    expect(log).toContain('GROUP BY ContactId ORDER BY ContactId');
  });

  it('reads a superset and filters it exactly when a two-step set is too big to inline', async () => {
    const seg: Segment = { version: 1, where: { field: 'lifetimeValue', op: 'gte', value: 100 } };
    const ref = await reference(seg);
    expect(await answer(seg, gmt, { maxInlineIds: 10 })).toEqual(ref);
    expect(lastQueries(gmt, 2).join('\n')).not.toContain("Id IN ('003");
  });

  it('leaves the last purchase\'s amount to the product (the residual), reading only contacts with a fitting won deal', async () => {
    const c = connect();
    const plan = c.compile({ version: 1, where: { and: [{ field: 'lastPurchaseAmount', op: 'gt', value: 2000 }, { field: 'country', op: 'eq', value: 'United States' }] } }, ctx);
    expect(plan.residual).toEqual({ field: 'lastPurchaseAmount', op: 'gt', value: 2000 });
    expect((plan.native as { objects: { Lead: unknown } }).objects.Lead).toBeNull();
    await collect(c.read(plan));
    expect(lastQueries(gmt, 1)[0]).toContain('Opportunity.Amount > 2000');
  });

  it('orders a "top N" in the org (present values, then empty ones by id) as the product orders', async () => {
    for (const seg of [
      { version: 1, sort: { field: 'lastName', direction: 'asc' }, limit: 30 },
      { version: 1, where: { field: 'country', op: 'eq', value: 'Canada' }, sort: { field: 'company', direction: 'desc' }, limit: 500 },
      { version: 1, sort: { field: 'lifetimeValue', direction: 'desc' }, limit: 25 },
      { version: 1, where: { field: 'lifecycleStage', op: 'in', values: ['lead', 'customer'] }, limit: 15 },
    ] as Segment[]) {
      expect(await answer(seg)).toEqual(await reference(seg));
    }
  });

  it('pages every record once by id, statelessly, across both objects', async () => {
    const c = connect();
    const plan = c.compile({ version: 1, where: { field: 'region', op: 'eq', value: 'North America' } }, ctx);
    const ids: string[] = [];
    let cursor: unknown = null;
    for (;;) {
      const page = await c.readPage(plan, { first: 150, cursor });
      ids.push(...page.records.map((r) => r.record.id));
      if (!page.next) break;
      cursor = JSON.parse(JSON.stringify(page.next));
    }
    expect(ids).toEqual(await reference({ version: 1, where: { field: 'region', op: 'eq', value: 'North America' } }));
    await expect(c.readPage(plan, { first: 10, cursor: { by: 'position', offset: 3 } })).rejects.toThrow(/not a cursor/);
    expect(await c.count(plan)).toBe(ids.length);
  });

  it('reads the org\'s own rollup field when the field map chooses it (one query, same answer)', async () => {
    const map = effectiveFieldMap(SALESFORCE_FIELD_MAP, { fields: { lifetimeValue: 'Contact.Lifetime_Value__c' } });
    const seg: Segment = { version: 1, where: { field: 'lifetimeValue', op: 'gt', value: 3000 } };
    const ref = await reference(seg);
    const before = gmt.sandbox.stats.apiCalls;
    const ids = await answer(seg, gmt, { fieldMap: map });
    expect(gmt.sandbox.stats.apiCalls - before).toBe(1);
    expect(lastQueries(gmt, 1)[0]).toContain('Lifetime_Value__c > 3000');
    expect(ids).toEqual(ref);
  });
});

describe('describing the org', () => {
  it('describes Lead and Contact fields in one call; the field descriptions suggest the org\'s rollups', async () => {
    const fields = await connect().describeFields();
    expect(fields).toContainEqual(expect.objectContaining({ name: 'Stage', kind: 'stage' }));
    expect(fields.find((f) => f.name === 'Stage')!.options!.map((o) => o.value)).toEqual(expect.arrayContaining(['Nurturing', 'Customer']));
    expect(fields).toContainEqual(expect.objectContaining({ name: 'WonOpportunities.TotalAmount', derived: true, kind: 'number' }));
    expect(fields).toContainEqual(expect.objectContaining({ name: 'Contact.Lifetime_Value__c', label: 'Contact: Lifetime Value', kind: 'number' }));
    expect(fields).toContainEqual(expect.objectContaining({ name: 'Lead.Status', kind: 'stage' }));
    expect(suggestFieldMap(SALESFORCE_FIELD_MAP, fields).fields).toMatchObject({ lifetimeValue: 'Contact.Lifetime_Value__c', lastPurchaseDate: 'Contact.Last_Purchase_Date__c' });
  });

  it('lists the org\'s values by frequency (both objects, aggregated by the org)', async () => {
    const countries = await connect().listValues('country');
    expect(countries[0]).toBe('United States');
    expect(countries).toContain('Germany');
    const domains = await connect().listValues('emailDomain', { maxRecords: 400 });
    expect(domains[0]).toBe('gmail.com');
  });

  it('verifies a session: the org, its name, and its API allocation', async () => {
    const info = await connect().verifyCredentials();
    expect(info).toMatchObject({ accountId: gmt.sandbox.identity.orgId, accountName: 'CRM Assistant Sandbox Org', tokenType: 'oauth' });
  });

  it('reads "[not provided]" as no value and a CloseDate as midnight UTC', () => {
    const rec = salesforceRecord('Contact', {
      Id: '003Hx000000001GAAQ', LastName: '[not provided]', FirstName: 'Ann', Email: null, Account: null,
      OpportunityContactRoles: { totalSize: 2, done: true, records: [
        { Opportunity: { Id: '006Hx0000000001AAA', CloseDate: '2026-01-02', Amount: 10.1 } },
        { Opportunity: { Id: '006Hx0000000002AAA', CloseDate: '2026-01-02', Amount: 20.2 } },
      ] },
    }, SALESFORCE_FIELD_MAP);
    expect(rec).toMatchObject({ lastName: null, firstName: 'Ann', company: null, lastPurchaseAt: Date.parse('2026-01-02T00:00:00Z'), lastPurchaseAmount: 20.2, lifetimeValue: 30.3 } satisfies Partial<CrmRecord>);
  });
});

describe('failures', () => {
  const seg: Segment = { version: 1, where: { field: 'country', op: 'eq', value: 'France' } };

  it('retries a server error and a concurrency refusal, then answers', async () => {
    const expected = await reference(seg);
    faults.inject({ kind: 'server-error', times: 1 }).inject({ kind: 'concurrent-limit', times: 1 });
    const retries: string[] = [];
    expect(await answer(seg, gmt, { onRetry: (i) => retries.push(i.error.category ?? i.error.code) })).toEqual(expected);
    expect(retries).toEqual(['SERVER_UNAVAILABLE', 'CONCURRENT_REQUESTS']);
  });

  it('refreshes an ended session once', async () => {
    const expected = await reference(seg);
    faults.inject({ kind: 'expired-token', times: 1 });
    const asked: boolean[] = [];
    const ids = await answer(seg, gmt, { getAccessToken: (o) => (asked.push(o?.forceRefresh === true), gmt.sandbox.config.accessTokens[0]) });
    expect(ids).toEqual(expected);
    expect(asked).toContain(true);
  });

  it('does not retry a spent daily allocation, and says so', async () => {
    faults.inject({ kind: 'rate-limit' });
    const err = await answer(seg).catch((e) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ code: 'RATE_LIMITED', category: 'DAILY_API_REQUESTS' });
    expect(err.message).toMatch(/daily API request allocation/);
    expect(faults.injected['rate-limit']).toBe(1);
  });

  it('stops before the allocation runs out, keeping the reserve for the org\'s other integrations', async () => {
    gmt.sandbox.allocation.record(gmt.sandbox.allocation.max - gmt.sandbox.allocation.used() - 500);
    await answer(seg); // learns the usage from Sforce-Limit-Info
    const err = await answer(seg).catch((e) => e);
    expect(err).toMatchObject({ code: 'RATE_LIMITED' });
    expect(err.message).toMatch(/leaves the last 10% to your other integrations/);
  });

  it('shows a refused query plainly, with the details kept for the log', async () => {
    const c = connect();
    const plan = c.compile(seg, ctx);
    (plan.native as { objects: Record<string, unknown> }).objects.Contact = { t: 'in', path: 'NoSuchField__c', values: ['x'] };
    const err = await collect(c.read(plan)).catch((e) => e);
    expect(err).toMatchObject({ code: 'VALIDATION', category: 'INVALID_FIELD' });
    expect(err.message).not.toContain('NoSuchField__c');
    expect(JSON.stringify(err.details)).toContain("No such column 'NoSuchField__c'");
  });

  it('says the org cannot be reached when nothing answers', async () => {
    const c = new SalesforceConnector({ getAccessToken: () => 'x', instanceUrl: 'http://127.0.0.1:9', retryDeadlineMs: 50, baseBackoffMs: 5 });
    await expect(collect(c.read(c.compile(seg, ctx)))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('instance URLs a user may paste', () => {
  const hosts = ['salesforce.com', 'force.com'];
  it('accepts Salesforce hosts over https and the embedded sandbox, nothing else', () => {
    expect(checkInstanceUrl('https://acme.my.salesforce.com/', hosts, [])).toBe('https://acme.my.salesforce.com');
    expect(checkInstanceUrl('https://acme--dev.sandbox.my.salesforce.com', hosts, [])).toBe('https://acme--dev.sandbox.my.salesforce.com');
    expect(checkInstanceUrl('http://acme.my.salesforce.com', hosts, [])).toBeNull();
    expect(checkInstanceUrl('https://salesforce.com.evil.example', hosts, [])).toBeNull();
    expect(checkInstanceUrl('https://user:pw@acme.my.salesforce.com', hosts, [])).toBeNull();
    expect(checkInstanceUrl('https://acme.my.salesforce.com/services/data', hosts, [])).toBeNull();
    expect(checkInstanceUrl('http://127.0.0.1:3000/salesforce-sandbox/', hosts, ['http://127.0.0.1:3000/salesforce-sandbox'])).toBe('http://127.0.0.1:3000/salesforce-sandbox');
    expect(checkInstanceUrl('not a url', hosts, [])).toBeNull();
  });
});
