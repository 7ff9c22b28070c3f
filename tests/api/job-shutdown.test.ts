// A graceful stop (what SIGTERM does) during the daily generation and a CRM request: the request
// finishes with its real answer, the users in progress finish, the users not started stay queued with
// no lock left behind (so stop() returns within the deadline instead of cutting it), and the next
// process finishes the run with exactly one segment per user and preset.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { createSandboxFaults, DEFAULT_SANDBOX_CREDENTIALS, startHubSpotSandboxServer, type RunningSandbox } from '../../api/crm/hubspot-sandbox/index.js';
import { createLogger } from '../../api/logger.js';
import { createAgenda } from '../../jobs/agenda.js';
import { GENERATE_DAILY_SEGMENTS_JOB, GENERATE_USER_SEGMENTS_JOB } from '../../jobs/smart-segments.js';
import { registerUser } from '../helpers/crm.js';
import { testConfig } from '../helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { until } from '../helpers/wait.js';

process.env.JOBS_PROCESS_EVERY = '200'; // read by the worker from the environment
process.env.GENERATION_CRON = 'off';
process.env.MAINTENANCE_CRON = 'off';

const faults = createSandboxFaults();
let crm: RunningSandbox;
let db: TestDatabase;

beforeAll(async () => {
  crm = await startHubSpotSandboxServer({ contactCount: 400, seed: 9, rateLimitPerSecond: 0, faults });
  db = await createTestDatabase();
});
afterAll(async () => {
  await crm?.close();
  await db?.drop();
});

const startApp = async () => {
  const app = buildApp(
    testConfig(db.url, { HUBSPOT_API_BASE_URL: crm.url, HUBSPOT_AUTH_BASE_URL: crm.url, RUN_WORKER: 'true', SHUTDOWN_TIMEOUT_MS: '30000' }),
    { logger: createLogger('silent'), onSeeded: () => {} },
  );
  const { url } = await app.start(0);
  return { app, url };
};

it('stop() during generation: the request finishes, the job hands over the rest, the next process completes it once', async () => {
  let { app, url } = await startApp();
  const users: string[] = [];
  let client;
  for (let i = 0; i < 4; i++) {
    const u = await registerUser(url);
    expect((await u.c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken })).status).toBe(200);
    users.push(u.userId);
    client = u.c;
  }
  const prisma = () => app.deps.prisma;
  const presets = await prisma().smartSegmentPreset.count({ where: { isActive: true, category: { isActive: true } } });
  const expected = users.length * presets;
  const generated = () => prisma().dailyGeneratedSegment.count({ where: { userId: { in: users } } });
  const jobs = () =>
    prisma().$queryRaw<{ locked_at: Date | null; last_finished_at: Date | null; fail_reason: string | null }[]>`
      SELECT locked_at, last_finished_at, fail_reason FROM agenda_jobs WHERE name IN (${GENERATE_DAILY_SEGMENTS_JOB}, ${GENERATE_USER_SEGMENTS_JOB}) ORDER BY next_run_at`;

  faults.inject({ kind: 'latency', latencyMs: 150 }); // a slow CRM: the run takes a while
  const enqueue = await createAgenda({ databaseUrl: db.url, embedded: false, logger: createLogger('silent') });
  await enqueue.agenda.now(GENERATE_DAILY_SEGMENTS_JOB);
  await enqueue.stop({ timeoutMs: 0 });
  await until(async () => (await generated()) >= 2, { timeoutMs: 60_000, intervalMs: 50, what: 'generation under way' });

  const inFlight = client!.post('/api/queries', { naturalLanguage: 'customers in Canada' });
  await until(() => app.inflightCount >= 1, { timeoutMs: 5000, intervalMs: 5, what: 'request in flight' });
  await app.stop();
  expect((await inFlight).status).toBe(200);

  const atStop = await generated();
  expect(atStop).toBeLessThan(expected);
  const afterStop = await (async () => {
    const c = await createAgenda({ databaseUrl: db.url, embedded: false, logger: createLogger('silent') });
    const { jobs: list } = await c.agenda.queryJobs({ name: GENERATE_USER_SEGMENTS_JOB });
    await c.stop({ timeoutMs: 0 });
    return list;
  })();
  // No lock left to expire; the users not started wait for the next worker.
  expect(afterStop).toHaveLength(users.length);
  expect(afterStop.filter((j) => j.lockedAt)).toEqual([]);
  expect(afterStop.filter((j) => !j.lastFinishedAt && j.nextRunAt).length).toBeGreaterThan(0);

  faults.clear();
  ({ app, url } = await startApp());
  try {
    await until(async () => (await generated()) === expected && (await jobs()).every((j) => j.last_finished_at), {
      timeoutMs: 120_000, intervalMs: 200, what: 'the handed-over run finished',
    });
    const rows = await prisma().dailyGeneratedSegment.findMany({ where: { userId: { in: users } } });
    expect(new Set(rows.map((r) => `${r.userId}:${r.presetId}`)).size).toBe(expected);
    expect(rows.filter((r) => r.hasError)).toEqual([]);
    console.log(`job-shutdown: stopped after ${atStop}/${expected} segments; the next process finished ${rows.length}, 0 duplicates`);
  } finally {
    await app.stop();
  }
}, 240_000);
