// Daily usage metering: one implementation shared by chat queries and smart-segment unlocks.
// Counters live in daily_usage (unique per user and date). Consumption is a single conditional
// UPDATE, so concurrent requests can never spend more than the limit. The day is the calendar day
// in USAGE_TIME_ZONE (default UTC): quotas reset at midnight there.
import type { PricingTier, User } from '@prisma/client';
import { AppError } from '../errors.js';
import type { UsageSnapshot } from '../events/pubsub.js';
import type { ServiceDeps } from './deps.js';
import { invalidate } from './read-cache.js';

export type UsageKind = 'chat' | 'segment';

const COLUMN: Record<UsageKind, 'chat_queries_used' | 'smart_segments_used'> = {
  chat: 'chat_queries_used',
  segment: 'smart_segments_used',
};

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The usage day (YYYY-MM-DD) of an instant in a time zone. */
export function usageDay(now: Date, timeZone: string): string {
  // Building a DateTimeFormat costs far more than formatting with one: one per time zone.
  let format = dayFormats.get(timeZone);
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(now);
}

export const dayToDate = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** The user's tier, falling back to the free tier for users without one (or with a deleted one). */
export async function effectiveTier(deps: ServiceDeps, user: Pick<User, 'currentTierId'>): Promise<PricingTier> {
  const tier = user.currentTierId
    ? await deps.prisma.pricingTier.findUnique({ where: { id: user.currentTierId } })
    : null;
  if (tier) return tier;
  const free = await deps.prisma.pricingTier.findUnique({ where: { name: 'free' } });
  if (free) return free;
  // No tiers at all (a freshly emptied database): behave as the spec's fallback, 10 a day.
  return {
    id: 'fallback', name: 'free', displayName: 'Free Plan', chatQueryLimit: 10, smartSegmentLimit: 3,
    isActive: true, createdAt: new Date(0),
  } as PricingTier;
}

export async function currentUsage(deps: ServiceDeps, user: Pick<User, 'id' | 'currentTierId'>): Promise<UsageSnapshot> {
  const day = usageDay(deps.now(), deps.config.usageTimeZone);
  // Keyed by tier too: a user whose tier changed is never shown the old tier's limits.
  const key = `${user.id}:${day}:${user.currentTierId ?? 'free'}`;
  const cached = deps.cache?.usage.get(key);
  if (cached) return cached;
  const [tier, row] = await Promise.all([
    effectiveTier(deps, user),
    deps.prisma.dailyUsage.findUnique({ where: { userId_date: { userId: user.id, date: dayToDate(day) } } }),
  ]);
  const snapshot = {
    userId: user.id,
    chatQueriesUsed: row?.chatQueriesUsed ?? 0,
    chatQueryLimit: tier.chatQueryLimit,
    smartSegmentsUsed: row?.smartSegmentsUsed ?? 0,
    smartSegmentLimit: tier.smartSegmentLimit,
    tierName: tier.displayName,
  };
  deps.cache?.usage.set(key, snapshot);
  return snapshot;
}

export interface QuotaDetails {
  used: number;
  limit: number;
  tier: string;
  remaining: number;
}

/**
 * Atomically uses one unit of today's allowance, or throws QUOTA_EXCEEDED (429) with
 * `{ used, limit, tier, remaining }`. Returns the counts after consumption.
 */
export async function consumeQuota(deps: ServiceDeps, user: Pick<User, 'id' | 'currentTierId'>, kind: UsageKind): Promise<QuotaDetails> {
  const tier = await effectiveTier(deps, user);
  const limit = kind === 'chat' ? tier.chatQueryLimit : tier.smartSegmentLimit;
  const date = usageDay(deps.now(), deps.config.usageTimeZone);
  const col = COLUMN[kind];
  await deps.prisma.$executeRaw`
    INSERT INTO daily_usage (id, user_id, date, created_at)
    VALUES (gen_random_uuid(), ${user.id}::uuid, ${date}::date, now())
    ON CONFLICT (user_id, date) DO NOTHING`;
  const rows = await deps.prisma.$queryRawUnsafe<{ used: number }[]>(
    `UPDATE daily_usage SET ${col} = ${col} + 1
     WHERE user_id = $1::uuid AND date = $2::date AND ${col} < $3
     RETURNING ${col} AS used`,
    user.id,
    date,
    limit,
  );
  invalidate(deps, { userId: user.id, only: 'usage' });
  if (!rows.length) {
    const current = await deps.prisma.dailyUsage.findUnique({ where: { userId_date: { userId: user.id, date: dayToDate(date) } } });
    const used = current ? (kind === 'chat' ? current.chatQueriesUsed : current.smartSegmentsUsed) : 0;
    const what = kind === 'chat' ? 'queries' : 'smart segment unlocks';
    throw new AppError('QUOTA_EXCEEDED', `You've used ${used} of ${limit} ${what} today. Upgrade your plan or wait until tomorrow when limits reset.`, {
      title: 'Daily limit reached',
      details: { used, limit, tier: tier.displayName, remaining: 0 },
    });
  }
  const used = Number(rows[0].used);
  return { used, limit, tier: tier.displayName, remaining: Math.max(0, limit - used) };
}

/** Gives back one unit (work failed before it reached the CRM). Never goes below zero. */
export async function refundQuota(deps: ServiceDeps, userId: string, kind: UsageKind): Promise<void> {
  const date = usageDay(deps.now(), deps.config.usageTimeZone);
  const col = COLUMN[kind];
  await deps.prisma.$executeRawUnsafe(
    `UPDATE daily_usage SET ${col} = ${col} - 1 WHERE user_id = $1::uuid AND date = $2::date AND ${col} > 0`,
    userId,
    date,
  );
  invalidate(deps, { userId, only: 'usage' });
}

/** Pushes the user's current usage to their `usageUpdated` subscribers. */
export async function publishUsage(deps: ServiceDeps, user: Pick<User, 'id' | 'currentTierId'>): Promise<void> {
  invalidate(deps, { userId: user.id });
  deps.events.pubsub.publish('usageUpdated', user.id, await currentUsage(deps, user));
}
