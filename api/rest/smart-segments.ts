// REST: Smart Segments for users (spec section 7) and the admin generate/clear actions.
import type { DailyGeneratedSegment, SmartSegmentCategory, SmartSegmentPreset } from '@prisma/client';
import { Hono } from 'hono';
import { decimalString } from '../builder.js';
import { requireAdmin, requireUser } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { generateNow } from '../services/smart-segments/generate.js';
import {
  addFavorite,
  clearSegments,
  listCategories,
  listDailySegments,
  listFavorites,
  listPresets,
  removeFavorite,
  segmentCustomers,
  unlockSegment,
} from '../services/smart-segments/user.js';
import { currentUsage } from '../services/usage.js';

export const dailySegmentJson = (s: DailyGeneratedSegment) => ({
  id: s.id,
  presetId: s.presetId,
  date: s.date.toISOString().slice(0, 10),
  customerCount: s.customerCount,
  impactScore: decimalString(s.impactScore)!,
  hasError: s.hasError,
  errorMessage: s.errorMessage,
  isUnlocked: s.isUnlocked,
  unlockedAt: s.unlockedAt,
  generatedAt: s.generatedAt,
});

export const categoryJson = (c: SmartSegmentCategory) => ({
  id: c.id,
  name: c.name,
  displayName: c.displayName,
  description: c.description,
  isLocked: c.isLocked,
  isActive: c.isActive,
  sortOrder: c.sortOrder,
});

export const presetJson = (p: SmartSegmentPreset) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  categoryId: p.categoryId,
  sortOrder: p.sortOrder,
  isActive: p.isActive,
  defaultQuery: p.defaultQuery,
});

export const smartSegmentRoutes = new Hono<AppEnv>();

smartSegmentRoutes.get('/daily', async (c) => {
  const ctx = c.var.ctx;
  return c.json((await listDailySegments(ctx.deps, requireUser(ctx), c.req.query('date'))).map(dailySegmentJson));
});

smartSegmentRoutes.get('/categories', async (c) => {
  requireUser(c.var.ctx);
  return c.json((await listCategories(c.var.ctx.deps)).map(categoryJson));
});

smartSegmentRoutes.get('/presets', async (c) => {
  requireUser(c.var.ctx);
  return c.json((await listPresets(c.var.ctx.deps, c.req.query('categoryId'))).map(presetJson));
});

smartSegmentRoutes.get('/favorites', async (c) => {
  const ctx = c.var.ctx;
  return c.json((await listFavorites(ctx.deps, requireUser(ctx))).map((f) => ({ presetId: f.presetId, addedAt: f.addedAt })));
});

smartSegmentRoutes.post('/favorites', async (c) => {
  const ctx = c.var.ctx;
  const user = requireUser(ctx);
  const f = await addFavorite(ctx.deps, user, (await readJson(c)).presetId);
  return c.json({ success: true, presetId: f.presetId });
});

smartSegmentRoutes.delete('/favorites/:presetId', async (c) => {
  const ctx = c.var.ctx;
  await removeFavorite(ctx.deps, requireUser(ctx), c.req.param('presetId'));
  return c.json({ success: true });
});

smartSegmentRoutes.post('/:id/unlock', async (c) => {
  const ctx = c.var.ctx;
  const user = requireUser(ctx);
  const segment = await unlockSegment(ctx.deps, user, c.req.param('id'));
  return c.json({ success: true, segment: dailySegmentJson(segment), usage: await currentUsage(ctx.deps, user) });
});

smartSegmentRoutes.post('/:id/customers', async (c) => {
  const ctx = c.var.ctx;
  return c.json(await segmentCustomers(ctx.deps, requireUser(ctx), c.req.param('id')));
});

/** Mounted at /api/admin/smart-segments (next to the content routes of rest/admin.ts). */
export const adminSmartSegmentRoutes = new Hono<AppEnv>();

adminSmartSegmentRoutes.post('/generate', async (c) => {
  const ctx = c.var.ctx;
  const stats = await generateNow(ctx.deps, requireAdmin(ctx));
  return c.json({ success: true, message: `Successfully generated ${stats.successCount} segments for ${stats.users} users`, stats });
});

adminSmartSegmentRoutes.post('/clear', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const body = await readJson(c);
  const deletedCount = await clearSegments(ctx.deps, admin, body.userId, typeof body.date === 'string' ? body.date : undefined);
  return c.json({ success: true, message: `Successfully cleared ${deletedCount} segments`, stats: { deletedCount } });
});
