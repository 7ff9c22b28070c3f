// Defects an outside probe found, each pinned by a test: GraphQL cost limits, websocket origins,
// subscriptions that outlive their session, CORS, security headers, production GraphiQL and
// introspection, and text that used to answer 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalID } from '@pothos/plugin-relay';
import WebSocket from 'ws';
import { createTransport } from '../../client/index.js';
import { recordPrismaCalls } from '../helpers/prisma-recorder.js';
import { connectedUser } from '../helpers/crm.js';
import { until } from '../helpers/wait.js';
import { ADMIN, Client, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '300', PUBLIC_URL: 'https://crm.example.com' });
});
afterAll(async () => {
  await t?.close();
});

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

describe('GraphQL cost limits', () => {
  it('refuses 1,000 aliases of a nested page before any resolver or database call', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const fields = Array.from({ length: 1000 }, (_x, i) => `a${i}: queryHistory { edges { node { customers(first: 100) { edges { node { id email } } } } } }`).join('\n');
    let r: Awaited<ReturnType<Client['post']>> | undefined;
    const calls = await recordPrismaCalls(t.app.deps, async () => {
      r = await c.post('/graphql', { query: `{ ${fields} }` });
    });
    expect(r!.status).toBeLessThan(500);
    expect(r!.json.data ?? null).toBeNull();
    expect(r!.json.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(calls.filter((x) => !x.call.startsWith('session'))).toEqual([]);
  });

  it('refuses nested pages that could return too many items, even within the alias limit', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const fields = Array.from({ length: 10 }, (_x, i) => `h${i}: queryHistory(first: 50) { edges { node { customers(first: 100) { edges { node { id } } } } } }`).join('\n');
    const r = await c.post('/graphql', { query: `{ ${fields} }` });
    expect(r.json.data ?? null).toBeNull();
    expect(r.json.errors[0]).toMatchObject({ extensions: { code: 'QUERY_TOO_COMPLEX' } });
    expect(r.json.errors[0].message).toMatch(/could return 50,\d{3} items|Cost limit/);
    // Page sizes given as variables count too.
    const v = await c.post('/graphql', { query: 'query($n: Int) { queryHistory(first: $n) { edges { node { customers(first: $n) { edges { node { id } } } } } } }', variables: { n: 1000 } });
    expect(v.json.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('refuses huge documents and batched arrays, and still serves a real client query', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const nested = '{ __typename ' + 'a: __typename '.repeat(3000) + '}';
    const huge = await c.post('/graphql', { query: nested });
    expect(huge.status).toBeLessThan(500);
    expect(huge.json.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    const batch = await c.post('/graphql', Array.from({ length: 50 }, () => ({ query: '{ viewer { id } }' })));
    expect(batch.status).toBeGreaterThanOrEqual(400);
    expect(batch.status).toBeLessThan(500);
    // The web app's largest screen query stays well inside the limits.
    const real = await c.gql(`{ queryHistory(first: 50) { totalCount edges { node { id naturalLanguage resultCount hasError createdAt
      understood { editable explanation ignoredPhrases limit sort { field direction } clauses { anyOf { field operator negated label countries values
        value { text number boolean date { kind date amount unit direction offset } } from { text number boolean date { kind date amount unit direction offset } }
        to { text number boolean date { kind date amount unit direction offset } } } } }
      messages { id role content } customers(first: 10) { totalCount edges { cursor node { id firstName lastName email company lifecycleStage lastPurchaseDate lastPurchaseAmount lifetimeValue city state country } } pageInfo { startCursor endCursor } } } } }
      segmentFields { field label kind operators options example } usage { id chatQueriesUsed chatQueryLimit smartSegmentsUsed smartSegmentLimit tierName } }`);
    expect(real.errors).toBeUndefined();
  });

  it('refuses a list argument longer than 200 before any resolver: nodes(ids:) with 20,000 ids, anonymously', async () => {
    const anon = new Client(t.url);
    // short ids, so that the body stays within GRAPHQL_BODY_LIMIT_BYTES (real global ids would be
    // 1.5 MB: refused as 413 before being read, see body-limits.test.ts)
    const ids = Array.from({ length: 20_000 }, (_x, i) => String(i));
    let r: Awaited<ReturnType<Client['post']>> | undefined;
    const calls = await recordPrismaCalls(t.app.deps, async () => {
      r = await anon.post('/graphql', { query: 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', variables: { ids } });
    });
    expect(r!.status).toBe(400);
    expect(r!.json.data ?? null).toBeNull();
    expect(r!.json.errors[0]).toMatchObject({ message: 'A list argument has 20,000 items; at most 200 are allowed.', extensions: { code: 'QUERY_TOO_COMPLEX' } });
    expect(calls).toEqual([]);
    // 201 ids written in the document, and a list nested inside an input object, are refused alike
    const long = Array.from({ length: 201 }, (_x, i) => encodeGlobalID('SmartSegmentPreset', `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
    const literal = await anon.post('/graphql', { query: `{ nodes(ids: [${long.map((id) => JSON.stringify(id)).join(',')}]) { id } }` });
    expect(literal.json.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    const segment = { clauses: [{ anyOf: [{ field: 'country', operator: 'IN', values: Array.from({ length: 201 }, (_x, i) => `C${i}`) }] }] };
    const nested = await anon.post('/graphql', { query: 'mutation($s: SegmentInput!) { rerunQuery(input: { queryId: "x", segment: $s }) { resultCount } }', variables: { s: segment } });
    expect(nested.json.errors[0]).toMatchObject({ message: 'A list argument has 201 items; at most 200 are allowed.', extensions: { code: 'QUERY_TOO_COMPLEX' } });
  });

  it('counts list arguments in the cost rule: each id of nodes(ids:) as a read of its own, times its nested pages', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const ids = Array.from({ length: 150 }, (_x, i) => encodeGlobalID('CustomerQuery', `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
    const r = await c.post('/graphql', {
      query: 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on CustomerQuery { customers(first: 100) { edges { node { id } } } } } }',
      variables: { ids },
    });
    expect(r.json.errors?.[0]).toMatchObject({ extensions: { code: 'QUERY_TOO_COMPLEX' } });
    expect(r.json.errors[0].message).toBe('This request could return 750,150 items; at most 20,000 are allowed. Ask for smaller pages.');
    // two full lists of ids are more reads than one request may make
    const full = Array.from({ length: 200 }, (_x, i) => encodeGlobalID('SmartSegmentPreset', `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
    const twice = await c.post('/graphql', { query: 'query($ids: [ID!]!) { a: nodes(ids: $ids) { id } b: nodes(ids: $ids) { id } }', variables: { ids: full } });
    expect(twice.json.errors?.[0]).toMatchObject({ extensions: { code: 'QUERY_TOO_COMPLEX' } });
  });

  it('serves the largest allowed list (200 ids) without an error', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const real = await t.app.deps.prisma.smartSegmentPreset.findMany({ where: { isActive: true, category: { isActive: true } }, select: { id: true } });
    const ids = Array.from({ length: 200 }, (_x, i) =>
      encodeGlobalID('SmartSegmentPreset', real[i]?.id ?? `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`),
    );
    const r = await c.post('/graphql', { query: 'query($ids: [ID!]!) { nodes(ids: $ids) { id ... on SmartSegmentPreset { name } } }', variables: { ids } });
    expect(r.status).toBe(200);
    expect(r.json.errors).toBeUndefined();
    expect(r.json.data.nodes).toHaveLength(200);
    expect(r.json.data.nodes.filter(Boolean)).toHaveLength(real.length);
  });

  it('caps every connection page at 100', async () => {
    const admin = new Client(t.url);
    await admin.login(ADMIN);
    for (let i = 0; i < 3; i++) await connectedUser(t.app, t.url);
    const r = await admin.gql('{ adminUsers(first: 5000) { edges { node { id } } } }');
    expect(r.errors).toBeUndefined();
    expect(r.data.adminUsers.edges.length).toBeLessThanOrEqual(100);
  });
});

describe('websocket origin', () => {
  const open = (headers: Record<string, string>) =>
    new Promise<{ opened: boolean; status?: number }>((resolve) => {
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers });
      ws.once('open', () => {
        ws.close();
        resolve({ opened: true });
      });
      ws.once('unexpected-response', (_req, res) => resolve({ opened: false, status: res.statusCode }));
      ws.once('error', () => resolve({ opened: false }));
    });

  it('refuses another site, accepts the app itself, PUBLIC_URL and clients without Origin', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const cookie = cookieOf(c);
    expect(await open({ cookie, origin: 'https://evil.example' })).toEqual({ opened: false, status: 403 });
    expect(await open({ cookie, origin: t.url })).toEqual({ opened: true });
    expect(await open({ cookie, origin: 'https://crm.example.com' })).toEqual({ opened: true });
    expect(await open({ cookie })).toEqual({ opened: true });
  });
});

describe('subscriptions end with their credential', () => {
  function subscribeUsage(cookie: string) {
    class CookieSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { cookie } });
      }
    }
    let closeCode: number | undefined;
    const events: unknown[] = [];
    const transport = createTransport({
      url: `${t.url}/graphql`,
      webSocketImpl: CookieSocket,
      ws: { retryAttempts: 0, lazy: false, on: { closed: (e) => (closeCode = (e as { code?: number }).code) } },
    });
    transport.subscribe('subscription { usageUpdated { chatQueriesUsed } }', undefined, { next: (v) => events.push(v), error: () => {}, complete: () => {} });
    return { transport, events, closeCode: () => closeCode };
  }
  const settled = (check: () => boolean) => until(check, { timeoutMs: 5000 }).then(() => true, () => check());

  it('closes the socket with 4401 on logout and delivers nothing after', async () => {
    const u = await connectedUser(t.app, t.url);
    const sub = subscribeUsage(cookieOf(u.c));
    await new Promise((r) => setTimeout(r, 300)); // connected and subscribed
    expect((await u.c.post('/api/auth/logout', {})).status).toBe(200);
    expect(await settled(() => sub.closeCode() === 4401)).toBe(true);
    t.app.deps.events.pubsub.publish('usageUpdated', u.userId, { userId: u.userId, chatQueriesUsed: 9, chatQueryLimit: 10, smartSegmentsUsed: 0, smartSegmentLimit: 3, tierName: 'Free Plan' });
    await new Promise((r) => setTimeout(r, 200));
    expect(sub.events).toEqual([]);
    await sub.transport.dispose();
  });

  it('closes every socket of a banned user with 4401', async () => {
    const u = await connectedUser(t.app, t.url);
    const a = subscribeUsage(cookieOf(u.c));
    const b = subscribeUsage(cookieOf(u.c));
    await new Promise((r) => setTimeout(r, 300));
    const admin = new Client(t.url);
    await admin.login(ADMIN);
    expect((await admin.post(`/api/admin/users/${u.userId}/ban`, { reason: 'probe' })).status).toBe(200);
    expect(await settled(() => a.closeCode() === 4401 && b.closeCode() === 4401)).toBe(true);
    await a.transport.dispose();
    await b.transport.dispose();
  });
});

describe('CORS and security headers', () => {
  it('gives CORS headers to the app itself only', async () => {
    const evil = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await fetch(`${t.url}/graphql`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const own = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { origin: 'https://crm.example.com', 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    expect(own.headers.get('access-control-allow-origin')).toBe('https://crm.example.com');
  });

  it('sends a CSP, frame-ancestors none, nosniff, a referrer policy and HSTS over https', async () => {
    for (const path of ['/', '/api/auth/status', '/healthz']) {
      const r = await fetch(`${t.url}${path}`);
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain('https://cdn.paddle.com');
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(r.headers.get('strict-transport-security')).toContain('max-age='); // PUBLIC_URL is https here
    }
  });

  it('serves GraphiQL in development without any external script', async () => {
    const r = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('GraphiQL');
    expect(html.match(/(src|href)=["']https?:/g) ?? []).toEqual([]);
  });
});

describe('production', () => {
  it('has no GraphiQL, no introspection and no field suggestions', async () => {
    const prod = await startTestApp({ NODE_ENV: 'production', SANDBOX_CONTACTS: '50' });
    try {
      const page = await fetch(`${prod.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(await page.text()).not.toContain('GraphiQL');
      const c = new Client(prod.url);
      const intro = await c.gql('{ __schema { types { name } } }');
      expect(intro.errors?.length).toBeGreaterThan(0);
      const typo = await c.gql('{ authStatu { authenticated } }');
      expect(typo.errors?.[0].message).not.toMatch(/Did you mean/);
    } finally {
      await prod.close();
    }
  });
});

describe('text that used to answer 500', () => {
  const NUL = 'a\u0000b';
  it.each([
    ['login', '/api/auth/login', { email: NUL, password: 'x' }],
    ['register', '/api/auth/register', { firstName: NUL, lastName: 'L', email: 'n@example.com', crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456' }],
    ['a question', '/api/queries', { naturalLanguage: `leads ${NUL}` }],
    ['a segment', '/api/segments', { description: NUL }],
    ['a CRM token', '/api/crm/token', { token: 'pat-\u0000' }],
    ['a lone surrogate', '/api/segments', { description: 'x\ud800y' }],
  ])('REST: %s is a 400 and uses no quota', async (_label, path, body) => {
    const u = await connectedUser(t.app, t.url);
    const r = await u.c.post(path, body);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error: expect.any(String), message: expect.stringMatching(/NUL|surrogate/) });
    expect((await u.c.get('/api/usage/current')).json.chatQueriesUsed).toBe(0);
  });

  it('REST: a body nested 2,000 levels deep is a 400', async () => {
    const u = await connectedUser(t.app, t.url);
    const deep = `{"segment":${'{"and":['.repeat(2000)}${']}'.repeat(2000)},"naturalLanguage":"x"}`;
    const res = await fetch(`${t.url}/api/queries`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: cookieOf(u.c) }, body: deep });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/nested too deeply/);
  });

  it('GraphQL: NUL bytes in variables and in literals are BAD_USER_INPUT and use no quota', async () => {
    const u = await connectedUser(t.app, t.url);
    const viaVariable = await u.c.gql('mutation($q: String) { runQuery(input: { naturalLanguage: $q }) { resultCount } }', { q: 'leads \u0000' });
    expect(viaVariable.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const viaLiteral = await u.c.gql('mutation { createSavedSegment(input: { description: "a\\u0000b" }) { savedSegment { id } } }');
    expect(viaLiteral.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const login = await new Client(t.url).gql('mutation { login(input: { email: "\\u0000", password: " " }) { authStatus { authenticated } } }');
    expect(login.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await u.c.get('/api/usage/current')).json.chatQueriesUsed).toBe(0);
  });
});
