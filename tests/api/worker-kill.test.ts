// A jobs worker (`jobs/worker.ts`, a real child process) killed with SIGKILL in the middle of the
// daily generation (one job per user): the locks of the users it was doing expire
// (GENERATION_LOCK_LIFETIME_MS, short here), a second worker takes those jobs up with the ones not
// started, and the result is exactly one segment per user and preset, none failed, every job
// finished, and no usage counted by generation.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHubSpotSandboxServer, type RunningSandbox } from '../../api/crm/hubspot-sandbox/server.js';
import { createLogger } from '../../api/logger.js';
import { createAgenda } from '../../jobs/agenda.js';
import { GENERATE_DAILY_SEGMENTS_JOB, GENERATE_USER_SEGMENTS_JOB } from '../../jobs/smart-segments.js';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { registerUser } from '../helpers/crm.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let t: TestApp;
let crm: RunningSandbox;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  crm = await startHubSpotSandboxServer({ contactCount: 400, seed: 3, rateLimitPerSecond: 0 });
  t = await startTestApp({ HUBSPOT_API_BASE_URL: crm.url, HUBSPOT_AUTH_BASE_URL: crm.url });
});
afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await t?.close();
  await crm?.close();
});

function startWorker(): ChildProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'jobs/worker.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: t.db.url,
      DATA_DIR: t.config.dataDir,
      SESSION_SECRET: t.config.sessionSecret,
      TOKEN_ENCRYPTION_KEY: '0'.repeat(64),
      HUBSPOT_API_BASE_URL: crm.url,
      HUBSPOT_AUTH_BASE_URL: crm.url,
      LOG_LEVEL: 'warn',
      GENERATION_CRON: 'off',
      MAINTENANCE_CRON: 'off',
      JOBS_PROCESS_EVERY: '200',
      GENERATION_LOCK_LIFETIME_MS: '3000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(proc);
  return proc;
}

it('a worker killed mid-generation: the job is taken up again and finishes with no duplicates and no usage counted', async () => {
  const users: string[] = [];
  for (let i = 0; i < 4; i++) {
    const u = await registerUser(t.url);
    expect((await u.c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken })).status).toBe(200);
    users.push(u.userId);
  }
  const prisma = t.app.deps.prisma;
  const presets = await prisma.smartSegmentPreset.count({ where: { isActive: true, category: { isActive: true } } });
  expect(presets).toBeGreaterThan(0);
  const expected = users.length * presets;

  // Enqueue one run, as the schedule or an administrator would.
  const enqueue = await createAgenda({ databaseUrl: t.db.url, embedded: false, logger: createLogger('silent') });
  await enqueue.agenda.now(GENERATE_DAILY_SEGMENTS_JOB);
  await enqueue.stop({ timeoutMs: 0 });

  const generated = () => prisma.dailyGeneratedSegment.count({ where: { userId: { in: users } } });
  const jobRows = () =>
    prisma.$queryRaw<{ name: string; last_finished_at: Date | null; locked_at: Date | null; fail_count: number | null }[]>`
      SELECT name, last_finished_at, locked_at, fail_count FROM agenda_jobs WHERE name IN (${GENERATE_DAILY_SEGMENTS_JOB}, ${GENERATE_USER_SEGMENTS_JOB})`;
  // The daily job and one job per user, all finished.
  const allFinished = async () => {
    const rows = await jobRows();
    return rows.length === users.length + 1 && rows.every((r) => r.last_finished_at);
  };

  const first = startWorker();
  await until(async () => (await generated()) >= 3, { timeoutMs: 90_000, intervalMs: 50, what: 'generation under way' });
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const atKill = await generated();
  expect(atKill).toBeLessThan(expected); // killed mid-run
  expect(await allFinished()).toBe(false);

  startWorker();
  await until(allFinished, { timeoutMs: 120_000, intervalMs: 200, what: 'every job finished by the second worker' });

  const rows = await prisma.dailyGeneratedSegment.findMany({ where: { userId: { in: users } }, select: { userId: true, presetId: true, date: true, hasError: true } });
  expect(rows).toHaveLength(expected);
  expect(new Set(rows.map((r) => `${r.userId}:${r.presetId}:${r.date.toISOString()}`)).size).toBe(expected);
  expect(rows.filter((r) => r.hasError)).toEqual([]);
  const usage = await prisma.dailyUsage.findMany({ where: { userId: { in: users } } });
  for (const u of usage) expect({ chat: u.chatQueriesUsed, segments: u.smartSegmentsUsed }).toEqual({ chat: 0, segments: 0 });
  expect((await jobRows()).filter((r) => (r.fail_count ?? 0) > 0)).toEqual([]);
  console.log(`worker-kill: killed after ${atKill}/${expected} segments; the second worker finished the run: ${rows.length} segments, 0 duplicates`);
}, 240_000);
