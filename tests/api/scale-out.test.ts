// The production shape: two API processes (real `api/server.ts` processes, each with its own memory)
// on one PostgreSQL and one Redis, the test client alternating between them, and one HubSpot (the
// sandbox, in this test process, so its counters can be read). Checks: a session made on one works on
// the other; 50 concurrent questions over both never spend more than the quota and every accepted one
// is in the history; a subscription on one process receives usage caused through the other; the CRM
// account's combined rate stays within its 5 searches/s (zero 429s from the CRM); two jobs workers
// (`jobs/worker.ts` processes) share one generation run started through an API process, each
// segment made once; killing a process mid-traffic loses no accepted write and leaves usage equal to
// the stored queries.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { startHubSpotSandboxServer, type RunningSandbox } from '../../api/crm/hubspot-sandbox/server.js';
import { ADMIN, Client, DEMO } from '../helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { until } from '../helpers/wait.js';
import { collect, wsClient } from '../helpers/ws-client.js';
import { buildCli, crm as runCli } from '../cli/run-crm.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT = path.resolve(import.meta.dirname, '../..');

let db: TestDatabase;
let crm: RunningSandbox;
const procs: ChildProcess[] = [];
let urls: string[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** What every process of the deployment shares (README, Production). */
const sharedEnv = () => ({
  ...process.env,
  NODE_ENV: 'test',
  DATABASE_URL: db.url,
  REDIS_URL,
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'crm-scale-')),
  SESSION_SECRET: 'scale-out-session-secret-long-enough-123',
  TOKEN_ENCRYPTION_KEY: '1'.repeat(64),
  HUBSPOT_API_BASE_URL: crm.url,
  HUBSPOT_AUTH_BASE_URL: crm.url,
  GENERATION_CRON: 'off',
  MAINTENANCE_CRON: 'off',
});

async function startApi(port: number): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    cwd: ROOT,
    env: {
      ...sharedEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_ADMIN_EMAIL: ADMIN.email,
      SEED_ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO_EMAIL: DEMO.email,
      SEED_DEMO_PASSWORD: DEMO.password,
      LOG_LEVEL: 'warn',
      RUN_WORKER: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs.push(proc);
  const url = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok === true, { timeoutMs: 60_000, intervalMs: 200, what: `API on ${port}` });
  return { url, proc };
}

/** `npm run worker`; resolves once it has started taking jobs (its log says so). */
async function startWorkerProcess(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'jobs/worker.ts'], {
    cwd: ROOT,
    env: { ...sharedEnv(), LOG_LEVEL: 'info', JOBS_PROCESS_EVERY: '1 second' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  procs.push(proc);
  let out = '';
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => (out = (out + d).slice(-4000)));
  await until(() => out.includes('jobs worker started'), { timeoutMs: 60_000, intervalMs: 100, what: 'worker started' });
  return proc;
}

async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  db = await createTestDatabase('crm_scale');
  crm = await startHubSpotSandboxServer({ contactCount: 400, seed: 11, rateLimitPerSecond: 5 });
  const a = await startApi(await freePort()); // migrates and seeds first
  const b = await startApi(await freePort());
  urls = [a.url, b.url];
}, 120_000);

afterAll(async () => {
  const running = procs.filter((p) => p.exitCode === null && p.signalCode === null);
  const exited = running.map((p) => new Promise((r) => p.once('exit', r)));
  for (const p of running) p.kill('SIGTERM');
  await Promise.all(exited);
  await crm?.close();
  await db?.drop();
}, 60_000);

/** The same session on the other process. */
function sameSession(c: Client, url: string): Client {
  const other = new Client(url);
  for (const [k, v] of c.cookies) other.cookies.set(k, v);
  return other;
}

async function connectedUserOn(url: string) {
  const c = new Client(url);
  const email = `scale${Math.random().toString(36).slice(2)}@example.com`;
  const r = await c.post('/api/auth/register', { firstName: 'S', lastName: 'O', email, crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456' });
  expect(r.status).toBe(201);
  expect((await c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken })).status).toBe(200);
  return c;
}

describe('two API processes on one PostgreSQL and Redis', () => {
  it('a session made on one process works on the other', async () => {
    const onA = new Client(urls[0]);
    await onA.login(DEMO);
    const status = await sameSession(onA, urls[1]).get('/api/auth/status');
    expect(status.json).toMatchObject({ authenticated: true, user: { email: DEMO.email } });
  });

  it('50 concurrent questions over both: the quota holds exactly, every accepted one is kept, no CRM throttling reaches the user', async () => {
    const onA = await connectedUserOn(urls[0]);
    const clients = [onA, sameSession(onA, urls[1])];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_x, i) => clients[i % 2].post('/api/queries', { naturalLanguage: `customers with lifetime value over $${i}00` })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10); // the free tier's 10 a day
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    const usage = await clients[1].get('/api/usage/current');
    expect(usage.json.chatQueriesUsed).toBe(10);
    const history = (await onA.get('/api/queries')).json as { naturalLanguage: string }[];
    const accepted = results.flatMap((r, i) => (r.status === 200 ? [`customers with lifetime value over $${i}00`] : []));
    expect(history.map((q) => q.naturalLanguage).sort()).toEqual(accepted.sort());
    // Both processes searched the same account (their shared budget: api/crm/hubspot/shared-rate-limit.test.ts);
    // no CRM throttling reached a user: every accepted question completed without issues.
    expect(results.filter((r) => r.status === 200).every((r) => r.json.hasError === false)).toBe(true);
    expect(crm.sandbox.stats.searchRequests).toBeGreaterThan(0);
  }, 120_000);

  it('a subscription on one process receives usage caused through the other', async () => {
    const onA = await connectedUserOn(urls[0]);
    const ws = wsClient(urls[0], `crm_session=${onA.cookies.get('crm_session')}`);
    const sub = collect<{ usageUpdated: { chatQueriesUsed: number } }>(ws, 'subscription { usageUpdated { chatQueriesUsed } }');
    try {
      await new Promise((r) => setTimeout(r, 500)); // registered in Redis
      expect((await sameSession(onA, urls[1]).post('/api/queries', { naturalLanguage: 'customers in Europe' })).status).toBe(200);
      await until(() => sub.items.some((v) => v.usageUpdated.chatQueriesUsed === 1), { timeoutMs: 10_000, what: 'usageUpdated on A' });
    } finally {
      sub.dispose();
      await ws.dispose();
    }
  }, 60_000);

  it('two workers share one generation run started through an API process: every segment once, both did some', async () => {
    // a few more users with a CRM connection (the earlier tests made some too)
    for (let i = 0; i < 4; i++) await connectedUserOn(urls[i % 2]);
    await Promise.all([startWorkerProcess(), startWorkerProcess()]);
    const admin = new Client(urls[1]);
    await admin.login(ADMIN);
    // An administrator watches from the other API process: the workers' counts reach it through Redis.
    const ws = wsClient(urls[0], `crm_session=${admin.cookies.get('crm_session')}`);
    type Progress = { runId: string; users: number; completedUsers: number; successCount: number; failedCount: number; done: boolean };
    const progress = collect<{ generationProgress: Progress }>(ws, 'subscription { generationProgress { runId users completedUsers successCount failedCount done } }');
    await new Promise((r) => setTimeout(r, 500)); // registered in Redis
    // Queued on the workers; the REST route of spec §7 answers when the run has ended, with its figures.
    const started = await admin.post('/api/admin/smart-segments/generate');
    expect(started.status).toBe(200);
    const { date, users, runId, completedUsers, successCount } = started.json.stats as { date: string; users: number; runId: string; completedUsers: number; successCount: number };
    expect(completedUsers).toBe(users);
    expect(started.json.message).toBe(`Successfully generated ${successCount} segment${successCount === 1 ? '' : 's'} for ${users} user${users === 1 ? '' : 's'}`);
    const [eligible] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM users u WHERE NOT u.is_banned AND EXISTS (SELECT 1 FROM user_integrations i WHERE i.user_id = u.id AND NOT i.is_revoked)`,
    );
    expect(users).toBe(eligible.n);
    expect(users).toBeGreaterThanOrEqual(4);
    const [presets] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM smart_segment_presets p JOIN smart_segment_categories c ON c.id = p.category_id WHERE p.is_active AND c.is_active`,
    );
    // the run is over when every user's job has finished (Agenda keeps finished one-off jobs)
    const jobs = () =>
      sql<{ user_id: string; worker: string; finished: boolean; failed: boolean }>(
        `SELECT data->>'userId' AS user_id, last_modified_by AS worker, last_finished_at IS NOT NULL AS finished, failed_at IS NOT NULL AS failed
           FROM agenda_jobs WHERE name = 'generate-user-segments' AND data->>'date' = $1`,
        [date],
      );
    await until(async () => (await jobs()).filter((j) => j.finished).length === users, { timeoutMs: 80_000, intervalMs: 500, what: 'every user job finished' });
    const done = await jobs();
    expect(done).toHaveLength(users); // one job per user, none run twice into a second row
    expect(done.filter((j) => j.failed)).toEqual([]);
    expect(new Set(done.map((j) => j.user_id)).size).toBe(users);
    // both workers took some users (each holds at most 2 at a time, so one cannot take them all)
    expect(new Set(done.map((j) => j.worker)).size).toBe(2);
    const perSegment = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM daily_generated_segments WHERE date = $1::date GROUP BY user_id, preset_id, date`,
      [date],
    );
    expect(perSegment.every((r) => r.n === 1)).toBe(true);
    expect(perSegment).toHaveLength(users * presets.n);
    const [errors] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM daily_generated_segments WHERE date = $1::date AND has_error`, [date]);
    expect(errors.n).toBe(0);

    // The run's progress: its start, then one event per user as it finishes (workers may announce
    // out of order: every count once), the last count done with every user and segment; the run's
    // row says the same to a client that missed the events.
    try {
      const ofRun = () => progress.items.map((e) => e.generationProgress).filter((p) => p.runId === runId);
      await until(() => ofRun().length === users + 1, { timeoutMs: 10_000, what: 'every user of the run in generationProgress' });
      const events = ofRun();
      expect(events.map((p) => p.completedUsers).sort((a, b) => a - b)).toEqual(Array.from({ length: users + 1 }, (_, i) => i));
      const last = events.find((p) => p.completedUsers === users);
      expect(last).toEqual({ runId, users, completedUsers: users, successCount: users * presets.n, failedCount: 0, done: true });
      expect(events.filter((p) => p.done)).toEqual([last]);
      const read = await admin.gql(`{ generationRun(id: "${runId}") { runId users completedUsers successCount failedCount done } }`);
      expect(read.data?.generationRun).toEqual(last);
    } finally {
      progress.dispose();
      await ws.dispose();
    }
  }, 120_000);

  it('the CLI follows a run queued on the workers to its end', async () => {
    buildCli();
    const home = mkdtempSync(path.join(os.tmpdir(), 'crm-scale-home-'));
    expect((await runCli(['login', '--server', urls[0], '--email', ADMIN.email], { home, input: `${ADMIN.password}\n` })).code).toBe(0);
    const r = await runCli(['admin', 'generate'], { home });
    expect(r.code, r.stderr).toBe(0);
    const [{ users, segments }] = await sql<{ users: number; segments: number }>(
      `SELECT count(DISTINCT user_id)::int AS users, count(*)::int AS segments FROM daily_generated_segments WHERE date = (SELECT max(date) FROM daily_generated_segments)`,
    );
    const lines = r.stderr.trim().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^Queued on the job workers as run [0-9a-f-]{36}; following it \(Ctrl-C stops watching, not the run\)$/));
    expect(lines.at(-1)).toBe(`Users ${users}/${users} · segments ${segments} · errors 0`);
    expect(r.stdout).toBe(`✔ Segments Generated! — Successfully generated ${segments} segment${segments === 1 ? '' : 's'} for ${users} user${users === 1 ? '' : 's'}\n`);
  }, 120_000);

  it('killing one process mid-traffic loses no accepted write', async () => {
    const onA = await connectedUserOn(urls[0]);
    const onB = sameSession(onA, urls[1]);
    const [, bProc] = [procs[0], procs[1]];
    const sent = Array.from({ length: 8 }, (_x, i) =>
      (i % 2 ? onB : onA).post('/api/queries', { naturalLanguage: `leads in Germany ${i}` }).then(
        (r) => ({ i, status: r.status }),
        () => ({ i, status: 0 }), // the connection died with the process
      ),
    );
    await new Promise((r) => setTimeout(r, 150));
    bProc.kill('SIGKILL');
    const outcomes = await Promise.all(sent);
    const accepted = outcomes.filter((o) => o.status === 200).map((o) => `leads in Germany ${o.i}`);
    const history = ((await onA.get('/api/queries')).json as { naturalLanguage: string }[]).map((q) => q.naturalLanguage);
    for (const q of accepted) expect(history).toContain(q);
    const usage = (await onA.get('/api/usage/current')).json;
    // The unit is taken in the transaction that stores the query: a process killed at any point
    // leaves the counter equal to the stored queries (none of which failed at the CRM here).
    expect(usage.chatQueriesUsed).toBe(history.length);
  }, 60_000);
});
