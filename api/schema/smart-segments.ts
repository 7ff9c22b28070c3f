// Smart Segments over GraphQL. Users: today's segments (a connection), categories, presets,
// favourites, unlock and download, and live generation updates. Administrators: categories, presets
// and impact formulas (all of them, inactive included), formula checking as they type, generate
// and clear, and the live progress of every generation run.
import { encodeGlobalID, offsetToCursor, resolveOffsetConnection } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { ADMIN_TOPIC, type DailySegmentsProgress } from '../events/pubsub.js';
import { decimalString } from '../format.js';
import { requireAdmin, requireUser } from '../http/guards.js';
import { asAppError, badInput } from '../errors.js';
import {
  CATEGORY_ORDER,
  checkPresetDescription,
  createCategory,
  createFormula,
  createPreset,
  deleteCategory,
  deleteFormula,
  deletePreset,
  formulaListArgs,
  presetListArgs,
} from '../services/smart-segments/content.js';
import { generateNow } from '../services/smart-segments/generate.js';
import { readGenerationRun } from '../services/smart-segments/generation-runs.js';
import { FORMULA_VARIABLE_NAMES, validateFormula } from '../services/smart-segments/impact-score.js';
import {
  activeCategoryListArgs,
  activePresetListArgs,
  addFavorite,
  clearSegments,
  dailySegmentListArgs,
  readDailySegmentsDay,
  removeFavorite,
  segmentCustomers,
  unlockSegment,
  type DailySegmentsDay,
} from '../services/smart-segments/user.js';
import { countSmartResults, smartResultPage, storedSmartSegment } from '../services/smart-segments/customers.js';
import { currentUsage } from '../services/usage.js';
import { nodeAccess, NIL_UUID } from './node-access.js';
import { CustomerFilterInput, CustomerOrder, CustomerType, MAX_OFFSET } from './queries.js';
import { Usage } from './usage.js';
import { UserNode } from './users.js';

// ---------------------------------------------------------------------------------------------
// Types

export const SmartSegmentCategoryType = builder.prismaNode('SmartSegmentCategory', {
  id: { field: 'id' },
  findUnique: nodeAccess('SmartSegmentCategory', 'listed', activeCategoryListArgs().where),
  nullable: true,
  fields: (t) => ({
    categoryId: t.exposeString('id', { description: 'The raw id (uuid, as in the REST routes)' }),
    name: t.exposeString('name'),
    displayName: t.exposeString('displayName'),
    description: t.exposeString('description', { nullable: true }),
    isLocked: t.exposeBoolean('isLocked', { description: 'Premium: unlocking needs a confirmation' }),
    isActive: t.exposeBoolean('isActive'),
    sortOrder: t.exposeInt('sortOrder'),
  }),
});

export const SmartSegmentPresetType = builder.prismaNode('SmartSegmentPreset', {
  id: { field: 'id' },
  findUnique: nodeAccess('SmartSegmentPreset', 'listed', activePresetListArgs().where),
  nullable: true,
  fields: (t) => ({
    presetId: t.exposeString('id', { description: 'The raw id (uuid, as in the REST routes)' }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { description: 'Natural-language criteria' }),
    categoryId: t.exposeString('categoryId', { description: 'The raw id of its category' }),
    category: t.relation('category'),
    sortOrder: t.exposeInt('sortOrder'),
    isActive: t.exposeBoolean('isActive'),
    defaultQuery: t.expose('defaultQuery', { type: 'JSON', nullable: true }),
    isFavorite: t.boolean({
      description: "Whether it is one of the viewer's favourites (generated first every day)",
      select: (_a, ctx) => ({ favorites: { where: { userId: ctx.user?.id ?? NIL_UUID }, select: { id: true } } }),
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
    segmentId: t.exposeString('id', { description: 'The raw id (uuid, as in the REST routes)' }),
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
    customers: t.connection(
      {
        type: CustomerType,
        description:
          "The segment's customers in the app's results table, 10 per page by default: in the CRM's order or by `orderBy`, with the table's filters, paged like CustomerQuery.customers. The owner's, once unlocked (the CSV download's rule: FORBIDDEN while locked). Read from the CRM and stored the first time they are asked for after a generation (at most 1,000 kept)",
        args: {
          filter: t.arg({ type: CustomerFilterInput }),
          orderBy: t.arg({ type: CustomerOrder }),
          offset: t.arg.int({ description: 'Start at this 0-based place (instead of after/before)' }),
        },
        select: { id: true },
        resolve: async (s, args, ctx) => {
          const stored = await storedSmartSegment(ctx.deps, requireUser(ctx), s.id);
          const filter = args.filter ?? {};
          const { offset, orderBy } = args;
          const page = { first: args.first, last: args.last, after: args.after, before: args.before };
          if (offset != null) {
            if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) throw badInput(`offset must be between 0 and ${MAX_OFFSET}`, 'offset');
            if (page.after || page.before) throw badInput('Use offset or after/before, not both', 'offset');
            if (offset > 0) page.after = offsetToCursor(offset - 1);
          }
          const counting = countSmartResults(ctx.deps, stored.id, filter);
          const fromEnd = page.last != null && !page.before;
          const connection = await resolveOffsetConnection(
            { args: page, defaultSize: 10, maxSize: 100, totalCount: fromEnd ? await counting : undefined },
            ({ offset: skip, limit }) => smartResultPage(ctx.deps, stored.id, filter, { offset: skip, limit, order: orderBy }),
          );
          return { ...connection, totalCount: await counting, crmTotal: stored.customersTotal ?? 0, storedAt: stored.customersStoredAt ?? ctx.deps.now() };
        },
      },
      {
        fields: (f) => ({
          totalCount: f.int({ description: 'Stored customers matching the filter', resolve: (c) => c.totalCount }),
          crmTotal: f.int({ description: 'How many customers the CRM had for the segment when they were stored (at most 1,000 are kept)', resolve: (c) => c.crmTotal }),
          storedAt: f.field({ type: 'DateTime', description: 'When they were read from the CRM', resolve: (c) => c.storedAt }),
        }),
      },
    ),
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

// ---------------------------------------------------------------------------------------------
// What users read

builder.queryField('dailySegments', (t) =>
  t.prismaConnection({
    type: 'DailyGeneratedSegment',
    cursor: 'id',
    authScopes: { authenticated: true },
    description: "The viewer's generated segments of a day (default today), highest impact first",
    args: { date: t.arg({ type: 'Date', description: 'YYYY-MM-DD; default today (USAGE_TIME_ZONE)' }) },
    totalCount: (_c, args, ctx) => ctx.deps.prisma.dailyGeneratedSegment.count({ where: dailySegmentListArgs(ctx.deps, requireUser(ctx), args.date).where }),
    resolve: (query, _r, args, ctx) => ctx.deps.prisma.dailyGeneratedSegment.findMany({ ...query, ...dailySegmentListArgs(ctx.deps, requireUser(ctx), args.date) }),
  }),
);

builder.queryField('smartSegmentCategories', (t) =>
  t.prismaField({
    type: ['SmartSegmentCategory'],
    authScopes: { authenticated: true },
    description: 'Active categories in display order',
    resolve: (query, _r, _a, ctx) => ctx.deps.prisma.smartSegmentCategory.findMany({ ...query, ...activeCategoryListArgs() }),
  }),
);

builder.queryField('smartSegmentPresets', (t) =>
  t.prismaField({
    type: ['SmartSegmentPreset'],
    authScopes: { authenticated: true },
    description: 'Active presets of active categories in display order, optionally of one category',
    args: { categoryId: t.arg.globalID({ for: SmartSegmentCategoryType }) },
    resolve: (query, _r, args, ctx) => ctx.deps.prisma.smartSegmentPreset.findMany({ ...query, ...activePresetListArgs(args.categoryId?.id) }),
  }),
);

// ---------------------------------------------------------------------------------------------
// What users do

const PresetInput = builder.inputType('FavoritePresetInput', {
  fields: (t) => ({ presetId: t.globalID({ required: true, for: SmartSegmentPresetType }) }),
});
const PresetPayload = (name: string) => builder.simpleObject(name, { fields: (t) => ({ preset: t.field({ type: SmartSegmentPresetType }) }) });

builder.mutationField('addFavoritePreset', (t) =>
  t.field({
    type: PresetPayload('AddFavoritePresetPayload'),
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: PresetInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      await addFavorite(ctx.deps, requireUser(ctx), input.presetId.id);
      return { preset: await ctx.deps.prisma.smartSegmentPreset.findUniqueOrThrow({ where: { id: input.presetId.id } }) };
    },
  }),
);

builder.mutationField('removeFavoritePreset', (t) =>
  t.field({
    type: PresetPayload('RemoveFavoritePresetPayload'),
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: PresetInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      await removeFavorite(ctx.deps, requireUser(ctx), input.presetId.id);
      return { preset: await ctx.deps.prisma.smartSegmentPreset.findUniqueOrThrow({ where: { id: input.presetId.id } }) };
    },
  }),
);

const DailySegmentIdInput = builder.inputType('SmartSegmentIdInput', {
  fields: (t) => ({ id: t.globalID({ required: true, for: DailySegmentType }) }),
});

builder.mutationField('unlockSmartSegment', (t) =>
  t.field({
    type: builder.simpleObject('UnlockSmartSegmentPayload', {
      fields: (f) => ({ dailySegment: f.field({ type: DailySegmentType }), usage: f.field({ type: Usage }) }),
    }),
    description: 'Unlocks a generated segment (one unit of the daily allowance; free when already unlocked)',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: DailySegmentIdInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const user = requireUser(ctx);
      const dailySegment = await unlockSegment(ctx.deps, user, input.id.id);
      return { dailySegment, usage: await currentUsage(ctx.deps, user) };
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
    args: { input: t.arg({ type: DailySegmentIdInput, required: true }) },
    resolve: (_r, { input }, ctx) => segmentCustomers(ctx.deps, requireUser(ctx), input.id.id),
  }),
);

const DailySegmentsDayType = builder.objectRef<DailySegmentsDay>('DailySegmentsDay').implement({
  description: "The viewer's generated segments of one day as the Smart Segments screen heads them (one record per user and day)",
  fields: (t) => ({
    id: t.id({ resolve: (d) => encodeGlobalID('DailySegmentsDay', `${d.userId}:${d.date}`) }),
    date: t.exposeString('date', { description: 'YYYY-MM-DD' }),
    count: t.exposeInt('count', { description: 'Segments generated that day (as dailySegments totalCount)' }),
    lastGeneratedAt: t.expose('lastGeneratedAt', { type: 'DateTime', nullable: true, description: 'When the latest of them was generated' }),
  }),
});

builder.queryField('dailySegmentsDay', (t) =>
  t.field({
    type: DailySegmentsDayType,
    authScopes: { authenticated: true },
    description: "How many segments the viewer has of a day (default today) and when the latest was generated; dailySegmentsUpdated carries it",
    args: { date: t.arg({ type: 'Date', description: 'YYYY-MM-DD; default today (USAGE_TIME_ZONE)' }) },
    resolve: (_r, args, ctx) => readDailySegmentsDay(ctx.deps, requireUser(ctx), args.date),
  }),
);

const Progress = builder.objectRef<DailySegmentsProgress & { userId: string }>('DailySegmentsProgress').implement({
  description: 'One of the viewer\'s daily segments was generated: the record, its day, and the run\'s counts for the viewer',
  fields: (t) => ({
    date: t.exposeString('date'),
    total: t.exposeInt('total', { description: "Segments of the viewer's run" }),
    completed: t.exposeInt('completed'),
    failed: t.exposeInt('failed'),
    done: t.exposeBoolean('done'),
    segment: t.field({
      type: DailySegmentType,
      nullable: true,
      description: 'The segment just generated (normalised by id: a card fills in with no query); null when deleted since',
      resolve: (p, _a, ctx) => ctx.deps.prisma.dailyGeneratedSegment.findUnique({ where: { id: p.segmentId } }),
    }),
    day: t.field({
      type: DailySegmentsDayType,
      description: 'Its day, counted after it',
      resolve: (p) => ({ userId: p.userId, date: p.date, count: p.dayCount, lastGeneratedAt: p.lastGeneratedAt ? new Date(p.lastGeneratedAt) : null }),
    }),
  }),
});

builder.subscriptionField('dailySegmentsUpdated', (t) =>
  t.field({
    type: Progress,
    authScopes: { authenticated: true },
    description: "Pushed as each of the signed-in user's daily segments is generated, with the segment and its day",
    subscribe: (_r, _a, ctx) => ctx.deps.events.pubsub.subscribe('dailySegmentsUpdated', requireUser(ctx).id),
    resolve: (p, _a, ctx) => ({ ...p, userId: requireUser(ctx).id }),
  }),
);

// ---------------------------------------------------------------------------------------------
// Administrators: content

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
    args: { categoryId: t.arg.globalID({ for: SmartSegmentCategoryType }) },
    resolve: (query, _r, args, ctx) => ctx.deps.prisma.smartSegmentPreset.findMany({ ...query, ...presetListArgs({ categoryId: args.categoryId?.id }) }),
  }),
);

builder.queryField('adminImpactScoreFormulas', (t) =>
  t.prismaField({
    type: ['ImpactScoreFormula'],
    authScopes: { admin: true },
    description: 'All impact score formulas, optionally of one category',
    args: { categoryId: t.arg.globalID({ for: SmartSegmentCategoryType }) },
    resolve: (query, _r, args, ctx) => ctx.deps.prisma.impactScoreFormula.findMany({ ...query, ...formulaListArgs({ categoryId: args.categoryId?.id }) }),
  }),
);

builder.queryField('validateImpactFormula', (t) =>
  t.field({
    type: builder.simpleObject('ImpactFormulaCheck', {
      fields: (f) => ({
        valid: f.boolean(),
        message: f.string({ nullable: true, description: 'Why the formula is refused (the message saving would give)' }),
        variables: f.stringList({ description: 'The variables it uses' }),
        availableVariables: f.stringList(),
      }),
    }),
    authScopes: { admin: true },
    description: 'Checks a formula as the admin types, with the same rules as saving it',
    args: { formula: t.arg.string({ required: true }) },
    resolve: (_r, { formula }) => {
      const availableVariables = [...FORMULA_VARIABLE_NAMES];
      try {
        return { valid: true, message: null, variables: validateFormula(formula).variables, availableVariables };
      } catch (err) {
        const known = asAppError(err);
        if (!known) throw err;
        return { valid: false, message: known.message, variables: [], availableVariables };
      }
    },
  }),
);

builder.queryField('checkPresetDescription', (t) =>
  t.field({
    type: builder.simpleObject('PresetDescriptionCheck', {
      fields: (f) => ({
        valid: f.boolean({ description: 'The daily generation can run it: every phrase understood, no contradiction' }),
        message: f.string({ nullable: true, description: 'Why it cannot (the message creating the preset would give)' }),
        understood: f.string({ nullable: true, description: 'What the parser understood, in words; null when nothing' }),
        notes: f.stringList({ description: 'What the parser had to choose between (it runs as understood)' }),
      }),
    }),
    authScopes: { admin: true },
    description: "Reads a preset's criteria with the question parser as the admin types, with the same rules as creating the preset",
    args: { description: t.arg.string({ required: true }) },
    resolve: (_r, { description }, ctx) => checkPresetDescription(ctx.deps, description.slice(0, 500)),
  }),
);

/** GraphQL passes explicit nulls for omitted optional fields; the services apply defaults to undefined. */
const withoutNulls = <T extends object>(input: T) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;

builder.mutationField('createSmartSegmentCategory', (t) =>
  t.field({
    type: builder.simpleObject('CreateSmartSegmentCategoryPayload', { fields: (f) => ({ category: f.field({ type: SmartSegmentCategoryType }) }) }),
    authScopes: { admin: true },
    args: {
      input: t.arg({
        type: builder.inputType('CreateSmartSegmentCategoryInput', {
          fields: (f) => ({
            name: f.string({ required: true, description: 'Lowercase slug, e.g. added-revenue' }),
            displayName: f.string({ required: true }),
            description: f.string(),
            isLocked: f.boolean({ description: 'Default true' }),
            sortOrder: f.int({ description: 'Default 0' }),
            isActive: f.boolean({ description: 'Default true' }),
          }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({ category: await createCategory(ctx.deps, ctx.user!, withoutNulls(input)) }),
  }),
);

builder.mutationField('createSmartSegmentPreset', (t) =>
  t.field({
    type: builder.simpleObject('CreateSmartSegmentPresetPayload', { fields: (f) => ({ preset: f.field({ type: SmartSegmentPresetType }) }) }),
    authScopes: { admin: true },
    args: {
      input: t.arg({
        type: builder.inputType('CreateSmartSegmentPresetInput', {
          fields: (f) => ({
            name: f.string({ required: true }),
            categoryId: f.globalID({ required: true, for: SmartSegmentCategoryType }),
            description: f.string({ required: true, description: 'The natural-language criteria (at most 500 characters)' }),
            sortOrder: f.int({ description: 'Default 0' }),
            isActive: f.boolean({ description: 'Default true' }),
          }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({
      preset: await createPreset(ctx.deps, ctx.user!, { ...withoutNulls(input), categoryId: input.categoryId.id, defaultQuery: null }),
    }),
  }),
);

builder.mutationField('createImpactScoreFormula', (t) =>
  t.field({
    type: builder.simpleObject('CreateImpactScoreFormulaPayload', { fields: (f) => ({ formula: f.field({ type: ImpactScoreFormulaNode }) }) }),
    authScopes: { admin: true },
    args: {
      input: t.arg({
        type: builder.inputType('CreateImpactScoreFormulaInput', {
          fields: (f) => ({
            name: f.string({ required: true }),
            categoryId: f.globalID({ required: true, for: SmartSegmentCategoryType }),
            description: f.string(),
            formula: f.string({
              required: true,
              description: `e.g. customerCount * 0.3 + revenuePerCustomer * 0.7; variables ${FORMULA_VARIABLE_NAMES.join(', ')}`,
            }),
            isActive: f.boolean({ description: 'Make it the only active formula of its category (default false)' }),
          }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({
      formula: await createFormula(ctx.deps, ctx.user!, { ...withoutNulls(input), categoryId: input.categoryId.id }),
    }),
  }),
);

// Deletions return the Relay id of the deleted node (for @deleteRecord).
const deletions = [
  { mutation: 'deleteSmartSegmentCategory', ref: SmartSegmentCategoryType, typename: 'SmartSegmentCategory', remove: deleteCategory },
  { mutation: 'deleteSmartSegmentPreset', ref: SmartSegmentPresetType, typename: 'SmartSegmentPreset', remove: deletePreset },
  { mutation: 'deleteImpactScoreFormula', ref: ImpactScoreFormulaNode, typename: 'ImpactScoreFormula', remove: deleteFormula },
] as const;

for (const { mutation, ref, typename, remove } of deletions) {
  const Name = mutation[0].toUpperCase() + mutation.slice(1);
  builder.mutationField(mutation, (t) =>
    t.field({
      type: builder.simpleObject(`${Name}Payload`, { fields: (f) => ({ deletedId: f.id({ description: `Relay id of the deleted ${typename}` }) }) }),
      authScopes: { admin: true },
      args: {
        input: t.arg({ type: builder.inputType(`${Name}Input`, { fields: (f) => ({ id: f.globalID({ required: true, for: ref }) }) }), required: true }),
      },
      resolve: async (_r, { input }, ctx) => {
        const deleted = await remove(ctx.deps, ctx.user!, input.id.id);
        return { deletedId: encodeGlobalID(typename, deleted.id) };
      },
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Administrators: generation

const GenerationStats = builder.simpleObject('SegmentGenerationStats', {
  fields: (t) => ({
    runId: t.id({ description: 'The run (follow it in generationProgress, or read it with generationRun)' }),
    date: t.string(),
    users: t.int({ description: 'Users with a CRM connection, all of whom get segments' }),
    completedUsers: t.int(),
    totalSegments: t.int(),
    successCount: t.int(),
    failedCount: t.int(),
  }),
});

builder.mutationField('generateSmartSegments', (t) =>
  t.field({
    type: builder.simpleObject('GenerateSmartSegmentsPayload', { fields: (f) => ({ stats: f.field({ type: GenerationStats }) }) }),
    authScopes: { admin: true },
    description:
      "Queues today's segments for every eligible user, or for one, as the same per-user jobs as the schedule; answers with the run at its start (progress and end: the generationProgress subscription, or generationRun)",
    args: {
      input: t.arg({
        type: builder.inputType('GenerateSmartSegmentsInput', {
          fields: (f) => ({ userId: f.globalID({ for: UserNode, description: 'Only this user (default: every user with a CRM connection)' }) }),
        }),
      }),
    },
    resolve: async (_r, { input }, ctx) => ({ stats: await generateNow(ctx.deps, ctx.user!, input?.userId ? { userIds: [input.userId.id] } : {}) }),
  }),
);

builder.mutationField('clearSmartSegments', (t) =>
  t.field({
    type: builder.simpleObject('ClearSmartSegmentsPayload', { fields: (f) => ({ deletedCount: f.int() }) }),
    description: "Deletes one user's generated segments of a day (default today)",
    authScopes: { admin: true },
    args: {
      input: t.arg({
        type: builder.inputType('ClearSmartSegmentsInput', {
          fields: (f) => ({ userId: f.globalID({ required: true, for: UserNode }), date: f.field({ type: 'Date' }) }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({ deletedCount: await clearSegments(ctx.deps, ctx.user!, input.userId.id, input.date) }),
  }),
);

const GenerationProgressType = builder.simpleObject('GenerationProgress', {
  fields: (f) => ({
    runId: f.id({ description: 'The run this is about' }),
    date: f.string(),
    users: f.int({ description: 'Users in this run' }),
    completedUsers: f.int(),
    totalSegments: f.int({ description: 'Segments generated so far' }),
    successCount: f.int(),
    failedCount: f.int(),
    done: f.boolean(),
  }),
});

builder.subscriptionField('generationProgress', (t) =>
  t.field({
    type: GenerationProgressType,
    authScopes: { admin: true },
    description: 'Pushed as each user of a generation run (scheduled or started by an admin) is done',
    // scope-auth guards resolvers, not subscribe(): check here too.
    subscribe: (_r, _a, ctx) => (requireAdmin(ctx), ctx.deps.events.pubsub.subscribe('generationProgress', ADMIN_TOPIC)),
    resolve: (p) => p,
  }),
);

builder.queryField('generationRun', (t) =>
  t.field({
    type: GenerationProgressType,
    nullable: true,
    authScopes: { admin: true },
    description: 'A generation run as it stands now (its events may have been missed); null for an unknown id',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => readGenerationRun(ctx.deps, String(id)),
  }),
);
