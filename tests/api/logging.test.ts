// Secrets never reach the logs: passwords, session cookies, CRM tokens and OAuth codes are absent from
// every log line written while they flow through the product (at debug level).
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { captureLogger } from '../helpers/logs.js';
import { Client, startTestApp, type TestApp } from '../helpers/test-app.js';

const { logger, text: lines } = captureLogger('debug');
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '100' }, { logger });
});
afterAll(async () => {
  await t?.close();
});

it('logs requests and events without passwords, cookies, tokens or OAuth codes', async () => {
  const password = 'Sup3r-Secret-Passw0rd';
  const c = new Client(t.url);
  await c.post('/api/auth/register', {
    firstName: 'L', lastName: 'G', email: 'log@example.com', crmType: 'hubspot', industry: 'telecom', password, confirmPassword: password,
  });
  await c.post('/api/auth/login', { email: 'log@example.com', password: 'wrong-' + password });
  await c.post('/api/auth/login', { email: 'log@example.com', password });
  await c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken });
  const start = await c.get('/api/auth/hubspot/authorize');
  const provider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  const callback = new URL(provider.headers.get('location')!);
  const code = callback.searchParams.get('code')!;
  await c.get(callback.pathname + callback.search);
  await c.post('/api/queries', { naturalLanguage: 'leads in Canada' });

  const all = lines.join('');
  expect(lines.length).toBeGreaterThan(5);
  expect(all).toContain('"path":"/api/auth/login"'); // requests are logged…
  for (const secret of [password, DEFAULT_SANDBOX_CREDENTIALS.privateAppToken, c.cookies.get('crm_session')!, code]) {
    expect(all).not.toContain(secret); // …their secrets are not
  }
  const integration = await t.app.deps.prisma.userIntegration.findFirstOrThrow({ where: { user: { email: 'log@example.com' } } });
  expect(all).not.toContain(integration.accessTokenCiphertext);
  const { decryptSecret } = await import('../../api/crypto.js');
  expect(integration.tokenType).toBe('oauth');
  expect(all).toContain('access-tokens/[redacted]'); // the OAuth token was verified through the sandbox…
  for (const c of [integration.accessTokenCiphertext, integration.refreshTokenCiphertext!]) {
    expect(all).not.toContain(decryptSecret(c, t.config.tokenEncryptionKey)); // …without logging it
  }
});

it('logs GraphQL failures by operation name, code and hash, never with literals or variables', async () => {
  const password = 'Gr4phQL-Literal-Secret';
  const wrong = 'Wr0ng-Literal-Secret';
  const pat = 'pat-na1-literal-token-never-logged';
  const c = new Client(t.url);
  const before = lines.length;
  // inline literals, failing and succeeding
  await c.gql(`mutation Reg { register(input: { firstName: "G", lastName: "L", email: "gql-log@example.com", crmType: "hubspot", industry: "telecom", password: "${password}", confirmPassword: "${password}" }) { authStatus { authenticated } } }`);
  await c.gql(`mutation LoginWrong { login(input: { email: "gql-log@example.com", password: "${wrong}" }) { authStatus { authenticated } } }`);
  await c.gql(`mutation { login(input: { email: "gql-log@example.com", password: "${password}" }) { authStatus { authenticated } } }`);
  await c.gql(`mutation SaveToken { saveCrmToken(input: { token: "${pat}" }) { crmConnection { connected } } }`);
  // variables
  await c.gql('mutation LoginVar($input: LoginInput!) { login(input: $input) { authStatus { authenticated } } }', { input: { email: 'gql-log@example.com', password: wrong } });
  await c.gql('mutation Pat($input: CreatePersonalAccessTokenInput!) { createPersonalAccessToken(input: $input) { token } }', { input: { email: 'gql-log@example.com', password: wrong, name: 'x' } });
  await c.gql('mutation SaveVar($t: String!) { saveCrmToken(input: { token: $t }) { crmConnection { connected } } }', { t: pat });

  const written = lines.slice(before).join('');
  for (const secret of [password, wrong, pat]) expect(written).not.toContain(secret);
  const failures = lines.slice(before).map((l) => JSON.parse(l)).filter((l) => l.msg === 'graphql operation failed');
  expect(failures.map((f) => f.operationName)).toEqual(expect.arrayContaining(['LoginWrong', 'SaveToken', 'LoginVar', 'Pat', 'SaveVar']));
  for (const f of failures) {
    expect(f.codes.length).toBeGreaterThan(0);
    expect(f.documentHash).toMatch(/^[0-9a-f]{16}$/);
  }
  // Refusals (wrong password, invalid token) are expected: nothing at error level, so the error log
  // holds only what needs fixing.
  const errorLines = lines.slice(before).map((l) => JSON.parse(l)).filter((l) => l.level >= 50);
  expect(errorLines).toEqual([]);
});

it('logs expected refusals at info, never at error, and records each operation with its real code', async () => {
  const before = lines.length;
  const anon = new Client(t.url);
  const user = new Client(t.url);
  const email = 'refusals@example.com';
  await user.post('/api/auth/register', { firstName: 'R', lastName: 'F', email, crmType: 'hubspot', industry: 'telecom', password: 'refusal-password-1', confirmPassword: 'refusal-password-1' });
  const pat = await anon.gql('mutation($input: CreatePersonalAccessTokenInput!) { createPersonalAccessToken(input: $input) { token } }', {
    input: { email, password: 'refusal-password-1', name: 'refusals' },
  });
  const token = pat.data.createPersonalAccessToken.token as string;
  const missing = encodeGlobalID('SavedSegment', '7a1e3c0e-6a55-4c61-9d43-1b1c5f3f2b11');
  // GraphQL: signed out, not an admin, a missing object, bad input
  const expected: [string, string][] = [];
  const run = async (c: Client, name: string, doc: string, variables: Record<string, unknown>, code: string) => {
    const r = await c.gql(doc, variables);
    expect(r.errors?.[0].extensions?.code).toBe(code);
    expected.push([name, code]);
  };
  await run(anon, 'AnonViewer', 'query AnonViewer { usage { chatQueriesUsed } }', {}, 'UNAUTHENTICATED');
  await run(user, 'NotAdmin', 'query NotAdmin { adminUsers { totalCount } }', {}, 'FORBIDDEN');
  await run(user, 'Missing', 'mutation Missing($id: ID!) { deleteSavedSegment(input: { id: $id }) { deletedId } }', { id: missing }, 'NOT_FOUND');
  await run(anon, 'WrongPassword', 'mutation WrongPassword { login(input: { email: "nobody@example.com", password: "wrong-password" }) { authStatus { authenticated } } }', {}, 'UNAUTHENTICATED');
  // a banned user's token: ACCOUNT_SUSPENDED over GraphQL and REST
  const admin = new Client(t.url);
  await admin.login({ email: t.config.seed.adminEmail, password: t.config.seed.adminPassword! });
  const userId = (await t.app.deps.prisma.user.findUniqueOrThrow({ where: { email } })).id;
  expect((await admin.post(`/api/admin/users/${userId}/ban`, { reason: 'probe' })).status).toBe(200);
  const banned = new Client(t.url);
  const suspended = await banned.request('POST', '/graphql', { query: 'query Suspended { usage { chatQueriesUsed } }' }, { authorization: `Bearer ${token}` });
  expect(suspended.json.errors[0].extensions.code).toBe('ACCOUNT_SUSPENDED');
  expected.push(['Suspended', 'ACCOUNT_SUSPENDED']);
  expect((await banned.get('/api/usage/current', { authorization: `Bearer ${token}` })).status).toBe(403);
  // REST refusals
  expect((await anon.get('/api/admin/users')).status).toBe(401);
  expect((await user.get('/api/admin/users')).status).toBe(401); // the ban ended the session
  expect((await anon.post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong-password' })).status).toBe(401);
  // a subscription signed out
  const socket = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  await new Promise((r) => socket.once('open', r));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await new Promise((r) => socket.once('message', r));
  const refused = new Promise<string>((r) => socket.on('message', (m) => r(String(m))));
  socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { usageUpdated { chatQueriesUsed } }' } }));
  expect(await refused).toContain('UNAUTHENTICATED');
  socket.close();
  await new Promise((r) => setTimeout(r, 100));

  const written = lines.slice(before).map((l) => JSON.parse(l));
  expect(written.filter((l) => l.level >= 50)).toEqual([]);
  const operations = written.filter((l) => l.msg === 'graphql operation failed');
  for (const [name, code] of expected) {
    expect(operations.find((o) => o.operationName === name)).toMatchObject({ level: 30, codes: [code] });
  }
});
