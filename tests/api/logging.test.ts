// Secrets never reach the logs: passwords, session cookies, CRM tokens and OAuth codes are absent from
// every log line written while they flow through the product (at debug level).
import { afterAll, beforeAll, expect, it } from 'vitest';
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
