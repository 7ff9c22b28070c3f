// Property-based fuzzing (fast-check) of every REST write route and every GraphQL mutation input:
// wrong types, missing fields, huge and unicode strings, NUL bytes, lone surrogates, deep nesting and
// prototype keys. Whatever arrives: never a 5xx, never a stack trace, and a refused request leaves
// the database and the usage counters exactly as they were.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalID as gid } from '@pothos/plugin-relay';
import { connectedUser } from '../helpers/crm.js';
import { ADMIN, Client, startTestApp, type TestApp } from '../helpers/test-app.js';
import { REST } from './authorization-matrix.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
// A fixed seed keeps CI reproducible; FUZZ_SEED=random (or a number) explores further.
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() : Number(process.env.FUZZ_SEED ?? 20261123);
const schema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));

let t: TestApp;
let owner: Client;
let admin: Client;
const ids: Record<string, string> = {};
const tally = { requests: 0, refused: 0, serverErrors: 0 };

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '200' });
  const u = await connectedUser(t.app, t.url, 'pro');
  owner = u.c;
  admin = new Client(t.url);
  await admin.login(ADMIN);
  const q = await owner.post('/api/queries', { naturalLanguage: 'leads in Europe' });
  const s = await owner.post('/api/segments', { description: 'customers in Canada' });
  ids.query = q.json.query.id;
  ids.segment = s.json.id;
  ids.user = u.userId;
}, 120_000);

afterAll(async () => {
  console.log(`fuzz: ${tally.requests} requests, ${tally.refused} refused, ${tally.serverErrors} server errors`);
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// Values

const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  'pat-\u0000',
  '\ud800',
  'x\udfffy',
  '\u202e\u200b',
  '💥'.repeat(50),
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '../../etc/passwd',
  '__proto__',
  'constructor',
  '%s%n',
  ' ',
  '',
);
const hugeString = fc.constantFrom('x'.repeat(10_001), 'é'.repeat(70_000), 'a '.repeat(40_000));
const text = fc.oneof({ weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) }, { weight: 3, arbitrary: nasty }, { weight: 1, arbitrary: hugeString });
const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(2 ** 53), fc.constant(-1), fc.boolean(), fc.constant(null));
const protoKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty');

const { json } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('json'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), protoKey), tie('json'), { maxKeys: 5 }),
}));

/** JSON nested far deeper than any real payload (built as text: JSON.stringify would recurse). */
const deepJson = fc.integer({ min: 100, max: 2500 }).map((depth) => ({ raw: `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}` }));

/** A value for a GraphQL input type: mostly of the right shape, with hostile leaves, sometimes not. */
function forType(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return forType(type.ofType, depth);
  if (isListType(type)) return fc.array(forType(type.ofType, depth + 1), { maxLength: depth > 2 ? 1 : 4 });
  const named = getNamedType(type);
  if (isEnumType(named)) return fc.oneof(fc.constantFrom(...named.getValues().map((v) => v.name)), text);
  if (isScalarType(named)) {
    switch (named.name) {
      case 'Int':
        return fc.oneof(fc.integer({ min: -5, max: 20 }), fc.integer(), fc.constant(2 ** 40));
      case 'Float':
        return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
      case 'Boolean':
        return fc.boolean();
      case 'ID':
        return fc.oneof(text, fc.constantFrom(gid('CustomerQuery', ids.query ?? ''), gid('SavedSegment', ids.segment ?? ''), ids.query ?? ''));
      case 'JSON':
        return json;
      default:
        return text;
    }
  }
  if (isInputObjectType(named) && depth < 4) {
    const fields = Object.values(named.getFields());
    return fc.record(Object.fromEntries(fields.map((f) => [f.name, forType(f.type, depth + 1)])), { requiredKeys: [] });
  }
  return fc.constant(null);
}

// ---------------------------------------------------------------------------------------------
// What must hold

/** Row counts of every table and the usage counters: unchanged by a refused request. */
async function fingerprint(): Promise<string> {
  const rows = await t.app.deps.prisma.$queryRawUnsafe<{ t: string; n: bigint }[]>(`
    SELECT 'users' t, count(*) n FROM users UNION ALL SELECT 'sessions', count(*) FROM sessions WHERE revoked_at IS NULL
    UNION ALL SELECT 'queries', count(*) FROM queries UNION ALL SELECT 'segments', count(*) FROM segments
    UNION ALL SELECT 'tiers', count(*) FROM pricing_tiers UNION ALL SELECT 'categories', count(*) FROM smart_segment_categories
    UNION ALL SELECT 'presets', count(*) FROM smart_segment_presets UNION ALL SELECT 'formulas', count(*) FROM impact_score_formulas
    UNION ALL SELECT 'favorites', count(*) FROM user_segment_favorites UNION ALL SELECT 'daily', count(*) FROM daily_generated_segments
    UNION ALL SELECT 'integrations', count(*) FROM user_integrations UNION ALL SELECT 'audit', count(*) FROM audit_logs
    UNION ALL SELECT 'tokens', count(*) FROM personal_access_tokens WHERE revoked_at IS NULL
    UNION ALL SELECT 'banned', count(*) FROM users WHERE is_banned
    UNION ALL SELECT 'chat_used', coalesce(sum(chat_queries_used), 0) FROM daily_usage
    UNION ALL SELECT 'unlocks_used', coalesce(sum(smart_segments_used), 0) FROM daily_usage`);
  return rows.map((r) => `${r.t}=${r.n}`).join(' ');
}

function expectCleanAnswer(status: number, text: string, label: string) {
  tally.requests++;
  if (status >= 500) tally.serverErrors++;
  expect({ label, status: status >= 500 ? status : 'ok' }).toEqual({ label, status: 'ok' });
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  expect(text).not.toMatch(/PrismaClient|prisma\.|node_modules/);
}

async function rawPost(client: Client, method: string, path: string, body: unknown) {
  const raw = body && typeof body === 'object' && 'raw' in (body as object) ? (body as { raw: string }).raw : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: t.url };
  if (client.cookies.size) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(t.url + path, { method, headers, body: raw });
  return { status: res.status, text: await res.text() };
}

// ---------------------------------------------------------------------------------------------

// Not fuzzed: reads, the calls that end the fuzzer's own session, and generation (it reads no input
// and runs for every user: the matrix calls it).
const writeRoutes = Object.entries(REST).filter(
  ([key]) => !key.startsWith('GET ') && !/\/logout|\/disconnect|\/generate/.test(key),
);

describe('REST write routes', () => {
  for (const [key, entry] of writeRoutes) {
    it(`${key}: never a 5xx, and a refusal changes nothing`, async () => {
      const [method, route] = key.split(' ');
      const client = entry.access === 'admin' ? admin : owner;
      const path = entry.path?.(fakeFixtures()) ?? route;
      await fc.assert(
        fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: json }, { weight: 1, arbitrary: deepJson }), async (body) => {
          const before = await fingerprint();
          const r = await rawPost(client, method, path, body);
          expectCleanAnswer(r.status, r.text, key);
          if (r.status >= 400) {
            tally.refused++;
            expect(await fingerprint()).toBe(before);
          }
        }),
        // A route that reads no body gets a few runs only (it sees the same request every time).
        { numRuns: entry.body ? RUNS : 3, seed: SEED },
      );
    });
  }
});

/** Route parameters: the owner's real objects where there are some, unknown uuids elsewhere. */
function fakeFixtures() {
  const unknown = { id: '7a1e3c0e-6a55-4c61-9d43-1b1c5f3f2b11', gid: '' };
  const spare = { categoryId: unknown.id, categoryGid: '', presetId: unknown.id, presetGid: '', formulaId: unknown.id, formulaGid: '' };
  return {
    query: { id: ids.query },
    savedSegment: { id: ids.segment },
    savedSegmentRest: { id: ids.segment },
    daily: unknown,
    unlockedDaily: unknown,
    preset: unknown,
    category: unknown,
    tier: unknown,
    victim: unknown,
    spare,
    spareRest: spare,
  } as never;
}

const mutations = Object.values((schema.getType('Mutation') as GraphQLObjectType).getFields()).filter(
  (m) => m.args.length > 0 && !['logout', 'changePassword'].includes(m.name),
);

describe('GraphQL mutations', () => {
  for (const m of mutations) {
    it(`${m.name}: never a 5xx or an internal error, and a refusal changes nothing`, async () => {
      const isAdmin = ['banUser', 'unbanUser', 'createPricingTier', 'updatePricingTier', 'clearSmartSegments', 'runCleanup'].includes(m.name) || m.name.includes('SmartSegmentCategory') || m.name.includes('Preset') || m.name.includes('Formula');
      const client = isAdmin ? admin : owner;
      const varDefs = m.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const callArgs = m.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const document = `mutation(${varDefs}) { ${m.name}(${callArgs}) { __typename } }`;
      const variables = fc.oneof(
        { weight: 4, arbitrary: fc.record(Object.fromEntries(m.args.map((a) => [a.name, forType(a.type)]))) },
        { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), protoKey), json, { maxKeys: 3 }) },
      );
      await fc.assert(
        fc.asyncProperty(variables, async (vars) => {
          const before = await fingerprint();
          const r = await rawPost(client, 'POST', '/graphql', { query: document, variables: vars });
          expectCleanAnswer(r.status, r.text, m.name);
          const body = JSON.parse(r.text) as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] };
          const codes = (body.errors ?? []).map((e) => e.extensions?.code);
          expect({ mutation: m.name, internal: codes.includes('INTERNAL_SERVER_ERROR') }).toEqual({ mutation: m.name, internal: false });
          if (body.errors?.length && !body.data?.[m.name]) {
            tally.refused++;
            expect(await fingerprint()).toBe(before);
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });
  }
});
