/**
 * The official @hubspot/api-client, unmodified, against the sandbox over a real loopback socket.
 */
import { Client } from '@hubspot/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHubSpotSandboxServer, type RunningSandbox } from './server.js';

let running: RunningSandbox;
let client: Client;

beforeAll(async () => {
  running = await startHubSpotSandboxServer({ contactCount: 2500, seed: 9, now: '2026-06-01T00:00:00Z', rateLimitPerSecond: 0 });
  client = new Client({ accessToken: running.sandbox.config.privateAppTokens[0], basePath: running.url, numberOfApiCallRetries: 0 });
});

afterAll(async () => {
  await running?.close();
});

describe('@hubspot/api-client against the sandbox', () => {
  it('pages through every result of a search (doSearch + paging.next.after)', async () => {
    const { contacts } = running.sandbox;
    const since = Date.parse('2025-01-01T00:00:00Z');
    const expected = contacts
      .filter((c) => (c.country === 'Germany' || c.country === 'France') || (c.lifecyclestage === 'customer' && (c.recent_deal_close_date ?? 0) >= since))
      .map((c) => String(c.id));
    expect(expected.length).toBeGreaterThan(300);

    const got: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const res = await client.crm.contacts.searchApi.doSearch({
        filterGroups: [
          { filters: [{ propertyName: 'country', operator: 'IN' as never, values: ['germany', 'france'] }] },
          {
            filters: [
              { propertyName: 'lifecyclestage', operator: 'EQ' as never, value: 'customer' },
              { propertyName: 'recent_deal_close_date', operator: 'GTE' as never, value: String(since) },
            ],
          },
        ],
        properties: ['country', 'lifecyclestage', 'recent_deal_close_date'],
        limit: 100,
        after,
      });
      expect(res.total).toBe(expected.length);
      for (const r of res.results) {
        expect(r.createdAt).toBeInstanceOf(Date);
        expect(r.properties.hs_object_id).toBe(r.id);
        got.push(r.id);
      }
      after = res.paging?.next?.after;
      pages++;
    } while (after);
    expect(pages).toBe(Math.ceil(expected.length / 100));
    expect(got).toEqual(expected);
  });

  it('sorts with the client (sort objects pass through unchanged)', async () => {
    const res = await client.crm.contacts.searchApi.doSearch({
      filterGroups: [{ filters: [{ propertyName: 'total_revenue', operator: 'HAS_PROPERTY' as never }] }],
      sorts: [{ propertyName: 'total_revenue', direction: 'DESCENDING' }] as never,
      properties: ['total_revenue'],
      limit: 5,
    });
    const revenues = res.results.map((r) => Number(r.properties.total_revenue));
    expect(revenues).toEqual([...revenues].sort((a, b) => b - a));
    const max = Math.max(...running.sandbox.contacts.map((c) => c.total_revenue ?? 0));
    expect(revenues[0]).toBe(max);
  });

  it('lists every contact with getAll (basic API cursor paging)', async () => {
    const all = await client.crm.contacts.getAll(100, undefined, ['email']);
    expect(all.map((c) => c.id)).toEqual(running.sandbox.contacts.map((c) => String(c.id)));
  });

  it('reads by id, batch-reads, describes properties and introspects tokens', async () => {
    const first = running.sandbox.contacts[0];
    const one = await client.crm.contacts.basicApi.getById(String(first.id), ['email', 'company']);
    expect(one.properties.email).toBe(first.email);

    const batch = await client.crm.contacts.batchApi.read({
      inputs: running.sandbox.contacts.slice(0, 3).map((c) => ({ id: String(c.id) })),
      properties: ['country'],
      propertiesWithHistory: [],
    });
    expect(batch.results).toHaveLength(3);

    const props = await client.crm.properties.coreApi.getAll('contacts');
    expect(props.results.find((p) => p.name === 'lifecyclestage')?.options.length).toBe(8);

    const issued = running.sandbox.issueTestToken();
    const info = await client.oauth.accessTokensApi.get(issued.accessToken);
    expect(info.hubId).toBe(running.sandbox.config.hubId);
    expect(info.scopes).toContain('crm.objects.contacts.read');
    expect(info.expiresIn).toBeGreaterThan(1700);
  });

  it('surfaces HubSpot errors as ApiException with status, body and headers', async () => {
    await expect(
      client.crm.contacts.searchApi.doSearch({ filterGroups: [], limit: 201 }),
    ).rejects.toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR' } });
    const throttled = await startHubSpotSandboxServer({ contactCount: 50, seed: 1, rateLimitPerSecond: 1 });
    try {
      const c = new Client({ accessToken: throttled.sandbox.config.privateAppTokens[0], basePath: throttled.url, numberOfApiCallRetries: 0 });
      await c.crm.contacts.searchApi.doSearch({ limit: 1 });
      const err = await c.crm.contacts.searchApi.doSearch({ limit: 1 }).catch((e) => e);
      expect(err.code).toBe(429);
      expect(err.headers['retry-after']).toBe('1');
      expect(err.body.message).toBe('You have reached your secondly limit.');
    } finally {
      await throttled.close();
    }
  });
});
