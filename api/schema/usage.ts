// Usage over GraphQL: the current day's counters, a live subscription, and the administrators'
// usage statistics with the daily series of the Statistics chart.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import type { UsageSnapshot } from '../events/pubsub.js';
import { requireUser } from '../http/guards.js';
import { currentUsage, nextUsageDayStart } from '../services/usage.js';
import { DAILY_SERIES_DEFAULT_DAYS, DAILY_SERIES_MAX_DAYS, dailyUsageSeries, usageStats } from '../services/usage-stats.js';

export const Usage = builder.objectRef<UsageSnapshot>('Usage').implement({
  description: "The viewer's usage today against their tier's daily limits",
  fields: (t) => ({
    // A stable id lets a client store merge every copy (query, payloads, subscription) into one record.
    id: t.id({ resolve: (u) => encodeGlobalID('Usage', u.userId) }),
    chatQueriesUsed: t.exposeInt('chatQueriesUsed'),
    chatQueryLimit: t.exposeInt('chatQueryLimit'),
    smartSegmentsUsed: t.exposeInt('smartSegmentsUsed'),
    smartSegmentLimit: t.exposeInt('smartSegmentLimit'),
    tierName: t.exposeString('tierName'),
    resetsAt: t.field({
      type: 'DateTime',
      description: 'When the daily counters start again at 0 (the next midnight in timeZone)',
      resolve: (_u, _a, ctx) => nextUsageDayStart(ctx.deps.now(), ctx.deps.config.usageTimeZone),
    }),
    timeZone: t.string({ description: 'The time zone of the usage day (USAGE_TIME_ZONE), e.g. UTC', resolve: (_u, _a, ctx) => ctx.deps.config.usageTimeZone }),
  }),
});

builder.queryField('usage', (t) =>
  t.field({
    type: Usage,
    authScopes: { authenticated: true },
    resolve: (_r, _a, ctx) => currentUsage(ctx.deps, requireUser(ctx)),
  }),
);

builder.subscriptionType({});
builder.subscriptionField('usageUpdated', (t) =>
  t.field({
    type: Usage,
    authScopes: { authenticated: true },
    description: 'Pushed after every query, unlock or tier change of the signed-in user',
    // scope-auth guards resolvers, not subscribe(): check here too.
    subscribe: (_r, _a, ctx) => ctx.deps.events.pubsub.subscribe('usageUpdated', requireUser(ctx).id),
    resolve: (payload) => payload,
  }),
);

const UsageStats = builder.simpleObject('UsageStats', {
  description: 'Definitions: see usageStats() in api/services/usage-stats.ts',
  fields: (t) => ({
    totalUsers: t.int({ description: 'All accounts' }),
    activeUsers: t.int({ description: 'Not banned, with usage or a session seen in the last 30 days' }),
    totalChatQueries: t.int({ description: 'Sum of daily chat queries over the kept usage history' }),
    totalSmartSegments: t.int({ description: 'Generated daily smart segments' }),
  }),
});

builder.queryField('usageStats', (t) =>
  t.field({ type: UsageStats, authScopes: { admin: true }, resolve: (_r, _a, ctx) => usageStats(ctx.deps) }),
);

const DailyUsagePoint = builder.simpleObject('DailyUsagePoint', {
  description: 'Platform usage of one usage day (USAGE_TIME_ZONE), all users together',
  fields: (t) => ({
    date: t.field({ type: 'Date' }),
    chatQueries: t.int({ description: 'Chat queries that day' }),
    smartSegmentUnlocks: t.int({ description: 'Smart-segment unlocks that day' }),
  }),
});

builder.queryField('dailyUsageSeries', (t) =>
  t.field({
    type: [DailyUsagePoint],
    authScopes: { admin: true },
    description: `Daily chat queries and unlocks of every user over the last \`days\` days (today included, oldest first, zeros for days without usage); days 1 to ${DAILY_SERIES_MAX_DAYS}, default ${DAILY_SERIES_DEFAULT_DAYS}`,
    args: { days: t.arg.int({ required: false }) },
    resolve: (_r, { days }, ctx) => dailyUsageSeries(ctx.deps, days ?? DAILY_SERIES_DEFAULT_DAYS),
  }),
);
