// Usage over GraphQL: the current day's counters and a live subscription.
import { builder } from '../builder.js';
import { requireUser } from '../http/guards.js';
import { currentUsage } from '../services/usage.js';

export const Usage = builder.simpleObject('Usage', {
  fields: (t) => ({
    chatQueriesUsed: t.int(),
    chatQueryLimit: t.int(),
    smartSegmentsUsed: t.int(),
    smartSegmentLimit: t.int(),
    tierName: t.string(),
  }),
});

builder.queryField('usage', (t) =>
  t.field({
    type: Usage,
    authScopes: { authenticated: true },
    resolve: (_r, _a, ctx) => currentUsage(ctx.deps, ctx.user!),
  }),
);

builder.subscriptionType({});
builder.subscriptionField('usageUpdated', (t) =>
  t.field({
    type: Usage,
    authScopes: { authenticated: true },
    description: "Pushed after every query, unlock or tier change of the signed-in user",
    // scope-auth guards resolvers, not subscribe(): check here too.
    subscribe: (_r, _a, ctx) => ctx.deps.events.pubsub.subscribe('usageUpdated', requireUser(ctx).id),
    resolve: (payload) => payload,
  }),
);
