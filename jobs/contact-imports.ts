// Importing a contacts file on the workers (API processes with separate workers queue it; see
// api/services/contact-imports/index.ts startImport). The job touches its lock with every progress
// write; a worker that dies mid-import leaves the job locked until the lock expires, then another worker
// runs it again from the first row (the rows written so far are dropped first), since the file stays in
// the database until the import is done.
import { IMPORT_CONTACTS_JOB, runImport } from '../api/services/contact-imports/index.js';
import type { JobGroup } from './registry.js';

export { IMPORT_CONTACTS_JOB };

export const contactImportJobs: JobGroup = () => ({
  [IMPORT_CONTACTS_JOB]: {
    run: async (job, deps, stopping) => {
      const { importId } = job.attrs.data as { importId: string };
      let touching: Promise<unknown> = Promise.resolve();
      try {
        const done = await runImport(deps, importId, {
          signal: stopping,
          touch: () => (touching = touching.then(() => job.touch()).catch(() => {})),
        });
        // stopped mid-way (a graceful stop of this worker): the next worker takes it up
        if (done?.status === 'importing' && stopping.aborted) await job.agenda.now(IMPORT_CONTACTS_JOB, { importId });
        return { importId, status: done?.status ?? 'gone', rows: done?.rowCount ?? 0 };
      } finally {
        await touching;
      }
    },
    concurrency: 2,
    lockLimit: 2,
    lockLifetime: 5 * 60_000,
  },
});
