// REST compatibility routes for database maintenance (admin only, enforced here on the server).
// Mounted at /api/admin; this group defines exactly these three paths.
import { Hono } from 'hono';
import { requireAdmin } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { cleanupStats, parseRetentionDays, retentionFromQuery, runCleanup, runDailyMaintenance } from '../services/maintenance.js';

export const adminMaintenanceRoutes = new Hono<AppEnv>();

adminMaintenanceRoutes.get('/cleanup/stats', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json(await cleanupStats(ctx.deps, retentionFromQuery(c.req.query('retention'))));
});

adminMaintenanceRoutes.post('/cleanup/run', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const body = await readJson(c);
  const result = await runCleanup(ctx.deps, parseRetentionDays(body.retentionDays), { actor: admin });
  return c.json({ message: result.message, deletedCount: result.deletedCount, retentionDays: result.retentionDays });
});

adminMaintenanceRoutes.post('/maintenance/daily', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const summary = await runDailyMaintenance(ctx.deps, { actor: admin });
  return c.json({ ...summary, message: summary.message });
});
