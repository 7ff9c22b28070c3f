// Personal access tokens (the CLI's credential) through the shared client transport: created by
// signing in, shown once, stored hashed, sent as Bearer over HTTP and graphql-ws, listed and revoked
// by their owner, ended by logout and by a ban. Also the password change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTransport, GraphQLClientError, type Transport } from '../../client/index.js';
import { connectedUser } from '../helpers/crm.js';
import { ADMIN, Client, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let endpoint: string;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '300' });
  endpoint = `${t.url}/graphql`;
});
afterAll(async () => {
  await t?.close();
});

const PASSWORD = 'pw-123456';
const CREATE = `mutation($input: CreatePersonalAccessTokenInput!) {
  createPersonalAccessToken(input: $input) { token personalAccessToken { id name prefix isCurrent } viewer { email } } }`;

async function tokenFor(email: string, name = 'laptop') {
  const anon = createTransport({ url: endpoint });
  const r = await anon.request<any>(CREATE, { input: { email, password: PASSWORD, name } });
  return r.createPersonalAccessToken as { token: string; personalAccessToken: { id: string; name: string; prefix: string } };
}

const bearer = (token: string) => createTransport({ url: endpoint, token, webSocketImpl: WebSocket, ws: { retryAttempts: 0 } });

async function expectCode(p: Promise<unknown>, code: string) {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(GraphQLClientError);
  expect((err as GraphQLClientError).code).toBe(code);
  return err as GraphQLClientError;
}

describe('personal access tokens', () => {
  it('are created by signing in, shown once, stored as a hash, and set no cookie', async () => {
    const { email } = await connectedUser(t.app, t.url);
    const anon = createTransport({ url: endpoint });
    await expectCode(anon.request(CREATE, { input: { email, password: 'wrong', name: 'x' } }), 'UNAUTHENTICATED');
    await expectCode(anon.request(CREATE, { input: { email, password: PASSWORD, name: '  ' } }), 'BAD_USER_INPUT');

    const raw = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: CREATE, variables: { input: { email, password: PASSWORD, name: 'laptop' } } }),
    });
    expect(raw.headers.getSetCookie()).toEqual([]);
    const { data } = (await raw.json()) as any;
    const { token, personalAccessToken, viewer } = data.createPersonalAccessToken;
    expect(token).toMatch(/^crm_pat_[A-Za-z0-9_-]{43}$/);
    expect(personalAccessToken).toMatchObject({ name: 'laptop', prefix: token.slice(0, 14), isCurrent: false });
    expect(viewer.email).toBe(email);
    const rows = await t.app.deps.prisma.personalAccessToken.findMany({ where: { user: { email } } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('authenticate HTTP and websocket requests as Bearer, and list as the owner sees them', async () => {
    const { email, userId } = await connectedUser(t.app, t.url);
    const { token, personalAccessToken } = await tokenFor(email);
    const client = bearer(token);
    try {
      const me = await client.request<any>('{ viewer { email } personalAccessTokens { totalCount edges { node { id isCurrent } } } }');
      expect(me.viewer.email).toBe(email);
      expect(me.personalAccessTokens).toEqual({ totalCount: 1, edges: [{ node: { id: personalAccessToken.id, isCurrent: true } }] });

      // A subscription over graphql-ws with the token in the connection params.
      const events: any[] = [];
      const done = new Promise<void>((resolve, reject) => {
        client.subscribe<any>('subscription { usageUpdated { chatQueriesUsed } }', undefined, {
          next: (v) => {
            events.push(v.data?.usageUpdated);
            resolve();
          },
          error: reject,
          complete: () => {},
        });
      });
      await new Promise((r) => setTimeout(r, 200)); // let the subscription reach the server
      const run = await client.request<any>('mutation { runQuery(input: { naturalLanguage: "leads in Europe" }) { hasError usage { chatQueriesUsed } } }');
      expect(run.runQuery.usage.chatQueriesUsed).toBe(1);
      await done;
      expect(events[0]).toEqual({ chatQueriesUsed: 1 });
      expect(await t.app.deps.prisma.query.count({ where: { userId } })).toBe(1);
    } finally {
      await client.dispose();
    }
  });

  it('are judged alone: a bad Bearer is anonymous even with a valid cookie', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const r = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer crm_pat_nope', cookie },
      body: JSON.stringify({ query: '{ viewer { email } }' }),
    });
    expect(((await r.json()) as any).data.viewer).toBeNull();
  });

  it("are revoked by their owner (another user's token is not found) and by logout", async () => {
    const a = await connectedUser(t.app, t.url);
    const b = await connectedUser(t.app, t.url);
    const first = await tokenFor(a.email, 'one');
    const second = await tokenFor(a.email, 'two');
    const other = await tokenFor(b.email, 'theirs');
    const client = bearer(first.token);
    const REVOKE = 'mutation($id: ID!) { revokePersonalAccessToken(input: { id: $id }) { revokedId } }';
    await expectCode(client.request(REVOKE, { id: other.personalAccessToken.id }), 'NOT_FOUND');
    expect((await bearer(other.token).request<any>('{ viewer { email } }')).viewer.email).toBe(b.email);

    const revoked = await client.request<any>(REVOKE, { id: second.personalAccessToken.id });
    expect(revoked.revokePersonalAccessToken.revokedId).toBe(second.personalAccessToken.id);
    expect((await bearer(second.token).request<any>('{ viewer { email } }')).viewer).toBeNull();
    await expectCode(bearer(second.token).request('{ usage { chatQueriesUsed } }'), 'UNAUTHENTICATED');

    // logout with a token ends that token only
    await client.request('mutation { logout { authStatus { authenticated } } }');
    expect((await client.request<any>('{ viewer { email } }')).viewer).toBeNull();
    expect((await a.c.get('/api/auth/status')).json.authenticated).toBe(true);
  });

  it('end with a ban: the token then answers ACCOUNT_SUSPENDED, and the banned user cannot create new ones', async () => {
    const u = await connectedUser(t.app, t.url);
    const { token } = await tokenFor(u.email);
    const admin = new Client(t.url);
    await admin.login(ADMIN);
    expect((await admin.post(`/api/admin/users/${u.userId}/ban`, { reason: 'abuse' })).status).toBe(200);
    expect((await bearer(token).request<any>('{ viewer { email } }')).viewer).toBeNull();
    // What needs a signed-in user tells the client why, over HTTP (GraphQL and REST) and websockets.
    const suspended = await expectCode(bearer(token).request('{ usage { chatQueriesUsed } }'), 'ACCOUNT_SUSPENDED');
    expect(suspended.message).toBe('Your account has been suspended: abuse. Please contact support for assistance.');
    const rest = await fetch(`${t.url}/api/usage/current`, { headers: { authorization: `Bearer ${token}` } });
    expect(rest.status).toBe(403);
    expect(await rest.json()).toMatchObject({ error: 'Account suspended', message: suspended.message });
    const ws = bearer(token);
    const wsError = await new Promise<unknown>((resolve) => {
      ws.subscribe('subscription { usageUpdated { chatQueriesUsed } }', undefined, { next: (v) => resolve(v.errors), error: resolve, complete: () => resolve(null) });
    });
    await ws.dispose();
    expect(JSON.stringify(wsError)).toContain('ACCOUNT_SUSPENDED');
    // A token that never existed is simply signed out.
    await expectCode(bearer('crm_pat_' + 'x'.repeat(43)).request('{ usage { chatQueriesUsed } }'), 'UNAUTHENTICATED');
    const err = await expectCode(createTransport({ url: endpoint }).request(CREATE, { input: { email: u.email, password: PASSWORD, name: 'again' } }), 'ACCOUNT_SUSPENDED');
    expect(err.message).toContain('abuse');
    expect(await t.app.deps.prisma.personalAccessToken.count({ where: { userId: u.userId, revokedAt: null } })).toBe(0);
  });

  it('cannot start OAuth (it needs a browser session)', async () => {
    const u = await connectedUser(t.app, t.url);
    const { token } = await tokenFor(u.email);
    const err = await expectCode(bearer(token).request('mutation { startCrmOAuth { authorizeUrl } }'), 'BAD_USER_INPUT');
    expect(err.message).toMatch(/web app/);
  });
});

describe('password change', () => {
  it('checks the current password, validates the new one and ends the other sessions', async () => {
    const u = await connectedUser(t.app, t.url);
    const elsewhere = new Client(t.url);
    await elsewhere.login({ email: u.email, password: PASSWORD });
    const CHANGE = 'mutation($input: ChangePasswordInput!) { changePassword(input: $input) { viewer { email } } }';
    const wrong = await u.c.gql(CHANGE, { input: { currentPassword: 'nope', newPassword: 'new-password-1', confirmPassword: 'new-password-1' } });
    expect(wrong.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'currentPassword' } });
    const mismatch = await u.c.gql(CHANGE, { input: { currentPassword: PASSWORD, newPassword: 'new-password-1', confirmPassword: 'new-password-2' } });
    expect(mismatch.errors?.[0]).toMatchObject({ message: "Passwords don't match", extensions: { field: 'confirmPassword' } });
    const short = await u.c.gql(CHANGE, { input: { currentPassword: PASSWORD, newPassword: 'short', confirmPassword: 'short' } });
    expect(short.errors?.[0].extensions?.field).toBe('newPassword');

    const ok = await u.c.gql(CHANGE, { input: { currentPassword: PASSWORD, newPassword: 'new-password-1', confirmPassword: 'new-password-1' } });
    expect(ok.data.changePassword.viewer.email).toBe(u.email);
    expect((await u.c.get('/api/auth/status')).json.authenticated).toBe(true);
    expect((await elsewhere.get('/api/auth/status')).json.authenticated).toBe(false);
    const again = new Client(t.url);
    expect((await again.post('/api/auth/login', { email: u.email, password: PASSWORD })).status).toBe(401);
    expect((await again.post('/api/auth/login', { email: u.email, password: 'new-password-1' })).status).toBe(200);
  });
});

describe('client transport errors', () => {
  it('turn extensions.code into the error code and an unreachable server into NETWORK_ERROR', async () => {
    const anon: Transport = createTransport({ url: endpoint });
    await expectCode(anon.request('{ usage { chatQueriesUsed } }'), 'UNAUTHENTICATED');
    const err = await expectCode(createTransport({ url: 'http://127.0.0.1:9/graphql' }).request('{ __typename }'), 'NETWORK_ERROR');
    expect(err.isServerProblem).toBe(true);
  });
});
