// Pricing tiers (administrator): list, create, edit. Name and active flag are fixed once created
// (spec section 4); editing changes display name, daily limits and prices only, and pushes the new
// usage picture to every user of the tier.
import { Prisma, type PricingTier, type User } from '@prisma/client';
import { z } from 'zod';
import { AppError, assertId, notFound } from '../errors.js';
import { recordAudit } from './audit.js';
import { parseInput } from './validation.js';
import type { ServiceDeps } from './deps.js';
import { invalidate } from './read-cache.js';
import { publishUsage } from './usage.js';

const MAX_INT = 2_147_483_647;
const MAX_PRICE = '99999999.99'; // Decimal(10,2)

const issue = (ctx: z.RefinementCtx, message: string) => {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
};

/** A daily limit: an integer ≥ 0, as a number or a string of digits. */
const limit = (label: string) =>
  z.unknown().transform((v, ctx) => {
    if (v === undefined) return issue(ctx, `${label} is required`);
    const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return issue(ctx, `${label} must be a valid positive number`);
    if (n > MAX_INT) return issue(ctx, `${label} must be at most ${MAX_INT}`);
    return n;
  });

/** A price ≥ 0 with at most two decimals, as a number or a decimal string; normalised to "49.00". */
const price = (label: string) =>
  z.unknown().transform((v, ctx) => {
    if (v === undefined) return issue(ctx, `${label} is required`);
    const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v.trim() : '';
    if (!/^\d+(\.\d{1,2})?$/.test(s)) return issue(ctx, `${label} must be a valid positive number`);
    if (new Prisma.Decimal(s).greaterThan(MAX_PRICE)) return issue(ctx, `${label} must be at most ${MAX_PRICE}`);
    return new Prisma.Decimal(s).toFixed(2);
  });

const createSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .toLowerCase()
    .min(1, 'Name is required')
    .max(50, 'Name must be at most 50 characters')
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Name must be a lowercase slug (letters, digits and dashes), e.g. pro'),
  displayName: z.string({ error: 'Display name is required' }).trim().min(1, 'Display name is required').max(100, 'Display name must be at most 100 characters'),
  chatQueryLimit: limit('Chat query limit'),
  smartSegmentLimit: limit('Smart segment limit'),
  priceMonthly: price('Monthly price'),
  priceYearly: price('Yearly price'),
  isActive: z.boolean({ error: 'isActive must be true or false' }).default(true),
});

const updateSchema = z.object({
  displayName: z
    .string({ error: 'Display name cannot be empty' })
    .trim()
    .min(1, 'Display name cannot be empty')
    .max(100, 'Display name must be at most 100 characters')
    .optional(),
  chatQueryLimit: limit('Chat query limit').optional(),
  smartSegmentLimit: limit('Smart segment limit').optional(),
  priceMonthly: price('Monthly price').optional(),
  priceYearly: price('Yearly price').optional(),
});

export type CreatePricingTierInput = z.input<typeof createSchema>;
export type UpdatePricingTierInput = z.input<typeof updateSchema> & { name?: unknown; isActive?: unknown };

const TIER_ORDER = [{ priceMonthly: 'asc' }, { chatQueryLimit: 'asc' }, { name: 'asc' }] satisfies Prisma.PricingTierOrderByWithRelationInput[];

/** Arguments of the tier list (all tiers, inactive ones included), shared by REST and GraphQL. */
export const pricingTierListArgs = () => ({ orderBy: TIER_ORDER });

export function listPricingTiers(deps: ServiceDeps): Promise<PricingTier[]> {
  return deps.prisma.pricingTier.findMany(pricingTierListArgs());
}

const isUniqueViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';

export async function createPricingTier(deps: ServiceDeps, actor: User, input: unknown): Promise<PricingTier> {
  const data = parseInput(createSchema, input);
  try {
    return await deps.prisma.$transaction(async (tx) => {
      const tier = await tx.pricingTier.create({ data: { ...data, createdAt: deps.now() } });
      await recordAudit(deps, { actorId: actor.id, action: 'pricingTier.create', targetType: 'PricingTier', targetId: tier.id, details: data }, tx);
      return tier;
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError('CONFLICT', `A pricing tier named ${data.name} already exists`, { field: 'name' });
    }
    throw err;
  }
}

type Editable = 'displayName' | 'chatQueryLimit' | 'smartSegmentLimit' | 'priceMonthly' | 'priceYearly';
const EDITABLE: Editable[] = ['displayName', 'chatQueryLimit', 'smartSegmentLimit', 'priceMonthly', 'priceYearly'];
const plain = (v: unknown) => (v instanceof Prisma.Decimal ? v.toFixed(2) : v);

export async function updatePricingTier(deps: ServiceDeps, actor: User, tierId: string, input: unknown): Promise<PricingTier> {
  assertId(tierId, 'Pricing tier');
  const data = parseInput(updateSchema, input);
  const body = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const { tier, changes } = await deps.prisma.$transaction(async (tx) => {
    const current = await tx.pricingTier.findUnique({ where: { id: tierId } });
    if (!current) throw notFound('Pricing tier not found');
    if (body.name !== undefined && body.name !== current.name) {
      throw new AppError('BAD_USER_INPUT', 'The name of a pricing tier cannot be changed', { field: 'name' });
    }
    if (body.isActive !== undefined && body.isActive !== current.isActive) {
      throw new AppError('BAD_USER_INPUT', 'The active status of a pricing tier cannot be changed', { field: 'isActive' });
    }
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of EDITABLE) {
      const to = data[key];
      if (to !== undefined && plain(current[key]) !== to) changes[key] = { from: plain(current[key]), to };
    }
    if (!Object.keys(changes).length) return { tier: current, changes };
    const tier = await tx.pricingTier.update({ where: { id: tierId }, data });
    await recordAudit(
      deps,
      { actorId: actor.id, action: 'pricingTier.update', targetType: 'PricingTier', targetId: tierId, details: { name: current.name, changes } as Prisma.InputJsonValue },
      tx,
    );
    return { tier, changes };
  });
  if (Object.keys(changes).length) {
    invalidate(deps, { allUsage: true });
    await publishTierUsage(deps, tier);
  }
  return tier;
}

/** Pushes usageUpdated to every user whose limits come from this tier (the free tier also covers users without one). */
async function publishTierUsage(deps: ServiceDeps, tier: PricingTier): Promise<void> {
  const users = await deps.prisma.user.findMany({
    where: tier.name === 'free' ? { OR: [{ currentTierId: tier.id }, { currentTierId: null }] } : { currentTierId: tier.id },
    select: { id: true, currentTierId: true },
  });
  for (let i = 0; i < users.length; i += 25) {
    await Promise.all(
      users.slice(i, i + 25).map((u) =>
        publishUsage(deps, u).catch((err: unknown) => deps.logger.warn({ err, userId: u.id }, 'could not publish usage after a tier change')),
      ),
    );
  }
}
