// An import on the job workers (API processes with RUN_WORKER=false queue it): the API answers at once,
// a worker of its own runs the `import-contacts` job, and the contacts become the user's.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { contactsExportCsv } from '../../api/crm/synthetic-people/export.js';
import { generatePeople } from '../../api/crm/synthetic-people/index.js';
import { createEvents } from '../../api/events/pubsub.js';
import { createLogger } from '../../api/logger.js';
import type { ServiceDeps } from '../../api/services/deps.js';
import { startWorker, type Worker } from '../../jobs/worker.js';
import { registerUser } from '../helpers/crm.js';
import { importFile } from '../helpers/imports.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let worker: Worker;
let workerDeps: ServiceDeps;

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '10', RUN_WORKER: 'false', GENERATION_CRON: 'off', MAINTENANCE_CRON: 'off' });
  expect(t.app.deps.jobs).toBeDefined();
  workerDeps = { ...t.app.deps, jobs: undefined, events: createEvents(), logger: createLogger('silent') };
  worker = await startWorker(workerDeps, t.app.database, { processEvery: 200, name: 'import-worker' });
}, 60_000);

afterAll(async () => {
  await worker?.stop({ timeoutMs: 5000 });
  await workerDeps?.events.close();
  await t?.close();
});

it('the API queues the import, a worker runs it, and the contacts are the user\'s', async () => {
  const { c } = await registerUser(t.url, { crmType: 'other' });
  const people = generatePeople({ count: 1500, seed: 3 });
  const { state } = await importFile(c, contactsExportCsv(people), 'queued.csv');
  expect(state).toMatchObject({ status: 'active', importedCount: 1500 });
  // The handler marks the import active before it returns; Agenda records the job as finished just after,
  // so the test waits for that record instead of reading it in the same instant.
  await vi.waitFor(async () => {
    const jobs = await worker.agenda.queryJobs({ name: 'import-contacts' });
    expect(jobs.jobs.length).toBe(1);
    expect(jobs.jobs[0].lastFinishedAt).toBeTruthy();
  }, { timeout: 10_000, interval: 100 });
  expect((await c.post('/api/queries', { naturalLanguage: 'everyone' })).json.resultCount).toBe(1500);
});
