// What a user does with Smart Segments: read today's segments, categories and presets, favourite
// presets, unlock a generated segment (one unit of the daily allowance) and download its customers.
import type { DailyGeneratedSegment, Prisma, User } from '@prisma/client';
import type { Customer } from '../../crm/mapping.js';
import { AppError, assertId, notFound } from '../../errors.js';
import { readStoredPlan, type SegmentPlan } from '../../crm/plan.js';
import { connectorForUser } from '../crm.js';
import { recordAudit } from '../audit.js';
import type { ServiceDeps } from '../deps.js';
import { fetchSegment } from '../segment-runner.js';
import { findOwned } from '../owned.js';
import { CATEGORY_ORDER, PRESET_ORDER } from './content.js';
import { chargeQuota, dayToDate, publishUsage, quotaTerms, usageDay } from '../usage.js';

export function parseDay(deps: ServiceDeps, raw: string | undefined | null): string {
  if (raw === undefined || raw === null || raw === '') return usageDay(deps.now(), deps.config.usageTimeZone);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`)) || dayToDate(raw).toISOString().slice(0, 10) !== raw) {
    throw new AppError('BAD_USER_INPUT', 'date must be a calendar date as YYYY-MM-DD', { field: 'date' });
  }
  return raw;
}

/** A user's generated segments of a day (default today), best first (for GraphQL and REST alike). */
export function dailySegmentListArgs(deps: ServiceDeps, user: Pick<User, 'id'>, day?: string | null) {
  return {
    where: { userId: user.id, date: dayToDate(parseDay(deps, day)), preset: { isActive: true } },
    orderBy: [{ impactScore: 'desc' }, { generatedAt: 'asc' }, { id: 'asc' }],
  } satisfies Prisma.DailyGeneratedSegmentFindManyArgs;
}

/** A user's segments of one day as the Smart Segments screen heads them: how many, and when the last was generated. */
export interface DailySegmentsDay {
  userId: string;
  /** YYYY-MM-DD */
  date: string;
  count: number;
  lastGeneratedAt: Date | null;
}

export async function readDailySegmentsDay(deps: ServiceDeps, user: Pick<User, 'id'>, day?: string | null): Promise<DailySegmentsDay> {
  const date = parseDay(deps, day);
  const agg = await deps.prisma.dailyGeneratedSegment.aggregate({ where: dailySegmentListArgs(deps, user, date).where, _count: { _all: true }, _max: { generatedAt: true } });
  return { userId: user.id, date, count: agg._count._all, lastGeneratedAt: agg._max.generatedAt };
}

export function listDailySegments(deps: ServiceDeps, user: User, day?: string | null) {
  return deps.prisma.dailyGeneratedSegment.findMany(dailySegmentListArgs(deps, user, day));
}

/** The active categories users see. */
export const activeCategoryListArgs = () =>
  ({ where: { isActive: true }, orderBy: CATEGORY_ORDER }) satisfies Prisma.SmartSegmentCategoryFindManyArgs;

export function listCategories(deps: ServiceDeps) {
  return deps.prisma.smartSegmentCategory.findMany(activeCategoryListArgs());
}

/** The active presets users see (of active categories), optionally of one category. */
export function activePresetListArgs(categoryId?: string | null) {
  if (categoryId) assertId(categoryId, 'Category');
  return {
    where: { isActive: true, category: { isActive: true }, ...(categoryId ? { categoryId } : {}) },
    orderBy: PRESET_ORDER,
  } satisfies Prisma.SmartSegmentPresetFindManyArgs;
}

export function listPresets(deps: ServiceDeps, categoryId?: string | null) {
  return deps.prisma.smartSegmentPreset.findMany(activePresetListArgs(categoryId));
}

export async function listFavorites(deps: ServiceDeps, user: User) {
  return deps.prisma.userSegmentFavorite.findMany({ where: { userId: user.id }, orderBy: { addedAt: 'asc' } });
}

export async function addFavorite(deps: ServiceDeps, user: User, presetId: unknown) {
  if (typeof presetId !== 'string' || !presetId) throw new AppError('BAD_USER_INPUT', 'presetId is required', { field: 'presetId' });
  assertId(presetId, 'Preset');
  const preset = await deps.prisma.smartSegmentPreset.findFirst({ where: { id: presetId, isActive: true } });
  if (!preset) throw notFound('Preset not found');
  return deps.prisma.userSegmentFavorite.upsert({
    where: { userId_presetId: { userId: user.id, presetId } },
    create: { userId: user.id, presetId, addedAt: deps.now() },
    update: {},
  });
}

export async function removeFavorite(deps: ServiceDeps, user: User, presetId: string) {
  assertId(presetId, 'Preset');
  const { count } = await deps.prisma.userSegmentFavorite.deleteMany({ where: { userId: user.id, presetId } });
  if (!count) throw notFound('This preset is not a favourite');
}

const ownSegment = (deps: ServiceDeps, user: User, id: string): Promise<DailyGeneratedSegment> =>
  findOwned((where) => deps.prisma.dailyGeneratedSegment.findFirst({ where }), id, user, 'Segment');

/**
 * Unlocks a generated segment. Unlocking costs one smart-segment unlock of today's allowance
 * (free categories too, as the spec says); an already-unlocked segment is free and idempotent.
 * Two concurrent unlocks of one segment spend one unit.
 */
export async function unlockSegment(deps: ServiceDeps, user: User, id: string): Promise<DailyGeneratedSegment> {
  const segment = await ownSegment(deps, user, id);
  if (segment.isUnlocked) return segment;
  if (segment.hasError) throw new AppError('BAD_USER_INPUT', `This segment could not be generated: ${segment.errorMessage ?? 'unknown error'}`);
  const terms = await quotaTerms(deps, user, 'segment');
  // The unlock and its unit are one transaction (a crash cannot leave one without the other); the
  // loser of two concurrent unlocks waits on the row, finds it unlocked and is not charged.
  await deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.dailyGeneratedSegment.updateMany({
      where: { id, isUnlocked: false },
      data: { isUnlocked: true, unlockedAt: deps.now() },
    });
    if (count > 0) await chargeQuota(tx, terms); // 429 { used, limit, tier, remaining } when exhausted
  });
  await publishUsage(deps, user);
  return deps.prisma.dailyGeneratedSegment.findUniqueOrThrow({ where: { id } });
}

/**
 * The user's segment with its compiled searches, when its customers may be downloaded: it must be
 * unlocked and generated without error (the rule of every download: REST, GraphQL and exports).
 */
export async function downloadableSegment(
  deps: ServiceDeps,
  user: User,
  id: string,
): Promise<{ segment: DailyGeneratedSegment; plan: SegmentPlan }> {
  const segment = await ownSegment(deps, user, id);
  if (!segment.isUnlocked) throw new AppError('FORBIDDEN', 'Unlock this segment before downloading its customers', { title: 'Segment locked' });
  const plan = segment.hasError ? null : readStoredPlan(segment.hubspotQuery);
  if (!plan) throw new AppError('BAD_USER_INPUT', 'This segment could not be generated, so it has no customers to download');
  return { segment, plan };
}

/** All customers of an unlocked segment, fetched from the CRM now (the whole segment). */
export async function segmentCustomers(deps: ServiceDeps, user: User, id: string): Promise<{ customers: Customer[]; total: number }> {
  const { plan } = await downloadableSegment(deps, user, id);
  const connector = await connectorForUser(deps, user);
  const now = plan.compiledAt ? new Date(plan.compiledAt) : deps.now();
  const { customers, total } = await fetchSegment(connector, plan, { now, timeZone: deps.config.usageTimeZone });
  return { customers, total };
}

/** Admin: removes a user's generated segments of a day (default today); returns how many. */
export async function clearSegments(deps: ServiceDeps, actor: User, userId: unknown, day?: string | null): Promise<number> {
  if (typeof userId !== 'string' || !userId) {
    throw new AppError('BAD_USER_INPUT', 'userId is required', { title: 'No user found to clear segments for', field: 'userId' });
  }
  assertId(userId, 'User');
  const user = await deps.prisma.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw notFound('User not found');
  const date = parseDay(deps, day);
  const { count } = await deps.prisma.dailyGeneratedSegment.deleteMany({ where: { userId, date: dayToDate(date) } });
  await recordAudit(deps, { actorId: actor.id, action: 'smart-segments.clear', targetType: 'User', targetId: userId, details: { date, deletedCount: count } });
  return count;
}
