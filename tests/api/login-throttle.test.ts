// The sign-in throttle (issue 22, items 1, 5, 6, 7): an attempt is taken atomically before the
// password is checked, so a burst evaluates at most the limit; every door that checks a password
// (REST and GraphQL sign-in, personal-access-token creation, password change) shares it; an address
// has its own budget across e-mails; registration is limited per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';
import { registerUser } from '../helpers/crm.js';

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
const LOGIN = 'mutation($input: LoginInput!) { login(input: $input) { authStatus { authenticated } } }';
const PAT = 'mutation($input: CreatePersonalAccessTokenInput!) { createPersonalAccessToken(input: $input) { token } }';
const CHANGE = 'mutation($input: ChangePasswordInput!) { changePassword(input: $input) { viewer { id } } }';

/** The HTTP status of a GraphQL answer, from its first error's code (200 when it has none). */
async function gqlStatus(c: Client, query: string, variables: Record<string, unknown>): Promise<number> {
  const r = await c.post('/graphql', { query, variables });
  const code = r.json?.errors?.[0]?.extensions?.code;
  return code === 'RATE_LIMITED' ? 429 : code === 'UNAUTHENTICATED' ? 401 : code === 'BAD_USER_INPUT' ? 400 : code ? 500 : 200;
}

describe('per e-mail and address (LOGIN_MAX_FAILURES)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SANDBOX_CONTACTS: '50', LOGIN_MAX_FAILURES: '10', LOGIN_IP_MAX_FAILURES: '100000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('50 wrong passwords sent at once: exactly 10 are evaluated, the rest get 429 with Retry-After', async () => {
    const { email } = await registerUser(t.url);
    const results = await Promise.all(Array.from({ length: 50 }, () => new Client(t.url).post('/api/auth/login', { email, password: 'wrong-password-1' })));
    expect(tally(results.map((r) => r.status))).toEqual({ 401: 10, 429: 40 });
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.json.error).toBe('Too many login attempts');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    }
    // the right password is refused too until the window ends: the attacker learns nothing
    expect((await new Client(t.url).post('/api/auth/login', { email, password: 'pw-123456' })).status).toBe(429);
  });

  it('REST sign-in, GraphQL sign-in and token creation share one budget, also in a burst', async () => {
    const { email } = await registerUser(t.url);
    const input = { email, password: 'wrong-password-1' };
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_x, i) =>
        i % 3 === 0
          ? new Client(t.url).post('/api/auth/login', input).then((r) => r.status)
          : i % 3 === 1
            ? gqlStatus(new Client(t.url), LOGIN, { input })
            : gqlStatus(new Client(t.url), PAT, { input: { ...input, name: 'probe' } }),
      ),
    );
    expect(tally(statuses)).toEqual({ 401: 10, 429: 20 });
    const graphql = await new Client(t.url).gql(LOGIN, { input });
    expect(graphql.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(graphql.errors?.[0].extensions?.retryAfter).toBeGreaterThan(0);
  });

  it('a successful sign-in clears the failures of that e-mail and address', async () => {
    const { email } = await registerUser(t.url);
    for (let i = 0; i < 9; i++) expect((await new Client(t.url).post('/api/auth/login', { email, password: 'nope-nope' })).status).toBe(401);
    expect((await new Client(t.url).post('/api/auth/login', { email, password: 'pw-123456' })).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await new Client(t.url).post('/api/auth/login', { email, password: 'nope-nope' })).status).toBe(401);
    expect((await new Client(t.url).post('/api/auth/login', { email, password: 'nope-nope' })).status).toBe(429);
  });

  it('changePassword: guesses of the current password are throttled like sign-in, bursts included', async () => {
    const u = await registerUser(t.url);
    const input = { currentPassword: 'not-the-password', newPassword: 'brand-new-password-1', confirmPassword: 'brand-new-password-1' };
    const statuses = await Promise.all(Array.from({ length: 25 }, () => gqlStatus(u.c, CHANGE, { input })));
    expect(tally(statuses)).toEqual({ 400: 10, 429: 15 });
    // the right current password is refused too while the window lasts; the password is unchanged
    const right = await u.c.gql(CHANGE, { input: { ...input, currentPassword: 'pw-123456' } });
    expect(right.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    expect((await new Client(t.url).post('/api/auth/login', { email: u.email, password: 'brand-new-password-1' })).status).toBe(429);
    const fresh = await registerUser(t.url);
    const ok = await fresh.c.gql(CHANGE, { input: { ...input, currentPassword: 'pw-123456' } });
    expect(ok.errors).toBeUndefined();
  });
});

describe('per address across e-mails (LOGIN_IP_MAX_FAILURES) and registration (REGISTER_MAX_PER_IP)', () => {
  let t: TestApp;
  let now = new Date('2026-11-20T10:00:00Z');
  beforeAll(async () => {
    t = await startTestApp({ SANDBOX_CONTACTS: '50', LOGIN_IP_MAX_FAILURES: '6', REGISTER_MAX_PER_IP: '3' }, { now: () => now });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('successful sign-ins do not use the address budget', async () => {
    for (let i = 0; i < 12; i++) expect((await new Client(t.url).post('/api/auth/login', DEMO)).status).toBe(200);
  });

  it('one address trying one password against many accounts is stopped after the budget, for an hour', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_x, i) => new Client(t.url).post('/api/auth/login', { email: `victim${i}@example.com`, password: 'Summer2026!' }).then((r) => r.status)),
    );
    expect(tally(statuses)).toEqual({ 401: 6, 429: 14 });
    const next = await new Client(t.url).post('/api/auth/login', { email: 'another@example.com', password: 'Summer2026!' });
    expect(next.status).toBe(429);
    const retryAfter = Number(next.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(55 * 60);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    // everything from this address waits, a real account's right password included
    expect((await new Client(t.url).post('/api/auth/login', ADMIN)).status).toBe(429);
    now = new Date(now.getTime() + 61 * 60_000);
    expect((await new Client(t.url).post('/api/auth/login', ADMIN)).status).toBe(200);
  });

  it('registration is limited per address (429 with Retry-After), taken or not', async () => {
    const body = (email: string) => ({ firstName: 'R', lastName: 'L', email, crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456' });
    expect((await new Client(t.url).post('/api/auth/register', body('r1@example.com'))).status).toBe(201);
    expect((await new Client(t.url).post('/api/auth/register', body('r1@example.com'))).status).toBe(409);
    // a form that is not valid is not an attempt
    expect((await new Client(t.url).post('/api/auth/register', { ...body('r9@example.com'), confirmPassword: 'other' })).status).toBe(400);
    expect((await new Client(t.url).post('/api/auth/register', body('r2@example.com'))).status).toBe(201);
    const limited = await new Client(t.url).post('/api/auth/register', body('r3@example.com'));
    expect(limited.status).toBe(429);
    expect(limited.json.error).toBe('Too many registrations');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const gql = await new Client(t.url).gql('mutation($input: RegisterInput!) { register(input: $input) { authStatus { authenticated } } }', { input: body('r4@example.com') });
    expect(gql.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    expect(await t.app.deps.prisma.user.count({ where: { email: { in: ['r3@example.com', 'r4@example.com'] } } })).toBe(0);
  });
});
