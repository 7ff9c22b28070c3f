// Usage over GraphQL: the current day's counters and a live subscription.
import { builder } from '../builder.js';
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
    subscribe: (_r, _a, ctx) => ctx.deps.events.pubsub.subscribe('usageUpdated', ctx.user!.id),
    resolve: (payload) => payload,
  }),
);
