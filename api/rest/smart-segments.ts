// REST: Smart Segments for users (spec section 7) and, under /api/admin/smart-segments, the
// administrators' content (categories, presets, impact formulas) and generate/clear actions.
import { Hono } from 'hono';
import { requireAdmin, requireUser } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { generateNow } from '../services/smart-segments/generate.js';
import { waitForRunEnd } from '../services/smart-segments/generation-runs.js';
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
import * as content from '../services/smart-segments/content.js';
import { currentUsage } from '../services/usage.js';
import { categoryJson, dailySegmentJson, favoriteJson, formulaJson, presetJson, usageJson } from './presenters.js';

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
  return c.json((await listFavorites(ctx.deps, requireUser(ctx))).map(favoriteJson));
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
  return c.json({ success: true, segment: dailySegmentJson(segment), usage: usageJson(await currentUsage(ctx.deps, user)) });
});

smartSegmentRoutes.post('/:id/customers', async (c) => {
  const ctx = c.var.ctx;
  return c.json(await segmentCustomers(ctx.deps, requireUser(ctx), c.req.param('id')));
});

/** Mounted at /api/admin/smart-segments. */
export const adminSmartSegmentRoutes = new Hono<AppEnv>();

adminSmartSegmentRoutes.post('/generate', async (c) => {
  const ctx = c.var.ctx;
  const started = await generateNow(ctx.deps, requireAdmin(ctx));
  // Spec §7 answers with the finished run's figures: wait for its last user (the jobs do the work).
  const { done: _done, ...stats } = (await waitForRunEnd(ctx.deps, started.runId, c.req.raw.signal)) ?? { ...started, done: false };
  return c.json({ success: true, message: `Successfully generated ${stats.successCount} segment${stats.successCount === 1 ? '' : 's'} for ${stats.users} user${stats.users === 1 ? '' : 's'}`, stats });
});

adminSmartSegmentRoutes.post('/clear', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const body = await readJson(c);
  const deletedCount = await clearSegments(ctx.deps, admin, body.userId, typeof body.date === 'string' ? body.date : undefined);
  return c.json({ success: true, message: `Successfully cleared ${deletedCount} segments`, stats: { deletedCount } });
});

adminSmartSegmentRoutes.get('/categories', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json((await content.listCategories(ctx.deps)).map(categoryJson));
});

adminSmartSegmentRoutes.post('/categories', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(categoryJson(await content.createCategory(ctx.deps, admin, await readJson(c))), 201);
});

adminSmartSegmentRoutes.delete('/categories/:id', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const category = await content.deleteCategory(ctx.deps, admin, c.req.param('id'));
  return c.json({ success: true, message: `Category ${category.displayName} deleted`, id: category.id });
});

adminSmartSegmentRoutes.get('/presets', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json((await content.listPresets(ctx.deps, { categoryId: c.req.query('categoryId') })).map(presetJson));
});

adminSmartSegmentRoutes.post('/presets', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(presetJson(await content.createPreset(ctx.deps, admin, await readJson(c))), 201);
});

adminSmartSegmentRoutes.delete('/presets/:id', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const preset = await content.deletePreset(ctx.deps, admin, c.req.param('id'));
  return c.json({ success: true, message: `Preset ${preset.name} deleted`, id: preset.id });
});

adminSmartSegmentRoutes.get('/formulas', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json((await content.listFormulas(ctx.deps, { categoryId: c.req.query('categoryId') })).map(formulaJson));
});

adminSmartSegmentRoutes.post('/formulas', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(formulaJson(await content.createFormula(ctx.deps, admin, await readJson(c))), 201);
});

adminSmartSegmentRoutes.delete('/formulas/:id', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const formula = await content.deleteFormula(ctx.deps, admin, c.req.param('id'));
  return c.json({ success: true, message: `Formula ${formula.name} deleted`, id: formula.id });
});
