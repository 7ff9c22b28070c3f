// Daily Smart Segment generation (and the processing of saved segments that rides along with it).
// The work is in api/services/smart-segments/generate.ts and api/services/segments.ts.
import { processAllSavedSegments } from '../api/services/segments.js';
import { generateDailySegments } from '../api/services/smart-segments/generate.js';
import type { JobGroup } from './registry.js';

export const GENERATE_DAILY_SEGMENTS_JOB = 'generate-daily-segments';

export const smartSegmentJobs: JobGroup = (settings) => ({
  [GENERATE_DAILY_SEGMENTS_JOB]: {
    run: async (job, deps, stopping) => {
      // progress: keeps the job's lock fresh and visible in the jobs table. Touches are chained and
      // awaited before the job ends: a touch still in flight when Agenda saves the final state would
      // land after it and leave the finished job locked (to be run again once the lock expires).
      let touching: Promise<unknown> = Promise.resolve();
      const stats = await generateDailySegments(deps, {
        onProgress: (s) => {
          touching = touching.then(() => job.touch(Math.round((100 * s.completedUsers) / Math.max(1, s.users)))).catch(() => {});
        },
        // a graceful stop: the users in progress finish, no further user starts
        signal: stopping,
      });
      await touching;
      if (stats.completedUsers < stats.users) {
        // Hand the rest of the run to the next worker rather than lose it until tomorrow: a new run
        // now (a user's segments are upserted, so redoing the finished ones duplicates nothing).
        await job.agenda.now(GENERATE_DAILY_SEGMENTS_JOB);
        throw new Error(`stopped by shutdown after ${stats.completedUsers} of ${stats.users} users; queued to run again`);
      }
      const saved = await processAllSavedSegments(deps);
      deps.logger.info({ ...stats, savedSegments: saved }, 'daily generation job finished');
      return { ...stats, savedSegments: saved };
    },
    lockLifetime: settings.generationLockLifetimeMs ?? 2 * 60 * 60_000,
    schedule: settings.generationCron ? { every: settings.generationCron, timeZone: settings.timeZone } : null,
  },
});
