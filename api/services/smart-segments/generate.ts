// Daily Smart Segment generation: every active preset's natural-language criteria run through the
// segmentation engine against each user's CRM; one row per user, preset and date (re-running
// updates the row and keeps its unlock). Variables of the impact formula (see impact-score.ts) are
// computed over the segment's customers: all of them up to IMPACT_SAMPLE_SIZE, otherwise over the
// first IMPACT_SAMPLE_SIZE by CRM id (a deterministic sample); customerCount is always exact.
import { Prisma, type SmartSegmentPreset, type User } from '@prisma/client';
import type { CrmConnector } from '../../crm/connector.js';
import { isCrmError } from '../../crm/errors.js';
import { asAppError } from '../../errors.js';
import { parseUnattended } from '../nl-parser.js';
import { recordAudit } from '../audit.js';
import { connectorForUser } from '../crm.js';
import type { ServiceDeps } from '../deps.js';
import { computeImpactVariables, evaluateImpactScore } from './impact-score.js';
import { fetchSegment } from '../segment-runner.js';
import { dayToDate, usageDay } from '../usage.js';
import type { GenerationStats } from '../../events/pubsub.js';
import { activePresetListArgs, readDailySegmentsDay } from './user.js';
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
    const { segment } = await parseUnattended(deps, preset.description);
    const plan = connector.compile(segment, opts);
    hubspotQuery = plan;
    const fetched = await withRetry(() => fetchSegment(connector, plan, opts, { limit: IMPACT_SAMPLE_SIZE }), retryDelayMs);
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
    const row = await deps.prisma.dailyGeneratedSegment.upsert({
      where: { userId_presetId_date: { userId: user.id, presetId: preset.id, date: dayToDate(day) } },
      create: { userId: user.id, presetId: preset.id, date: dayToDate(day), ...data },
      update: data,
      select: { id: true },
    });
    if (r.hasError) failed++;
    else success++;
    opts.onProgress?.(success + failed, failed, ordered.length);
    // The event carries the record (and the day's count), so a screen updates it by id without a query.
    const dayNow = await readDailySegmentsDay(deps, user, day);
    deps.events.pubsub.publish('dailySegmentsUpdated', user.id, {
      date: day,
      total: ordered.length,
      completed: success + failed,
      failed,
      done: success + failed === ordered.length,
      segmentId: row.id,
      dayCount: dayNow.count,
      lastGeneratedAt: dayNow.lastGeneratedAt?.toISOString() ?? null,
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
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
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
 * Admin "Retrieve Segments": today's generation for every user (or the given ones), audited. The same
 * per-user jobs as the schedule are queued on the job workers (a worker runs inside the API process
 * unless RUN_WORKER=false); the answer is the run at its start (its id, the users it covers), and its
 * progress and end come from the run's row, announced in the generationProgress subscription.
 */
export async function generateNow(deps: ServiceDeps, actor: User, opts: { userIds?: string[] } = {}): Promise<GenerationStats> {
  if (!deps.jobs) throw new Error('generateNow needs the jobs queue (deps.jobs)');
  const stats = await queueDailyGeneration(deps, deps.jobs, opts);
  await recordAudit(deps, { actorId: actor.id, action: 'smart-segments.generate', details: { ...stats, ...(opts.userIds ? { userIds: opts.userIds } : {}) } });
  return stats;
}
