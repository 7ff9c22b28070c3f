// Usage statistics for administrators (the four cards of the console's Statistics tab).
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
