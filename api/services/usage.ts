// Daily usage metering: one implementation shared by chat queries and smart-segment unlocks.
// Counters live in daily_usage (unique per user and date). Consumption is a single conditional
// UPDATE, so concurrent requests can never spend more than the limit. The day is the calendar day
// in USAGE_TIME_ZONE (default UTC): quotas reset at midnight there.
import type { Prisma, PricingTier, User } from '@prisma/client';
import { AppError } from '../errors.js';
import type { UsageSnapshot } from '../events/pubsub.js';
import type { ServiceDeps } from './deps.js';
import { invalidate } from './read-cache.js';

export type UsageKind = 'chat' | 'segment';

const COLUMN: Record<UsageKind, 'chat_queries_used' | 'smart_segments_used'> = {
  chat: 'chat_queries_used',
  segment: 'smart_segments_used',
};

const dayFormats = new Map<string, { format: Intl.DateTimeFormat; minute: number; day: string }>();

/** The usage day (YYYY-MM-DD) of an instant in a time zone. */
export function usageDay(now: Date, timeZone: string): string {
  // Building a DateTimeFormat costs far more than formatting with one: one per time zone. And every
  // request asks (usage, quotas): the day is kept for the minute it was formatted in — days change
  // on a whole minute in every time zone (offsets are whole minutes).
  let zone = dayFormats.get(timeZone);
  if (!zone) dayFormats.set(timeZone, (zone = { format: new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }), minute: NaN, day: '' }));
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== zone.minute) {
    zone.day = zone.format.format(now);
    zone.minute = minute;
  }
  return zone.day;
}

/**
 * When the usage day of `now` ends in the time zone (its next midnight; daily limits reset then):
 * the first minute whose usage day differs, found by bisection (time zones move midnight by DST).
 */
export function nextUsageDayStart(now: Date, timeZone: string): Date {
  const today = usageDay(now, timeZone);
  let lo = Math.floor(now.getTime() / 60_000) * 60_000; // still today
  let hi = lo + 48 * 3_600_000; // tomorrow or later
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (usageDay(new Date(mid), timeZone) === today) lo = mid;
    else hi = mid;
  }
  return new Date(hi);
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

type Tx = Prisma.TransactionClient;

function quotaExceeded(kind: UsageKind, used: number, limit: number, tier: string): AppError {
  const what = kind === 'chat' ? 'queries' : 'smart segment unlocks';
  return new AppError('QUOTA_EXCEEDED', `You've used ${used} of ${limit} ${what} today. Upgrade your plan or wait until tomorrow when limits reset.`, {
    title: 'Daily limit reached',
    details: { used, limit, tier, remaining: 0 },
  });
}

/** What a charge needs, read before any transaction (the embedded database has one connection). */
export interface QuotaTerms {
  kind: UsageKind;
  userId: string;
  /** the usage day (YYYY-MM-DD) the unit is taken from */
  date: string;
  limit: number;
  tier: string;
}

export async function quotaTerms(deps: ServiceDeps, user: Pick<User, 'id' | 'currentTierId'>, kind: UsageKind): Promise<QuotaTerms> {
  const tier = await effectiveTier(deps, user);
  return {
    kind,
    userId: user.id,
    date: usageDay(deps.now(), deps.config.usageTimeZone),
    limit: kind === 'chat' ? tier.chatQueryLimit : tier.smartSegmentLimit,
    tier: tier.displayName,
  };
}

/**
 * Takes one unit with a single conditional UPDATE (concurrent callers can never spend more than the
 * limit), or throws QUOTA_EXCEEDED (429) with `{ used, limit, tier, remaining }`. Given a transaction,
 * the unit is taken only if that transaction commits: the charge and what it pays for are one write.
 */
export async function chargeQuota(db: Tx, terms: QuotaTerms): Promise<QuotaDetails> {
  const col = COLUMN[terms.kind];
  await db.$executeRaw`
    INSERT INTO daily_usage (id, user_id, date, created_at)
    VALUES (gen_random_uuid(), ${terms.userId}::uuid, ${terms.date}::date, now())
    ON CONFLICT (user_id, date) DO NOTHING`;
  const rows = await db.$queryRawUnsafe<{ used: number }[]>(
    `UPDATE daily_usage SET ${col} = ${col} + 1
     WHERE user_id = $1::uuid AND date = $2::date AND ${col} < $3
     RETURNING ${col} AS used`,
    terms.userId,
    terms.date,
    terms.limit,
  );
  if (!rows.length) {
    const current = await db.dailyUsage.findUnique({ where: { userId_date: { userId: terms.userId, date: dayToDate(terms.date) } } });
    const used = current ? (terms.kind === 'chat' ? current.chatQueriesUsed : current.smartSegmentsUsed) : 0;
    throw quotaExceeded(terms.kind, used, terms.limit, terms.tier);
  }
  const used = Number(rows[0].used);
  return { used, limit: terms.limit, tier: terms.tier, remaining: Math.max(0, terms.limit - used) };
}

/**
 * Gives back a unit chargeQuota took (on the day it was taken): a question answered with its first page
 * whose CRM then failed (after retries) before the rest was read is not charged, as one that failed at once.
 */
export async function refundCharge(db: Tx, terms: QuotaTerms): Promise<void> {
  const col = COLUMN[terms.kind];
  await db.$executeRawUnsafe(`UPDATE daily_usage SET ${col} = ${col} - 1 WHERE user_id = $1::uuid AND date = $2::date AND ${col} > 0`, terms.userId, terms.date);
}

/** Atomically uses one unit of today's allowance on its own (see chargeQuota). */
export async function consumeQuota(deps: ServiceDeps, user: Pick<User, 'id' | 'currentTierId'>, kind: UsageKind): Promise<QuotaDetails> {
  const terms = await quotaTerms(deps, user, kind);
  try {
    return await chargeQuota(deps.prisma, terms);
  } finally {
    invalidate(deps, { userId: user.id, only: 'usage' });
  }
}

/** Units being worked for in this process (admitted, not yet charged), per user and kind. */
const pending = new Map<string, number>();

/**
 * Admission before slow work that will be charged when it is stored (a CRM search): refuses with
 * QUOTA_EXCEEDED when today's units plus those already being worked for in this process reach the
 * limit, so a burst over the limit is turned away before it costs CRM calls. It takes nothing: the
 * charge itself (chargeQuota, in the storing transaction) stays the exact, atomic guard across
 * processes. Call `release()` when the work is stored or abandoned.
 */
export interface Admission {
  terms: QuotaTerms;
  /** no longer in flight (idempotent) */
  release(): void;
}

export async function admitQuota(deps: ServiceDeps, user: Pick<User, 'id' | 'currentTierId'>, kind: UsageKind): Promise<Admission> {
  const terms = await quotaTerms(deps, user, kind);
  const key = `${user.id}:${kind}`;
  const row = await deps.prisma.dailyUsage.findUnique({ where: { userId_date: { userId: user.id, date: dayToDate(terms.date) } } });
  const used = row ? (kind === 'chat' ? row.chatQueriesUsed : row.smartSegmentsUsed) : 0;
  const inFlight = pending.get(key) ?? 0;
  if (used + inFlight >= terms.limit) throw quotaExceeded(kind, Math.min(terms.limit, used + inFlight), terms.limit, terms.tier);
  pending.set(key, inFlight + 1);
  let released = false;
  return {
    terms,
    release() {
      if (released) return;
      released = true;
      const n = (pending.get(key) ?? 1) - 1;
      if (n > 0) pending.set(key, n);
      else pending.delete(key);
    },
  };
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
