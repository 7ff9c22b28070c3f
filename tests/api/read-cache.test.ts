// The read caches (api/services/read-cache.ts) never serve what a write made stale: usage after a
// question or a tier change, a session after logout, ban or password change — on this API process at
// once and on another process behind the same PostgreSQL and Redis.
import { encodeGlobalID as gid } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../api/app.js';
import { createLogger } from '../../api/logger.js';
import { connectedUser } from '../helpers/crm.js';
import { ADMIN, Client, startTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const USAGE = '{ usage { chatQueriesUsed chatQueryLimit } }';

let a: TestApp;
let b: App;
let bUrl: string;
let admin: Client;
beforeAll(async () => {
  // A long TTL: anything stale that these tests see would be the cache's fault, not its expiry.
  a = await startTestApp({ REDIS_URL, SANDBOX_CONTACTS: '200', READ_CACHE_TTL_MS: '60000' });
  b = buildApp(a.config, { logger: createLogger('silent'), onSeeded: () => {} });
  bUrl = (await b.start(0)).url;
  admin = new Client(a.url);
  await admin.login(ADMIN);
});
afterAll(async () => {
  await b?.stop();
  await a?.close();
});

/** The same browser session on process B (cookie copied). */
function onB(c: Client): Client {
  const other = new Client(bUrl);
  for (const [k, v] of c.cookies) other.cookies.set(k, v);
  return other;
}

describe('read caches', () => {
  it('shows usage after a question at once, on both processes', async () => {
    const u = await connectedUser(a.app, a.url);
    const b1 = onB(u.c);
    expect((await u.c.gql(USAGE)).data.usage.chatQueriesUsed).toBe(0);
    expect((await b1.gql(USAGE)).data.usage.chatQueriesUsed).toBe(0); // now cached on both
    expect((await u.c.post('/api/queries', { naturalLanguage: 'customers in Europe' })).status).toBe(200);
    expect((await u.c.gql(USAGE)).data.usage.chatQueriesUsed).toBe(1);
    await until(async () => (await b1.gql(USAGE)).data.usage.chatQueriesUsed === 1, { timeoutMs: 3000, what: 'usage on B' });
  });

  it('shows a changed tier limit at once', async () => {
    const u = await connectedUser(a.app, a.url);
    expect((await u.c.gql(USAGE)).data.usage.chatQueryLimit).toBe(10);
    const free = ((await admin.get('/api/admin/pricing-tiers')).json as { id: string; name: string }[]).find((t) => t.name === 'free')!;
    try {
      expect((await admin.put(`/api/admin/pricing-tiers/${free.id}`, { chatQueryLimit: 12 })).status).toBe(200);
      expect((await u.c.gql(USAGE)).data.usage.chatQueryLimit).toBe(12);
      await until(async () => (await onB(u.c).gql(USAGE)).data.usage.chatQueryLimit === 12, { timeoutMs: 3000, what: 'limit on B' });
    } finally {
      await admin.put(`/api/admin/pricing-tiers/${free.id}`, { chatQueryLimit: 10 });
    }
  });

  it('refuses a session at once after logout, and on the other process', async () => {
    const u = await connectedUser(a.app, a.url);
    const b1 = onB(u.c);
    expect((await b1.gql(USAGE)).errors).toBeUndefined(); // cached on B
    const stale = new Client(a.url);
    for (const [k, v] of u.c.cookies) stale.cookies.set(k, v);
    expect((await u.c.post('/api/auth/logout')).status).toBe(200);
    expect((await stale.gql(USAGE)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    await until(async () => (await b1.gql(USAGE)).errors?.[0].extensions?.code === 'UNAUTHENTICATED', { timeoutMs: 3000, what: 'logout on B' });
  });

  it('refuses a banned user at once, and on the other process', async () => {
    const u = await connectedUser(a.app, a.url);
    const b1 = onB(u.c);
    expect((await u.c.gql(USAGE)).errors).toBeUndefined();
    expect((await b1.gql(USAGE)).errors).toBeUndefined();
    const r = await admin.gql(`mutation { banUser(input: { userId: "${gid('User', u.userId)}", reason: "test" }) { user { isBanned } } }`);
    expect(r.data.banUser.user.isBanned).toBe(true);
    expect((await u.c.gql(USAGE)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    await until(async () => (await b1.gql(USAGE)).errors?.[0].extensions?.code === 'UNAUTHENTICATED', { timeoutMs: 3000, what: 'ban on B' });
  });

  it('ends the other sessions at once after a password change, keeping this one', async () => {
    const u = await connectedUser(a.app, a.url);
    const other = new Client(a.url);
    await other.login({ email: u.email, password: 'pw-123456' });
    expect((await other.gql(USAGE)).errors).toBeUndefined(); // cached
    const r = await u.c.gql('mutation($i: ChangePasswordInput!) { changePassword(input: $i) { viewer { id } } }', {
      i: { currentPassword: 'pw-123456', newPassword: 'another-password-1', confirmPassword: 'another-password-1' },
    });
    expect(r.errors).toBeUndefined();
    expect((await other.gql(USAGE)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await u.c.gql(USAGE)).errors).toBeUndefined();
  });
});
