// SIGTERM to a real `api/server.ts` process (embedded default) while a question waits on a slow CRM
// and a websocket is open: the question gets its real answer, the socket is closed with 1001 (a code
// the clients' graphql-ws reconnects on, client/transport.ts), and the process exits 0.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createSandboxFaults, DEFAULT_SANDBOX_CREDENTIALS, startHubSpotSandboxServer, type RunningSandbox } from '../../api/crm/hubspot-sandbox/index.js';
import { Client } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const faults = createSandboxFaults();
let crm: RunningSandbox;

beforeAll(async () => {
  crm = await startHubSpotSandboxServer({ contactCount: 300, seed: 2, rateLimitPerSecond: 0, faults });
});
afterAll(async () => {
  await crm?.close();
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

it('SIGTERM: the in-flight question is answered, websockets get 1001, the process exits 0', async () => {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'crm-sigterm-')),
      HUBSPOT_API_BASE_URL: crm.url,
      HUBSPOT_AUTH_BASE_URL: crm.url,
      SEED_ADMIN_PASSWORD: 'admin-password-1',
      SHUTDOWN_TIMEOUT_MS: '20000',
      LOG_LEVEL: 'warn',
      GENERATION_CRON: 'off',
      MAINTENANCE_CRON: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  try {
    const url = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok === true, { timeoutMs: 90_000, intervalMs: 200, what: 'API up' });
    const c = new Client(url);
    const r = await c.post('/api/auth/register', {
      firstName: 'S', lastName: 'T', email: 'sigterm@example.com', crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456',
    });
    expect(r.status).toBe(201);
    expect((await c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken })).status).toBe(200);

    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', { headers: { cookie } });
    await new Promise((res) => socket.once('open', res));
    const socketClosed = new Promise<number>((res) => socket.once('close', (code) => res(code)));

    faults.inject({ kind: 'latency', latencyMs: 1500 });
    const before = faults.injected.latency;
    const question = c.post('/api/queries', { naturalLanguage: 'customers in Canada' });
    await until(() => faults.injected.latency > before, { timeoutMs: 30_000, intervalMs: 10, what: 'the question at the CRM' });
    proc.kill('SIGTERM');

    const answer = await question;
    expect(answer.status).toBe(200);
    expect(answer.json.hasError).toBe(false);
    expect(await socketClosed).toBe(1001);
    expect(await exited).toBe(0);
  } finally {
    faults.clear();
    proc.kill('SIGKILL');
  }
}, 180_000);
