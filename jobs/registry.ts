// A tiny job registry: each job group is one file exporting a JobGroup (a function of the worker
// settings returning its job specs); jobs/worker.ts lists the groups. defineJobs() defines every job
// with logging around it and schedules the recurring ones.
//
// Adding a group: create jobs/<group>.ts with `export const FOO_JOB = 'foo'` and
// `export const fooJobs: JobGroup = (settings) => ({ [FOO_JOB]: { run: async (job, deps) => ... } })`,
// then add `fooJobs` to JOB_GROUPS in jobs/worker.ts.
import type { Agenda, Job } from 'agenda';
import type { ServiceDeps } from '../api/services/deps.js';

export interface JobSchedule {
  /** Cron expression ("15 3 * * *") or interval (ms number, or "10 minutes"). */
  every: string | number;
  /** IANA time zone the cron expression is read in. */
  timeZone?: string;
}

export interface JobSpec<DATA = any> {
  /** The work. Throwing marks the run failed (logged; Agenda records failReason); never crashes. */
  run: (job: Job<DATA>, deps: ServiceDeps, stopping: AbortSignal) => Promise<unknown>;
  /**
   * Runs of this job at the same time in one worker (default 1), jobs of this kind one worker
   * may hold locked (default 1), and how long a lock holds before another worker may take the job
   * over (default 30 minutes; call job.touch() in longer runs).
   */
  concurrency?: number;
  lockLimit?: number;
  lockLifetime?: number;
  priority?: number;
  /** Recurring schedule; null or absent means on demand only (agenda.now / schedule). */
  schedule?: JobSchedule | null;
}

export type JobSpecs = Record<string, JobSpec>;

/** Settings every group may read (from env today; from config later). */
export interface WorkerSettings {
  /** Cron of the daily maintenance run (default "15 3 * * *"). */
  maintenanceCron: string | null;
  /** Cron of a separate usage cleanup run (default: none, daily maintenance includes it). */
  cleanupCron: string | null;
  /** Cron of the daily Smart Segment generation (default "0 5 * * *"). */
  generationCron: string | null;
  /** Time zone of the cron expressions (default config.usageTimeZone). */
  timeZone: string;
  /**
   * How long a generation job's lock holds without progress (default 2 h for the daily job, which
   * only queues, and 15 min for a user's job, touched after every preset): a job whose worker died is
   * taken up again by another worker after this.
   */
  generationLockLifetimeMs?: number;
}

export type JobGroup = (settings: WorkerSettings) => JobSpecs;

/** Marks the recurring instance of a job, so unscheduling never touches its on-demand runs. */
export const RECURRING = { recurring: true } as const;

/**
 * Defines every job of `specs` on `agenda` and (re)schedules the recurring ones; a job whose
 * schedule was removed from the settings loses its recurring instance. Returns the job names.
 * Call before agenda.start(). `stopping` is aborted when the worker begins a graceful stop: long jobs
 * wind down on it instead of being cut at the deadline.
 */
export async function defineJobs(agenda: Agenda, deps: ServiceDeps, specs: JobSpecs, stopping: AbortSignal = new AbortController().signal): Promise<string[]> {
  for (const [name, spec] of Object.entries(specs)) {
    agenda.define(
      name,
      async (job: Job) => {
        const started = Date.now();
        const log = deps.logger.child({ job: name, jobId: job.attrs._id?.toString() });
        log.info('job started');
        try {
          const result = await spec.run(job, deps, stopping);
          log.info({ ms: Date.now() - started, result }, 'job finished');
        } catch (err) {
          log.error({ err, ms: Date.now() - started }, 'job failed');
          throw err;
        }
      },
      {
        concurrency: spec.concurrency ?? 1,
        lockLimit: spec.lockLimit ?? 1,
        lockLifetime: spec.lockLifetime ?? 30 * 60_000,
        ...(spec.priority !== undefined ? { priority: spec.priority } : {}),
      },
    );
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.schedule) {
      const { every, timeZone } = spec.schedule;
      assertValidSchedule(agenda, name, spec.schedule);
      // Re-saving an unchanged schedule would move a run that is due right now to the next
      // occurrence (a worker restarting at 03:15:01 would skip that night), so leave it alone.
      const { jobs } = await agenda.queryJobs({ name, data: RECURRING });
      const current = jobs.find((j) => j.type === 'single');
      const unchanged =
        current && String(current.repeatInterval) === String(every) && (current.repeatTimezone ?? undefined) === timeZone && !current.disabled && Boolean(current.nextRunAt);
      if (!unchanged) {
        await agenda.every(every, name, RECURRING, { timezone: timeZone, skipImmediate: true });
        deps.logger.info({ job: name, every, timeZone }, 'job scheduled');
      }
    } else {
      await agenda.cancel({ name, data: RECURRING });
    }
  }
  return Object.keys(specs);
}

/** A bad cron expression is a configuration error: refuse it at startup instead of failing nightly. */
function assertValidSchedule(agenda: Agenda, name: string, schedule: JobSchedule) {
  const probe = agenda.create(name).repeatEvery(schedule.every, { timezone: schedule.timeZone, skipImmediate: true });
  if (!probe.attrs.nextRunAt || probe.attrs.failReason) {
    throw new Error(`Invalid schedule for job ${name}: ${String(schedule.every)} (${probe.attrs.failReason ?? 'no next run'})`);
  }
}
