// Daily Smart Segment generation: every active preset's natural-language criteria run through the
// segmentation engine against each user's CRM; one row per user, preset and date (re-running
// updates the row and keeps its unlock). Variables of the impact formula (see impact-score.ts) are
// computed over the segment's customers: all of them up to IMPACT_SAMPLE_SIZE, otherwise over the
// first IMPACT_SAMPLE_SIZE by CRM id (a deterministic sample); customerCount is always exact.
import { Prisma, type SmartSegmentPreset, type User } from '@prisma/client';
import type { CrmConnector } from '../../crm/connector.js';
import { isCrmError } from '../../crm/errors.js';
import { asAppError } from '../../errors.js';
import { notUnderstood } from '../nl-parser.js';
import { compileToHubSpot } from '../../segmentation/index.js';
import { recordAudit } from '../audit.js';
import { connectorForUser } from '../crm.js';
import type { ServiceDeps } from '../deps.js';
import { parseQuestion } from '../nl-parser.js';
import { computeImpactVariables, evaluateImpactScore } from './impact-score.js';
import { fetchSegment } from '../segment-runner.js';
import { dayToDate, usageDay } from '../usage.js';
import { ADMIN_TOPIC, type GenerationStats } from '../../events/pubsub.js';
import { activePresetListArgs } from './user.js';
import { openGenerationRun, recordRunUser } from './generation-runs.js';

export const IMPACT_SAMPLE_SIZE = 1000;
/** One user's segments of one day, a job of its own so that a run spreads over every worker (jobs/smart-segments.ts). */
export const GENERATE_USER_SEGMENTS_JOB = 'generate-user-segments';
const MAX_ATTEMPTS = 3;

export type { GenerationStats };

type PresetWithFormula = SmartSegmentPreset & { formula: string | null };

/** Active presets of active categories with their category's active formula, in display order. */
async function activePresets(deps: ServiceDeps): Promise<PresetWithFormula[]> {
  const presets = await deps.prisma.smartSegmentPreset.findMany({
    ...activePresetListArgs(),
    include: { category: { include: { formulas: { where: { isActive: true }, orderBy: { updatedAt: 'desc' }, take: 1 } } } },
  });
  return presets.map(({ category, ...p }) => ({ ...p, formula: category.formulas[0]?.formula ?? null }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Transient CRM problems are retried with exponential backoff; anything else fails at once. */
async function withRetry<T>(fn: () => Promise<T>, baseDelayMs: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const transient = isCrmError(err) && (err.code === 'RATE_LIMITED' || err.code === 'UNAVAILABLE');
      if (!transient || attempt >= MAX_ATTEMPTS) throw err;
      await sleep(baseDelayMs * 2 ** (attempt - 1));
    }
  }
}

interface SegmentResult {
  customerCount: number;
  impactScore: number;
  hubspotQuery: unknown;
  hasError: boolean;
  errorMessage: string | null;
}

async function evaluatePreset(deps: ServiceDeps, connector: CrmConnector, preset: PresetWithFormula, retryDelayMs: number): Promise<SegmentResult> {
  const now = deps.now();
  const opts = { now, timeZone: deps.config.usageTimeZone };
  let hubspotQuery: unknown = null;
  try {
    const { segment, unrecognized } = await parseQuestion(deps, preset.description);
    if (unrecognized.length) throw notUnderstood(unrecognized);
    const compiled = compileToHubSpot(segment, opts);
    hubspotQuery = compiled;
    const fetched = await withRetry(() => fetchSegment(connector, compiled, { limit: IMPACT_SAMPLE_SIZE }), retryDelayMs);
    let impactScore = 0;
    if (preset.formula) {
      const sampleVars = computeImpactVariables(fetched.customers, { now });
      const vars = { ...sampleVars, customerCount: fetched.total, marketingCost: (sampleVars.marketingCost / Math.max(1, fetched.customers.length)) * fetched.total };
      impactScore = evaluateImpactScore(preset.formula, vars); // a failing formula marks this segment only
    }
    return { customerCount: fetched.total, impactScore, hubspotQuery, hasError: false, errorMessage: null };
  } catch (err) {
    const known = asAppError(err);
    if (!known) deps.logger.error({ err, presetId: preset.id }, 'segment generation failed');
    return { customerCount: 0, impactScore: 0, hubspotQuery, hasError: true, errorMessage: known?.message ?? 'Generation failed unexpectedly' };
  }
}

/** Generates (or regenerates) the user's segments of `date` for the given presets. */
export async function generateForUser(
  deps: ServiceDeps,
  user: User,
  opts: { date?: string; presets?: PresetWithFormula[]; retryDelayMs?: number; onProgress?: (done: number, failed: number, total: number) => void } = {},
): Promise<{ total: number; success: number; failed: number }> {
  const day = opts.date ?? usageDay(deps.now(), deps.config.usageTimeZone);
  const presets = opts.presets ?? (await activePresets(deps));
  const favorites = new Set(
    (await deps.prisma.userSegmentFavorite.findMany({ where: { userId: user.id }, select: { presetId: true } })).map((f) => f.presetId),
  );
  // Favourites first, so they are ready earliest.
  const ordered = [...presets].sort((a, b) => Number(favorites.has(b.id)) - Number(favorites.has(a.id)));
  let connector: CrmConnector | null = null;
  let connectError: string | null = null;
  try {
    connector = await connectorForUser(deps, user);
  } catch (err) {
    const known = asAppError(err);
    if (!known) throw err;
    connectError = known.message;
  }
  let success = 0;
  let failed = 0;
  for (const preset of ordered) {
    const r: SegmentResult = connector
      ? await evaluatePreset(deps, connector, preset, opts.retryDelayMs ?? 2 * deps.config.crmRetry.baseBackoffMs)
      : { customerCount: 0, impactScore: 0, hubspotQuery: null, hasError: true, errorMessage: connectError };
    const data = {
      customerCount: r.customerCount,
      impactScore: new Prisma.Decimal(r.impactScore.toFixed(2)),
      hasError: r.hasError,
      errorMessage: r.errorMessage,
      hubspotQuery: r.hubspotQuery === null ? Prisma.DbNull : (r.hubspotQuery as Prisma.InputJsonValue),
      generatedAt: deps.now(),
    };
    await deps.prisma.dailyGeneratedSegment.upsert({
      where: { userId_presetId_date: { userId: user.id, presetId: preset.id, date: dayToDate(day) } },
      create: { userId: user.id, presetId: preset.id, date: dayToDate(day), ...data },
      update: data,
    });
    if (r.hasError) failed++;
    else success++;
    opts.onProgress?.(success + failed, failed, ordered.length);
    deps.events.pubsub.publish('dailySegmentsUpdated', user.id, {
      date: day,
      total: ordered.length,
      completed: success + failed,
      failed,
      done: success + failed === ordered.length,
    });
  }
  return { total: ordered.length, success, failed };
}

/** Users who get daily segments: active (not banned) with a live CRM connection. */
export async function eligibleUsers(deps: ServiceDeps, userIds?: string[]) {
  return deps.prisma.user.findMany({
    where: {
      isBanned: false,
      integrations: { some: { isRevoked: false } },
      ...(userIds ? { id: { in: userIds } } : {}),
    },
    include: { integrations: { where: { isRevoked: false }, select: { accountId: true } } },
    orderBy: { createdAt: 'asc' },
  });
}

/**
 * Generates today's segments for every eligible user. At most `concurrency` users run at once and at
 * most `perAccount` of them on the same CRM account (users sharing a HubSpot portal share its 5
 * requests/s; the connector's per-account token bucket paces them). Each user's presets run one after
 * another. A failure is recorded on its segment and never aborts the run.
 */
export async function generateDailySegments(
  deps: ServiceDeps,
  opts: {
    date?: string;
    userIds?: string[];
    concurrency?: number;
    perAccount?: number;
    retryDelayMs?: number;
    onProgress?: (stats: GenerationStats) => void;
    /** stops taking further users (the current ones finish) */
    signal?: AbortSignal;
  } = {},
): Promise<GenerationStats> {
  const date = opts.date ?? usageDay(deps.now(), deps.config.usageTimeZone);
  const [users, presets] = await Promise.all([eligibleUsers(deps, opts.userIds), activePresets(deps)]);
  const stats: GenerationStats = { runId: null, queued: false, date, users: users.length, completedUsers: 0, totalSegments: 0, successCount: 0, failedCount: 0 };
  // Administrators watch every run (scheduled or started from the console) live.
  const publishProgress = (done: boolean) => deps.events.pubsub.publish('generationProgress', ADMIN_TOPIC, { ...stats, done });
  publishProgress(users.length === 0);
  const perAccount = Math.max(1, opts.perAccount ?? 2);
  const running = new Map<string, number>(); // account → users in progress
  const accountOf = (u: (typeof users)[number]) => u.integrations[0]?.accountId ?? `user:${u.id}`;
  const pending = [...users];
  /** The next user whose account has room, in creation order (null when none can start now). */
  const take = () => {
    const i = pending.findIndex((u) => (running.get(accountOf(u)) ?? 0) < perAccount);
    return i < 0 ? null : pending.splice(i, 1)[0];
  };
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of waiters) w();
    waiters.clear();
  };
  const worker = async () => {
    while (pending.length && !opts.signal?.aborted) {
      const user = take();
      if (!user) {
        await new Promise<void>((r) => waiters.add(r)); // every account in use: wait for one to free up
        continue;
      }
      const account = accountOf(user);
      running.set(account, (running.get(account) ?? 0) + 1);
      try {
        const { integrations: _i, ...plain } = user;
        const r = await generateForUser(deps, plain, { date, presets, retryDelayMs: opts.retryDelayMs });
        stats.totalSegments += r.total;
        stats.successCount += r.success;
        stats.failedCount += r.failed;
      } catch (err) {
        deps.logger.error({ err, userId: user.id }, 'daily segment generation failed for a user');
        stats.failedCount += presets.length;
        stats.totalSegments += presets.length;
      } finally {
        running.set(account, running.get(account)! - 1);
        wake();
      }
      stats.completedUsers += 1;
      opts.onProgress?.({ ...stats });
      publishProgress(false);
    }
    wake(); // let waiting workers see that the queue is empty
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 4, users.length)) }, worker));
  if (users.length) publishProgress(true);
  deps.logger.info(stats, 'daily segments generated');
  return stats;
}

/**
 * Queues one GENERATE_USER_SEGMENTS_JOB per eligible user: the workers share the run, each user's
 * job runs once (Agenda's lock), and a user's row per preset and date is unique in the database, so
 * queuing a user twice regenerates rather than duplicates. The run's row (generation-runs.ts) counts
 * users as their jobs finish. Returns the run's stats before any work.
 */
export async function queueDailyGeneration(deps: ServiceDeps, queue: NonNullable<ServiceDeps['jobs']>, opts: { date?: string; userIds?: string[] } = {}): Promise<GenerationStats> {
  const date = opts.date ?? usageDay(deps.now(), deps.config.usageTimeZone);
  const users = await eligibleUsers(deps, opts.userIds);
  const stats = await openGenerationRun(deps, date, users.length);
  for (const u of users) await queue.enqueue(GENERATE_USER_SEGMENTS_JOB, { userId: u.id, date, runId: stats.runId });
  deps.logger.info({ date, users: users.length, runId: stats.runId }, 'daily segment generation queued');
  return stats;
}

/** A user's job of a queued run (jobs/smart-segments.ts): generates, then counts the user into the run. */
export async function generateQueuedUser(
  deps: ServiceDeps,
  job: { userId: string; date: string; runId?: string },
  onProgress?: (done: number, failed: number, total: number) => void,
): Promise<{ userId: string; skipped?: boolean; total: number; success: number; failed: number }> {
  const user = await deps.prisma.user.findUnique({ where: { id: job.userId } });
  let outcome = { total: 0, success: 0, failed: 0 };
  let skipped = false;
  try {
    if (!user || user.isBanned) skipped = true; // deleted or banned since it was queued
    else outcome = await generateForUser(deps, user, { date: job.date, onProgress });
  } catch (err) {
    // The job fails (and is not retried): its segments count as failed, so the run still ends.
    const presets = await deps.prisma.smartSegmentPreset.count({ where: activePresetListArgs().where }).catch(() => 0);
    if (job.runId) await recordRunUser(deps, job.runId, job.userId, { total: presets, success: 0, failed: presets }).catch(() => {});
    throw err;
  }
  if (job.runId) await recordRunUser(deps, job.runId, job.userId, outcome);
  return { userId: job.userId, ...(skipped ? { skipped } : {}), ...outcome };
}

/**
 * Admin "Retrieve Segments": today's generation for every user (or the given ones), audited. Runs
 * here and returns the finished run's stats; with separate workers (deps.jobs) the run is queued on
 * them instead: the stats say how many users it covers (queued, completedUsers 0), and its progress
 * and end come from the generationProgress subscription.
 */
export async function generateNow(deps: ServiceDeps, actor: User, opts: { userIds?: string[] } = {}): Promise<GenerationStats> {
  const stats = deps.jobs ? await queueDailyGeneration(deps, deps.jobs, opts) : await generateDailySegments(deps, { userIds: opts.userIds });
  await recordAudit(deps, { actorId: actor.id, action: 'smart-segments.generate', details: { ...stats, ...(opts.userIds ? { userIds: opts.userIds } : {}) } });
  return stats;
}
