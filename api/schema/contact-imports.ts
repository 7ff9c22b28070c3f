// Contacts from a file over GraphQL: an uploaded file's preview under a mapping, starting the import,
// its progress (subscription, and the import itself for a client that missed events), undo of the last
// import, discarding an upload. The file itself arrives over REST (POST /api/crm/imports).
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { ContactImport } from '@prisma/client';
import { filter, pipe } from 'graphql-yoga';
import { builder } from '../builder.js';
import { IMPORT_FIELDS, IMPORT_FIELD_KINDS, IMPORT_FIELD_LABELS } from '../crm/imported/columns.js';
import { LIFECYCLE_OPTIONS } from '../crm/hubspot/model/index.js';
import type { Customer } from '../crm/record.js';
import { requireUser } from '../http/guards.js';
import { connectionStatus } from '../services/crm.js';
import {
  discardImport, importsOf, INTERRUPTED_MESSAGE, isInterrupted, MAX_UPLOAD_BYTES, previewImport, startImport, undoLastImport,
  type ImportPreview,
} from '../services/contact-imports/index.js';
import { PROBLEM_KINDS, PROBLEM_LABELS, type Problem } from '../services/contact-imports/mapping.js';
import { ENCODINGS, ENCODING_LABELS } from '../services/contact-imports/sniff.js';
import { CrmConnection } from './crm.js';
import { nodeAccess } from './node-access.js';

const ImportProblem = builder.objectRef<Problem>('ContactImportProblem').implement({
  description: 'A problem found in one row of a contacts file',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: `${PROBLEM_KINDS.join(', ')}` }),
    row: t.exposeInt('row', { description: 'The spreadsheet row (the header is row 1)' }),
    column: t.exposeString('column', { nullable: true }),
    value: t.exposeString('value', { nullable: true }),
    message: t.exposeString('message'),
  }),
});

interface ProblemSummary {
  counts: Partial<Record<string, number>>;
  examples: Problem[];
}

const ProblemCount = builder.simpleObject('ContactImportProblemCount', {
  fields: (t) => ({ kind: t.string(), label: t.string(), count: t.int() }),
});

const ImportProblems = builder.objectRef<ProblemSummary>('ContactImportProblems').implement({
  fields: (t) => ({
    counts: t.field({
      type: [ProblemCount],
      resolve: (p) => PROBLEM_KINDS.filter((k) => p.counts[k]).map((k) => ({ kind: k, label: PROBLEM_LABELS[k], count: p.counts[k] ?? 0 })),
    }),
    total: t.int({ resolve: (p) => Object.values(p.counts).reduce<number>((a, b) => a + (b ?? 0), 0) }),
    examples: t.field({ type: [ImportProblem], description: 'The first problems found (at most 100)', resolve: (p) => p.examples }),
  }),
});

/** What a client sees of an import's status (an interrupted run reads as failed, and may be started again). */
const statusOf = (deps: Parameters<typeof isInterrupted>[0], i: ContactImport) => (isInterrupted(deps, i) ? 'failed' : i.status);

export const ContactImportType = builder.prismaNode('ContactImport', {
  id: { field: 'id' },
  findUnique: nodeAccess('ContactImport', 'owner'),
  nullable: true,
  description: 'An uploaded contacts file and its import',
  fields: (t) => ({
    importId: t.exposeString('id', { description: 'The raw id (uuid, as the upload route answers)' }),
    fileName: t.exposeString('fileName'),
    format: t.exposeString('format', { description: 'csv or xlsx' }),
    encoding: t.string({ nullable: true, description: 'How a CSV is read (detected)', resolve: (i) => (i.encoding ? (ENCODING_LABELS[i.encoding as keyof typeof ENCODING_LABELS] ?? i.encoding) : null) }),
    byteSize: t.exposeInt('byteSize'),
    status: t.string({
      description: 'uploaded (waiting for its mapping), importing, active (your contacts), previous (what undo restores), failed',
      resolve: (i, _a, ctx) => statusOf(ctx.deps, i),
    }),
    bytesRead: t.exposeInt('bytesRead'),
    progress: t.float({
      description: 'Share of the file read by the import, 0 to 1',
      resolve: (i) => (i.status === 'active' || i.status === 'previous' ? 1 : i.byteSize ? Math.min(1, i.bytesRead / i.byteSize) : 0),
    }),
    rowCount: t.exposeInt('rowCount', { description: 'Data rows read' }),
    importedCount: t.exposeInt('importedCount'),
    skippedCount: t.exposeInt('skippedCount'),
    problemCount: t.exposeInt('problemCount'),
    problems: t.field({
      type: ImportProblems,
      resolve: (i) => (i.problems as ProblemSummary | null) ?? { counts: {}, examples: [] },
    }),
    error: t.string({ nullable: true, resolve: (i, _a, ctx) => (isInterrupted(ctx.deps, i) ? INTERRUPTED_MESSAGE : i.error) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

// ---------------------------------------------------------------------------------------------------
// The connection: which import is in use, which one undo restores, which one waits

builder.objectFields(CrmConnection, (t) => ({
  activeImport: t.field({
    type: ContactImportType,
    nullable: true,
    description: 'The imported contacts file in use (a file connection)',
    resolve: async (s, _a, ctx) => (await importsOf(ctx.deps, s.userId)).active,
  }),
  previousImport: t.field({
    type: ContactImportType,
    nullable: true,
    description: 'The import that undoing the last one brings back (null: undo ends the file connection)',
    resolve: async (s, _a, ctx) => (await importsOf(ctx.deps, s.userId)).previous,
  }),
  pendingImport: t.field({
    type: ContactImportType,
    nullable: true,
    description: 'An uploaded file waiting for its mapping, being imported, or whose import failed',
    resolve: async (s, _a, ctx) => (await importsOf(ctx.deps, s.userId)).pending,
  }),
  maxImportBytes: t.int({ description: 'The largest contacts file accepted (bytes)', resolve: () => MAX_UPLOAD_BYTES }),
}));

// ---------------------------------------------------------------------------------------------------
// The preview

const FieldOption = builder.simpleObject('ContactImportFieldOption', {
  description: 'A customer field a column can be imported as',
  fields: (t) => ({ value: t.string(), label: t.string(), kind: t.string({ description: 'text, number, date or stage' }) }),
});
const StageOption = builder.simpleObject('ContactImportStageOption', { fields: (t) => ({ value: t.string(), label: t.string() }) });
const EncodingOption = builder.simpleObject('ContactImportEncodingOption', { fields: (t) => ({ value: t.string(), label: t.string() }) });

const PreviewColumn = builder.simpleObject('ContactImportColumn', {
  fields: (t) => ({
    index: t.int({ description: 'Position in the header (0-based)' }),
    header: t.string(),
    field: t.string({ nullable: true, description: 'The customer field it is imported as (null: not imported)' }),
    samples: t.stringList({ description: 'Its first values' }),
  }),
});

const MappingColumn = builder.simpleObject('ContactImportMappingColumn', { fields: (t) => ({ index: t.int(), field: t.string() }) });
const MappingStage = builder.simpleObject('ContactImportMappingStage', { fields: (t) => ({ value: t.string(), stage: t.string() }) });
const MappingType = builder.simpleObject('ContactImportMapping', {
  fields: (t) => ({
    columns: t.field({ type: [MappingColumn] }),
    stages: t.field({ type: [MappingStage], description: "The user's choices for lifecycle values (the vocabulary covers the rest)" }),
    dateOrder: t.string({ description: 'MDY or DMY: how dates such as 03/05/2024 read' }),
    encoding: t.string({ nullable: true, description: 'A CSV encoding chosen instead of the detected one' }),
  }),
});

const PreviewCustomer = builder.objectRef<Customer>('ContactImportCustomer').implement({
  description: 'A row of the file as the customer it becomes',
  fields: (t) => ({
    id: t.exposeString('id'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    company: t.exposeString('company', { nullable: true }),
    lifecycleStage: t.exposeString('lifecycleStage'),
    lastPurchaseDate: t.exposeString('lastPurchaseDate', { nullable: true }),
    lastPurchaseAmount: t.exposeInt('lastPurchaseAmount', { nullable: true }),
    lifetimeValue: t.exposeInt('lifetimeValue', { nullable: true }),
    city: t.exposeString('city', { nullable: true }),
    state: t.exposeString('state', { nullable: true }),
    country: t.exposeString('country', { nullable: true }),
  }),
});

const PreviewRow = builder.simpleObject('ContactImportPreviewRow', {
  fields: (t) => ({
    row: t.int(),
    customer: t.field({ type: PreviewCustomer, nullable: true, description: 'null: the row is skipped' }),
    problems: t.field({ type: [ImportProblem] }),
  }),
});

const StageValue = builder.simpleObject('ContactImportStageValue', {
  fields: (t) => ({
    value: t.string({ description: 'As written in the file' }),
    count: t.int({ description: 'Rows with it (among the rows previewed)' }),
    stage: t.string({ nullable: true, description: 'The stage it means (null: none, shown as unknown)' }),
    known: t.boolean({ description: 'The product recognised it (else the stage is your choice, or unknown)' }),
  }),
});

const Preview = builder.objectRef<ImportPreview>('ContactImportPreview').implement({
  description: 'An uploaded file read through a mapping: what the import would do',
  fields: (t) => ({
    contactImport: t.field({ type: ContactImportType, resolve: (p) => p.contactImport }),
    encoding: t.string({ nullable: true, resolve: (p) => p.encodingLabel }),
    delimiter: t.string({ nullable: true, resolve: (p) => p.delimiterLabel }),
    columns: t.field({ type: [PreviewColumn], resolve: (p) => p.columns }),
    mapping: t.field({
      type: MappingType,
      resolve: (p) => ({
        columns: p.mapping.columns,
        stages: Object.entries(p.mapping.stages).map(([value, stage]) => ({ value, stage })),
        dateOrder: p.mapping.dateOrder,
        encoding: p.mapping.encoding ?? null,
      }),
    }),
    rows: t.field({ type: [PreviewRow], resolve: (p) => p.rows }),
    problems: t.field({ type: ImportProblems, resolve: (p) => p.problems }),
    scannedRows: t.int({ description: 'Data rows checked for this preview', resolve: (p) => p.scannedRows }),
    complete: t.boolean({ description: 'Every row of the file was checked (else the import checks the rest)', resolve: (p) => p.complete }),
    stageValues: t.field({ type: [StageValue], resolve: (p) => p.stageValues }),
    dateOrderDetected: t.boolean({ description: 'The file itself shows whether dates are day-first or month-first', resolve: (p) => p.dateOrderDetected }),
    blocker: t.string({ nullable: true, description: 'Why the file cannot be imported as mapped (a missing required column, ...)', resolve: (p) => p.blocker }),
    fieldOptions: t.field({
      type: [FieldOption],
      resolve: () => IMPORT_FIELDS.map((f) => ({ value: f, label: IMPORT_FIELD_LABELS[f], kind: IMPORT_FIELD_KINDS[f] })),
    }),
    stageOptions: t.field({ type: [StageOption], resolve: () => LIFECYCLE_OPTIONS.map((o) => ({ value: o.value, label: o.label })) }),
    encodingOptions: t.field({ type: [EncodingOption], resolve: () => ENCODINGS.map((e) => ({ value: e, label: ENCODING_LABELS[e] })) }),
  }),
});

const MappingInput = builder.inputType('ContactImportMappingInput', {
  description: 'Which column holds which customer field; columns left out are not imported',
  fields: (t) => ({
    columns: t.field({
      type: [builder.inputType('ContactImportColumnInput', { fields: (c) => ({ index: c.int({ required: true }), field: c.string({ required: true }) }) })],
      required: true,
    }),
    stages: t.field({
      type: [builder.inputType('ContactImportStageInput', { fields: (c) => ({ value: c.string({ required: true }), stage: c.string({ required: true }) }) })],
      description: 'What lifecycle values of the file mean (values left out: the vocabulary, else unknown)',
    }),
    dateOrder: t.string({ description: 'MDY (default) or DMY' }),
    encoding: t.string({ description: 'Read the CSV in this encoding instead of the detected one' }),
  }),
});

type MappingInputShape = {
  columns: { index: number; field: string }[];
  stages?: { value: string; stage: string }[] | null;
  dateOrder?: string | null;
  encoding?: string | null;
};
const mappingOf = (m: MappingInputShape) => ({
  columns: m.columns,
  stages: Object.fromEntries((m.stages ?? []).map((s) => [s.value, s.stage])),
  ...(m.dateOrder ? { dateOrder: m.dateOrder } : {}),
  ...(m.encoding ? { encoding: m.encoding } : {}),
});

builder.queryField('contactImportPreview', (t) =>
  t.field({
    type: Preview,
    authScopes: { authenticated: true },
    description: 'The preview of an uploaded file under a mapping (left out: the guessed one, or the one you confirmed last time)',
    args: {
      id: t.arg.globalID({ required: true, for: ContactImportType }),
      mapping: t.arg({ type: MappingInput }),
    },
    resolve: (_r, args, ctx) => previewImport(ctx.deps, requireUser(ctx), args.id.id, args.mapping ? mappingOf(args.mapping) : null),
  }),
);

const ImportPayload = (name: string) => builder.simpleObject(name, { fields: (t) => ({ contactImport: t.field({ type: ContactImportType }) }) });

builder.mutationField('startContactImport', (t) =>
  t.field({
    type: ImportPayload('StartContactImportPayload'),
    authScopes: { authenticated: true },
    description:
      'Imports an uploaded file with the confirmed mapping. It runs in the background: follow contactImportProgress (or read the import). When it is done the contacts replace your current ones (and any CRM connection); undoContactImport brings the previous ones back.',
    args: {
      input: t.arg({
        type: builder.inputType('StartContactImportInput', {
          fields: (f) => ({ importId: f.globalID({ required: true, for: ContactImportType }), mapping: f.field({ type: MappingInput, required: true }) }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({ contactImport: await startImport(ctx.deps, requireUser(ctx), input.importId.id, mappingOf(input.mapping)) }),
  }),
);

builder.mutationField('discardContactImport', (t) =>
  t.field({
    type: builder.simpleObject('DiscardContactImportPayload', { fields: (f) => ({ deletedId: f.id() }) }),
    authScopes: { authenticated: true },
    description: 'Drops an uploaded file that was not imported (or whose import failed)',
    args: {
      input: t.arg({
        type: builder.inputType('DiscardContactImportInput', { fields: (f) => ({ importId: f.globalID({ required: true, for: ContactImportType }) }) }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => {
      await discardImport(ctx.deps, requireUser(ctx), input.importId.id);
      return { deletedId: encodeGlobalID('ContactImport', input.importId.id) };
    },
  }),
);

builder.mutationField('undoContactImport', (t) =>
  t.field({
    type: builder.simpleObject('UndoContactImportPayload', {
      fields: (f) => ({
        crmConnection: f.field({ type: CrmConnection }),
        undoneId: f.id({ description: 'Relay id of the import that was undone' }),
      }),
    }),
    authScopes: { authenticated: true },
    description: 'Undoes your last import: the contacts of the import before it come back (after a first import, the file connection ends)',
    resolve: async (_r, _a, ctx) => {
      const user = requireUser(ctx);
      const { active } = await importsOf(ctx.deps, user.id);
      await undoLastImport(ctx.deps, user);
      return { crmConnection: await connectionStatus(ctx.deps, user), undoneId: active ? encodeGlobalID('ContactImport', active.id) : '' };
    },
  }),
);

// ---------------------------------------------------------------------------------------------------
// Progress

const ProgressType = builder.simpleObject('ContactImportProgress', {
  description: 'Where an import stands; the last event of a run has done = true',
  fields: (t) => ({
    importId: t.id({ description: 'Relay id of the import' }),
    status: t.string(),
    rowCount: t.int(),
    importedCount: t.int(),
    skippedCount: t.int(),
    problemCount: t.int(),
    bytesRead: t.int(),
    byteSize: t.int(),
    progress: t.float({ description: 'Share of the file read, 0 to 1' }),
    error: t.string({ nullable: true }),
    done: t.boolean(),
  }),
});

builder.subscriptionField('contactImportProgress', (t) =>
  t.field({
    type: ProgressType,
    authScopes: { authenticated: true },
    description: "Pushed as the signed-in user's imports progress (one import with importId)",
    args: { importId: t.arg.globalID({ for: ContactImportType }) },
    subscribe: (_r, args, ctx) => {
      const source = ctx.deps.events.pubsub.subscribe('contactImportProgress', requireUser(ctx).id);
      const only = args.importId?.id;
      return only ? pipe(source, filter((e) => e.importId === only)) : source;
    },
    resolve: (e) => ({
      ...e,
      importId: encodeGlobalID('ContactImport', e.importId),
      progress: e.status === 'active' ? 1 : e.byteSize ? Math.min(1, e.bytesRead / e.byteSize) : 0,
    }),
  }),
);

