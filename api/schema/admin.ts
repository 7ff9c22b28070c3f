// Administration over GraphQL (admin only): user table, usage statistics, pricing tiers,
// smart-segment categories / presets / impact formulas, and the audit log.
// PricingTier, ImpactScoreFormula and AuditLogEntry are defined here; SmartSegmentCategory and
// SmartSegmentPreset come from smart-segments.ts (shared with the user side). Ids in inputs may be
// Relay global ids or raw uuids; every node also exposes its raw uuid.
import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { builder, decimalString } from '../builder.js';
import { nodeAccess } from './node-access.js';
import { listAdminUsers, usageStats } from '../services/usage-stats.js';
import { createPricingTier, pricingTierListArgs, updatePricingTier } from '../services/pricing-tiers.js';
import {
  CATEGORY_ORDER,
  createCategory,
  createFormula,
  createPreset,
  deleteCategory,
  deleteFormula,
  deletePreset,
  formulaListArgs,
  presetListArgs,
} from '../services/smart-segments/content.js';

/** The raw id behind a Relay global id of `typename`, or the value itself (a raw uuid). */
function rawId(id: string | number, typename: string): string {
  const value = String(id);
  try {
    const decoded = decodeGlobalID(value);
    if (decoded.typename === typename) return decoded.id;
  } catch {
    // not a global id
  }
  return value;
}
const optionalRawId = (id: string | number | null | undefined, typename: string) =>
  id === null || id === undefined ? undefined : rawId(id, typename);

// ---------------------------------------------------------------------------------------------
// Types

export const PricingTierNode = builder.prismaNode('PricingTier', {
  id: { field: 'id' },
  findUnique: nodeAccess('PricingTier', 'admin'),
  nullable: true,
  fields: (t) => ({
    tierId: t.exposeString('id', { description: 'The raw tier id (uuid)' }),
    name: t.exposeString('name'),
    displayName: t.exposeString('displayName'),
    chatQueryLimit: t.exposeInt('chatQueryLimit', { description: 'Chat queries per day' }),
    smartSegmentLimit: t.exposeInt('smartSegmentLimit', { description: 'Smart-segment unlocks per day' }),
    priceMonthly: t.string({ description: 'Two-decimal string, e.g. "49.00"', resolve: (p) => decimalString(p.priceMonthly)! }),
    priceYearly: t.string({ description: 'Two-decimal string, e.g. "490.00"', resolve: (p) => decimalString(p.priceYearly)! }),
    isActive: t.exposeBoolean('isActive'),
    paddlePriceIdMonthly: t.exposeString('paddlePriceIdMonthly', { nullable: true }),
    paddlePriceIdYearly: t.exposeString('paddlePriceIdYearly', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const ImpactScoreFormulaNode = builder.prismaNode('ImpactScoreFormula', {
  id: { field: 'id' },
  findUnique: nodeAccess('ImpactScoreFormula', 'admin'),
  nullable: true,
  fields: (t) => ({
    formulaId: t.exposeString('id', { description: 'The raw formula id (uuid)' }),
    categoryId: t.exposeString('categoryId', { description: 'The raw id of its category' }),
    category: t.relation('category'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    formula: t.exposeString('formula'),
    variables: t.stringList({
      description: 'The variables the formula uses',
      resolve: (f) => (Array.isArray(f.variables) ? f.variables.map(String) : []),
    }),
    isActive: t.exposeBoolean('isActive'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const AuditLogEntryNode = builder.prismaNode('AuditLog', {
  name: 'AuditLogEntry',
  id: { field: 'id' },
  findUnique: nodeAccess('AuditLogEntry', 'admin'),
  nullable: true,
  fields: (t) => ({
    action: t.exposeString('action', { description: 'e.g. user.ban, pricingTier.update, smartSegmentPreset.delete' }),
    targetType: t.exposeString('targetType', { nullable: true }),
    targetId: t.exposeString('targetId', { nullable: true }),
    details: t.expose('details', { type: 'JSON', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    actor: t.relation('actor', { nullable: true }),
    actorEmail: t.string({
      nullable: true,
      description: 'Email of the administrator (null when that account was deleted)',
      select: { actor: { select: { email: true } } },
      resolve: (entry) => entry.actor?.email ?? null,
    }),
  }),
});

const TodaysUsage = builder.simpleObject('AdminTodaysUsage', {
  fields: (t) => ({ chatQueriesUsed: t.int(), smartSegmentsUsed: t.int() }),
});

const AdminUserRow = builder.simpleObject('AdminUserRow', {
  description: 'A row of the admin user table (spec section 3)',
  fields: (t) => ({
    id: t.id({ description: 'The raw user id (uuid)' }),
    firstName: t.string(),
    lastName: t.string(),
    email: t.string(),
    crmType: t.string(),
    industry: t.string(),
    tierName: t.string({ nullable: true, description: 'Null when the user has no tier ("No Tier")' }),
    chatQueryLimit: t.int({ description: "The tier's daily limit (the free-tier fallback without a tier)" }),
    smartSegmentLimit: t.int(),
    todaysUsage: t.field({ type: TodaysUsage }),
    isBanned: t.boolean(),
    bannedAt: t.field({ type: 'DateTime', nullable: true }),
    banReason: t.string({ nullable: true }),
  }),
});

const UsageStats = builder.simpleObject('UsageStats', {
  description: 'Definitions: see usageStats() in api/services/admin-users.ts',
  fields: (t) => ({
    totalUsers: t.int({ description: 'All accounts' }),
    activeUsers: t.int({ description: 'Not banned, with usage or a session seen in the last 30 days' }),
    totalChatQueries: t.int({ description: 'Sum of daily chat queries over the kept usage history' }),
    totalSmartSegments: t.int({ description: 'Generated daily smart segments' }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Queries

builder.queryField('adminUsers', (t) =>
  t.field({
    type: [AdminUserRow],
    authScopes: { admin: true },
    description: 'Every user, oldest first, with tier and today\'s usage',
    resolve: (_r, _a, ctx) => listAdminUsers(ctx.deps),
  }),
);

builder.queryField('usageStats', (t) =>
  t.field({ type: UsageStats, authScopes: { admin: true }, resolve: (_r, _a, ctx) => usageStats(ctx.deps) }),
);

builder.queryField('pricingTiers', (t) =>
  t.prismaField({
    type: ['PricingTier'],
    authScopes: { admin: true },
    description: 'All pricing tiers, inactive ones included',
    resolve: (query, _r, _a, ctx) => ctx.deps.prisma.pricingTier.findMany({ ...query, ...pricingTierListArgs() }),
  }),
);

builder.queryField('adminSmartSegmentCategories', (t) =>
  t.prismaField({
    type: ['SmartSegmentCategory'],
    authScopes: { admin: true },
    description: 'All categories, inactive ones included',
    resolve: (query, _r, _a, ctx) => ctx.deps.prisma.smartSegmentCategory.findMany({ ...query, orderBy: CATEGORY_ORDER }),
  }),
);

builder.queryField('adminSmartSegmentPresets', (t) =>
  t.prismaField({
    type: ['SmartSegmentPreset'],
    authScopes: { admin: true },
    description: 'All presets (inactive ones included), optionally of one category',
    args: { categoryId: t.arg.id({ required: false }) },
    resolve: (query, _r, args, ctx) =>
      ctx.deps.prisma.smartSegmentPreset.findMany({
        ...query,
        ...presetListArgs({ categoryId: optionalRawId(args.categoryId, 'SmartSegmentCategory') }),
      }),
  }),
);

builder.queryField('adminImpactScoreFormulas', (t) =>
  t.prismaField({
    type: ['ImpactScoreFormula'],
    authScopes: { admin: true },
    description: 'All impact score formulas, optionally of one category',
    args: { categoryId: t.arg.id({ required: false }) },
    resolve: (query, _r, args, ctx) =>
      ctx.deps.prisma.impactScoreFormula.findMany({
        ...query,
        ...formulaListArgs({ categoryId: optionalRawId(args.categoryId, 'SmartSegmentCategory') }),
      }),
  }),
);

builder.queryField('auditLog', (t) =>
  t.prismaConnection({
    type: 'AuditLog',
    cursor: 'id',
    authScopes: { admin: true },
    description: 'Administrative actions, newest first',
    resolve: (query, _r, _a, ctx) =>
      ctx.deps.prisma.auditLog.findMany({ ...query, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
);

// ---------------------------------------------------------------------------------------------
// Mutations (one input type each)

const CreatePricingTierInput = builder.inputType('CreatePricingTierInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: 'Lowercase slug, e.g. pro; cannot be changed later' }),
    displayName: t.string({ required: true }),
    chatQueryLimit: t.int({ required: true }),
    smartSegmentLimit: t.int({ required: true }),
    priceMonthly: t.string({ required: true, description: 'Decimal with at most two decimals, e.g. "49.00"' }),
    priceYearly: t.string({ required: true }),
    isActive: t.boolean({ required: false, description: 'Default true; cannot be changed later' }),
  }),
});

builder.mutationField('createPricingTier', (t) =>
  t.prismaField({
    type: 'PricingTier',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreatePricingTierInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const tier = await createPricingTier(ctx.deps, ctx.user!, { ...input, isActive: input.isActive ?? undefined });
      return ctx.deps.prisma.pricingTier.findUniqueOrThrow({ ...query, where: { id: tier.id } });
    },
  }),
);

const UpdatePricingTierInput = builder.inputType('UpdatePricingTierInput', {
  description: 'Name and active flag of a tier cannot be changed; omitted fields are kept',
  fields: (t) => ({
    id: t.id({ required: true }),
    displayName: t.string({ required: false }),
    chatQueryLimit: t.int({ required: false }),
    smartSegmentLimit: t.int({ required: false }),
    priceMonthly: t.string({ required: false }),
    priceYearly: t.string({ required: false }),
  }),
});

builder.mutationField('updatePricingTier', (t) =>
  t.prismaField({
    type: 'PricingTier',
    authScopes: { admin: true },
    args: { input: t.arg({ type: UpdatePricingTierInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const { id, ...fields } = input;
      const data = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      const tier = await updatePricingTier(ctx.deps, ctx.user!, rawId(id, 'PricingTier'), data);
      return ctx.deps.prisma.pricingTier.findUniqueOrThrow({ ...query, where: { id: tier.id } });
    },
  }),
);

const CreateSmartSegmentCategoryInput = builder.inputType('CreateSmartSegmentCategoryInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: 'Lowercase slug, e.g. added-revenue' }),
    displayName: t.string({ required: true }),
    description: t.string({ required: false }),
    isLocked: t.boolean({ required: false, description: 'Default true' }),
    sortOrder: t.int({ required: false, description: 'Default 0' }),
    isActive: t.boolean({ required: false, description: 'Default true' }),
  }),
});

/** GraphQL passes explicit nulls for omitted optional fields' defaults to apply: drop them. */
const withoutNulls = <T extends object>(input: T) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;

builder.mutationField('createSmartSegmentCategory', (t) =>
  t.prismaField({
    type: 'SmartSegmentCategory',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateSmartSegmentCategoryInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const category = await createCategory(ctx.deps, ctx.user!, withoutNulls(input));
      return ctx.deps.prisma.smartSegmentCategory.findUniqueOrThrow({ ...query, where: { id: category.id } });
    },
  }),
);

const CreateSmartSegmentPresetInput = builder.inputType('CreateSmartSegmentPresetInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    categoryId: t.id({ required: true }),
    description: t.string({ required: true, description: 'The natural-language criteria (at most 500 characters)' }),
    sortOrder: t.int({ required: false, description: 'Default 0' }),
    isActive: t.boolean({ required: false, description: 'Default true' }),
    defaultQuery: t.field({ type: 'JSON', required: false }),
  }),
});

builder.mutationField('createSmartSegmentPreset', (t) =>
  t.prismaField({
    type: 'SmartSegmentPreset',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateSmartSegmentPresetInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const preset = await createPreset(ctx.deps, ctx.user!, {
        ...withoutNulls(input),
        categoryId: rawId(input.categoryId, 'SmartSegmentCategory'),
        defaultQuery: input.defaultQuery ?? null,
      });
      return ctx.deps.prisma.smartSegmentPreset.findUniqueOrThrow({ ...query, where: { id: preset.id } });
    },
  }),
);

const CreateImpactScoreFormulaInput = builder.inputType('CreateImpactScoreFormulaInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    categoryId: t.id({ required: true }),
    description: t.string({ required: false }),
    formula: t.string({
      required: true,
      description:
        'e.g. customerCount * 0.3 + revenuePerCustomer * 0.7; variables customerCount, revenuePerCustomer, engagementRate, ' +
        'conversionRate, churnRisk, marketingCost; functions min max log log10 sqrt abs round floor ceil exp',
    }),
    isActive: t.boolean({ required: false, description: 'Make it the only active formula of its category (default false)' }),
  }),
});

builder.mutationField('createImpactScoreFormula', (t) =>
  t.prismaField({
    type: 'ImpactScoreFormula',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateImpactScoreFormulaInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const formula = await createFormula(ctx.deps, ctx.user!, {
        ...withoutNulls(input),
        categoryId: rawId(input.categoryId, 'SmartSegmentCategory'),
      });
      return ctx.deps.prisma.impactScoreFormula.findUniqueOrThrow({ ...query, where: { id: formula.id } });
    },
  }),
);

// Deletions return the Relay global id of the deleted node (for @deleteRecord) and its raw id.
const deletions = [
  { mutation: 'deleteSmartSegmentCategory', typename: 'SmartSegmentCategory', remove: deleteCategory },
  { mutation: 'deleteSmartSegmentPreset', typename: 'SmartSegmentPreset', remove: deletePreset },
  { mutation: 'deleteImpactScoreFormula', typename: 'ImpactScoreFormula', remove: deleteFormula },
] as const;

for (const { mutation, typename, remove } of deletions) {
  const Name = mutation[0].toUpperCase() + mutation.slice(1);
  const Input = builder.inputType(`${Name}Input`, { fields: (t) => ({ id: t.id({ required: true }) }) });
  const Payload = builder.simpleObject(`${Name}Payload`, {
    fields: (t) => ({
      deletedId: t.id({ description: `Relay id of the deleted ${typename}` }),
      deletedRawId: t.string({ description: 'Its raw id (uuid)' }),
    }),
  });
  builder.mutationField(mutation, (t) =>
    t.field({
      type: Payload,
      authScopes: { admin: true },
      args: { input: t.arg({ type: Input, required: true }) },
      resolve: async (_r, { input }, ctx) => {
        const deleted = await remove(ctx.deps, ctx.user!, rawId(input.id, typename));
        return { deletedId: encodeGlobalID(typename, deleted.id), deletedRawId: deleted.id };
      },
    }),
  );
}
