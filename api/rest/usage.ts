// REST: today's usage (GET /api/usage/current) and the administrators' usage statistics.
import { Hono } from 'hono';
import { requireAdmin, requireUser } from '../http/guards.js';
import type { AppEnv } from '../http/request-context.js';
import { currentUsage } from '../services/usage.js';
import { usageStats } from '../services/usage-stats.js';
import { usageJson } from './presenters.js';

export const usageRoutes = new Hono<AppEnv>();

usageRoutes.get('/current', async (c) => {
  const ctx = c.var.ctx;
  return c.json(usageJson(await currentUsage(ctx.deps, requireUser(ctx))));
});

/** Mounted at /api/admin/usage-stats. */
export const usageStatsRoutes = new Hono<AppEnv>();

usageStatsRoutes.get('/', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json(await usageStats(ctx.deps));
});
