import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { connectorForUser } from '../../api/services/crm.js';
import { Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let clockOffset = 0;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '500' }, { now: () => new Date(Date.now() + clockOffset) });
});
afterAll(async () => {
  await t?.close();
});

const PAT = DEFAULT_SANDBOX_CREDENTIALS.privateAppToken;

async function newUser(crmType = 'hubspot') {
  const c = new Client(t.url);
  const email = `u${Math.random().toString(36).slice(2)}@example.com`;
  const r = await c.post('/api/auth/register', {
    firstName: 'C', lastName: 'R', email, crmType, industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456',
  });
  expect(r.status).toBe(201);
  return { c, userId: r.json.user.id as string };
}

/** Runs the browser part of the OAuth dance: our authorize → sandbox authorize → our callback. */
async function oauthDance(c: Client) {
  const start = await c.get('/api/auth/hubspot/authorize');
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(start.headers.get('location')!);
  const provider = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(provider.status).toBe(302);
  const callback = new URL(provider.headers.get('location')!);
  return { authorizeUrl, callback };
}

describe('private-app token', () => {
  it('reports no token, rejects empty and invalid tokens without storing anything, stores a valid one encrypted', async () => {
    const { c, userId } = await newUser();
    expect((await c.get('/api/crm/token')).json).toEqual({ hasToken: false });
    expect((await c.get('/api/crm/connection')).json).toMatchObject({ connected: false, tokenType: null, scopes: [] });

    const empty = await c.post('/api/crm/token', { token: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe('Token required');

    const invalid = await c.post('/api/crm/token', { token: 'pat-na1-00000000-0000-0000-0000-000000000000' });
    expect(invalid.status).toBe(400);
    expect(invalid.json.message).toMatch(/rejected this token/);
    expect(await t.app.deps.prisma.userIntegration.count({ where: { userId } })).toBe(0);

    const ok = await c.post('/api/crm/token', { token: `  ${PAT}  ` });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ success: true, message: 'CRM Token saved', connected: true, tokenType: 'pat' });
    expect(ok.json.scopes).toContain('crm.objects.contacts.read');
    expect(JSON.stringify(ok.json)).not.toContain(PAT);
    expect((await c.get('/api/crm/token')).json).toEqual({ hasToken: true });

    const row = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(row.accessTokenCiphertext).not.toContain(PAT);
    expect(row.accessTokenCiphertext).not.toContain(PAT.slice(8, 20));
    const { rows } = await rawRows(`SELECT row_to_json(u)::text AS j FROM user_integrations u WHERE user_id = '${userId}'`);
    expect(rows[0].j).not.toContain(PAT);

    const dis = await c.delete('/api/auth/hubspot/disconnect');
    expect(dis.json).toMatchObject({ success: true, message: 'Disconnected' });
    expect((await c.get('/api/crm/connection')).json.connected).toBe(false);
  });

  it('requires sign-in', async () => {
    const anon = new Client(t.url);
    expect((await anon.get('/api/crm/token')).status).toBe(401);
    expect((await anon.post('/api/crm/token', { token: PAT })).status).toBe(401);
    expect((await anon.get('/api/auth/hubspot/authorize')).headers.get('location')).toBe('/auth');
  });

  it('points a user of a CRM without a native connector at the contacts file', async () => {
    const { c } = await newUser('other');
    const message = 'This CRM cannot be connected directly yet. Import your contacts from a CSV or Excel export instead.';
    const conn = await c.get('/api/crm/connection');
    expect(conn.json).toMatchObject({ connected: false, supported: false, crmLabel: 'your CRM', message });
    const r = await c.post('/api/crm/token', { token: PAT });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe(message);
    const g = await c.gql('{ crmConnection { connected supported message crmLabel tokenMethodLabel } }');
    expect(g.data.crmConnection).toEqual({ connected: false, supported: false, message, crmLabel: 'your CRM', tokenMethodLabel: null });
  });

  it("describes HubSpot's connection methods and field map, and keeps a connection's field choices", async () => {
    const { c } = await newUser();
    const before = await c.gql('{ crmConnection { crmLabel oauthAvailable tokenMethodLabel tokenMethodFields { name secret required } fieldMap { field crmField defaultCrmField } } }');
    expect(before.data.crmConnection).toMatchObject({ crmLabel: 'HubSpot', oauthAvailable: true, tokenMethodLabel: 'API token (private app)', tokenMethodFields: [{ name: 'token', secret: true, required: true }] });
    expect(before.data.crmConnection.fieldMap).toContainEqual({ field: 'lifetimeValue', crmField: 'total_revenue', defaultCrmField: 'total_revenue' });
    const refused = await c.gql('mutation { saveCrmFieldMap(input: { fields: [{ field: "lifetimeValue", crmField: "x" }] }) { crmConnection { connected } } }');
    expect(refused.errors?.[0]?.extensions?.code).toBe('CRM_NOT_CONNECTED');

    expect((await c.post('/api/crm/token', { token: PAT })).status).toBe(200);
    const fields = await c.gql('{ crmFields { name label kind } }');
    expect(fields.data.crmFields).toContainEqual({ name: 'total_revenue', label: 'Total Revenue', kind: 'number' });
    const saved = await c.gql(
      'mutation { saveCrmFieldMap(input: { fields: [{ field: "lifetimeValue", crmField: "recent_deal_amount" }], stages: [{ crmValue: "customer", stage: "customer" }, { crmValue: "evangelist", stage: "customer" }, { crmValue: "lead", stage: "lead" }] }) { crmConnection { fieldMap { field crmField } stageMap { crmValue stage } } } }',
    );
    expect(saved.data.saveCrmFieldMap.crmConnection.fieldMap).toContainEqual({ field: 'lifetimeValue', crmField: 'recent_deal_amount' });
    expect(saved.data.saveCrmFieldMap.crmConnection.stageMap).toHaveLength(3);
    // The question now reads lifetime value from the chosen property, and only the mapped stages count.
    const q = await c.post('/api/queries', { naturalLanguage: 'customers with lifetime value over 20000' });
    expect(q.status).toBe(200);
    const sandbox = t.app.sandbox!.contacts;
    expect(q.json.resultCount).toBe(sandbox.filter((x) => (x.recent_deal_amount ?? 0) > 20000).length);
    const leads = await c.post('/api/queries', { naturalLanguage: 'leads in Canada' });
    expect(leads.json.resultCount).toBe(sandbox.filter((x) => x.lifecyclestage === 'lead' && x.country === 'Canada').length);
    const reset = await c.gql('mutation { saveCrmFieldMap(input: { reset: true }) { crmConnection { fieldMap { field crmField } } } }');
    expect(reset.data.saveCrmFieldMap.crmConnection.fieldMap).toContainEqual({ field: 'lifetimeValue', crmField: 'total_revenue' });
  });
});

async function rawRows(sql: string) {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: t.db.url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('OAuth', () => {
  it('round-trips through the sandbox and stores encrypted access and refresh tokens', async () => {
    const { c, userId } = await newUser();
    const { authorizeUrl, callback } = await oauthDance(c);
    expect(authorizeUrl.pathname).toBe('/hubspot-sandbox/oauth/authorize');
    expect(authorizeUrl.searchParams.get('client_id')).toBe(DEFAULT_SANDBOX_CREDENTIALS.clientId);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${t.url}/api/auth/hubspot/callback`);
    expect(authorizeUrl.searchParams.get('scope')).toContain('crm.objects.contacts.read');
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    const done = await c.get(callback.pathname + callback.search);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/?oauth=success');
    const conn = (await c.get('/api/crm/connection')).json;
    expect(conn).toMatchObject({ connected: true, tokenType: 'oauth' });
    const row = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(row.refreshTokenCiphertext).toMatch(/^v1:/);
    expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);

    // the state is single-use
    const replay = await c.get(callback.pathname + callback.search);
    expect(replay.headers.get('location')).toMatch(/^\/\?oauth=error&message=/);
    expect(decodeURIComponent(replay.headers.get('location')!)).toMatch(/already used|Invalid authorization state/);
  });

  it('rejects a state from another session, a forged state and an expired state', async () => {
    const a = await newUser();
    const b = await newUser();
    const { callback } = await oauthDance(a.c);
    const stolen = await b.c.get(callback.pathname + callback.search);
    expect(decodeURIComponent(stolen.headers.get('location')!)).toContain('Invalid authorization state');
    const forged = await a.c.get(`/api/auth/hubspot/callback?code=x&state=forged-state-value-123456`);
    expect(decodeURIComponent(forged.headers.get('location')!)).toContain('Invalid authorization state');
    const { callback: later } = await oauthDance(a.c);
    clockOffset = 11 * 60_000;
    try {
      const expired = await a.c.get(later.pathname + later.search);
      expect(decodeURIComponent(expired.headers.get('location')!)).toContain('expired');
    } finally {
      clockOffset = 0;
    }
    expect((await a.c.get('/api/crm/connection')).json.connected).toBe(false);
    expect((await b.c.get('/api/crm/connection')).json.connected).toBe(false);
  });

  it("an error callback: the state is checked first, the provider's error becomes a fixed message, its text never reaches the URL", async () => {
    const lure = 'Your account is locked. Call +1 555 0100 to restore it';
    const messageOf = (r: { headers: Headers }) => {
      const location = r.headers.get('location')!;
      expect(location).toMatch(/^\/\?oauth=error&message=/);
      expect(decodeURIComponent(location)).not.toContain('555');
      expect(location).not.toContain('locked');
      return new URL(location, t.url).searchParams.get('message');
    };
    // any link, anyone: no state, a forged state, or nobody signed in
    const anonymous = new Client(t.url);
    const desc = encodeURIComponent(lure);
    expect(messageOf(await anonymous.get(`/api/auth/hubspot/callback?error=access_denied&error_description=${desc}`))).toBe(
      'The authorization response is missing its code or state',
    );
    const a = await newUser();
    expect(messageOf(await a.c.get(`/api/auth/hubspot/callback?error=access_denied&error_description=${desc}&state=forged-state-value-123456`))).toBe(
      'Invalid authorization state. Start the connection again.',
    );
    expect(messageOf(await anonymous.get(`/api/auth/hubspot/callback?error=access_denied&error_description=${desc}&state=forged-state-value-123456`))).toBe(
      'Your session ended during authorization. Sign in and try again.',
    );
    // a real flow the user declined: its state is checked and used up; the message is ours
    const { authorizeUrl } = await oauthDance(a.c);
    const state = authorizeUrl.searchParams.get('state')!;
    const b = await newUser();
    expect(messageOf(await b.c.get(`/api/auth/hubspot/callback?error=access_denied&error_description=${desc}&state=${state}`))).toBe(
      'Invalid authorization state. Start the connection again.',
    );
    expect(messageOf(await a.c.get(`/api/auth/hubspot/callback?error=access_denied&error_description=${desc}&state=${state}`))).toBe(
      'Access to your CRM was not granted. Start the connection again to allow it.',
    );
    expect(messageOf(await a.c.get(`/api/auth/hubspot/callback?error=access_denied&state=${state}`))).toBe(
      'This authorization was already used. Start the connection again.',
    );
    // any other error code, and a code the provider refuses, say so without the provider's words
    const { authorizeUrl: again } = await oauthDance(a.c);
    expect(messageOf(await a.c.get(`/api/auth/hubspot/callback?error=server_error&error_description=${desc}&state=${again.searchParams.get('state')}`))).toBe(
      'The CRM could not complete the authorization. Start the connection again.',
    );
    const { authorizeUrl: third } = await oauthDance(a.c);
    expect(messageOf(await a.c.get(`/api/auth/hubspot/callback?code=not-a-code&state=${third.searchParams.get('state')}`))).toBe(
      'The CRM refused the authorization. Start the connection again.',
    );
    expect((await a.c.get('/api/crm/connection')).json.connected).toBe(false);
  });

  it('refreshes the access token before expiry and marks a revoked refresh token as not connected', async () => {
    const { c, userId } = await newUser();
    const { callback } = await oauthDance(c);
    await c.get(callback.pathname + callback.search);
    const before = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    await t.app.deps.prisma.userIntegration.update({ where: { id: before.id }, data: { expiresAt: new Date(Date.now() + 60_000) } });
    const user = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    const connector = await connectorForUser(t.app.deps, user);
    const everyone = (c: typeof connector) => c.count(c.compile({ version: 1 }, { now: new Date(), timeZone: 'UTC' }));
    const count = await everyone(connector);
    expect(count).toBe(500);
    const after = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { userId } });
    expect(after.accessTokenCiphertext).not.toBe(before.accessTokenCiphertext);
    expect(after.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);

    // revoke at the provider, then force the next refresh
    const { decryptSecret } = await import('../../api/crypto.js');
    const refresh = decryptSecret(after.refreshTokenCiphertext!, t.config.tokenEncryptionKey);
    expect(t.app.sandbox!.revokeRefreshToken(refresh)).toBe(true);
    await t.app.deps.prisma.userIntegration.update({ where: { id: after.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(everyone(await connectorForUser(t.app.deps, user))).rejects.toThrow(/revoked/);
    expect((await c.get('/api/crm/connection')).json).toMatchObject({ connected: false, revoked: true });
    expect((await c.get('/api/crm/token')).json).toEqual({ hasToken: false });
  });

  it('switching method replaces the integration (one per user and provider)', async () => {
    const { c, userId } = await newUser();
    await c.post('/api/crm/token', { token: PAT });
    const { callback } = await oauthDance(c);
    await c.get(callback.pathname + callback.search);
    const rows = await t.app.deps.prisma.userIntegration.findMany({ where: { userId } });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenType).toBe('oauth');
  });
});

describe('GraphQL', () => {
  it('saves a token, reads the connection and disconnects', async () => {
    const c = new Client(t.url);
    await c.login(DEMO);
    const bad = await c.gql('mutation { saveCrmToken(input: { token: "" }) { crmConnection { connected } } }');
    expect(bad.errors?.[0]).toMatchObject({ message: 'Token required', extensions: { code: 'BAD_USER_INPUT' } });
    const ok = await c.gql(`mutation { saveCrmToken(input: { token: "${PAT}" }) { crmConnection { id connected tokenType hasToken } } }`);
    expect(ok.data.saveCrmToken.crmConnection).toMatchObject({ connected: true, tokenType: 'pat', hasToken: true });
    const read = await c.gql('{ crmConnection { id connected } }');
    expect(read.data.crmConnection).toEqual({ id: ok.data.saveCrmToken.crmConnection.id, connected: true }); // one record in a client store
    const url = await c.gql('mutation { startCrmOAuth { authorizeUrl } }');
    expect(url.data.startCrmOAuth.authorizeUrl).toContain('/hubspot-sandbox/oauth/authorize?');
    const off = await c.gql('mutation { disconnectCrm { crmConnection { connected } } }');
    expect(off.data.disconnectCrm.crmConnection.connected).toBe(false);
  });
});
