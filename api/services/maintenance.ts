// Database maintenance: usage-record cleanup with a retention period, and the daily maintenance run
// (cleanup plus purging expired sessions, old login attempts, spent OAuth states and old daily
// segments). Called by the admin REST routes, GraphQL, the scheduled jobs and the CLI alike.
//
// Cutoff semantics: "older than N days" is decided on calendar days in USAGE_TIME_ZONE (the same
// days the quotas use). With today = D, the cutoff day is D - N; a record is old when its date is
// strictly before the cutoff. So with N = 1 yesterday's record is kept and the day before is old;
// the record dated exactly D - N is kept.
import type { User } from '@prisma/client';
import { purgeStaleImports } from './contact-imports/index.js';
import { AppError } from '../errors.js';
import { recordAudit } from './audit.js';
import { expireEndedSubscriptions } from './billing/paddle.js';
import type { ServiceDeps } from './deps.js';
import { purgeOldLoginAttempts } from './login-throttle.js';
import { purgeExpiredSessions } from './sessions.js';
import { dayToDate, usageDay } from './usage.js';

export const DEFAULT_RETENTION_DAYS = 90;
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 365;
export const RETENTION_MESSAGE = `Retention days must be between ${MIN_RETENTION_DAYS} and ${MAX_RETENTION_DAYS}`;
/** Used OAuth states are kept this long after use (for diagnosing a failed callback), then purged. */
const USED_OAUTH_STATE_KEEP_MS = 86_400_000;

export interface CleanupStats {
  totalRecords: number;
  retentionDays: number;
  oldRecords: number;
  wouldDelete: number;
  /** YYYY-MM-DD, or null when there are no usage records. */
  oldestRecordDate: string | null;
}

export interface CleanupResult {
  deletedCount: number;
  retentionDays: number;
  /** The first calendar day that is kept (YYYY-MM-DD). */
  cutoffDate: string;
  message: string;
}

/** An additional daily task (e.g. expiring ended subscriptions); returns how many rows it changed. */
export interface MaintenanceTask {
  name: string;
  /** Its part of the summary message, e.g. (2) => "2 ended subscriptions expired". */
  describe?: (count: number) => string;
  run: (deps: ServiceDeps) => Promise<number>;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Tasks of other domains that every daily maintenance run includes (scheduled job, REST, GraphQL,
 * CLI). Register one with an import and one line here.
 */
export const DAILY_EXTRA_TASKS: readonly MaintenanceTask[] = [
  {
    name: 'endedSubscriptions',
    describe: (n) => `${plural(n, 'ended subscription')} expired`,
    run: async (deps) => (await expireEndedSubscriptions(deps)).expired,
  },
  {
    name: 'staleContactImports',
    describe: (n) => `${plural(n, 'contacts file')} left unimported removed`,
    run: purgeStaleImports,
  },
];

export interface MaintenanceTaskResult {
  name: string;
  count: number;
}

export interface MaintenanceSummary {
  retentionDays: number;
  usageRecordsDeleted: number;
  expiredSessionsDeleted: number;
  loginAttemptsDeleted: number;
  oauthStatesDeleted: number;
  dailySegmentsDeleted: number;
  /** Every task in order, the built-in ones and the extra ones. */
  tasks: MaintenanceTaskResult[];
  message: string;
}

function invalidRetention(): AppError {
  return new AppError('BAD_USER_INPUT', RETENTION_MESSAGE, {
    title: RETENTION_MESSAGE,
    field: 'retentionDays',
    details: { fields: { retentionDays: RETENTION_MESSAGE } },
  });
}

/** Throws BAD_USER_INPUT unless `days` is an integer from 1 to 365. */
export function assertRetentionDays(days: number): number {
  if (!Number.isInteger(days) || days < MIN_RETENTION_DAYS || days > MAX_RETENTION_DAYS) throw invalidRetention();
  return days;
}

/**
 * Retention from a request body or GraphQL argument: absent (undefined/null) means the default of
 * 90; a number or an integer string must be an integer from 1 to 365; anything else is refused.
 */
export function parseRetentionDays(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_RETENTION_DAYS;
  if (typeof value === 'number') return assertRetentionDays(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return assertRetentionDays(Number(value));
  throw invalidRetention();
}

/**
 * Retention from the `?retention=` query parameter. Spec: "falls back to 90 when not a number";
 * a number outside 1..365 (or not an integer) is still refused.
 */
export function retentionFromQuery(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '' || Number.isNaN(Number(raw))) return DEFAULT_RETENTION_DAYS;
  return assertRetentionDays(Number(raw));
}

/** The cutoff day (YYYY-MM-DD): records dated before it are older than `retentionDays`. */
export function retentionCutoffDay(now: Date, timeZone: string, retentionDays: number): string {
  const today = dayToDate(usageDay(now, timeZone));
  return new Date(today.getTime() - retentionDays * 86_400_000).toISOString().slice(0, 10);
}

function cutoffFor(deps: ServiceDeps, retentionDays: number): string {
  return retentionCutoffDay(deps.now(), deps.config.usageTimeZone, assertRetentionDays(retentionDays));
}

export async function cleanupStats(deps: ServiceDeps, retentionDays: number): Promise<CleanupStats> {
  const cutoff = cutoffFor(deps, retentionDays);
  const [totalRecords, oldRecords, oldest] = await Promise.all([
    deps.prisma.dailyUsage.count(),
    deps.prisma.dailyUsage.count({ where: { date: { lt: dayToDate(cutoff) } } }),
    deps.prisma.dailyUsage.aggregate({ _min: { date: true } }),
  ]);
  return {
    totalRecords,
    retentionDays,
    oldRecords,
    wouldDelete: oldRecords,
    oldestRecordDate: oldest._min.date ? oldest._min.date.toISOString().slice(0, 10) : null,
  };
}

/** Deletes the usage records older than `retentionDays` (see the cutoff semantics above). */
export async function runCleanup(
  deps: ServiceDeps,
  retentionDays: number,
  opts: { actor?: Pick<User, 'id'> } = {},
): Promise<CleanupResult> {
  const cutoffDate = cutoffFor(deps, retentionDays);
  const deletedCount = await deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.dailyUsage.deleteMany({ where: { date: { lt: dayToDate(cutoffDate) } } });
    if (opts.actor) {
      await recordAudit(
        deps,
        { actorId: opts.actor.id, action: 'maintenance.cleanup', targetType: 'DailyUsage', details: { retentionDays, cutoffDate, deletedCount: count } },
        tx,
      );
    }
    return count;
  });
  const message = `Deleted ${plural(deletedCount, 'usage record')} older than ${plural(retentionDays, 'day')}`;
  deps.logger.info({ retentionDays, cutoffDate, deletedCount }, 'usage cleanup');
  return { deletedCount, retentionDays, cutoffDate, message };
}

/** OAuth states that expired, or were used more than a day ago. */
export async function purgeOAuthStates(deps: ServiceDeps): Promise<number> {
  const now = deps.now();
  const { count } = await deps.prisma.oAuthState.deleteMany({
    where: { OR: [{ expiresAt: { lt: now } }, { usedAt: { lt: new Date(now.getTime() - USED_OAUTH_STATE_KEEP_MS) } }] },
  });
  return count;
}

/** Daily generated segments dated before the retention cutoff. */
export async function purgeOldDailySegments(deps: ServiceDeps, retentionDays: number): Promise<number> {
  const cutoff = cutoffFor(deps, retentionDays);
  const { count } = await deps.prisma.dailyGeneratedSegment.deleteMany({ where: { date: { lt: dayToDate(cutoff) } } });
  // The bookkeeping of those days' queued runs goes with them (not counted: no user data).
  await deps.prisma.generationRun.deleteMany({ where: { date: { lt: dayToDate(cutoff) } } });
  return count;
}

/**
 * The daily maintenance run. Every task runs even when an earlier one fails; failures are logged
 * and reported, and the call then throws (after recording the audit entry) so a scheduled job is
 * marked failed and an administrator sees "Maintenance Failed".
 */
export async function runDailyMaintenance(
  deps: ServiceDeps,
  opts: { retentionDays?: number; extraTasks?: readonly MaintenanceTask[]; actor?: Pick<User, 'id'> } = {},
): Promise<MaintenanceSummary> {
  const retentionDays = assertRetentionDays(opts.retentionDays ?? DEFAULT_RETENTION_DAYS);
  const builtIn: MaintenanceTask[] = [
    { name: 'usageRecords', run: async (d) => (await runCleanup(d, retentionDays)).deletedCount },
    { name: 'expiredSessions', run: purgeExpiredSessions },
    { name: 'loginAttempts', run: purgeOldLoginAttempts },
    { name: 'oauthStates', run: purgeOAuthStates },
    { name: 'dailySegments', run: (d) => purgeOldDailySegments(d, retentionDays) },
  ];
  const extraTasks = opts.extraTasks ?? DAILY_EXTRA_TASKS;
  const tasks: MaintenanceTaskResult[] = [];
  const failed: string[] = [];
  for (const task of [...builtIn, ...extraTasks]) {
    try {
      tasks.push({ name: task.name, count: await task.run(deps) });
    } catch (err) {
      deps.logger.error({ err, task: task.name }, 'maintenance task failed');
      tasks.push({ name: task.name, count: 0 });
      failed.push(task.name);
    }
  }
  const count = (name: string) => tasks.find((t) => t.name === name)?.count ?? 0;
  const removed = [
    plural(count('usageRecords'), 'usage record'),
    plural(count('expiredSessions'), 'expired session'),
    plural(count('loginAttempts'), 'login attempt'),
    plural(count('oauthStates'), 'OAuth state'),
    plural(count('dailySegments'), 'old daily segment'),
  ];
  const extras = extraTasks.map((task, i) => {
    const n = tasks[builtIn.length + i].count;
    return task.describe ? task.describe(n) : `${task.name}: ${n}`;
  });
  const summary: MaintenanceSummary = {
    retentionDays,
    usageRecordsDeleted: count('usageRecords'),
    expiredSessionsDeleted: count('expiredSessions'),
    loginAttemptsDeleted: count('loginAttempts'),
    oauthStatesDeleted: count('oauthStates'),
    dailySegmentsDeleted: count('dailySegments'),
    tasks,
    message:
      `Daily maintenance ${failed.length ? 'finished with errors' : 'completed'}: removed ${removed.join(', ')}` +
      (extras.length ? `; ${extras.join(', ')}` : '') +
      (failed.length ? `. Failed: ${failed.join(', ')}` : ''),
  };
  deps.logger.info({ summary, failedTasks: failed }, 'daily maintenance');
  if (opts.actor) {
    await recordAudit(deps, {
      actorId: opts.actor.id,
      action: 'maintenance.daily',
      details: { retentionDays, tasks: tasks.map((t) => ({ ...t })), failedTasks: failed },
    });
  }
  if (failed.length) {
    throw new AppError('INTERNAL', `Daily maintenance failed: ${failed.join(', ')}`, {
      title: 'Maintenance failed',
      details: { failedTasks: failed, summary },
    });
  }
  return summary;
}
