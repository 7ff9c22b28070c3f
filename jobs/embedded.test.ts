// Agenda over the embedded PGlite (socket server), with LISTEN/NOTIFY off: jobs are found by polling.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmbeddedDatabase } from '../api/db/embedded.js';
import { migrate } from '../api/db/migrate.js';
import { createLogger } from '../api/logger.js';
import type { ServiceDeps } from '../api/services/deps.js';
import { createAgenda } from './agenda.js';
import { defineJobs } from './registry.js';

describe('Agenda on the embedded database', () => {
  it('runs a one-off and a recurring job with notifications disabled', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-jobs-embedded-'));
    const embedded = await startEmbeddedDatabase({ dataDir: dir });
    const logger = createLogger('silent');
    try {
      await migrate(embedded.url);
      const handle = await createAgenda({ databaseUrl: embedded.url, embedded: true, logger, processEvery: 100 });
      expect(handle.backend).toBe('postgres');
      expect(handle.notifications).toBe(false);
      const seen: string[] = [];
      await defineJobs(handle.agenda, { logger } as ServiceDeps, {
        'embedded-once': { run: async (job) => void seen.push(`once:${(job.attrs.data as { v: string }).v}`) },
        'embedded-tick': { schedule: { every: 200 }, run: async () => void seen.push('tick') },
      });
      await handle.start();
      await handle.agenda.now('embedded-once', { v: 'hello' });
      const deadline = Date.now() + 10_000;
      while (!(seen.includes('once:hello') && seen.filter((s) => s === 'tick').length >= 2) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
      }
      await handle.stop();
      expect(seen.filter((s) => s === 'once:hello')).toHaveLength(1);
      expect(seen.filter((s) => s === 'tick').length).toBeGreaterThanOrEqual(2);
    } finally {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
