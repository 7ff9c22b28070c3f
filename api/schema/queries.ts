// Queries over GraphQL: the history (a connection), a query with its messages, how it was
// understood (typed) and its customers (a cursor connection paged in the database, in the CRM's
// order, with the table's filters), running and re-running (optionally an edited segment).
import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import type { Customer } from '../crm/mapping.js';
import { badInput } from '../errors.js';
import { requireUser } from '../http/guards.js';
import {
  historyListArgs,
  HISTORY_LIMIT,
  messageListArgs,
  rerunQuery,
  resultPage,
  resultWhere,
  runQuestion,
  type NotUnderstoodOutcome,
  type QueryOutcome,
} from '../services/queries.js';
import { findOwned } from '../services/owned.js';
import { currentUsage } from '../services/usage.js';
import { segmentSchema } from '../segmentation/index.js';
import { nodeAccess } from './node-access.js';
import { SegmentDefinition, SegmentFieldInfo, segmentFromInput, SegmentInput } from './segment.js';
import { Usage } from './usage.js';

/** A customer as the product shows it: stored query results (rows) and customers fetched live alike. */
export type CustomerShape = Omit<Customer, 'lifecycleStage'> & { lifecycleStage: string };

export const CustomerType = builder.objectRef<CustomerShape>('Customer').implement({
  description: 'A CRM contact as the product shows it (id is the CRM record id)',
  fields: (t) => ({
    id: t.exposeID('id'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    company: t.exposeString('company', { nullable: true }),
    lifecycleStage: t.exposeString('lifecycleStage', { description: 'lead, customer, opportunity, subscriber or unknown' }),
    lastPurchaseDate: t.exposeString('lastPurchaseDate', { nullable: true }),
    lastPurchaseAmount: t.exposeInt('lastPurchaseAmount', { nullable: true }),
    lifetimeValue: t.exposeInt('lifetimeValue', { nullable: true }),
    city: t.exposeString('city', { nullable: true }),
    state: t.exposeString('state', { nullable: true }),
    country: t.exposeString('country', { nullable: true }),
  }),
});

export const ChatMessageType = builder.prismaNode('ChatMessage', {
  id: { field: 'id' },
  findUnique: nodeAccess('ChatMessage', 'owner'),
  nullable: true,
  fields: (t) => ({
    messageId: t.exposeString('id'),
    queryId: t.exposeString('queryId', { nullable: true }),
    role: t.exposeString('role', { description: '"user" or "assistant"' }),
    content: t.exposeString('content'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CustomerFilterInput = builder.inputType('CustomerFilterInput', {
  fields: (t) => ({
    lifecycle: t.string({ description: 'all, lead, customer, opportunity, subscriber, unknown' }),
    region: t.string({ description: 'all, North America, Europe, Asia-Pacific, Latin America, Middle East & Africa' }),
    search: t.string({ description: 'free text over first name, last name, email and company' }),
  }),
});

/** A position cursor of the customers connection ("the customer at this place in the CRM's order"). */
const position = (cursor: string | undefined) => {
  if (cursor === undefined) return undefined;
  if (!/^\d{1,7}$/.test(cursor)) throw badInput('Invalid cursor', 'after');
  return Number(cursor);
};

export const CustomerQueryType = builder.prismaNode('Query', {
  name: 'CustomerQuery',
  id: { field: 'id' },
  findUnique: nodeAccess('CustomerQuery', 'owner'),
  nullable: true,
  fields: (t) => ({
    queryId: t.exposeString('id', { description: 'The raw query id (uuid, as in the REST routes)' }),
    naturalLanguage: t.exposeString('naturalLanguage'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    resultCount: t.exposeInt('resultCount', { description: 'How many customers matched (exact; at most 1,000 are kept)' }),
    hasError: t.exposeBoolean('hasError', { description: 'The last run could not reach the CRM' }),
    understood: t.field({
      type: SegmentDefinition,
      nullable: true,
      description: 'How the question was understood; edit it and run rerunQuery with the edited segment',
      select: { segment: true, unrecognized: true },
      resolve: (q) => {
        const parsed = segmentSchema.safeParse(q.segment);
        return parsed.success ? { segment: parsed.data, unrecognized: q.unrecognized } : null;
      },
    }),
    hubspotQuery: t.expose('hubspotQuery', { type: 'JSON', nullable: true, description: 'The CRM searches the segment compiled to' }),
    messages: t.relation('messages', { query: messageListArgs }),
    customers: t.connection(
      {
        type: CustomerType,
        description: "The customers this query returned, in the CRM's order, 10 per page by default",
        args: { filter: t.arg({ type: CustomerFilterInput }) },
        select: { id: true },
        resolve: (q, args, ctx) =>
          resolveCursorConnection(
            { args, defaultSize: 10, maxSize: 100, toCursor: (c: CustomerShape & { position: number }) => String(c.position) },
            async ({ before, after, limit, inverted }: ResolveCursorConnectionArgs) => {
              const rows = await resultPage(ctx.deps, q.id, args.filter ?? {}, { before: position(before), after: position(after), limit, inverted });
              return rows.map((r) => ({ ...r.customer, position: r.position }));
            },
          ).then((connection) => ({ ...connection, queryId: q.id, filter: args.filter ?? {} })),
      },
      {
        fields: (f) => ({
          totalCount: f.int({
            description: 'Customers matching the filter',
            resolve: (c, _a, ctx) => ctx.deps.prisma.queryResult.count({ where: resultWhere(c.queryId, c.filter) }),
          }),
        }),
      },
    ),
  }),
});

builder.queryField('queryHistory', (t) =>
  t.prismaConnection({
    type: 'Query',
    cursor: 'id',
    maxSize: HISTORY_LIMIT,
    defaultSize: HISTORY_LIMIT,
    authScopes: { authenticated: true },
    description: `The viewer's most recent queries (at most ${HISTORY_LIMIT} are kept), newest first`,
    totalCount: (_c, _a, ctx) => ctx.deps.prisma.query.count({ where: historyListArgs(requireUser(ctx)).where }),
    resolve: (query, _r, _a, ctx) => ctx.deps.prisma.query.findMany({ ...query, ...historyListArgs(requireUser(ctx)) }),
  }),
);

builder.queryField('customerQuery', (t) =>
  t.prismaField({
    type: 'Query',
    nullable: true,
    authScopes: { authenticated: true },
    args: { id: t.arg.globalID({ required: true, for: CustomerQueryType }) },
    resolve: (query, _r, { id }, ctx) => findOwned((where) => ctx.deps.prisma.query.findFirst({ ...query, where }), id.id, requireUser(ctx), 'Query'),
  }),
);

const QueryOutcomeKind = builder.enumType('QueryOutcomeKind', {
  description: 'COMPLETED: the question was run (see hasError); NOT_UNDERSTOOD: nothing in it was understood, so nothing was run, stored or charged',
  values: ['COMPLETED', 'NOT_UNDERSTOOD'] as const,
});

type PayloadSource = QueryOutcome | NotUnderstoodOutcome;
const notUnderstood = (o: PayloadSource): o is NotUnderstoodOutcome => 'outcome' in o && o.outcome === 'NOT_UNDERSTOOD';

export const RunQueryPayload = builder.objectRef<PayloadSource>('RunQueryPayload').implement({
  fields: (t) => ({
    outcome: t.field({ type: QueryOutcomeKind, resolve: (o) => (notUnderstood(o) ? 'NOT_UNDERSTOOD' : 'COMPLETED') }),
    query: t.prismaField({
      type: 'Query',
      nullable: true,
      description: 'The stored query; null when the question was not understood (the history and results are unchanged)',
      resolve: (query, o, _a, ctx) => (o.query ? ctx.deps.prisma.query.findUniqueOrThrow({ ...query, where: { id: o.query.id } }) : null),
    }),
    ignoredPhrases: t.stringList({
      description: 'Parts of the question that were not understood (and not applied)',
      resolve: (o) => (notUnderstood(o) ? o.ignoredPhrases : (o.query?.unrecognized ?? [])),
    }),
    suggestions: t.field({
      type: [SegmentFieldInfo],
      nullable: true,
      description: 'When NOT_UNDERSTOOD: what a question can filter on, with an example each',
      resolve: (o) => (notUnderstood(o) ? [...o.suggestions] : null),
    }),
    resultCount: t.exposeInt('resultCount'),
    hasError: t.exposeBoolean('hasError'),
    message: t.exposeString('message', { description: "The assistant's answer" }),
    usage: t.field({ type: Usage, description: "The viewer's usage after this query", resolve: (_o, _a, ctx) => currentUsage(ctx.deps, requireUser(ctx)) }),
  }),
});

const RunQueryInput = builder.inputType('RunQueryInput', {
  fields: (t) => ({
    naturalLanguage: t.string({ description: 'The question (trimmed, at most 1,000 characters)' }),
    segment: t.field({ type: SegmentInput, description: 'A segment to run instead of parsing the text (the text is kept as the question)' }),
  }),
});

const RerunQueryInput = builder.inputType('RerunQueryInput', {
  fields: (t) => ({
    queryId: t.globalID({ required: true, for: CustomerQueryType }),
    segment: t.field({ type: SegmentInput, description: 'An edited segment to store and run; default: the stored one' }),
  }),
});

builder.mutationField('runQuery', (t) =>
  t.field({
    type: RunQueryPayload,
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: RunQueryInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      runQuestion(ctx.deps, requireUser(ctx), {
        naturalLanguage: input.naturalLanguage,
        segment: input.segment ? segmentFromInput(input.segment) : undefined,
      }),
  }),
);

builder.mutationField('rerunQuery', (t) =>
  t.field({
    type: RunQueryPayload,
    description: 'Runs a past query again: its stored segment, or an edited one that replaces it',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: RerunQueryInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      rerunQuery(ctx.deps, requireUser(ctx), input.queryId.id, input.segment ? { segment: segmentFromInput(input.segment) } : {}),
  }),
);
