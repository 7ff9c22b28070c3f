/**
 * The product serves the Zoho CRM sandbox in embedded mode at /zoho-sandbox, with the URLs it hands out
 * (accounts server, API domain) under that path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZOHO_READ_SCOPES, type ZohoSandbox } from '../../api/crm/zoho-sandbox/index.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
const zoho = () => t.app.sandboxes.get('zoho') as ZohoSandbox;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '300' });
});
afterAll(async () => {
  await t?.close();
});

describe('embedded Zoho sandbox', () => {
  it('serves the accounts server and the API of its data centre under /zoho-sandbox', async () => {
    const base = `${t.url}/zoho-sandbox`;
    const grant = await (await fetch(`${base}/accounts/us/developerconsole/self-client/code?scope=${ZOHO_READ_SCOPES.join(',')}`, { method: 'POST' })).json();
    const { selfClientId, selfClientSecret } = zoho().config;
    const params = new URLSearchParams({ grant_type: 'authorization_code', client_id: selfClientId, client_secret: selfClientSecret, code: grant.code });
    const tokens = await (await fetch(`${base}/accounts/us/oauth/v2/token?${params}`, { method: 'POST' })).json();
    expect(tokens.api_domain).toBe(`${base}/api/us`);
    const res = await fetch(`${tokens.api_domain}/crm/v7/coql`, {
      method: 'POST',
      headers: { authorization: `Zoho-oauthtoken ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ select_query: 'select COUNT(id) from Leads where id is not null' }),
    });
    expect(res.status).toBe(200);
    const leads = zoho().state.dataset.Leads.length;
    expect((await res.json()).data).toEqual([{ 'COUNT(id)': leads }]);
    expect(leads + zoho().state.dataset.Contacts.length).toBe(300);
  });

  it('redirects consent to the product\'s Zoho callback', async () => {
    const q = new URLSearchParams({ response_type: 'code', client_id: zoho().config.clientId, scope: 'ZohoCRM.coql.READ', redirect_uri: `${t.url}/api/auth/zoho/callback`, access_type: 'offline', state: 's' });
    const res = await fetch(`${t.url}/zoho-sandbox/accounts/us/oauth/v2/auth?${q}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('accounts-server')).toBe(`${t.url}/zoho-sandbox/accounts/us`);
  });
});
