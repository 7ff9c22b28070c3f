import { encodeGlobalID as gid } from '@pothos/plugin-relay';
import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_FAILURES: '3' });
});
afterAll(async () => {
  await t?.close();
});

const valid = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  crmType: 'hubspot',
  industry: 'it_software',
  password: 'correct horse battery',
  confirmPassword: 'correct horse battery',
};

describe('registration (REST)', () => {
  it.each([
    ['firstName', { firstName: '' }, 'First name is required'],
    ['lastName', { lastName: '   ' }, 'Last name is required'],
    ['email', { email: '' }, 'Email is required'],
    ['email', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['crmType', { crmType: 'dynamics' }, 'Please select your CRM system'],
    ['crmType', { crmType: '' }, 'Please select your CRM system'],
    ['industry', { industry: 'mining' }, 'Please select your industry'],
    ['password', { password: '' , confirmPassword: '' }, 'Password is required'],
    ['confirmPassword', { confirmPassword: '' }, 'Please confirm your password'],
    ['confirmPassword', { confirmPassword: 'something else' }, "Passwords don't match"],
  ])('rejects an invalid %s with its message', async (field, patch, message) => {
    const r = await new Client(t.url).post('/api/auth/register', { ...valid, email: `x${Math.random()}@e.com`, ...patch });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe(message);
    expect(r.json.fields[field]).toBe(message);
  });

  it('one password policy at every door: at least 8 characters, not a common password', async () => {
    const short = await new Client(t.url).post('/api/auth/register', { ...valid, email: 'short@example.com', password: 'x', confirmPassword: 'x' });
    expect(short.status).toBe(400);
    expect(short.json.fields.password).toBe('Password must be at least 8 characters');
    for (const common of ['password1', 'Password1', 'iloveyou', '12345678', 'qwertyuiop']) {
      const r = await new Client(t.url).post('/api/auth/register', { ...valid, email: 'common@example.com', password: common, confirmPassword: common });
      expect(r.status).toBe(400);
      expect(r.json.fields.password).toBe('This password is too common. Choose one that is harder to guess.');
    }
    const gql = await new Client(t.url).gql('mutation($input: RegisterInput!) { register(input: $input) { authStatus { authenticated } } }', {
      input: { ...valid, email: 'common@example.com', password: 'sunshine', confirmPassword: 'sunshine' },
    });
    expect(gql.errors?.[0]).toMatchObject({ message: 'This password is too common. Choose one that is harder to guess.', extensions: { code: 'BAD_USER_INPUT', field: 'password' } });
    expect(await t.app.deps.prisma.user.count({ where: { email: { in: ['short@example.com', 'common@example.com'] } } })).toBe(0);
    // the same rule for a new password
    const c = new Client(t.url);
    expect((await c.post('/api/auth/register', { ...valid, email: 'changer@example.com' })).status).toBe(201);
    const CHANGE = 'mutation($input: ChangePasswordInput!) { changePassword(input: $input) { viewer { id } } }';
    const weak = await c.gql(CHANGE, { input: { currentPassword: valid.password, newPassword: 'football', confirmPassword: 'football' } });
    expect(weak.errors?.[0]).toMatchObject({ message: 'This password is too common. Choose one that is harder to guess.', extensions: { field: 'newPassword' } });
    const tiny = await c.gql(CHANGE, { input: { currentPassword: valid.password, newPassword: 'short', confirmPassword: 'short' } });
    expect(tiny.errors?.[0]).toMatchObject({ message: 'Password must be at least 8 characters', extensions: { field: 'newPassword' } });
  });

  it('rejects a missing field and a non-JSON body', async () => {
    const { crmType: _omit, ...rest } = valid;
    const r = await new Client(t.url).post('/api/auth/register', rest);
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('Please select your CRM system');
    const bad = await new Client(t.url).request('POST', '/api/auth/register', undefined, { 'content-type': 'application/json' });
    expect(bad.status).toBe(400);
  });

  it('registers, signs in via cookie, and rejects a duplicate email (any case)', async () => {
    const c = new Client(t.url);
    const r = await c.post('/api/auth/register', valid);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ authenticated: true, user: { name: 'Grace Hopper', email: 'grace@example.com', isAdmin: false } });
    const status = await c.get('/api/auth/status');
    expect(status.json).toMatchObject({ authenticated: true, user: { email: 'grace@example.com', isAdmin: false } });
    const dup = await new Client(t.url).post('/api/auth/register', { ...valid, email: 'GRACE@example.com' });
    expect(dup.status).toBe(409);
    expect(dup.json.error).toBe('An account with this email already exists');
    const row = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { email: 'grace@example.com' }, include: { currentTier: true } });
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/); // OWASP's argon2id parameters
    expect(row.currentTier?.name).toBe('free');
  });

  it('replaces a hash made with older parameters at the next sign-in; the password keeps working', async () => {
    const c = new Client(t.url);
    expect((await c.post('/api/auth/register', { ...valid, email: 'ada@example.com' })).status).toBe(201);
    const old = await argon2.hash(valid.password, { type: argon2.argon2id }); // the library's defaults: m=65536, t=3, p=4
    await t.app.deps.prisma.user.update({ where: { email: 'ada@example.com' }, data: { password: old } });
    expect((await new Client(t.url).post('/api/auth/login', { email: 'ada@example.com', password: valid.password })).status).toBe(200);
    const row = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { email: 'ada@example.com' } });
    expect(row.password).not.toBe(old);
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect((await new Client(t.url).post('/api/auth/login', { email: 'ada@example.com', password: valid.password })).status).toBe(200);
    expect((await new Client(t.url).post('/api/auth/login', { email: 'ada@example.com', password: 'wrong-password-1' })).status).toBe(401);
  });
});

describe('login, sessions and logout', () => {
  it('answers unauthenticated status for anonymous visitors', async () => {
    const r = await new Client(t.url).get('/api/auth/status');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ authenticated: false });
  });

  it('sets an httpOnly SameSite=Lax session cookie and logout revokes it', async () => {
    const c = new Client(t.url);
    const r = await c.login(DEMO);
    const cookie = r.headers.getSetCookie().find((h) => h.startsWith('crm_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/); // plain http here
    const token = c.cookies.get('crm_session')!;
    expect(await t.app.deps.prisma.session.count({ where: { tokenHash: token } })).toBe(0); // only a hash is stored
    expect((await c.get('/api/auth/status')).json.authenticated).toBe(true);

    const stolen = new Client(t.url);
    stolen.cookies.set('crm_session', token);
    const out = await c.post('/api/auth/logout');
    expect(out.status).toBe(200);
    expect((await c.get('/api/auth/status')).json).toEqual({ authenticated: false });
    expect((await stolen.get('/api/auth/status')).json).toEqual({ authenticated: false });
  });

  it('rejects a wrong password with error and message', async () => {
    const r = await new Client(t.url).post('/api/auth/login', { email: DEMO.email, password: 'wrong' });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ error: 'Invalid email or password', message: 'Invalid email or password' });
  });

  it('throttles repeated failures per email and IP with 429', async () => {
    const c = new Client(t.url);
    const email = 'throttle@example.com';
    await c.post('/api/auth/register', { ...valid, email });
    for (let i = 0; i < 3; i++) expect((await c.post('/api/auth/login', { email, password: 'nope' })).status).toBe(401);
    const blocked = await c.post('/api/auth/login', { email, password: valid.password });
    expect(blocked.status).toBe(429);
    expect(blocked.json.error).toBe('Too many login attempts');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // another account from the same IP is not affected
    expect((await new Client(t.url).post('/api/auth/login', DEMO)).status).toBe(200);
    // the IP is the peer's address, counted with the attempts and recorded with the session
    const counters = await t.app.deps.prisma.authThrottle.findMany({ where: { email } });
    expect(counters).toEqual([expect.objectContaining({ scope: 'login', count: 4, address: expect.stringMatching(/^127\.0\.0\.1$|^0:0:0:0::\/64$/) })]);
    const demo = await t.app.deps.prisma.session.findFirstOrThrow({ where: { user: { email: DEMO.email } }, orderBy: { createdAt: 'desc' } });
    expect(demo.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  it('blocks banned users with 403 Account suspended and revokes their sessions', async () => {
    const email = 'banned@example.com';
    const victim = new Client(t.url);
    const reg = await victim.post('/api/auth/register', { ...valid, email });
    const userId = reg.json.user.id;
    const admin = new Client(t.url);
    await admin.login(ADMIN);
    const ban = await admin.post(`/api/admin/users/${userId}/ban`, { reason: 'Spamming' });
    expect(ban.status).toBe(200);
    expect((await victim.get('/api/auth/status')).json).toEqual({ authenticated: false });
    const r = await new Client(t.url).post('/api/auth/login', { email, password: valid.password });
    expect(r.status).toBe(403);
    expect(r.json.error).toBe('Account suspended');
    expect(r.json.message).toContain('Spamming');
    const audit = await t.app.deps.prisma.auditLog.findFirst({ where: { action: 'user.ban', targetId: userId } });
    expect(audit).not.toBeNull();
    expect((await admin.post(`/api/admin/users/${userId}/unban`)).status).toBe(200);
    expect((await new Client(t.url).post('/api/auth/login', { email, password: valid.password })).status).toBe(200);
  });

  it('requires a non-empty ban reason', async () => {
    const admin = new Client(t.url);
    await admin.login(ADMIN);
    const demo = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { email: DEMO.email } });
    const r = await admin.post(`/api/admin/users/${demo.id}/ban`, { reason: '  ' });
    expect(r.status).toBe(400);
    expect((await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: demo.id } })).isBanned).toBe(false);
  });
});

describe('authorization and CSRF', () => {
  it('refuses admin operations to anonymous (401) and normal users (403) on REST and GraphQL', async () => {
    const demo = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { email: DEMO.email } });
    const anon = new Client(t.url);
    expect((await anon.post(`/api/admin/users/${demo.id}/ban`, { reason: 'x' })).status).toBe(401);
    const user = new Client(t.url);
    await user.login(DEMO);
    const r = await user.post(`/api/admin/users/${demo.id}/ban`, { reason: 'x' });
    expect(r.status).toBe(403);
    const g = await user.gql('mutation($id: ID!) { banUser(input: { userId: $id, reason: "x" }) { user { id } } }', { id: gid('User', demo.id) });
    expect(g.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const g2 = await anon.gql('mutation($id: ID!) { banUser(input: { userId: $id, reason: "x" }) { user { id } } }', { id: gid('User', demo.id) });
    expect(g2.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: demo.id } })).isBanned).toBe(false);
  });

  it('blocks cross-site REST writes with a cookie', async () => {
    const c = new Client(t.url);
    await c.login(DEMO);
    const r = await c.post('/api/auth/logout', {}, { origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    expect(r.json.error).toBe('Forbidden');
    const r2 = await c.post('/api/auth/logout', {}, { 'sec-fetch-site': 'cross-site' });
    expect(r2.status).toBe(403);
    expect((await c.get('/api/auth/status')).json.authenticated).toBe(true);
    const same = await c.post('/api/auth/logout', {}, { origin: t.url });
    expect(same.status).toBe(200);
  });

  it('blocks GraphQL GET requests without the CSRF-prevention header', async () => {
    const c = new Client(t.url);
    const blocked = await c.get('/graphql?query=' + encodeURIComponent('{ authStatus { authenticated } }'), {
      accept: 'application/graphql-response+json',
    });
    expect(blocked.status).toBe(403);
    expect(blocked.json.errors[0].message).toBe('Required CSRF header(s) not present');
    expect(blocked.json.data).toBeUndefined();
    const ok = await c.get('/graphql?query=' + encodeURIComponent('{ authStatus { authenticated } }'), { 'x-graphql-yoga-csrf': '1' });
    expect(ok.json.data.authStatus.authenticated).toBe(false);
    // a form-like POST (what another site's page can send without asking) is refused as well
    const simple = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query: 'mutation { logout { authStatus { authenticated } } }' }) });
    expect(simple.status).toBe(403);
  });
});

describe('accounts over GraphQL', () => {
  it('registers, reads status and viewer, logs out', async () => {
    const c = new Client(t.url);
    const reg = await c.gql(
      `mutation($input: RegisterInput!) { register(input: $input) { authStatus { authenticated user { email isAdmin name } } viewer { email todaysUsage { chatQueriesUsed } } } }`,
      { input: { ...valid, email: 'gql@example.com' } },
    );
    expect(reg.data.register).toEqual({
      authStatus: { authenticated: true, user: { email: 'gql@example.com', isAdmin: false, name: 'Grace Hopper' } },
      viewer: { email: 'gql@example.com', todaysUsage: { chatQueriesUsed: 0 } },
    });
    const me = await c.gql('{ authStatus { authenticated } viewer { email crmType industry } }');
    expect(me.data).toEqual({ authStatus: { authenticated: true }, viewer: { email: 'gql@example.com', crmType: 'hubspot', industry: 'it_software' } });
    expect((await c.gql('mutation { logout { authStatus { authenticated } viewer { id } } }')).data.logout).toEqual({ authStatus: { authenticated: false }, viewer: null });
    expect((await c.gql('{ viewer { email } }')).data.viewer).toBeNull();
  });

  it('returns coded errors for bad input, bad credentials and suspension', async () => {
    const c = new Client(t.url);
    const bad = await c.gql(`mutation($input: RegisterInput!) { register(input: $input) { authStatus { authenticated } } }`, {
      input: { ...valid, email: 'g2@example.com', confirmPassword: 'nope' },
    });
    expect(bad.errors?.[0]).toMatchObject({ message: "Passwords don't match", extensions: { code: 'BAD_USER_INPUT', field: 'confirmPassword' } });
    const wrong = await c.gql(`mutation { login(input: { email: "${DEMO.email}", password: "x" }) { authStatus { authenticated } } }`);
    expect(wrong.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const ok = await c.gql(`mutation { login(input: { email: "${ADMIN.email}", password: "${ADMIN.password}" }) { authStatus { authenticated user { isAdmin } } viewer { isAdmin } } }`);
    expect(ok.data.login).toEqual({ authStatus: { authenticated: true, user: { isAdmin: true } }, viewer: { isAdmin: true } });
  });
});
