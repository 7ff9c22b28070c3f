/**
 * GraphQL overhead of a signed-in request.   npm run bench -- graphql-overhead [--seconds 5] [--mode postgres|embedded|both]
 *
 * autocannon (10 connections) against an authenticated cheap query (`{ usage { chatQueriesUsed } }`)
 * on the real app, and, in the same round, against a bare graphql-yoga server answering a constant: the
 * figure is the ratio of the two request rates. A round alternates the two sides in 1 s slices (A B B A
 * …, `--seconds` slices each), so a change of the shared machine's load falls on both alike. Target (issue 24): ≥ 0.7 on PostgreSQL and on the embedded default.
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
import type { Bench, BenchContext, FigureInput } from './harness.js';

const BODY = JSON.stringify({ query: '{ usage { chatQueriesUsed } }' });
const TARGET = { postgres: 0.7, embedded: 0.7 } as const;

async function rate(url: string, headers: Record<string, string>, seconds: number) {
  const r = await autocannon({ url, method: 'POST', connections: 10, duration: seconds, headers: { 'content-type': 'application/json', ...headers }, body: BODY });
  return { rps: r.requests.average, p99: r.latency.p99, failed: r.errors + r.timeouts + r.non2xx };
}

async function bare() {
  const yoga = createYoga({ schema: createSchema({ typeDefs: 'type U { chatQueriesUsed: Int! } type Query { usage: U! }', resolvers: { Query: { usage: () => ({ chatQueriesUsed: 0 }) } } }), logging: false });
  const server = createServer(yoga);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/graphql`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function measure(ctx: BenchContext, mode: 'postgres' | 'embedded'): Promise<FigureInput[]> {
  const seconds = ctx.num('seconds', 5, 1);
  const rounds = ctx.rounds(3);
  const db = mode === 'postgres' ? await createTestDatabase('crm_bench') : undefined;
  const config = db
    ? testConfig(db.url, { SANDBOX_CONTACTS: '100' })
    : loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'crm-bench-')), LOG_LEVEL: 'silent', SANDBOX_CONTACTS: '100', PORT: '0' });
  const app = buildApp(config, { logger: createLogger('silent'), onSeeded: () => {} });
  const { url } = await app.start(0);
  const baseline = await bare();
  try {
    const c = new Client(url);
    const email = `bench${Date.now()}@example.com`;
    await c.post('/api/auth/register', { firstName: 'B', lastName: 'B', email, crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456' });
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const ours: number[] = [];
    const base: number[] = [];
    const p99: number[] = [];
    let failed = 0; // errors, timeouts and non-2xx of the signed-in side: a fast error is no throughput
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
    for (let r = 0; r < rounds; r++) {
      const b: number[] = [];
      const o: number[] = [];
      const oP99: number[] = [];
      for (let i = 0; i < seconds; i++) {
        const sides = i % 2 === 0 ? (['bare', 'ours'] as const) : (['ours', 'bare'] as const);
        for (const side of sides) {
          if (side === 'bare') b.push((await rate(baseline.url, {}, 1)).rps);
          else {
            const x = await rate(`${url}/graphql`, { cookie }, 1);
            o.push(x.rps);
            oP99.push(x.p99);
            failed += x.failed;
          }
        }
      }
      base.push(mean(b));
      ours.push(mean(o));
      p99.push(Math.max(...oP99));
      ctx.log(`${mode} round ${r + 1}/${rounds}: signed-in ${mean(o).toFixed(0)} req/s, bare yoga ${mean(b).toFixed(0)} req/s`);
    }
    const note = `autocannon, 10 connections, ${seconds} alternating 1 s slices per side and round`;
    return [
      { id: `${mode}-rps`, label: `signed-in { usage } req/s, ${mode}`, unit: 'req/s', rounds: ours, baseline: { label: 'bare graphql-yoga', rounds: base }, target: { of: 'ratio', min: TARGET[mode] }, note },
      { id: `${mode}-p99`, label: `signed-in { usage } p99, ${mode}`, unit: 'ms', rounds: p99 },
      { id: `${mode}-failed`, label: `signed-in requests failed, ${mode}`, unit: 'count', rounds: [failed], target: { of: 'value', min: 0, max: 0 } },
    ];
  } finally {
    await baseline.close();
    await app.stop();
    await db?.drop();
  }
}

export const bench: Bench = {
  name: 'graphql-overhead',
  title: 'GraphQL overhead of a signed-in request',
  async run(ctx) {
    const mode = ctx.str('mode', 'both');
    const modes = mode === 'both' ? (['postgres', 'embedded'] as const) : [mode as 'postgres' | 'embedded'];
    const out: FigureInput[] = [];
    for (const m of modes) out.push(...(await measure(ctx, m)));
    return out;
  },
};
