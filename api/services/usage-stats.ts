// Usage statistics for administrators (the four cards of the console's Statistics tab).
import { AppError } from '../errors.js';
import type { ServiceDeps } from './deps.js';
import { dayToDate, usageDay } from './usage.js';

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

/** Days of the daily series by default, and at most (the usage history is kept 90 days by default). */
export const DAILY_SERIES_DEFAULT_DAYS = 30;
export const DAILY_SERIES_MAX_DAYS = 90;

export interface DailyUsagePoint {
  /** The usage day, YYYY-MM-DD in USAGE_TIME_ZONE. */
  date: string;
  /** Chat queries of every user that day. */
  chatQueries: number;
  /** Smart-segment unlocks of every user that day. */
  smartSegmentUnlocks: number;
}

/**
 * Platform usage per usage day over the last `days` days (today included, oldest first), one point
 * per day with zeros for days without usage: the sums of daily_usage over all users (banned and
 * deleted users' rows go with their accounts). One grouped query, whatever the number of users.
 */
export async function dailyUsageSeries(deps: ServiceDeps, days: number = DAILY_SERIES_DEFAULT_DAYS): Promise<DailyUsagePoint[]> {
  if (!Number.isInteger(days) || days < 1 || days > DAILY_SERIES_MAX_DAYS) {
    throw new AppError('BAD_USER_INPUT', `Days must be a whole number from 1 to ${DAILY_SERIES_MAX_DAYS}`, { field: 'days' });
  }
  const today = dayToDate(usageDay(deps.now(), deps.config.usageTimeZone));
  const first = new Date(today.getTime() - (days - 1) * 86_400_000);
  const rows = await deps.prisma.dailyUsage.groupBy({
    by: ['date'],
    where: { date: { gte: first, lte: today } },
    _sum: { chatQueriesUsed: true, smartSegmentsUsed: true },
  });
  const byDay = new Map(rows.map((r) => [r.date.toISOString().slice(0, 10), r._sum]));
  return Array.from({ length: days }, (_x, i) => {
    const date = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const sum = byDay.get(date);
    return { date, chatQueries: sum?.chatQueriesUsed ?? 0, smartSegmentUnlocks: sum?.smartSegmentsUsed ?? 0 };
  });
}
