// Smart Segments over GraphQL (user side), plus admin generate/clear and live generation progress.
import { builder, decimalString } from '../builder.js';
import { nodeAccess } from './node-access.js';
import { requireUser } from '../http/guards.js';
import { generateNow } from '../services/smart-segments/generate.js';
import {
  addFavorite,
  clearSegments,
  listDailySegments,
  listPresets,
  removeFavorite,
  segmentCustomers,
  unlockSegment,
} from '../services/smart-segments/user.js';
import { CustomerType } from './queries.js';
import { Usage } from './usage.js';
import { currentUsage } from '../services/usage.js';

export const SmartSegmentCategoryType = builder.prismaNode('SmartSegmentCategory', {
  id: { field: 'id' },
  findUnique: nodeAccess('SmartSegmentCategory', 'signedIn'),
  nullable: true,
  fields: (t) => ({
    categoryId: t.exposeString('id'),
    name: t.exposeString('name'),
    displayName: t.exposeString('displayName'),
    description: t.exposeString('description', { nullable: true }),
    isLocked: t.exposeBoolean('isLocked'),
    isActive: t.exposeBoolean('isActive'),
    sortOrder: t.exposeInt('sortOrder'),
  }),
});

export const SmartSegmentPresetType = builder.prismaNode('SmartSegmentPreset', {
  id: { field: 'id' },
  findUnique: nodeAccess('SmartSegmentPreset', 'signedIn'),
  nullable: true,
  fields: (t) => ({
    presetId: t.exposeString('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { description: 'Natural-language criteria' }),
    categoryId: t.exposeString('categoryId'),
    category: t.relation('category'),
    sortOrder: t.exposeInt('sortOrder'),
    isActive: t.exposeBoolean('isActive'),
    defaultQuery: t.expose('defaultQuery', { type: 'JSON', nullable: true }),
    isFavorite: t.boolean({
      select: (_a, ctx) => ({ favorites: { where: { userId: ctx.user?.id ?? '00000000-0000-0000-0000-000000000000' }, select: { id: true } } }),
      resolve: (p) => p.favorites.length > 0,
    }),
  }),
});

export const DailySegmentType = builder.prismaNode('DailyGeneratedSegment', {
  name: 'DailySegment',
  id: { field: 'id' },
  findUnique: nodeAccess('DailySegment', 'owner'),
  nullable: true,
  fields: (t) => ({
    segmentId: t.exposeString('id'),
    presetId: t.exposeString('presetId'),
    preset: t.relation('preset'),
    date: t.expose('date', { type: 'Date' }),
    customerCount: t.exposeInt('customerCount'),
    impactScore: t.string({ description: 'Two-decimal numeric string', resolve: (s) => decimalString(s.impactScore)! }),
    hasError: t.exposeBoolean('hasError'),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    isUnlocked: t.exposeBoolean('isUnlocked'),
    unlockedAt: t.expose('unlockedAt', { type: 'DateTime', nullable: true }),
    generatedAt: t.expose('generatedAt', { type: 'DateTime' }),
  }),
});

builder.queryField('dailySegments', (t) =>
  t.prismaField({
    type: ['DailyGeneratedSegment'],
    authScopes: { authenticated: true },
    args: { date: t.arg.string({ description: 'YYYY-MM-DD; default today' }) },
    resolve: async (query, _r, args, ctx) => {
      const rows = await listDailySegments(ctx.deps, requireUser(ctx), args.date);
      return ctx.deps.prisma.dailyGeneratedSegment.findMany({
        ...query,
        where: { id: { in: rows.map((r) => r.id) } },
        orderBy: [{ impactScore: 'desc' }, { generatedAt: 'asc' }],
      });
    },
  }),
);

builder.queryField('smartSegmentCategories', (t) =>
  t.prismaField({
    type: ['SmartSegmentCategory'],
    authScopes: { authenticated: true },
    resolve: (query, _r, _a, ctx) =>
      ctx.deps.prisma.smartSegmentCategory.findMany({ ...query, where: { isActive: true }, orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }] }),
  }),
);

builder.queryField('smartSegmentPresets', (t) =>
  t.prismaField({
    type: ['SmartSegmentPreset'],
    authScopes: { authenticated: true },
    args: { categoryId: t.arg.string() },
    resolve: async (query, _r, args, ctx) => {
      const ids = (await listPresets(ctx.deps, args.categoryId)).map((p) => p.id);
      return ctx.deps.prisma.smartSegmentPreset.findMany({
        ...query,
        where: { id: { in: ids } },
        orderBy: [{ category: { sortOrder: 'asc' } }, { sortOrder: 'asc' }, { name: 'asc' }],
      });
    },
  }),
);

const PresetInput = builder.inputType('FavoritePresetInput', { fields: (t) => ({ presetId: t.string({ required: true }) }) });

builder.mutationField('addFavoritePreset', (t) =>
  t.prismaField({
    type: 'SmartSegmentPreset',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: PresetInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      await addFavorite(ctx.deps, requireUser(ctx), input.presetId);
      return ctx.deps.prisma.smartSegmentPreset.findUniqueOrThrow({ ...query, where: { id: input.presetId } });
    },
  }),
);

builder.mutationField('removeFavoritePreset', (t) =>
  t.prismaField({
    type: 'SmartSegmentPreset',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: PresetInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      await removeFavorite(ctx.deps, requireUser(ctx), input.presetId);
      return ctx.deps.prisma.smartSegmentPreset.findUniqueOrThrow({ ...query, where: { id: input.presetId } });
    },
  }),
);

const SegmentIdInput = builder.inputType('SmartSegmentIdInput', { fields: (t) => ({ segmentId: t.string({ required: true }) }) });

const UnlockPayload = builder.simpleObject('UnlockSmartSegmentPayload', {
  fields: (t) => ({ segmentId: t.string(), usage: t.field({ type: Usage }) }),
});

builder.mutationField('unlockSmartSegment', (t) =>
  t.field({
    type: UnlockPayload,
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SegmentIdInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const user = requireUser(ctx);
      const s = await unlockSegment(ctx.deps, user, input.segmentId);
      return { segmentId: s.id, usage: await currentUsage(ctx.deps, user) };
    },
  }),
);

builder.mutationField('smartSegmentCustomers', (t) =>
  t.field({
    type: builder.simpleObject('SmartSegmentCustomersPayload', {
      fields: (f) => ({ total: f.int(), customers: f.field({ type: [CustomerType] }) }),
    }),
    description: 'All customers of an unlocked segment, fetched from the CRM now (for the CSV download)',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SegmentIdInput, required: true }) },
    resolve: (_r, { input }, ctx) => segmentCustomers(ctx.deps, requireUser(ctx), input.segmentId),
  }),
);

const GenerationStats = builder.simpleObject('SegmentGenerationStats', {
  fields: (t) => ({ date: t.string(), users: t.int(), totalSegments: t.int(), successCount: t.int(), failedCount: t.int() }),
});

builder.mutationField('generateSmartSegments', (t) =>
  t.field({
    type: GenerationStats,
    authScopes: { admin: true },
    resolve: (_r, _a, ctx) => generateNow(ctx.deps, ctx.user!),
  }),
);

builder.mutationField('clearSmartSegments', (t) =>
  t.int({
    description: "Deletes the user's generated segments of a day (default today); returns how many",
    authScopes: { admin: true },
    args: { userId: t.arg.string({ required: true }), date: t.arg.string() },
    resolve: (_r, args, ctx) => clearSegments(ctx.deps, ctx.user!, args.userId, args.date),
  }),
);

const Progress = builder.simpleObject('DailySegmentsProgress', {
  fields: (t) => ({ date: t.string(), total: t.int(), completed: t.int(), failed: t.int(), done: t.boolean() }),
});

builder.subscriptionField('dailySegmentsUpdated', (t) =>
  t.field({
    type: Progress,
    authScopes: { authenticated: true },
    description: "Pushed as the signed-in user's daily segments are generated",
    subscribe: (_r, _a, ctx) => ctx.deps.events.pubsub.subscribe('dailySegmentsUpdated', requireUser(ctx).id),
    resolve: (p) => p,
  }),
);
