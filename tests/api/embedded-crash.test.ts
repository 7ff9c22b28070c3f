// The embedded default (PGlite under DATA_DIR) killed with SIGKILL in the middle of writes: the real
// `api/server.ts` runs as a child process, questions and saved segments are sent in parallel, the
// process is killed while they run, and a new process on the same DATA_DIR must find every write it
// acknowledged, a database that opens and answers, and each user's usage counter equal to the
// charged queries stored (the unit and its query are written by one transaction).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { startHubSpotSandboxServer, type RunningSandbox } from '../../api/crm/hubspot-sandbox/server.js';
import { Client } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'crm-crash-'));
let crm: RunningSandbox;
let port = 0;
let proc: ChildProcess | undefined;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as { port: number };
      s.close(() => resolve(p));
    });
  });

async function startServer(): Promise<string> {
  proc = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      DATA_DIR,
      HUBSPOT_API_BASE_URL: crm.url,
      HUBSPOT_AUTH_BASE_URL: crm.url,
      SEED_ADMIN_PASSWORD: 'admin-password-1',
      LOG_LEVEL: 'warn',
      GENERATION_CRON: 'off',
      MAINTENANCE_CRON: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok === true, { timeoutMs: 90_000, intervalMs: 200, what: 'API up' });
  return url;
}

beforeAll(async () => {
  crm = await startHubSpotSandboxServer({ contactCount: 400, seed: 5, rateLimitPerSecond: 0 });
  port = await freePort();
}, 120_000);
afterAll(async () => {
  proc?.kill('SIGKILL');
  await crm?.close();
});

it('SIGKILL during writes: after a restart every acknowledged write is there and usage equals stored queries', async () => {
  let url = await startServer();
  const users: Client[] = [];
  for (let i = 0; i < 3; i++) {
    const c = new Client(url);
    const r = await c.post('/api/auth/register', {
      firstName: 'K', lastName: 'Ill', email: `kill${i}@example.com`, crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456',
    });
    expect(r.status).toBe(201);
    expect((await c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken })).status).toBe(200);
    users.push(c);
  }

  const ackQueries = new Map<Client, string[]>();
  const ackSegments = new Map<Client, string[]>();
  let acknowledged = 0;
  let queriesAcknowledged = 0;
  let failed = 0;
  const traffic = users.flatMap((c) => {
    ackQueries.set(c, []);
    ackSegments.set(c, []);
    return [
      (async () => {
        for (let i = 0; i < 10; i++) {
          const r = await c.post('/api/queries', { naturalLanguage: `leads in Germany with lifetime value over $${i}00` }).catch(() => null);
          if (!r) return failed++; // the connection died with the process
          if (r.status === 200) {
            ackQueries.get(c)!.push(r.json.query.id);
            acknowledged++;
            queriesAcknowledged++;
          }
        }
      })(),
      (async () => {
        for (let i = 0; i < 40; i++) {
          const r = await c.post('/api/segments', { description: `segment ${i}` }).catch(() => null);
          if (!r) return failed++;
          if (r.status === 201) {
            ackSegments.get(c)!.push(r.json.id);
            acknowledged++;
          }
        }
      })(),
    ];
  });
  // Kill once writes are flowing (some acknowledged, more in flight).
  await until(async () => queriesAcknowledged >= 3 && acknowledged >= 12, { timeoutMs: 60_000, intervalMs: 20, what: 'writes acknowledged' });
  proc!.kill('SIGKILL');
  await Promise.all(traffic);
  expect(failed).toBeGreaterThan(0); // some requests really were cut

  url = await startServer();
  let queriesFound = 0;
  for (const c of users) {
    const client = Object.assign(new Client(url), { cookies: c.cookies }); // sessions are stored: same cookie
    const history = (await client.get('/api/queries')).json as { id: string; hasError: boolean }[];
    const ids = new Set(history.map((q) => q.id));
    for (const id of ackQueries.get(c)!) expect(ids.has(id), `query ${id}`).toBe(true);
    queriesFound += ackQueries.get(c)!.length;
    const segments = new Set(((await client.get('/api/segments')).json as { id: string }[]).map((s) => s.id));
    for (const id of ackSegments.get(c)!) expect(segments.has(id), `segment ${id}`).toBe(true);
    const usage = (await client.get('/api/usage/current')).json;
    expect(usage.chatQueriesUsed).toBe(history.filter((q) => !q.hasError).length);
    // The database takes writes again.
    expect((await client.post('/api/queries', { naturalLanguage: 'customers in Canada' })).status).toBe(200);
  }
  console.log(`embedded-crash: ${acknowledged} writes acknowledged before SIGKILL (${queriesFound} queries), ${failed} requests cut, 0 lost`);
}, 180_000);
