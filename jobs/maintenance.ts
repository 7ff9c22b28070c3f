// Maintenance jobs: the daily maintenance run (scheduled) and the usage cleanup (on demand, or on
// its own schedule when CLEANUP_USAGE_CRON is set). The work itself is in api/services/maintenance.ts.
import { parseRetentionDays, runCleanup, runDailyMaintenance } from '../api/services/maintenance.js';
import type { JobGroup } from './registry.js';

export const CLEANUP_USAGE_JOB = 'cleanup-usage';
export const DAILY_MAINTENANCE_JOB = 'daily-maintenance';

/** Optional job data: `{ retentionDays }` (1 to 365, default 90). */
export interface MaintenanceJobData {
  retentionDays?: number;
}

export const maintenanceJobs: JobGroup = (settings) => ({
  [DAILY_MAINTENANCE_JOB]: {
    run: (job, deps) => runDailyMaintenance(deps, { retentionDays: parseRetentionDays((job.attrs.data as MaintenanceJobData | undefined)?.retentionDays) }),
    schedule: settings.maintenanceCron ? { every: settings.maintenanceCron, timeZone: settings.timeZone } : null,
  },
  [CLEANUP_USAGE_JOB]: {
    run: (job, deps) => runCleanup(deps, parseRetentionDays((job.attrs.data as MaintenanceJobData | undefined)?.retentionDays)),
    schedule: settings.cleanupCron ? { every: settings.cleanupCron, timeZone: settings.timeZone } : null,
  },
});
