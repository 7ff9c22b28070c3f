// The authorization matrix (tests/api/authorization-matrix.ts) against the real server: every GraphQL
// root field and subscription of schema.graphql, every Node type and every /api route of the app's
// route table, for anonymous, a banned user, another user, the owner and an administrator. A field
// or route without an entry in the matrix fails here.
import { readFileSync } from 'node:fs';
import { encodeGlobalID as gid } from '@pothos/plugin-relay';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTransport } from '../../client/index.js';
import { registeredNodeTypes } from '../../api/schema/node-access.js';
import { connectedUser } from '../helpers/crm.js';
import { ADMIN, Client, startTestApp, type TestApp } from '../helpers/test-app.js';
import { receiveUpload } from '../../api/services/contact-imports/index.js';
import { GRAPHQL, NODES, REST, ROLES, type Access, type Fixtures, type Role, type Spare } from './authorization-matrix.js';

const schema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
const rootFields = (t: 'Query' | 'Mutation' | 'Subscription') => Object.keys((schema.getType(t) as GraphQLObjectType).getFields()).sort();
const nodeTypes = Object.values(schema.getTypeMap())
  .filter((t) => 'getInterfaces' in t && (t as GraphQLObjectType).getInterfaces().some((i) => i.name === 'Node'))
  .map((t) => t.name)
  .sort();

const PASSWORD = 'pw-123456';
let t: TestApp;
let f: Fixtures;
/** Role → a client holding that role's credential, and how to get a fresh one. */
const clients = {} as Record<Role, Client>;
const emails = {} as Partial<Record<Role, string>>;
const bannedCookies = new Map<string, string>();
/** Results collected for the README's figures. */
const tally = { graphql: 0, rest: 0, subscriptions: 0, nodes: 0, serverErrors: 0 };

async function spare(prefix: string, categoryId: string): Promise<Spare> {
  const prisma = t.app.deps.prisma;
  const category = await prisma.smartSegmentCategory.create({ data: { name: `${prefix}-empty`, displayName: 'Spare' } });
  const preset = await prisma.smartSegmentPreset.create({ data: { name: `${prefix} preset`, categoryId, description: 'leads' } });
  const formula = await prisma.impactScoreFormula.create({ data: { name: `${prefix} formula`, categoryId, formula: 'customerCount' } });
  return {
    categoryId: category.id,
    categoryGid: gid('SmartSegmentCategory', category.id),
    presetId: preset.id,
    presetGid: gid('SmartSegmentPreset', preset.id),
    formulaId: formula.id,
    formulaGid: gid('ImpactScoreFormula', formula.id),
  };
}

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '200' });
  const prisma = t.app.deps.prisma;
  const owner = await connectedUser(t.app, t.url, 'pro');
  const other = await connectedUser(t.app, t.url);
  const banned = await connectedUser(t.app, t.url);
  const victim = await connectedUser(t.app, t.url);
  const admin = new Client(t.url);
  await admin.login(ADMIN);
  Object.assign(clients, { anonymous: new Client(t.url), banned: banned.c, other: other.c, owner: owner.c, admin });
  Object.assign(emails, { other: other.email, owner: owner.email, admin: ADMIN.email });

  const q = await owner.c.post('/api/queries', { naturalLanguage: 'leads in Europe' });
  const s1 = await owner.c.post('/api/segments', { description: 'customers in Canada' });
  const s2 = await owner.c.post('/api/segments', { description: 'customers in France' });
  const pat = await new Client(t.url).gql(
    'mutation($input: CreatePersonalAccessTokenInput!) { createPersonalAccessToken(input: $input) { personalAccessToken { id } } }',
    { input: { email: owner.email, password: PASSWORD, name: 'matrix' } },
  );
  const preset = await prisma.smartSegmentPreset.findFirstOrThrow({ where: { isActive: true, category: { isActive: true } } });
  const presets = await prisma.smartSegmentPreset.findMany({ where: { isActive: true }, take: 2, orderBy: { name: 'asc' } });
  const today = new Date(new Date().toISOString().slice(0, 10));
  const daily = await prisma.dailyGeneratedSegment.create({ data: { userId: owner.userId, presetId: presets[0].id, date: today, customerCount: 1 } });
  const opened = await prisma.dailyGeneratedSegment.create({
    data: {
      userId: owner.userId,
      presetId: presets[1].id,
      date: today,
      customerCount: 1,
      isUnlocked: true,
      hubspotQuery: { searches: [{ filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: 'EQ', value: 'lead' }] }] }] },
    },
  });
  const tier = await prisma.pricingTier.findUniqueOrThrow({ where: { name: 'enterprise' } });
  const file = async () => receiveUpload(t.app.deps, { id: owner.userId }, { fileName: 'matrix.csv', body: (async function* () { yield Buffer.from('Email\r\nmatrix@example.com\r\n'); })() });
  const [importA, importB] = [await file(), await file()];
  f = {
    ownerEmail: owner.email,
    password: PASSWORD,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    query: { id: q.json.query.id, gid: gid('CustomerQuery', q.json.query.id) },
    savedSegment: { id: s1.json.id, gid: gid('SavedSegment', s1.json.id) },
    savedSegmentRest: { id: s2.json.id, gid: gid('SavedSegment', s2.json.id) },
    daily: { id: daily.id, gid: gid('DailySegment', daily.id) },
    unlockedDaily: { id: opened.id, gid: gid('DailySegment', opened.id) },
    accessToken: { gid: pat.data.createPersonalAccessToken.personalAccessToken.id },
    preset: { id: preset.id, gid: gid('SmartSegmentPreset', preset.id) },
    category: { id: preset.categoryId, gid: gid('SmartSegmentCategory', preset.categoryId) },
    tier: { id: tier.id, gid: gid('PricingTier', tier.id) },
    victim: { id: victim.userId, gid: gid('User', victim.userId) },
    contactImport: { id: importA.id, gid: gid('ContactImport', importA.id) },
    contactImportDiscard: { id: importB.id, gid: gid('ContactImport', importB.id) },
    spare: await spare('matrix-gql', preset.categoryId),
    spareRest: await spare('matrix-rest', preset.categoryId),
  };
  // The banned user keeps the cookie of a session that the ban ended.
  expect((await admin.post(`/api/admin/users/${banned.userId}/ban`, { reason: 'matrix' })).status).toBe(200);
  for (const [k, v] of banned.c.cookies) bannedCookies.set(k, v);
}, 120_000);

afterAll(async () => {
  console.log(`authorization matrix: ${tally.graphql} GraphQL, ${tally.subscriptions} subscription, ${tally.nodes} node and ${tally.rest} REST checks; 5xx: ${tally.serverErrors}`);
  await t?.close();
});

/** A client for one call: a copy of the role's credential, or a fresh session when the call ends its own. */
async function clientFor(role: Role, fresh: boolean | undefined): Promise<Client> {
  const c = new Client(t.url);
  if (role === 'anonymous') return c;
  if (role === 'banned') {
    for (const [k, v] of bannedCookies) c.cookies.set(k, v);
    return c;
  }
  if (fresh) {
    await c.login({ email: emails[role]!, password: role === 'admin' ? ADMIN.password : PASSWORD });
    return c;
  }
  for (const [k, v] of clients[role].cookies) c.cookies.set(k, v);
  return c;
}

type Outcome = 'allowed' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND';

function expected(access: Access, role: Role): Outcome {
  if (access === 'public') return 'allowed';
  if (access === 'signed') return 'UNAUTHENTICATED';
  if (role === 'anonymous' || role === 'banned') return 'UNAUTHENTICATED';
  if (access === 'admin') return role === 'admin' ? 'allowed' : 'FORBIDDEN';
  if (access === 'owner') return role === 'owner' ? 'allowed' : 'NOT_FOUND';
  return 'allowed';
}

const AUTH_CODES = ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND'];

describe('the matrix covers the whole API', () => {
  it.each(['Query', 'Mutation', 'Subscription'] as const)('every %s field of schema.graphql has an entry', (type) => {
    expect(Object.keys(GRAPHQL[type]).sort()).toEqual(rootFields(type));
  });

  it('every Node type has an entry and a loader rule', () => {
    expect(Object.keys(NODES).sort()).toEqual(nodeTypes);
    expect(registeredNodeTypes()).toEqual(nodeTypes);
  });

  it('every /api route of the app has an entry', () => {
    const routes = t.app.restRoutes.map((r) => `${r.method} ${r.path}`).sort();
    expect(Object.keys(REST).sort()).toEqual(routes);
  });
});

describe('GraphQL queries and mutations', () => {
  for (const type of ['Query', 'Mutation'] as const) {
    for (const [field, entry] of Object.entries(GRAPHQL[type])) {
      it(`${field} (${entry.access})`, async () => {
        for (const role of ROLES) {
          const want = expected(entry.access, role);
          const client = await clientFor(role, entry.freshSession);
          const r = await client.gql(entry.document, entry.variables?.(f));
          tally.graphql++;
          const code = r.errors?.[0]?.extensions?.code as string | undefined;
          if (code === 'INTERNAL_SERVER_ERROR') tally.serverErrors++;
          const data = r.data?.[field];
          let got: Outcome;
          if (code && AUTH_CODES.includes(code)) got = code as Outcome;
          else if (want === 'NOT_FOUND' && !code && data === null) got = 'NOT_FOUND'; // a nullable owned read: null
          else got = 'allowed';
          expect({ field, role, outcome: got, internal: code === 'INTERNAL_SERVER_ERROR' }).toEqual({ field, role, outcome: want, internal: false });
          if (want === 'allowed' && !code) expect(r.data).toBeTruthy();
        }
      });
    }
  }
});

describe('GraphQL subscriptions', () => {
  for (const [field, entry] of Object.entries(GRAPHQL.Subscription)) {
    it(`${field} (${entry.access})`, async () => {
      for (const role of ROLES) {
        const client = await clientFor(role, false);
        const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
        class CookieSocket extends WebSocket {
          constructor(url: string, protocols?: string | string[]) {
            super(url, protocols, { headers: cookie ? { cookie } : {} });
          }
        }
        const transport = createTransport({ url: `${t.url}/graphql`, webSocketImpl: CookieSocket, ws: { retryAttempts: 0 } });
        const outcome = await new Promise<string>((resolve) => {
          const stop = transport.subscribe(entry.document, entry.variables?.(f), {
            next: (v) => resolve((v.errors?.[0]?.extensions?.code as string) ?? 'allowed'),
            error: (e) => resolve(Array.isArray(e) ? ((e[0]?.extensions?.code as string) ?? 'error') : 'error'),
            complete: () => resolve('complete'),
          });
          // No refusal within this time: the subscription is open and waiting for events.
          setTimeout(() => (stop(), resolve('allowed')), 500);
        });
        await transport.dispose();
        tally.subscriptions++;
        expect({ field, role, outcome }).toEqual({ field, role, outcome: expected(entry.access, role) });
      }
    });
  }
});

describe('REST routes', () => {
  for (const [key, entry] of Object.entries(REST)) {
    it(`${key} (${entry.access})`, async () => {
      const [method, route] = key.split(' ');
      for (const role of ROLES) {
        const want = expected(entry.access, role);
        const client = await clientFor(role, entry.freshSession);
        const path = entry.path?.(f) ?? route;
        const body = entry.body?.(f) ?? (method === 'GET' || method === 'DELETE' ? undefined : {});
        const r = await client.request(method, path, body);
        tally.rest++;
        if (r.status >= 500) tally.serverErrors++;
        const statusOf: Record<Outcome, number> = { allowed: 0, UNAUTHENTICATED: entry.unauthenticatedStatus ?? 401, FORBIDDEN: 403, NOT_FOUND: 404 };
        const got: Outcome =
          r.status === statusOf.UNAUTHENTICATED && want === 'UNAUTHENTICATED' ? 'UNAUTHENTICATED'
          : r.status === 401 ? 'UNAUTHENTICATED'
          : r.status === 403 ? 'FORBIDDEN'
          : r.status === 404 ? 'NOT_FOUND'
          : 'allowed';
        expect({ key, role, outcome: got, serverError: r.status >= 500 }).toEqual({ key, role, outcome: want, serverError: false });
        if (want === 'UNAUTHENTICATED' && entry.unauthenticatedStatus === 302) expect(r.headers.get('location')).toBe('/auth');
      }
    });
  }
});

describe('Node types through node(id)', () => {
  it('load exactly what the viewer may see (the per-type checks live in node-access.test.ts)', async () => {
    for (const role of ROLES) {
      const client = await clientFor(role, false);
      const r = await client.gql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }', { ids: [f.query.gid, f.tier.gid, f.preset.gid] });
      tally.nodes += 3;
      expect(r.errors).toBeUndefined();
      expect(r.data.nodes.map((n: { __typename: string } | null) => n?.__typename ?? null)).toEqual([
        NODES.CustomerQuery[role] ? 'CustomerQuery' : null,
        NODES.PricingTier[role] ? 'PricingTier' : null,
        NODES.SmartSegmentPreset[role] ? 'SmartSegmentPreset' : null,
      ]);
    }
  });
});
