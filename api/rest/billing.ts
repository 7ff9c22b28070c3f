// REST: GET /api/paddle/config (checkout settings for the signed-in user) and
// POST /api/paddle/webhook (server-to-server from Paddle; exempt from the same-origin guard,
// authenticated by its Paddle-Signature instead).
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requireUser } from '../http/guards.js';
import type { AppEnv } from '../http/request-context.js';
import { handlePaddleWebhook, paddleConfig } from '../services/billing/paddle.js';

export const paddleRoutes = new Hono<AppEnv>();

paddleRoutes.get('/config', async (c) => {
  const ctx = c.var.ctx;
  return c.json(await paddleConfig(ctx.deps, requireUser(ctx)));
});

paddleRoutes.post(
  '/webhook',
  bodyLimit({
    maxSize: 1024 * 1024,
    // The rest of the oversized body is never read, so this connection cannot carry another
    // request: say so, and the client opens a fresh one for its next request.
    onError: (c) => {
      c.header('Connection', 'close');
      return c.json({ error: 'Payload too large', message: 'Webhook body is larger than 1 MB' }, 413);
    },
  }),
  async (c) => {
    // The signature covers the body bytes as sent: read the raw text, never re-serialised JSON.
    const raw = await c.req.text();
    return c.json(await handlePaddleWebhook(c.var.ctx.deps, raw, c.req.header('paddle-signature')));
  },
);
