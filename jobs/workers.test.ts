// Agenda on a real PostgreSQL test database: several workers never run a job instance twice, the
// registry schedules and unschedules recurring jobs, failures are logged without stopping the
// worker, shutdown waits for running jobs, and the maintenance job does its work.
import type { PrismaClient } from '@prisma/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCrmEndpoints } from '../api/crm/endpoints.js';
import { createPrismaClient } from '../api/db/client.js';
import { migrate } from '../api/db/migrate.js';
import { createEvents } from '../api/events/pubsub.js';
import { createLogger } from '../api/logger.js';
import type { ServiceDeps } from '../api/services/deps.js';
import { testConfig } from '../tests/helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../tests/helpers/test-db.js';
import { createAgenda, type AgendaHandle } from './agenda.js';
import { CLEANUP_USAGE_JOB, DAILY_MAINTENANCE_JOB } from './maintenance.js';
import { defineJobs, type JobSpecs } from './registry.js';
import { startWorker } from './worker.js';
import { captureLogger } from '../tests/helpers/logs.js';
import { until } from '../tests/helpers/wait.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let db: TestDatabase;
let prisma: PrismaClient;
const handles: { stop(): Promise<void> }[] = [];

function makeDeps(logger = createLogger('silent')): ServiceDeps {
  const config = testConfig(db.url);
  return { prisma, config, logger, now: () => new Date(), events: createEvents(), crmEndpoints: resolveCrmEndpoints(config, 'http://127.0.0.1:9') };
}

async function agendaOn(name: string, logger = createLogger('silent')): Promise<AgendaHandle> {
  const h = await createAgenda({ databaseUrl: db.url, embedded: false, logger, processEvery: 150, name });
  handles.push(h);
  return h;
}

beforeAll(async () => {
  db = await createTestDatabase('crm_jobs');
  await migrate(db.url);
  prisma = createPrismaClient(db.url, { max: 4 });
});

afterAll(async () => {
  for (const h of handles) await h.stop().catch(() => {});
  await prisma?.$disconnect();
  await db?.drop();
});

describe('two workers on one database', () => {
  it('run every one-off job and every recurring occurrence exactly once', async () => {
    // Events are ordered by a counter, not by the clock: a loaded machine must not change the verdict.
    let seq = 0;
    const runs: { key: string; worker: string; start: number; end: number }[] = [];
    const specs = (worker: string): JobSpecs => ({
      'test-once': {
        concurrency: 3,
        lockLimit: 3,
        run: async (job) => {
          const start = ++seq;
          await sleep(40);
          runs.push({ key: `once:${(job.attrs.data as { n: number }).n}`, worker, start, end: ++seq });
        },
      },
      'test-tick': {
        schedule: { every: 400 },
        run: async () => {
          const start = ++seq;
          await sleep(60);
          runs.push({ key: 'tick', worker, start, end: ++seq });
        },
      },
    });
    const deps = makeDeps();
    const a = await agendaOn('worker-a');
    const b = await agendaOn('worker-b');
    await defineJobs(a.agenda, deps, specs('a'));
    await defineJobs(b.agenda, deps, specs('b'));
    const N = 30;
    for (let n = 0; n < N; n++) await (n % 2 ? a : b).agenda.now('test-once', { n });
    expect(a.notifications && b.notifications).toBe(true); // real PostgreSQL: LISTEN/NOTIFY on
    await Promise.all([a.start(), b.start()]);
    // more one-offs while both are running (these also go through NOTIFY)
    for (let n = N; n < N + 10; n++) await (n % 2 ? a : b).agenda.now('test-once', { n });

    await until(() => runs.filter((r) => r.key.startsWith('once:')).length >= N + 10 && runs.filter((r) => r.key === 'tick').length >= 4, { timeoutMs: 20_000, what: 'jobs' });
    await sleep(400); // a duplicate, if any, would show up now
    await Promise.all([a.stop(), b.stop()]);

    const once = runs.filter((r) => r.key.startsWith('once:'));
    const counts = new Map<string, number>();
    for (const r of once) counts.set(r.key, (counts.get(r.key) ?? 0) + 1);
    expect(counts.size).toBe(N + 10);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    expect(new Set(once.map((r) => r.worker))).toEqual(new Set(['a', 'b'])); // both took part

    // The recurring job: one row, and its occurrences never overlap (each starts after the last ended).
    const ticks = runs.filter((r) => r.key === 'tick').sort((x, y) => x.start - y.start);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i].start).toBeGreaterThan(ticks[i - 1].end);
    const rows = await prisma.$queryRaw<{ name: string; type: string; n: bigint; unfinished: bigint; locked: bigint }[]>`
      SELECT name, type, count(*) AS n,
             count(*) FILTER (WHERE last_finished_at IS NULL) AS unfinished,
             count(*) FILTER (WHERE locked_at IS NOT NULL) AS locked
      FROM agenda_jobs WHERE name IN ('test-once', 'test-tick') GROUP BY name, type ORDER BY name`;
    expect(rows.map((r) => [r.name, r.type, Number(r.n), Number(r.unfinished), Number(r.locked)])).toEqual([
      ['test-once', 'normal', N + 10, 0, 0],
      ['test-tick', 'single', 1, 0, 0],
    ]);
  });
});

describe('failures and shutdown', () => {
  it('logs a failing job, records the failure and keeps processing', async () => {
    const { logger, lines } = captureLogger();
    const done: string[] = [];
    const h = await agendaOn('worker-fail', logger);
    await defineJobs(h.agenda, makeDeps(logger), {
      'test-broken': { run: async () => { throw new Error('boom in job'); } },
      'test-after': { run: async () => { done.push('after'); } },
    });
    await h.start();
    await h.agenda.now('test-broken');
    await until(() => lines.some((l) => l.msg === 'job failed'), { timeoutMs: 10_000, what: 'failure log' });
    await h.agenda.now('test-after');
    await until(() => done.length === 1, { timeoutMs: 10_000, what: 'next job' });
    await h.stop();
    const failed = lines.find((l) => l.msg === 'job failed')!;
    expect(failed).toMatchObject({ level: 50, job: 'test-broken', err: { message: 'boom in job' } });
    const [row] = await prisma.$queryRaw<{ fail_reason: string; fail_count: number }[]>`
      SELECT fail_reason, fail_count FROM agenda_jobs WHERE name = 'test-broken'`;
    expect(row).toEqual({ fail_reason: 'boom in job', fail_count: 1 });
  });

  it('stop() lets a running job finish before closing', async () => {
    const events: string[] = [];
    const h = await agendaOn('worker-stop');
    await defineJobs(h.agenda, makeDeps(), {
      'test-slow': {
        run: async () => {
          events.push('started');
          await sleep(500);
          events.push('finished');
        },
      },
    });
    await h.start();
    await h.agenda.now('test-slow');
    await until(() => events.includes('started'), { timeoutMs: 10_000, what: 'slow job start' });
    await h.stop();
    events.push('stopped');
    expect(events).toEqual(['started', 'finished', 'stopped']);
    const [row] = await prisma.$queryRaw<{ locked_at: Date | null; last_finished_at: Date | null }[]>`
      SELECT locked_at, last_finished_at FROM agenda_jobs WHERE name = 'test-slow'`;
    expect(row.locked_at).toBeNull();
    expect(row.last_finished_at).not.toBeNull();
  });
});

describe('maintenance jobs through startWorker', () => {
  const recurring = () =>
    prisma.$queryRaw<{ name: string; repeat_interval: string; repeat_timezone: string | null; next_run_at: Date; updated_at: Date }[]>`
      SELECT name, repeat_interval, repeat_timezone, next_run_at, updated_at FROM agenda_jobs
      WHERE type = 'single' AND name IN (${DAILY_MAINTENANCE_JOB}, ${CLEANUP_USAGE_JOB}) ORDER BY name`;

  it('schedules daily maintenance at the configured local time, once, and keeps it across restarts', async () => {
    const deps = makeDeps();
    const settings = { maintenanceCron: '15 3 * * *', cleanupCron: null, generationCron: null, timeZone: 'Europe/Berlin' };
    const w1 = await startWorker(deps, { url: db.url, embedded: false }, { settings, processEvery: 150, name: 'sched-1' });
    handles.push(w1);
    const [first] = await recurring();
    expect(first).toMatchObject({ name: DAILY_MAINTENANCE_JOB, repeat_interval: '15 3 * * *', repeat_timezone: 'Europe/Berlin' });
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    expect(local.format(first.next_run_at)).toBe('03:15:00');
    expect(first.next_run_at.getTime() - Date.now()).toBeGreaterThan(0);
    expect(first.next_run_at.getTime() - Date.now()).toBeLessThanOrEqual(25 * 3600_000);

    // A second worker with the same settings leaves the schedule untouched.
    const w2 = await startWorker(deps, { url: db.url, embedded: false }, { settings, processEvery: 150, name: 'sched-2' });
    handles.push(w2);
    expect(await recurring()).toEqual([first]);
    await Promise.all([w1.stop(), w2.stop()]);

    // A separate cleanup schedule is added, and removed again without touching on-demand runs.
    const w3 = await startWorker(deps, { url: db.url, embedded: false }, { settings: { ...settings, cleanupCron: '0 4 * * *' }, name: 'sched-3' });
    handles.push(w3);
    expect((await recurring()).map((r) => [r.name, r.repeat_interval])).toEqual([
      [CLEANUP_USAGE_JOB, '0 4 * * *'],
      [DAILY_MAINTENANCE_JOB, '15 3 * * *'],
    ]);
    await w3.agenda.schedule('in 2 hours', CLEANUP_USAGE_JOB, { retentionDays: 30 });
    await w3.stop();
    const w4 = await startWorker(deps, { url: db.url, embedded: false }, { settings, name: 'sched-4' });
    handles.push(w4);
    expect((await recurring()).map((r) => r.name)).toEqual([DAILY_MAINTENANCE_JOB]);
    const onDemand = await prisma.$queryRaw<{ data: unknown }[]>`SELECT data FROM agenda_jobs WHERE name = ${CLEANUP_USAGE_JOB}`;
    expect(onDemand).toEqual([{ data: { retentionDays: 30 } }]);
    await w4.stop();
  });

  it('refuses an invalid cron expression at startup', async () => {
    const settings = { maintenanceCron: 'every full moon', cleanupCron: null, generationCron: null, timeZone: 'UTC' };
    await expect(startWorker(makeDeps(), { url: db.url, embedded: false }, { settings, name: 'bad' })).rejects.toThrow(
      /Invalid schedule for job daily-maintenance: every full moon/,
    );
  });

  it('runs daily maintenance on demand: expired sessions and old usage go, live ones stay', async () => {
    const user = await prisma.user.create({
      data: { email: 'jobs@example.com', password: 'x', firstName: 'J', lastName: 'B', crmType: 'hubspot', industry: 'telecom' },
    });
    const now = Date.now();
    const expired = await prisma.session.create({ data: { tokenHash: 'h-expired', userId: user.id, expiresAt: new Date(now - 1000) } });
    const live = await prisma.session.create({ data: { tokenHash: 'h-live', userId: user.id, expiresAt: new Date(now + 86_400_000) } });
    const old = new Date(Date.UTC(2020, 0, 1));
    await prisma.dailyUsage.create({ data: { userId: user.id, date: old, chatQueriesUsed: 3 } });
    await prisma.dailyUsage.create({ data: { userId: user.id, date: new Date(new Date().toISOString().slice(0, 10)) } });

    const deps = makeDeps();
    const settings = { maintenanceCron: '15 3 * * *', cleanupCron: null, generationCron: null, timeZone: 'UTC' };
    const w = await startWorker(deps, { url: db.url, embedded: false }, { settings, processEvery: 100, name: 'maint' });
    handles.push(w);
    const completed = new Promise<void>((resolve) => w.agenda.on(`complete:${DAILY_MAINTENANCE_JOB}`, () => resolve()));
    await w.agenda.now(DAILY_MAINTENANCE_JOB, { retentionDays: 30 });
    await completed;
    await w.stop();

    expect(await prisma.session.findUnique({ where: { id: expired.id } })).toBeNull();
    expect(await prisma.session.findUnique({ where: { id: live.id } })).not.toBeNull();
    const usage = await prisma.dailyUsage.findMany({ where: { userId: user.id } });
    expect(usage).toHaveLength(1);
    expect(usage[0].date.getTime()).not.toBe(old.getTime());
  });
});
