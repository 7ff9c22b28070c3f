// Queries over GraphQL: the history (a connection), a query with its messages, how it was
// understood (typed) and its customers (a cursor connection paged in the database, in the CRM's
// order, with the table's filters), running and re-running (optionally an edited segment).
import { cursorToOffset, encodeGlobalID, offsetToCursor, resolveOffsetConnection } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import type { Customer } from '../crm/mapping.js';
import { badInput } from '../errors.js';
import { requireUser } from '../http/guards.js';
import {
  historyListArgs,
  HISTORY_LIMIT,
  MAX_STORED_RESULTS,
  messageListArgs,
  rerunQuery,
  RESULT_SORT_FIELDS,
  resultPage,
  resultWhere,
  runQuestion,
  type ClarificationOutcome,
  type NotUnderstoodOutcome,
  type OfferedClarification,
  type QueryOutcome,
} from '../services/queries.js';
import type { ClarificationIssue } from '../segmentation/index.js';
import { crmRecordLinker } from '../services/crm.js';
import { findOwned } from '../services/owned.js';
import { currentUsage } from '../services/usage.js';
import { effectiveResultsState, waitForStoredResults } from '../services/query-results.js';
import { segmentSchema } from '../segmentation/index.js';
import { nodeAccess } from './node-access.js';
import { SegmentDefinition, SegmentFieldInfo, segmentFromInput, SegmentInput, SortDirectionEnum } from './segment.js';
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
    crmUrl: t.string({
      nullable: true,
      description: "The contact's page in the CRM's app (null when the CRM has none to link to)",
      resolve: async (c, _a, ctx) => (ctx.user ? (await recordLinkerOf(ctx))(c.id) : null),
    }),
  }),
});

/** The viewer's CRM record links, looked up once per request. */
const linkers = new WeakMap<object, Promise<(id: string) => string | null>>();
function recordLinkerOf(ctx: Parameters<typeof requireUser>[0]) {
  let linker = linkers.get(ctx);
  if (!linker) linkers.set(ctx, (linker = crmRecordLinker(ctx.deps, requireUser(ctx))));
  return linker;
}

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

export const CustomerFilterInput = builder.inputType('CustomerFilterInput', {
  fields: (t) => ({
    lifecycle: t.string({ description: 'all, lead, customer, opportunity, subscriber, unknown' }),
    region: t.string({ description: 'all, North America, Europe, Asia-Pacific, Latin America, Middle East & Africa' }),
    search: t.string({ description: 'free text over first name, last name, email and company' }),
  }),
});

const CustomerSortField = builder.enumType('CustomerSortField', {
  description: 'A column of the results table: name (last, then first), email, company, lifecycleStage, location (country, state, city), lifetimeValue, lastPurchaseDate',
  values: Object.fromEntries(RESULT_SORT_FIELDS.map((v) => [v, { value: v }])) as Record<(typeof RESULT_SORT_FIELDS)[number], { value: (typeof RESULT_SORT_FIELDS)[number] }>,
});

export const CustomerOrder = builder.inputType('CustomerOrder', {
  description: 'Sorts every stored customer of the query by a column (empty values last either way; ties in the CRM order)',
  fields: (t) => ({
    field: t.field({ type: CustomerSortField, required: true }),
    direction: t.field({ type: SortDirectionEnum, required: true }),
  }),
});

/** The most a page may start at (a query keeps at most 1,000 customers). */
export const MAX_OFFSET = 100_000;

const ResultsStateEnum = builder.enumType('QueryResultsState', {
  description:
    "Where storing a query's customers stands. LOADING: the first page is stored and the rest is read from the CRM in the background (a page beyond the stored ones waits for it; customerQueryUpdated(id) says when it is done; a CRM failure meanwhile makes the query hasError with no customers, not charged); COMPLETE: every customer kept is stored; INCOMPLETE: the server storing them stopped (a crash), the stored customers are the first ones only",
  values: ['LOADING', 'COMPLETE', 'INCOMPLETE'] as const,
});

const isFiltered = (f: { lifecycle?: string | null; region?: string | null; search?: string | null } | null | undefined) =>
  Boolean(f && ((f.lifecycle && f.lifecycle !== 'all') || (f.region && f.region !== 'all') || f.search?.trim()));

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
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the query was last run' }),
    resultsState: t.field({
      type: ResultsStateEnum,
      select: { resultsState: true, updatedAt: true },
      resolve: (q) => effectiveResultsState(q).toUpperCase() as 'LOADING',
    }),
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
        description:
          "The customers this query returned, 10 per page by default: in the CRM's order or by `orderBy`, with the table's filters. Pages forwards (first/after), backwards (last/before) or by number (`offset`: page n of size s is offset (n-1)*s)",
        args: {
          filter: t.arg({ type: CustomerFilterInput }),
          orderBy: t.arg({ type: CustomerOrder }),
          offset: t.arg.int({ description: 'Start at this 0-based place (instead of after/before)' }),
        },
        select: { id: true, resultsState: true, updatedAt: true, resultCount: true },
        resolve: async (q, args, ctx) => {
          const filter = args.filter ?? {};
          const { offset, orderBy } = args;
          const page = { first: args.first, last: args.last, after: args.after, before: args.before };
          if (offset != null) {
            if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) throw badInput(`offset must be between 0 and ${MAX_OFFSET}`, 'offset');
            if (page.after || page.before) throw badInput('Use offset or after/before, not both', 'offset');
            if (offset > 0) page.after = offsetToCursor(offset - 1);
          }
          // While the rest is stored in the background, a page that needs rows not stored yet (beyond
          // them, from the end, filtered or sorted) waits for them: every page is exact.
          let state = effectiveResultsState(q);
          if (state === 'loading') {
            // a page from the start or after a row waits for the rows up to its end (and one more); any other for all
            const start = page.after ? cursorToOffset(page.after) + 1 : 0;
            const whole = isFiltered(filter) || Boolean(orderBy) || Boolean(page.before) || page.last != null;
            state = await waitForStoredResults(ctx.deps, q, whole ? {} : { rows: start + Math.min(page.first ?? 10, 100) + 1 });
          }
          // The count runs alongside the page; only a page from the end (last without before) needs it first.
          const counting =
            state === 'loading' ? Promise.resolve(Math.min(q.resultCount, MAX_STORED_RESULTS)) : ctx.deps.prisma.queryResult.count({ where: resultWhere(q.id, filter) });
          const fromEnd = page.last != null && !page.before;
          const connection = await resolveOffsetConnection(
            { args: page, defaultSize: 10, maxSize: 100, totalCount: fromEnd ? await counting : undefined },
            async ({ offset: skip, limit }) => (await resultPage(ctx.deps, q.id, filter, { offset: skip, limit, order: orderBy })).map((r) => r.customer),
          );
          return { ...connection, totalCount: await counting };
        },
      },
      {
        fields: (f) => ({
          totalCount: f.int({ description: 'Customers matching the filter (while the rest is stored: the number that will be stored)', resolve: (c) => c.totalCount }),
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
  description:
    'COMPLETED: the question was run (see hasError); CLARIFICATION: it was understood only in part, contradicts itself or could be read more than one way, so nothing was run, stored or charged and `clarification` says what to pick; NOT_UNDERSTOOD: nothing in it was understood, so nothing was run, stored or charged',
  values: ['COMPLETED', 'CLARIFICATION', 'NOT_UNDERSTOOD'] as const,
});

const ClarificationIssueKind = builder.enumType('ClarificationIssueKind', {
  description:
    'NOT_UNDERSTOOD: words left unused; AMBIGUOUS: read one of several ways; COUNT: a number counting something there is no field for; UNKNOWN_VALUE: a value the CRM does not hold; CONTRADICTION: conditions that cannot all hold',
  values: ['NOT_UNDERSTOOD', 'AMBIGUOUS', 'COUNT', 'UNKNOWN_VALUE', 'CONTRADICTION'] as const,
});

const ClarificationIssueType = builder.objectRef<ClarificationIssue>('ClarificationIssue').implement({
  fields: (t) => ({
    kind: t.field({ type: ClarificationIssueKind, resolve: (i) => i.kind.toUpperCase().replace('-', '_') as 'NOT_UNDERSTOOD' }),
    phrase: t.string({ nullable: true, description: 'The words of the question concerned', resolve: (i) => i.phrase ?? null }),
    message: t.exposeString('message'),
  }),
});

type OfferedChoice = OfferedClarification['choices'][number] & { index: number; unrecognized: string[] };

const ClarificationChoiceType = builder.objectRef<OfferedChoice>('ClarificationChoice').implement({
  description: 'A reading of the question to run: runQuery again with { naturalLanguage, choice: index, choiceId: id }',
  fields: (t) => ({
    index: t.exposeInt('index'),
    id: t.exposeString('id', { description: 'Identifies the choice as offered (a pick whose choices changed meanwhile is refused)' }),
    label: t.exposeString('label'),
    explanation: t.exposeString('explanation', { description: 'The segment it runs, in words' }),
    asUnderstood: t.exposeBoolean('asUnderstood', { description: '"Search with what I understood"' }),
    segment: t.field({ type: SegmentDefinition, description: 'The segment it runs', resolve: (c) => ({ segment: c.segment, unrecognized: c.asUnderstood ? c.unrecognized : [] }) }),
  }),
});

const QueryClarificationType = builder.objectRef<OfferedClarification>('QueryClarification').implement({
  description: 'What the assistant asks before running a question it did not understand whole (nothing was run or charged)',
  fields: (t) => ({
    message: t.exposeString('message'),
    understood: t.field({ type: SegmentDefinition, description: 'What was understood (editable chips)', resolve: (c) => ({ segment: c.understood, unrecognized: c.notUnderstood }) }),
    notUnderstood: t.stringList({ description: 'Phrases that were not understood', resolve: (c) => c.notUnderstood }),
    issues: t.field({ type: [ClarificationIssueType], resolve: (c) => c.issues }),
    choices: t.field({ type: [ClarificationChoiceType], resolve: (c) => c.choices.map((ch, index) => ({ ...ch, index, unrecognized: c.notUnderstood })) }),
  }),
});

type PayloadSource = QueryOutcome | NotUnderstoodOutcome | ClarificationOutcome;
const notUnderstood = (o: PayloadSource): o is NotUnderstoodOutcome => 'outcome' in o && o.outcome === 'NOT_UNDERSTOOD';
const clarification = (o: PayloadSource): o is ClarificationOutcome => 'outcome' in o && o.outcome === 'CLARIFICATION';

export const RunQueryPayload = builder.objectRef<PayloadSource>('RunQueryPayload').implement({
  fields: (t) => ({
    outcome: t.field({ type: QueryOutcomeKind, resolve: (o) => (notUnderstood(o) ? 'NOT_UNDERSTOOD' : clarification(o) ? 'CLARIFICATION' : 'COMPLETED') }),
    clarification: t.field({
      type: QueryClarificationType,
      nullable: true,
      description: 'When CLARIFICATION: what was understood and what not, the issues, and the choices to run',
      resolve: (o) => (clarification(o) ? o.clarification : null),
    }),
    query: t.prismaField({
      type: 'Query',
      nullable: true,
      description: 'The stored query; null when the question was not understood or needs a clarification (the history and results are unchanged)',
      resolve: (query, o, _a, ctx) => (o.query ? ctx.deps.prisma.query.findUniqueOrThrow({ ...query, where: { id: o.query.id } }) : null),
    }),
    ignoredPhrases: t.stringList({
      description: 'Parts of the question that were not understood (and not applied)',
      resolve: (o) => (notUnderstood(o) || clarification(o) ? o.ignoredPhrases : (o.query?.unrecognized ?? [])),
    }),
    suggestions: t.field({
      type: [SegmentFieldInfo],
      nullable: true,
      description: 'When NOT_UNDERSTOOD: what a question can filter on, with an example each',
      resolve: (o) => (notUnderstood(o) ? [...o.suggestions] : null),
    }),
    removedQueryIds: t.idList({
      description: 'The queries this one pushed out of the history (only the most recent are kept): remove them from the history connection (@deleteEdge)',
      resolve: (o) => ('removedQueryIds' in o ? o.removedQueryIds.map((id) => encodeGlobalID('CustomerQuery', id)) : []),
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
    choice: t.int({ description: "The answer to a clarification: the index of the choice to run (with choiceId)" }),
    choiceId: t.string({ description: "The chosen choice's id, as offered" }),
    asUnderstood: t.boolean({ description: 'The answer to a clarification: run what was understood' }),
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
        choice: input.choice,
        choiceId: input.choiceId,
        asUnderstood: input.asUnderstood,
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

builder.subscriptionField('customerQueryUpdated', (t) =>
  t.field({
    type: CustomerQueryType,
    authScopes: { authenticated: true },
    description:
      "The query once its customers are all stored (resultsState COMPLETE or INCOMPLETE): at once when they already are, else when the background read ends; then the subscription ends",
    args: { id: t.arg.globalID({ required: true, for: CustomerQueryType }) },
    // scope-auth guards resolvers, not subscribe(): check here too.
    subscribe: (_r, { id }, ctx) => {
      const user = requireUser(ctx);
      const events = ctx.deps.events.pubsub.subscribe('customerQueryUpdated', user.id)[Symbol.asyncIterator]();
      async function* updates() {
        try {
          // Listening starts with the first next(), before the state is read: no event falls in between.
          const next = events.next();
          const query = await findOwned((where) => ctx.deps.prisma.query.findFirst({ where, select: { id: true, resultsState: true, updatedAt: true } }), id.id, user, 'Query');
          if (effectiveResultsState(query) !== 'loading') {
            yield { queryId: query.id };
            return;
          }
          for (let e = await next; !e.done; e = await events.next()) {
            if (e.value.queryId === query.id) {
              yield e.value;
              return;
            }
          }
        } finally {
          await events.return?.();
        }
      }
      return updates();
    },
    resolve: (payload, _a, ctx) => ctx.deps.prisma.query.findUniqueOrThrow({ where: { id: payload.queryId } }),
  }),
);
