// Secrets never reach the logs: passwords, session cookies, CRM tokens and OAuth codes are absent from
// every log line written while they flow through the product (at debug level).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { createLogger } from '../../api/logger.js';
import { Client, startTestApp, type TestApp } from '../helpers/test-app.js';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  const sink = new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) });
  t = await startTestApp({ SANDBOX_CONTACTS: '100' }, { logger: createLogger('debug', sink) });
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
