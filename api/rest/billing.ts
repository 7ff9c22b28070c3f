// REST: GET /api/paddle/config (checkout settings for the signed-in user) and
// POST /api/paddle/webhook (server-to-server from Paddle; exempt from the same-origin guard,
// authenticated by its Paddle-Signature instead).
import { Hono } from 'hono';
import { requireUser } from '../http/guards.js';
import type { AppEnv } from '../http/request-context.js';
import { handlePaddleWebhook, paddleConfig } from '../services/billing/paddle.js';

export const paddleRoutes = new Hono<AppEnv>();

paddleRoutes.get('/config', async (c) => {
  const ctx = c.var.ctx;
  return c.json(await paddleConfig(ctx.deps, requireUser(ctx)));
});

// (its 1 MB body limit is declared with the others in http/body-limit.ts)
paddleRoutes.post('/webhook', async (c) => {
  // The signature covers the body bytes as sent: read the raw text, never re-serialised JSON.
  const raw = await c.req.text();
  return c.json(await handlePaddleWebhook(c.var.ctx.deps, raw, c.req.header('paddle-signature')));
});
