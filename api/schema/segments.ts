// Saved segments over GraphQL: list with the latest processed count, create, delete, run as a
// query, process now.
import { builder } from '../builder.js';
import { nodeAccess } from './node-access.js';
import { requireUser } from '../http/guards.js';
import { QueryResultPayload } from './queries.js';
import { createSegment, deleteSegment, processOwnSegment, runSegmentAsQuery } from '../services/segments.js';

export const SavedSegmentType = builder.prismaNode('Segment', {
  name: 'SavedSegment',
  id: { field: 'id' },
  findUnique: nodeAccess('SavedSegment', 'owner'),
  nullable: true,
  fields: (t) => ({
    segmentId: t.exposeString('id'),
    description: t.exposeString('description'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    latestResult: t.field({
      type: builder.simpleObject('ProcessedSegmentResult', {
        fields: (f) => ({
          customerCount: f.int(),
          hasError: f.boolean(),
          errorMessage: f.string({ nullable: true }),
          processedAt: f.field({ type: 'DateTime' }),
        }),
      }),
      nullable: true,
      select: { processed: { orderBy: { processedAt: 'desc' }, take: 1 } },
      resolve: (s) => {
        const p = s.processed[0];
        return p ? { customerCount: p.customerCount, hasError: Boolean(p.hasError), errorMessage: p.errorMessage, processedAt: p.processedAt } : null;
      },
    }),
  }),
});

builder.queryField('savedSegments', (t) =>
  t.prismaField({
    type: ['Segment'],
    authScopes: { authenticated: true },
    resolve: (query, _r, _a, ctx) =>
      ctx.deps.prisma.segment.findMany({ ...query, where: { userId: requireUser(ctx).id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
);

const CreateSegmentInput = builder.inputType('CreateSavedSegmentInput', {
  fields: (t) => ({ description: t.string({ required: true, description: 'Trimmed; 1 to 500 characters' }) }),
});
const SegmentIdInput = builder.inputType('SavedSegmentIdInput', { fields: (t) => ({ segmentId: t.string({ required: true }) }) });

builder.mutationField('createSavedSegment', (t) =>
  t.prismaField({
    type: 'Segment',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: CreateSegmentInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const s = await createSegment(ctx.deps, requireUser(ctx), input.description);
      return ctx.deps.prisma.segment.findUniqueOrThrow({ ...query, where: { id: s.id } });
    },
  }),
);

builder.mutationField('deleteSavedSegment', (t) =>
  t.string({
    description: 'Returns the deleted segment id',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SegmentIdInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      await deleteSegment(ctx.deps, requireUser(ctx), input.segmentId);
      return input.segmentId;
    },
  }),
);

builder.mutationField('runSavedSegment', (t) =>
  t.field({
    type: QueryResultPayload,
    description: "Runs the saved segment's description as a query (uses one chat query)",
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SegmentIdInput, required: true }) },
    resolve: (_r, { input }, ctx) => runSegmentAsQuery(ctx.deps, requireUser(ctx), input.segmentId),
  }),
);

builder.mutationField('processSavedSegment', (t) =>
  t.prismaField({
    type: 'Segment',
    description: 'Counts the segment now and records the result',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SegmentIdInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      await processOwnSegment(ctx.deps, requireUser(ctx), input.segmentId);
      return ctx.deps.prisma.segment.findUniqueOrThrow({ ...query, where: { id: input.segmentId } });
    },
  }),
);
