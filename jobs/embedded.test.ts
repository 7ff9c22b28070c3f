// Agenda over the embedded PGlite (socket server), with LISTEN/NOTIFY off: recurring jobs are found by
// polling, and a job queued in the process wakes its worker through an in-memory channel.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../tests/helpers/wait.js';
import { loadConfig } from '../api/config.js';
import { resolveCrmEndpoints } from '../api/crm/endpoints.js';
import { openDatabase } from '../api/db/database.js';
import { startEmbeddedDatabase } from '../api/db/embedded.js';
import { createEvents } from '../api/events/pubsub.js';
import { migrate } from '../api/db/migrate.js';
import { createLogger } from '../api/logger.js';
import type { ServiceDeps } from '../api/services/deps.js';
import { createAgenda } from './agenda.js';
import { DAILY_MAINTENANCE_JOB } from './maintenance.js';
import { defineJobs } from './registry.js';
import { startWorker, workerSettingsFromEnv } from './worker.js';

describe('Agenda on the embedded database', () => {
  it('runs a one-off and a recurring job without LISTEN/NOTIFY', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-jobs-embedded-'));
    const embedded = await startEmbeddedDatabase({ dataDir: dir });
    const logger = createLogger('silent');
    try {
      await migrate(embedded.url);
      const handle = await createAgenda({ databaseUrl: embedded.url, embedded: true, logger, processEvery: 100 });
      expect(handle.backend).toBe('postgres');
      expect(handle.notifications).toBe(true); // the in-memory channel of the one process
      const seen: string[] = [];
      await defineJobs(handle.agenda, { logger } as ServiceDeps, {
        'embedded-once': { run: async (job) => void seen.push(`once:${(job.attrs.data as { v: string }).v}`) },
        'embedded-tick': { schedule: { every: 200 }, run: async () => void seen.push('tick') },
      });
      await handle.start();
      await handle.agenda.now('embedded-once', { v: 'hello' });
      await until(() => seen.includes('once:hello') && seen.filter((s) => s === 'tick').length >= 2, { timeoutMs: 10_000, what: 'both jobs' }).catch(() => {});
      await handle.stop();
      expect(seen.filter((s) => s === 'once:hello')).toHaveLength(1);
      expect(seen.filter((s) => s === 'tick').length).toBeGreaterThanOrEqual(2);
    } finally {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs in-process on the embedded database as the API does: a queued job starts at once (startWorker + daily maintenance)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-jobs-inprocess-'));
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SEED_ON_START: 'false' });
    const database = await openDatabase(config); // embedded PGlite + migrations
    const deps: ServiceDeps = {
      prisma: database.prisma,
      config,
      logger: createLogger('silent'),
      now: () => new Date(),
      events: createEvents(),
      crmEndpoints: resolveCrmEndpoints(config, 'http://127.0.0.1:9'),
    };
    try {
      const user = await deps.prisma.user.create({
        data: { email: 'emb-jobs@example.com', password: 'x', firstName: 'E', lastName: 'J', crmType: 'zoho', industry: 'telecom' },
      });
      await deps.prisma.session.create({ data: { tokenHash: 'emb-expired', userId: user.id, expiresAt: new Date(Date.now() - 1000) } });
      // Polling once an hour: the queued job can only start at once through the in-memory channel. (Without its daily
      // schedule: in the hour before 03:15 UTC the worker's first scan would lock the scheduled run, and the queued one
      // would wait for it — the test failed between 02:15 and 03:15.)
      const worker = await startWorker(deps, database, { processEvery: '1 hour', settings: { ...workerSettingsFromEnv({}, 'UTC'), maintenanceCron: null } });
      expect(worker.handle.notifications).toBe(true);
      const completed = new Promise<void>((resolve) => worker.agenda.on(`complete:${DAILY_MAINTENANCE_JOB}`, () => resolve()));
      await new Promise((r) => setTimeout(r, 500)); // past the worker's first scan
      await worker.queue.enqueue(DAILY_MAINTENANCE_JOB, {});
      await Promise.race([completed, new Promise((_r, reject) => setTimeout(() => reject(new Error('the queued job did not start without a poll')), 10_000))]);
      await worker.stop();
      expect(await deps.prisma.session.count({ where: { userId: user.id } })).toBe(0);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
