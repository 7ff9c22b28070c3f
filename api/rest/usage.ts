// REST: GET /api/usage/current.
import { Hono } from 'hono';
import { requireUser } from '../http/guards.js';
import type { AppEnv } from '../http/request-context.js';
import { currentUsage } from '../services/usage.js';

export const usageRoutes = new Hono<AppEnv>();

usageRoutes.get('/current', async (c) => {
  const ctx = c.var.ctx;
  return c.json(await currentUsage(ctx.deps, requireUser(ctx)));
});
