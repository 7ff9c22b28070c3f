// Billing over GraphQL: the Paddle checkout settings of the signed-in user.
import { builder } from '../builder.js';
import { paddleConfig } from '../services/billing/paddle.js';

export const PaddleConfig = builder.simpleObject('PaddleConfig', {
  description: 'What the browser needs to open Paddle checkout',
  fields: (t) => ({
    environment: t.string({ description: '"sandbox" or "production"' }),
    clientToken: t.string({ description: 'Paddle client-side token (public by design)' }),
    priceId: t.string({ nullable: true, description: 'Monthly Paddle price id of the next tier up; null when there is none' }),
  }),
});

builder.queryField('paddleConfig', (t) =>
  t.field({
    type: PaddleConfig,
    authScopes: { authenticated: true },
    resolve: (_r, _a, ctx) => paddleConfig(ctx.deps, ctx.user!),
  }),
);
