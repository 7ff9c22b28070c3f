// REST compatibility routes of the admin console (admin only, enforced here on the server):
// usage statistics, pricing tiers, smart-segment categories, presets and impact formulas.
// (GET /api/admin/users and ban/unban live in admin-users.ts; cleanup/maintenance and segment
// generation/clearing in their own route groups.)
import type { PricingTier } from '@prisma/client';
import { Hono } from 'hono';
import { decimalString } from '../builder.js';
import { requireAdmin } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { usageStats } from '../services/usage-stats.js';
import { createPricingTier, listPricingTiers, updatePricingTier } from '../services/pricing-tiers.js';
import {
  createCategory,
  createFormula,
  createPreset,
  deleteCategory,
  deleteFormula,
  deletePreset,
  listCategories,
  listFormulas,
  listPresets,
} from '../services/smart-segments/content.js';

export const adminRoutes = new Hono<AppEnv>();

/** Spec section 3 "Pricing tier", prices as two-decimal strings, plus the payment price ids. */
export const pricingTierJson = (t: PricingTier) => ({
  id: t.id,
  name: t.name,
  displayName: t.displayName,
  chatQueryLimit: t.chatQueryLimit,
  smartSegmentLimit: t.smartSegmentLimit,
  priceMonthly: decimalString(t.priceMonthly),
  priceYearly: decimalString(t.priceYearly),
  isActive: t.isActive,
  paddlePriceIdMonthly: t.paddlePriceIdMonthly,
  paddlePriceIdYearly: t.paddlePriceIdYearly,
  createdAt: t.createdAt,
});

adminRoutes.get('/usage-stats', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json(await usageStats(ctx.deps));
});

adminRoutes.get('/pricing-tiers', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json((await listPricingTiers(ctx.deps)).map(pricingTierJson));
});

adminRoutes.post('/pricing-tiers', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(pricingTierJson(await createPricingTier(ctx.deps, admin, await readJson(c))), 201);
});

adminRoutes.put('/pricing-tiers/:id', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(pricingTierJson(await updatePricingTier(ctx.deps, admin, c.req.param('id'), await readJson(c))));
});

adminRoutes.get('/smart-segments/categories', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json(await listCategories(ctx.deps));
});

adminRoutes.post('/smart-segments/categories', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(await createCategory(ctx.deps, admin, await readJson(c)), 201);
});

adminRoutes.delete('/smart-segments/categories/:id', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const category = await deleteCategory(ctx.deps, admin, c.req.param('id'));
  return c.json({ success: true, message: `Category ${category.displayName} deleted`, id: category.id });
});

adminRoutes.get('/smart-segments/presets', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json(await listPresets(ctx.deps, { categoryId: c.req.query('categoryId') }));
});

adminRoutes.post('/smart-segments/presets', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(await createPreset(ctx.deps, admin, await readJson(c)), 201);
});

adminRoutes.delete('/smart-segments/presets/:id', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const preset = await deletePreset(ctx.deps, admin, c.req.param('id'));
  return c.json({ success: true, message: `Preset ${preset.name} deleted`, id: preset.id });
});

adminRoutes.get('/smart-segments/formulas', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json(await listFormulas(ctx.deps, { categoryId: c.req.query('categoryId') }));
});

adminRoutes.post('/smart-segments/formulas', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(await createFormula(ctx.deps, admin, await readJson(c)), 201);
});

adminRoutes.delete('/smart-segments/formulas/:id', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const formula = await deleteFormula(ctx.deps, admin, c.req.param('id'));
  return c.json({ success: true, message: `Formula ${formula.name} deleted`, id: formula.id });
});
