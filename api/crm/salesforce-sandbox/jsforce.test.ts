/**
 * jsforce (the Salesforce client library the product keeps), unmodified, against the sandbox over a real
 * loopback socket: the sandbox's URL is the login URL and the instance URL.
 */
import jsforce from 'jsforce';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSalesforceSandbox } from './app.js';
import { startSalesforceSandboxServer, type RunningSalesforceSandbox } from './server.js';

const REDIRECT = 'http://localhost:3000/api/auth/salesforce/callback';
let running: RunningSalesforceSandbox;

beforeAll(async () => {
  running = await startSalesforceSandboxServer({ sandbox: createSalesforceSandbox({ contactCount: 2500, seed: 11, now: '2026-06-01T00:00:00Z', timeZone: 'GMT' }) });
});

afterAll(async () => {
  await running?.close();
});

function oauth2(useVerifier = false) {
  const { config } = running.sandbox;
  return new jsforce.OAuth2({ loginUrl: running.url, clientId: config.clientId, clientSecret: config.clientSecret, redirectUri: REDIRECT, useVerifier });
}

/** The browser's part: open the authorize URL, read the code from the redirect. */
async function browserCode(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

async function connect(useVerifier = false) {
  const o = oauth2(useVerifier);
  const conn = new jsforce.Connection({ oauth2: o, version: '62.0' });
  await conn.authorize(await browserCode(o.getAuthorizationUrl({ scope: 'api refresh_token', state: 's' })));
  return conn;
}

describe('jsforce against the Salesforce sandbox', () => {
  it('completes the web-server flow (with PKCE) and learns the instance URL and identity', async () => {
    const conn = await connect(true);
    expect(conn.instanceUrl).toBe(running.url);
    expect(conn.refreshToken).toBeTruthy();
    expect(conn.userInfo?.organizationId).toBe(running.sandbox.identity.orgId);
    const id = await conn.identity();
    expect(id.username).toBe(running.sandbox.identity.username);
    expect(id.organization_id).toBe(running.sandbox.identity.orgId);
  });

  it('pages through every record with autoFetch (query locators) and counts with COUNT()', async () => {
    const conn = await connect();
    const expected = running.sandbox.org.rows.Lead.filter((l) => !l.IsConverted).map((l) => l.Id);
    expect(expected.length).toBeGreaterThan(1000);
    const count = await conn.query('SELECT COUNT() FROM Lead WHERE IsConverted = false');
    expect(count.totalSize).toBe(expected.length);
    const records: { Id: string }[] = [];
    const res = await conn
      .query<{ Id: string }>('SELECT Id, Status, Email FROM Lead WHERE IsConverted = false', { autoFetch: true, maxFetch: 100_000, headers: { 'Sforce-Query-Options': 'batchSize=500' } })
      .on('record', (r: { Id: string }) => records.push(r))
      .run({ autoFetch: true, maxFetch: 100_000 });
    expect(res.totalSize).toBe(expected.length);
    expect(records.map((r) => r.Id)).toEqual(expected);
    expect(conn.limitInfo.apiUsage?.limit).toBe(running.sandbox.allocation.max);
  });

  it('pages by hand with queryMore and reads relationship fields and subqueries', async () => {
    const conn = await connect();
    const soql =
      "SELECT Id, Account.Name, Lifecycle_Stage__c, (SELECT Opportunity.Amount FROM OpportunityContactRoles WHERE Opportunity.IsWon = true) FROM Contact WHERE Lifecycle_Stage__c = 'Customer' ORDER BY Id";
    let page = await conn.query<Record<string, unknown>>(soql);
    const ids: string[] = [];
    let total = 0;
    for (;;) {
      for (const r of page.records) {
        ids.push(r.Id as string);
        const roles = r.OpportunityContactRoles as { records: { Opportunity: { Amount: number } }[] } | null;
        if (roles) total += roles.records.reduce((s, x) => s + Math.round(x.Opportunity.Amount * 100), 0);
      }
      if (page.done) break;
      page = await conn.queryMore(page.nextRecordsUrl!);
    }
    const customers = running.sandbox.org.rows.Contact.filter((c) => c.Lifecycle_Stage__c === 'Customer');
    expect(ids).toEqual(customers.map((c) => c.Id));
    const expectedCents = customers.reduce((s, c) => s + Math.round(((running.sandbox.personOf(c.Id as string)!.lifetimeValue ?? 0) as number) * 100), 0);
    expect(total).toBe(expectedCents);
  });

  it('describes objects and reads the org limits', async () => {
    const conn = await connect();
    const contact = await conn.describe('Contact');
    expect(contact.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['Email', 'MailingCountry', 'AccountId', 'Lifecycle_Stage__c']));
    const limits = await conn.limits();
    expect(limits.DailyApiRequests.Max).toBe(running.sandbox.allocation.max);
    expect(limits.DailyApiRequests.Remaining).toBe(running.sandbox.allocation.remaining());
  });

  it('surfaces Salesforce errors by their code', async () => {
    const conn = await connect();
    await expect(conn.query('SELECT Id FROM Contact WHERE')).rejects.toMatchObject({ name: 'MALFORMED_QUERY' });
    await expect(conn.query('SELECT Nope FROM Contact')).rejects.toMatchObject({ name: 'INVALID_FIELD' });
    const bare = new jsforce.Connection({ instanceUrl: running.url, accessToken: 'expired', version: '62.0' });
    await expect(bare.query('SELECT Id FROM Contact LIMIT 1')).rejects.toMatchObject({ name: 'INVALID_SESSION_ID' });
  });

  it('refreshes an expired session by itself and revokes on logout', async () => {
    const conn = await connect();
    const before = conn.accessToken!;
    running.sandbox.revokeToken(before); // the session dies (as after a timeout); the refresh token lives on
    const refreshed: string[] = [];
    conn.on('refresh', (accessToken: string) => refreshed.push(accessToken));
    const res = await conn.query('SELECT COUNT() FROM Contact');
    expect(res.totalSize).toBe(running.sandbox.org.rows.Contact.length);
    expect(refreshed).toHaveLength(1);
    expect(conn.accessToken).not.toBe(before);

    const refreshToken = conn.refreshToken!;
    await conn.logout(true);
    await expect(oauth2().refreshToken(refreshToken)).rejects.toThrow(/expired access\/refresh token/);
  });

  it('works with a pasted access token and instance URL (no OAuth client)', async () => {
    const conn = new jsforce.Connection({ instanceUrl: running.url, accessToken: running.sandbox.config.accessTokens[0], version: '62.0' });
    const res = await conn.query('SELECT COUNT() FROM Contact');
    expect(res.totalSize).toBe(running.sandbox.org.rows.Contact.length);
    const info = await conn.identity();
    expect(info.user_id).toBe(running.sandbox.identity.userId);
  });
});
