// Saved segments over GraphQL: a connection with the latest processed count, create, rename and edit,
// delete, run as a query, process now.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { requireUser } from '../http/guards.js';
import { createSegment, deleteSegment, latestResultSelect, processOwnSegment, runSegmentAsQuery, segmentListArgs, updateSegment } from '../services/segments.js';
import { nodeAccess } from './node-access.js';
import { RunQueryPayload } from './queries.js';

export const SavedSegmentType = builder.prismaNode('Segment', {
  name: 'SavedSegment',
  id: { field: 'id' },
  findUnique: nodeAccess('SavedSegment', 'owner'),
  nullable: true,
  fields: (t) => ({
    segmentId: t.exposeString('id', { description: 'The raw id (uuid, as in the REST routes)' }),
    name: t.exposeString('name', { nullable: true, description: 'The name the user gave it; null shows the description' }),
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
      description: 'The latest count (daily, or processSavedSegment); null before the first',
      select: { processed: latestResultSelect },
      resolve: (s) => {
        const p = s.processed[0];
        return p ? { customerCount: p.customerCount, hasError: Boolean(p.hasError), errorMessage: p.errorMessage, processedAt: p.processedAt } : null;
      },
    }),
  }),
});

builder.queryField('savedSegments', (t) =>
  t.prismaConnection({
    type: 'Segment',
    cursor: 'id',
    authScopes: { authenticated: true },
    description: "The viewer's saved segments, newest first",
    totalCount: (_c, _a, ctx) => ctx.deps.prisma.segment.count({ where: segmentListArgs(requireUser(ctx)).where }),
    resolve: (query, _r, _a, ctx) => ctx.deps.prisma.segment.findMany({ ...query, ...segmentListArgs(requireUser(ctx)) }),
  }),
);

const SegmentIdInput = builder.inputType('SavedSegmentIdInput', {
  fields: (t) => ({ id: t.globalID({ required: true, for: SavedSegmentType }) }),
});

const SavedSegmentPayload = (name: string) =>
  builder.simpleObject(name, { fields: (t) => ({ savedSegment: t.field({ type: SavedSegmentType }) }) });

builder.mutationField('createSavedSegment', (t) =>
  t.field({
    type: SavedSegmentPayload('CreateSavedSegmentPayload'),
    authScopes: { authenticated: true },
    args: {
      input: t.arg({
        type: builder.inputType('CreateSavedSegmentInput', {
          fields: (f) => ({ description: f.string({ required: true, description: 'Trimmed; 1 to 500 characters' }) }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({ savedSegment: await createSegment(ctx.deps, requireUser(ctx), input.description) }),
  }),
);

builder.mutationField('updateSavedSegment', (t) =>
  t.field({
    type: SavedSegmentPayload('UpdateSavedSegmentPayload'),
    description:
      "Renames a saved segment and/or edits its description (owner only). A refusal (BAD_USER_INPUT with extensions.field) changes nothing; a changed description must be understood in full and is counted again",
    authScopes: { authenticated: true },
    args: {
      input: t.arg({
        type: builder.inputType('UpdateSavedSegmentInput', {
          fields: (f) => ({
            id: f.globalID({ required: true, for: SavedSegmentType }),
            name: f.string({ description: 'Trimmed; at most 100 characters; blank removes the name. Omitted: unchanged' }),
            description: f.string({ description: 'Trimmed; 1 to 500 characters, understood in full by the parser. Omitted: unchanged' }),
          }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => {
      const updated = await updateSegment(ctx.deps, requireUser(ctx), input.id.id, { name: input.name, description: input.description });
      return { savedSegment: updated };
    },
  }),
);

builder.mutationField('deleteSavedSegment', (t) =>
  t.field({
    type: builder.simpleObject('DeleteSavedSegmentPayload', {
      fields: (f) => ({ deletedId: f.id({ description: 'Relay id of the deleted segment (for @deleteRecord / @deleteEdge)' }) }),
    }),
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SegmentIdInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const deleted = await deleteSegment(ctx.deps, requireUser(ctx), input.id.id);
      return { deletedId: encodeGlobalID('SavedSegment', deleted.id) };
    },
  }),
);

builder.mutationField('runSavedSegment', (t) =>
  t.field({
    type: RunQueryPayload,
    description: "Runs the saved segment's description as a query (uses one chat query)",
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SegmentIdInput, required: true }) },
    resolve: (_r, { input }, ctx) => runSegmentAsQuery(ctx.deps, requireUser(ctx), input.id.id),
  }),
);

builder.mutationField('processSavedSegment', (t) =>
  t.field({
    type: SavedSegmentPayload('ProcessSavedSegmentPayload'),
    description: 'Counts the segment now and records the result',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SegmentIdInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const processed = await processOwnSegment(ctx.deps, requireUser(ctx), input.id.id);
      return { savedSegment: await ctx.deps.prisma.segment.findUniqueOrThrow({ where: { id: processed.segmentId } }) };
    },
  }),
);
