/**
 * GraphQL overhead of a signed-in request.   npx tsx tests/bench/graphql-overhead.ts [seconds] [embedded|postgres]
 *
 * autocannon (10 connections) against an authenticated cheap query (`{ usage { chatQueriesUsed } }`)
 * on the real app, and, in the same run, against a bare graphql-yoga server answering a constant: the
 * figure is the ratio of the two request rates. Target: ≥ 0.5 on PostgreSQL, ≥ 0.3 on the embedded default.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createSchema, createYoga } from 'graphql-yoga';
import { buildApp } from '../../api/app.js';
import { loadConfig } from '../../api/config.js';
import { createLogger } from '../../api/logger.js';
import { Client, testConfig } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-db.js';

const seconds = Number(process.argv[2] ?? 8);
const mode = (process.argv[3] ?? 'postgres') as 'embedded' | 'postgres';
const BODY = JSON.stringify({ query: '{ usage { chatQueriesUsed } }' });

async function rate(url: string, headers: Record<string, string>): Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }> {
  const r = await autocannon({ url, method: 'POST', connections: 10, duration: seconds, headers: { 'content-type': 'application/json', ...headers }, body: BODY });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

async function bare() {
  const yoga = createYoga({ schema: createSchema({ typeDefs: 'type U { chatQueriesUsed: Int! } type Query { usage: U! }', resolvers: { Query: { usage: () => ({ chatQueriesUsed: 0 }) } } }), logging: false });
  const server = createServer(yoga);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/graphql`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const db = mode === 'postgres' ? await createTestDatabase('crm_bench') : undefined;
const config = db
  ? testConfig(db.url, { SANDBOX_CONTACTS: '100' })
  : loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'crm-bench-')), LOG_LEVEL: 'silent', SANDBOX_CONTACTS: '100', PORT: '0' });
const app = buildApp(config, { logger: createLogger('silent'), onSeeded: () => {} });
const { url } = await app.start(0);
try {
  const c = new Client(url);
  const email = `bench${Date.now()}@example.com`;
  await c.post('/api/auth/register', { firstName: 'B', lastName: 'B', email, crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456' });
  const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const baseline = await bare();
  const base = await rate(baseline.url, {});
  const ours = await rate(`${url}/graphql`, { cookie });
  const anon = await rate(`${url}/graphql`, {});
  await baseline.close();
  console.log(JSON.stringify({ mode, seconds, bare: base, signedIn: ours, anonymous: anon, ratio: +(ours.rps / base.rps).toFixed(3) }, null, 2));
} finally {
  await app.stop();
  await db?.drop();
}
