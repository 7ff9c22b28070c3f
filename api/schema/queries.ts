// Queries over GraphQL: history, a query with its messages and customers (a Relay connection with
// filtering and pagination in the database), running, re-running (optionally with an edited segment).
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { nodeAccess } from './node-access.js';
import type { Customer } from '../crm/mapping.js';
import { requireUser } from '../http/guards.js';
import { createQuery, customerWhere, getOwnQuery, HISTORY_LIMIT, rerunQuery, type QueryOutcome } from '../services/queries.js';
import { countriesOfRegion } from '../services/regions-filter.js';
import { explainSegment, segmentSchema } from '../segmentation/index.js';

/** A customer as the product shows it: stored query results (rows) and customers fetched live alike. */
export type CustomerShape = Omit<Customer, 'lifecycleStage'> & { lifecycleStage: string };

export const CustomerType = builder.objectRef<CustomerShape>('Customer').implement({
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

export const CustomerQueryType = builder.prismaNode('Query', {
  name: 'CustomerQuery',
  id: { field: 'id' },
  findUnique: nodeAccess('CustomerQuery', 'owner'),
  nullable: true,
  fields: (t) => ({
    queryId: t.exposeString('id'),
    naturalLanguage: t.exposeString('naturalLanguage'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    resultCount: t.exposeInt('resultCount'),
    hasError: t.exposeBoolean('hasError'),
    segment: t.expose('segment', { type: 'JSON', nullable: true, description: 'The understood segment (editable, re-runnable)' }),
    hubspotQuery: t.expose('hubspotQuery', { type: 'JSON', nullable: true }),
    explanation: t.string({
      nullable: true,
      select: { segment: true },
      resolve: (q, _a, ctx) => {
        const parsed = segmentSchema.safeParse(q.segment);
        return parsed.success ? explainSegment(parsed.data, { now: ctx.deps.now(), timeZone: ctx.deps.config.usageTimeZone }) : null;
      },
    }),
    messages: t.relation('messages', { query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
    customers: t.connection({
      type: CustomerType,
      args: { filter: t.arg({ type: CustomerFilterInput }) },
      resolve: async (q, args, ctx) => {
        const where = { queryId: q.id, customer: customerWhere(args.filter ?? {}, countriesOfRegion) };
        const totalCount = await ctx.deps.prisma.queryResult.count({ where });
        const connection = await resolveOffsetConnection({ args, defaultSize: 10, maxSize: 100 }, async ({ limit, offset }) => {
          const rows = await ctx.deps.prisma.queryResult.findMany({
            where,
            orderBy: { position: 'asc' },
            skip: offset,
            take: limit,
            include: { customer: true },
          });
          return rows.map((r) => r.customer);
        });
        return { ...connection, totalCount };
      },
    }, {
      fields: (f) => ({ totalCount: f.int({ resolve: (c) => (c as unknown as { totalCount: number }).totalCount }) }),
    }),
  }),
});

builder.queryField('queryHistory', (t) =>
  t.prismaField({
    type: ['Query'],
    authScopes: { authenticated: true },
    description: `The ${HISTORY_LIMIT} most recent queries, newest first`,
    resolve: (query, _r, _a, ctx) =>
      ctx.deps.prisma.query.findMany({
        ...query,
        where: { userId: requireUser(ctx).id },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: HISTORY_LIMIT,
      }),
  }),
);

builder.queryField('customerQuery', (t) =>
  t.prismaField({
    type: 'Query',
    nullable: true,
    authScopes: { authenticated: true },
    args: { id: t.arg.string({ required: true, description: 'raw query id (uuid)' }) },
    resolve: async (query, _r, { id }, ctx) => {
      const q = await getOwnQuery(ctx.deps, requireUser(ctx), id);
      return ctx.deps.prisma.query.findUnique({ ...query, where: { id: q.id } });
    },
  }),
);

export const QueryResultPayload = builder.objectRef<QueryOutcome>('RunQueryPayload').implement({
  fields: (t) => ({
    query: t.prismaField({ type: 'Query', resolve: (query, o, _a, ctx) => ctx.deps.prisma.query.findUniqueOrThrow({ ...query, where: { id: o.query.id } }) }),
    resultCount: t.exposeInt('resultCount'),
    hasError: t.exposeBoolean('hasError'),
    message: t.exposeString('message', { description: "The assistant's answer" }),
  }),
});

const RunQueryInput = builder.inputType('RunQueryInput', {
  fields: (t) => ({
    naturalLanguage: t.string({ description: 'The question (trimmed, at most 1,000 characters)' }),
    segment: t.field({ type: 'JSON', description: 'A structured segment to run instead of (or to refine) the text' }),
  }),
});

const RerunQueryInput = builder.inputType('RerunQueryInput', {
  fields: (t) => ({
    queryId: t.string({ required: true }),
    segment: t.field({ type: 'JSON', description: 'An edited segment to store and run; default: the stored one' }),
  }),
});

builder.mutationField('runQuery', (t) =>
  t.field({
    type: QueryResultPayload,
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: RunQueryInput, required: true }) },
    resolve: (_r, { input }, ctx) => createQuery(ctx.deps, requireUser(ctx), { naturalLanguage: input.naturalLanguage, segment: input.segment }),
  }),
);

builder.mutationField('rerunQuery', (t) =>
  t.field({
    type: QueryResultPayload,
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: RerunQueryInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      rerunQuery(ctx.deps, requireUser(ctx), input.queryId, input.segment === undefined || input.segment === null ? {} : { segment: input.segment }),
  }),
);
