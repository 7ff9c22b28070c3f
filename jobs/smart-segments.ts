// Daily Smart Segment generation (and the processing of saved segments that rides along with it).
// The work is in api/services/smart-segments/generate.ts and api/services/segments.ts.
//
// A run is split into one job per user (GENERATE_USER_SEGMENTS_JOB) so that every worker takes a
// share: the daily job only lists the eligible users and queues their jobs. Agenda locks each job
// instance, so each user's job runs once; the CRM budget they all draw on is per account and shared
// through Redis, so more workers never search faster than HubSpot allows. A worker that dies mid-user
// leaves that user's job locked until its lock expires (GENERATION_LOCK_LIFETIME_MS; touched after
// every preset), then another worker redoes it: segments are upserted, so nothing is duplicated. A
// graceful stop lets the users in progress finish; the jobs not started wait for the next worker.
import { processAllSavedSegments } from '../api/services/segments.js';
import { generateQueuedUser, GENERATE_USER_SEGMENTS_JOB, queueDailyGeneration } from '../api/services/smart-segments/generate.js';
import type { JobGroup } from './registry.js';

export const GENERATE_DAILY_SEGMENTS_JOB = 'generate-daily-segments';
export { GENERATE_USER_SEGMENTS_JOB };

export interface UserSegmentsJobData {
  userId: string;
  /** The run's day (YYYY-MM-DD), fixed when queued: a run crossing midnight stays one day's run. */
  date: string;
  /** The run this job counts into (jobs queued before runs were kept have none). */
  runId?: string;
}

export const smartSegmentJobs: JobGroup = (settings) => ({
  [GENERATE_DAILY_SEGMENTS_JOB]: {
    run: async (job, deps) => {
      const queued = await queueDailyGeneration(deps, { enqueue: async (name, data) => void (await job.agenda.now(name, data)) });
      const saved = await processAllSavedSegments(deps);
      deps.logger.info({ ...queued, savedSegments: saved }, 'daily generation queued, saved segments processed');
      return { ...queued, savedSegments: saved };
    },
    lockLifetime: settings.generationLockLifetimeMs ?? 2 * 60 * 60_000,
    schedule: settings.generationCron ? { every: settings.generationCron, timeZone: settings.timeZone } : null,
  },
  [GENERATE_USER_SEGMENTS_JOB]: {
    run: async (job, deps) => {
      // Touches keep the lock fresh; they are chained and awaited before the job ends: a touch still
      // in flight when Agenda saves the final state would land after it and leave the job locked.
      let touching: Promise<unknown> = Promise.resolve();
      try {
        return await generateQueuedUser(deps, job.attrs.data as UserSegmentsJobData, (done, _failed, total) => {
          touching = touching.then(() => job.touch(Math.round((100 * done) / Math.max(1, total)))).catch(() => {});
        });
      } finally {
        await touching;
      }
    },
    // Two users at once per worker (12 presets each, one after another): the CRM's 5 searches/s per
    // account is the bound, not the worker; a user's run takes well under its lock's lifetime.
    concurrency: 2,
    lockLimit: 2,
    lockLifetime: settings.generationLockLifetimeMs ?? 15 * 60_000,
  },
});
