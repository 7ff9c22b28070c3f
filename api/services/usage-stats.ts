// Administrator views of the user base: the user table with today's usage, and usage statistics.
// (Ban and unban live in users.ts.)
import type { ServiceDeps } from './deps.js';
import { dayToDate, effectiveTier, usageDay } from './usage.js';

export interface AdminUserRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  crmType: string;
  industry: string;
  /** The display name of the user's stored tier; null when the user has none ("No Tier"). */
  tierName: string | null;
  /** The limits that apply: the tier's, or the free-tier fallback of usage.ts when tierName is null. */
  chatQueryLimit: number;
  smartSegmentLimit: number;
  todaysUsage: { chatQueriesUsed: number; smartSegmentsUsed: number };
  isBanned: boolean;
  bannedAt: Date | null;
  banReason: string | null;
}

/**
 * Every user, oldest account first, with tier and today's usage (the usage day of
 * USAGE_TIME_ZONE). Two queries whatever the number of users (plus one for the free-tier
 * fallback when some user has no tier).
 */
export async function listAdminUsers(deps: ServiceDeps): Promise<AdminUserRow[]> {
  const today = dayToDate(usageDay(deps.now(), deps.config.usageTimeZone));
  const [users, usage] = await Promise.all([
    deps.prisma.user.findMany({
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { currentTier: { select: { displayName: true, chatQueryLimit: true, smartSegmentLimit: true } } },
    }),
    deps.prisma.dailyUsage.findMany({
      where: { date: today },
      select: { userId: true, chatQueriesUsed: true, smartSegmentsUsed: true },
    }),
  ]);
  const byUser = new Map(usage.map((u) => [u.userId, u]));
  const fallback = users.some((u) => !u.currentTier) ? await effectiveTier(deps, { currentTierId: null }) : null;
  return users.map((u) => {
    const limits = u.currentTier ?? fallback!;
    const used = byUser.get(u.id);
    return {
      id: u.id,
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
      crmType: u.crmType,
      industry: u.industry,
      tierName: u.currentTier?.displayName ?? null,
      chatQueryLimit: limits.chatQueryLimit,
      smartSegmentLimit: limits.smartSegmentLimit,
      todaysUsage: { chatQueriesUsed: used?.chatQueriesUsed ?? 0, smartSegmentsUsed: used?.smartSegmentsUsed ?? 0 },
      isBanned: u.isBanned,
      bannedAt: u.bannedAt,
      banReason: u.banReason,
    };
  });
}

/** Days looked back for "active" users. */
export const ACTIVE_USER_WINDOW_DAYS = 30;

export interface UsageStats {
  totalUsers: number;
  activeUsers: number;
  totalChatQueries: number;
  totalSmartSegments: number;
}

/**
 * Definitions:
 * - totalUsers: every account (administrators and banned users included).
 * - activeUsers: accounts that are not banned and, within the last ACTIVE_USER_WINDOW_DAYS, either
 *   used something (a daily_usage row of one of the last 30 usage days, today included, with a
 *   chat query or a smart-segment unlock) or were seen through a session (sessions.last_seen_at
 *   within the last 30 × 24 h; refreshed at most every 5 minutes while the user is signed in).
 * - totalChatQueries: sum of chat_queries_used over all daily_usage rows (history kept by the
 *   retention cleanup).
 * - totalSmartSegments: number of daily_generated_segments rows (segments generated for users,
 *   unlocked or not).
 */
export async function usageStats(deps: ServiceDeps): Promise<UsageStats> {
  const now = deps.now();
  const since = new Date(now.getTime() - ACTIVE_USER_WINDOW_DAYS * 86_400_000);
  const firstDay = dayToDate(usageDay(new Date(now.getTime() - (ACTIVE_USER_WINDOW_DAYS - 1) * 86_400_000), deps.config.usageTimeZone));
  const [totalUsers, activeUsers, chat, totalSmartSegments] = await Promise.all([
    deps.prisma.user.count(),
    deps.prisma.user.count({
      where: {
        isBanned: false,
        OR: [
          {
            dailyUsage: {
              some: { date: { gte: firstDay }, OR: [{ chatQueriesUsed: { gt: 0 } }, { smartSegmentsUsed: { gt: 0 } }] },
            },
          },
          { sessions: { some: { lastSeenAt: { gte: since } } } },
        ],
      },
    }),
    deps.prisma.dailyUsage.aggregate({ _sum: { chatQueriesUsed: true } }),
    deps.prisma.dailyGeneratedSegment.count(),
  ]);
  return { totalUsers, activeUsers, totalChatQueries: chat._sum.chatQueriesUsed ?? 0, totalSmartSegments };
}
