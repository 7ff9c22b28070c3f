// REST: pricing tiers (administrators), mounted at /api/admin/pricing-tiers.
import { Hono } from 'hono';
import { requireAdmin } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { createPricingTier, listPricingTiers, updatePricingTier } from '../services/pricing-tiers.js';
import { pricingTierJson } from './presenters.js';

export const pricingTierRoutes = new Hono<AppEnv>();

pricingTierRoutes.get('/', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json((await listPricingTiers(ctx.deps)).map(pricingTierJson));
});

pricingTierRoutes.post('/', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(pricingTierJson(await createPricingTier(ctx.deps, admin, await readJson(c))), 201);
});

pricingTierRoutes.put('/:id', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  return c.json(pricingTierJson(await updatePricingTier(ctx.deps, admin, c.req.param('id'), await readJson(c))));
});
