// Daily Smart Segment generation (and the processing of saved segments that rides along with it).
// The work is in api/services/smart-segments/generate.ts and api/services/segments.ts.
import { processAllSavedSegments } from '../api/services/segments.js';
import { generateDailySegments } from '../api/services/smart-segments/generate.js';
import type { JobGroup } from './registry.js';

export const GENERATE_DAILY_SEGMENTS_JOB = 'generate-daily-segments';

export const smartSegmentJobs: JobGroup = (settings) => ({
  [GENERATE_DAILY_SEGMENTS_JOB]: {
    run: async (job, deps) => {
      const stats = await generateDailySegments(deps, {
        // progress: keeps the job's lock fresh and visible in the jobs table
        onProgress: (s) => {
          void job.touch(Math.round((100 * s.completedUsers) / Math.max(1, s.users)));
        },
      });
      const saved = await processAllSavedSegments(deps);
      deps.logger.info({ ...stats, savedSegments: saved }, 'daily generation job finished');
      return { ...stats, savedSegments: saved };
    },
    lockLifetime: settings.generationLockLifetimeMs ?? 2 * 60 * 60_000,
    schedule: settings.generationCron ? { every: settings.generationCron, timeZone: settings.timeZone } : null,
  },
});
