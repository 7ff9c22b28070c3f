/**
 * The official `pipedrive` client (v1 and v2 namespaces, and its OAuth2Configuration), unmodified,
 * against the sandbox over a real loopback socket.
 */
import * as v1 from 'pipedrive/v1';
import * as v2 from 'pipedrive/v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPipedriveSandboxServer, type RunningPipedriveSandbox } from './server.js';

const REDIRECT = 'http://localhost:3000/api/auth/pipedrive/callback';
let running: RunningPipedriveSandbox;
let token: string;

beforeAll(async () => {
  running = await startPipedriveSandboxServer({ personCount: 1500, seed: 9, now: '2026-06-01T00:00:00Z', burstLimit: 0, dailyTokenBudget: 0 });
  token = running.sandbox.config.apiTokens[0];
});

afterAll(async () => {
  await running?.close();
});

const v1Config = (apiKey = token) => new v1.Configuration({ apiKey, basePath: `${running.url}/api/v1` });
const v2Config = (opts: { apiKey?: string; accessToken?: string } = { apiKey: token }) => new v2.Configuration({ ...opts, basePath: `${running.url}/api/v2` });

describe('pipedrive client against the sandbox', () => {
  it('creates a people filter, lists its persons page by page with the v2 cursor, and deletes it', async () => {
    const filters = new v1.FiltersApi(v1Config());
    const { data } = running.sandbox;
    const customer = data.labels.find((l) => l.label === 'Customer')!.id;
    const created = await filters.addFilter({
      AddFilterRequest: {
        name: 'Customers in Germany or France',
        type: 'people',
        conditions: {
          glue: 'and',
          conditions: [
            { glue: 'and', conditions: [{ object: 'person', field_id: '9009', operator: '=', value: String(customer), extra_value: null }] },
            {
              glue: 'or',
              conditions: [
                { object: 'person', field_id: '9012', operator: '=', value: 'Germany', extra_value: 'country' },
                { object: 'person', field_id: '9012', operator: '=', value: 'france', extra_value: 'country' },
              ],
            },
          ],
        },
      },
    });
    expect(created.success).toBe(true);
    const id = created.data!.id!;
    const fetched = await filters.getFilter({ id });
    expect(fetched.data?.conditions?.conditions?.[1].conditions).toHaveLength(2);

    const expected = data.people.filter((p) => p.stage === 'customer' && (p.country === 'Germany' || p.country === 'France')).map((p) => p.id);
    expect(expected.length).toBeGreaterThan(20);
    const persons = new v2.PersonsApi(v2Config());
    const got: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await persons.getPersons({ filter_id: id, limit: 10, cursor });
      for (const p of page.data ?? []) got.push(p.id!);
      cursor = page.additional_data?.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(got).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 10));

    const deleted = await filters.deleteFilter({ id });
    expect(deleted.success).toBe(true);
    const all = await filters.getFilters({ type: 'people' });
    expect(all.data?.some((f) => f.id === id)).toBe(false);
  });

  it('reads won deals through a deals filter, organizations by ids, fields and the current user', async () => {
    const { data } = running.sandbox;
    const filters = new v1.FiltersApi(v1Config());
    const f = await filters.addFilter({
      AddFilterRequest: {
        name: 'Won deals',
        type: 'deals',
        conditions: { glue: 'and', conditions: [{ glue: 'and', conditions: [{ object: 'deal', field_id: '12005', operator: '=', value: 'won', extra_value: null }] }, { glue: 'or', conditions: [] }] },
      },
    });
    const deals = new v2.DealsApi(v2Config());
    let total = 0;
    let cents = 0;
    let cursor: string | undefined;
    do {
      const page = await deals.getDeals({ filter_id: f.data!.id!, limit: 500, cursor });
      for (const d of page.data ?? []) {
        expect(d.status).toBe('won');
        total++;
        cents += Math.round(d.value! * 100);
      }
      cursor = page.additional_data?.next_cursor ?? undefined;
    } while (cursor);
    const purchases = data.people.flatMap((p) => p.purchases);
    expect(total).toBe(purchases.length);
    expect(cents).toBe(data.people.reduce((s, p) => s + Math.round((p.lifetimeValue ?? 0) * 100), 0));

    const orgs = await new v2.OrganizationsApi(v2Config()).getOrganizations({ ids: '1,2,3' });
    expect(orgs.data?.map((o) => o.name)).toEqual(data.organizations.slice(0, 3).map((o) => o.name));

    const fields = await new v1.PersonFieldsApi(v1Config()).getPersonFields({ limit: 500 });
    expect(fields.data.find((x) => x.key === 'label_ids')?.options?.length).toBe(data.labels.length);
    const me = await new v1.UsersApi(v1Config()).getCurrentUser();
    expect(me.data).toMatchObject({ company_id: running.sandbox.config.companyId, company_domain: 'sandbox-trading', timezone_name: 'UTC' });
  });

  it('authorizes, refreshes and revokes with OAuth2Configuration (api_domain leads the client back to the sandbox)', async () => {
    const { config } = running.sandbox;
    const oauth = new v2.OAuth2Configuration({ clientId: config.clientId, clientSecret: config.clientSecret, redirectUri: REDIRECT, host: running.url });
    const consent = await fetch(`${oauth.authorizationUrl}&state=st-1`, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('st-1');
    const issued = await oauth.authorize(back.searchParams.get('code')!);
    expect(issued).toMatchObject({ token_type: 'Bearer', expires_in: 3599, api_domain: running.url, scope: 'base,deals:read,contacts:full,users:read' });
    expect(oauth.basePath).toBe(`${running.url}/api/v2`);

    const persons = new v2.PersonsApi(new v2.Configuration({ accessToken: oauth.getAccessToken, basePath: oauth.basePath }));
    expect((await persons.getPersons({ limit: 1 })).data).toHaveLength(1);

    const firstAccess = issued.access_token;
    const refreshed = await oauth.tokenRefresh();
    expect(refreshed.refresh_token).toBe(issued.refresh_token);
    expect(refreshed.access_token).not.toBe(firstAccess);
    expect(await oauth.getAccessToken()).toBe(refreshed.access_token);

    await oauth.revokeToken('refresh_token');
    await expect(persons.getPersons({ limit: 1 })).rejects.toMatchObject({ success: false, errorCode: 401 });
    await expect(oauth.tokenRefresh()).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('surfaces Pipedrive error bodies (the client rejects with the body)', async () => {
    const persons = new v2.PersonsApi(v2Config());
    await expect(persons.getPersons({ limit: 501 })).rejects.toMatchObject({ success: false, code: 'ERR_SCHEMA_VALIDATION_FAILED' });
    await expect(new v2.PersonsApi(v2Config({ apiKey: 'nope' })).getPersons({})).rejects.toMatchObject({ error: 'unauthorized access', errorCode: 401 });
    const filters = new v1.FiltersApi(v1Config());
    const tooMany = Array.from({ length: 17 }, (_, i) => ({ object: 'person', field_id: '9002', operator: "LIKE '%$%'", value: `x${i}`, extra_value: null }));
    await expect(
      filters.addFilter({ AddFilterRequest: { name: 'too many', type: 'people', conditions: { glue: 'and', conditions: [{ glue: 'and', conditions: tooMany }, { glue: 'or', conditions: [] }] } } }),
    ).rejects.toMatchObject({ success: false, error: 'A filter can have at most 16 conditions, got 17.' });
  });
});
