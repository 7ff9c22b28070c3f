// The query pipeline: question (or edited segment) → segment → HubSpot searches → customers, kept in
// the user's history (50 most recent) with the chat messages and the customers it returned.
import { createHash } from 'node:crypto';
import { Prisma, type Query, type User } from '@prisma/client';
import type { CrmConnector, SegmentPlan } from '../crm/connector.js';
import { isCrmError } from '../crm/errors.js';
import { crmLabel } from '../crm/registry.js';
import type { Customer } from '../crm/mapping.js';
import { AppError, asAppError } from '../errors.js';
import {
  buildAssistantMessage,
  buildNotUnderstoodMessage,
  clarificationFor,
  explainSegment,
  FIELD_CATALOG,
  segmentSchema,
  type Clarification,
  type FieldInfo,
  type Segment,
} from '../segmentation/index.js';
import { connectorForUser } from './crm.js';
import type { ServiceDeps } from './deps.js';
import { crmVocabularyFor } from './crm-vocabulary.js';
import { parseQuestion } from './nl-parser.js';
import { storeRestInBackground, stopBackground, storeResults, waitForStoredResults, type ResultsState } from './query-results.js';
import { streamSegment, type StreamedSegment } from './segment-runner.js';
import { findOwned } from './owned.js';
import { countriesOfRegion } from './regions-filter.js';
import { admitQuota, chargeQuota, publishUsage, refundCharge, type Admission } from './usage.js';

export const HISTORY_LIMIT = 50;
export const MAX_QUESTION_LENGTH = 1000;
/** Customers kept per query (the count is always exact); the table paginates 10 per page. */
export const MAX_STORED_RESULTS = 1000;
/**
 * A question is answered once this many customers (the table's first page) and the exact total are in,
 * with whatever else the CRM had already sent (its first answer); the rest is stored in the background.
 * (One more is awaited: the page then knows whether there is a next one.)
 */
export const FIRST_PAGE_ROWS = 10;

export interface QueryOutcome {
  query: Query;
  resultCount: number;
  hasError: boolean;
  message: string;
  /** queries this one pushed out of the history (HISTORY_LIMIT) */
  removedQueryIds: string[];
}

export function validateQuestion(raw: unknown): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) throw new AppError('BAD_USER_INPUT', 'Please type a question about your customers', { field: 'naturalLanguage' });
  if (text.length > MAX_QUESTION_LENGTH) {
    throw new AppError('BAD_USER_INPUT', `Your question is too long: ${text.length} characters, at most ${MAX_QUESTION_LENGTH.toLocaleString('en-US')} are allowed`, {
      field: 'naturalLanguage',
    });
  }
  return text;
}

function parseOptions(deps: ServiceDeps) {
  return { now: deps.now(), timeZone: deps.config.usageTimeZone };
}

interface Understood {
  text: string;
  segment: Segment;
  unrecognized: string[];
  notes: string[];
  /** a question not understood whole: what to ask before running anything (segmentation/clarify.ts) */
  clarification?: Clarification;
}

/** Text → segment, or a user-edited segment (validated). Nothing here touches quota or the CRM. */
async function understand(deps: ServiceDeps, user: User, input: { naturalLanguage?: unknown; segment?: unknown }): Promise<Understood> {
  if (input.segment !== undefined && input.segment !== null) {
    const parsed = segmentSchema.safeParse(input.segment);
    if (!parsed.success) {
      throw new AppError('BAD_USER_INPUT', `The segment is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}`, { field: 'segment' });
    }
    const text =
      typeof input.naturalLanguage === 'string' && input.naturalLanguage.trim()
        ? validateQuestion(input.naturalLanguage)
        : explainSegment(parsed.data, parseOptions(deps)).slice(0, MAX_QUESTION_LENGTH);
    return { text, segment: parsed.data, unrecognized: [], notes: [] };
  }
  const text = validateQuestion(input.naturalLanguage);
  // the values the CRM holds, when they can be had quickly: "people from Turner Outdoor Group", "zurich"
  const vocabulary = await crmVocabularyFor(deps, user);
  const result = await parseQuestion(deps, text, { vocabulary });
  return {
    text,
    segment: result.segment,
    unrecognized: result.unrecognized ?? [],
    notes: result.notes ?? [],
    clarification: clarificationFor(result, parseOptions(deps)),
  };
}

/** Runs a new query for the user. */
export async function createQuery(deps: ServiceDeps, user: User, input: { naturalLanguage?: unknown; segment?: unknown }): Promise<QueryOutcome> {
  const understood = await understand(deps, user, input);
  return execute(deps, user, understood, null);
}

/**
 * A question none of which was understood: nothing is run, stored or charged, and the reply says what
 * was not understood and what the product can filter on (each field with an example question).
 */
export interface NotUnderstoodOutcome {
  outcome: 'NOT_UNDERSTOOD';
  query: null;
  resultCount: 0;
  hasError: false;
  message: string;
  ignoredPhrases: string[];
  suggestions: readonly FieldInfo[];
}

/**
 * A question understood only in part, or that contradicts itself, or that needed a choice between readings
 * (issue 23): nothing is run, stored or charged; the reply says what was understood and what was not, and
 * offers one-click choices (each a whole segment; the last "search with what I understood"). Picking one runs
 * the question again with `choice` (its index) and `choiceId` (its id, so a choice that changed meanwhile is
 * refused rather than run), or with `asUnderstood`.
 */
export interface ClarificationOutcome {
  outcome: 'CLARIFICATION';
  query: null;
  resultCount: 0;
  hasError: false;
  message: string;
  ignoredPhrases: string[];
  clarification: OfferedClarification;
}

/** A clarification as offered to the user: each choice with its id. */
export type OfferedClarification = Omit<Clarification, 'choices'> & { choices: Array<Clarification['choices'][number] & { id: string }> };

export type RunOutcome = (QueryOutcome & { outcome: 'COMPLETED' }) | NotUnderstoodOutcome | ClarificationOutcome;

/** How the user answers a clarification: a choice by index (with its id) or the question as understood. */
export interface ClarificationAnswer {
  choice?: number | null;
  choiceId?: string | null;
  asUnderstood?: boolean | null;
}

/** A choice's id: the hash of its segment, so that a pick is run only as it was offered. */
export function choiceId(segment: Segment): string {
  return createHash('sha256').update(JSON.stringify(segment)).digest('hex').slice(0, 12);
}

function withIds(c: Clarification): OfferedClarification {
  return { ...c, choices: c.choices.map((ch) => ({ ...ch, id: choiceId(ch.segment) })) };
}

/** Nothing understood: no condition, sort or limit, and something in the question that was not understood. */
export const nothingUnderstood = (u: Pick<Understood, 'segment' | 'unrecognized'>) =>
  !u.segment.where && !u.segment.sort && u.segment.limit === undefined && u.unrecognized.length > 0;

/**
 * Runs a new query from a question (or a segment). A question understood whole runs at once. One that was
 * not (words left unused, a contradiction, a reading chosen between: segmentation/clarify.ts) is answered
 * CLARIFICATION, and one none of which was understood NOT_UNDERSTOOD: then no quota is used and no query is
 * stored (the result list the user is looking at stays) until the user picks a choice (`answer.choice`) or
 * runs the question as understood (`answer.asUnderstood`); a segment given with the question runs as given.
 */
export async function runQuestion(
  deps: ServiceDeps,
  user: User,
  input: { naturalLanguage?: unknown; segment?: unknown } & ClarificationAnswer,
): Promise<RunOutcome> {
  const understood = await understand(deps, user, input);
  const parsed = input.segment === undefined || input.segment === null;
  const answered = input.asUnderstood === true || (input.choice !== undefined && input.choice !== null);
  if (parsed && understood.clarification && answered) {
    const picked = pickChoice(understood.clarification, input);
    return { outcome: 'COMPLETED', ...(await execute(deps, user, { ...understood, segment: picked.segment, notes: [...understood.notes, ...picked.notes] }, null)) };
  }
  if (parsed && understood.clarification && !(nothingUnderstood(understood) && understood.clarification.choices.length === 0)) {
    const clarification = withIds(understood.clarification);
    return { outcome: 'CLARIFICATION', query: null, resultCount: 0, hasError: false, message: clarification.message, ignoredPhrases: understood.unrecognized, clarification };
  }
  if (parsed && nothingUnderstood(understood)) {
    return {
      outcome: 'NOT_UNDERSTOOD',
      query: null,
      resultCount: 0,
      hasError: false,
      message: buildNotUnderstoodMessage(understood.unrecognized, FIELD_CATALOG),
      ignoredPhrases: understood.unrecognized,
      suggestions: FIELD_CATALOG,
    };
  }
  return { outcome: 'COMPLETED', ...(await execute(deps, user, understood, null)) };
}

/** The segment of the answer to a clarification, or BAD_USER_INPUT when it does not fit the choices offered. */
function pickChoice(c: Clarification, answer: ClarificationAnswer): { segment: Segment; notes: string[] } {
  const choices = withIds(c).choices;
  if (answer.asUnderstood) {
    const own = choices.find((ch) => ch.asUnderstood);
    if (!own) throw new AppError('BAD_USER_INPUT', 'Nothing of the question was understood, so it cannot run as understood: pick a choice or rephrase it', { field: 'asUnderstood' });
    return { segment: own.segment, notes: [] };
  }
  const i = answer.choice as number;
  const choice = Number.isInteger(i) ? choices[i] : undefined;
  if (!choice) throw new AppError('BAD_USER_INPUT', `There is no choice ${i} for this question (${choices.length} offered)`, { field: 'choice' });
  if (answer.choiceId && answer.choiceId !== choice.id) {
    throw new AppError('BAD_USER_INPUT', 'The choices for this question have changed since they were offered: ask it again', { field: 'choiceId' });
  }
  return { segment: choice.segment, notes: choice.asUnderstood ? [] : [`You chose: ${choice.label}.`] };
}

/** Re-runs a stored query (its stored, possibly edited, segment), updating its results. */
export async function rerunQuery(deps: ServiceDeps, user: User, queryId: string, input: { segment?: unknown } = {}): Promise<QueryOutcome> {
  const existing = await getOwnQuery(deps, user, queryId);
  const understood =
    input.segment !== undefined
      ? await understand(deps, user, { naturalLanguage: existing.naturalLanguage, segment: input.segment })
      : existing.segment
        ? { text: existing.naturalLanguage, segment: segmentSchema.parse(existing.segment), unrecognized: existing.unrecognized, notes: [] }
        : await understand(deps, user, { naturalLanguage: existing.naturalLanguage });
  return execute(deps, user, understood, existing);
}

export function getOwnQuery(deps: ServiceDeps, user: Pick<User, 'id'>, queryId: string): Promise<Query> {
  return findOwned((where) => deps.prisma.query.findFirst({ where }), queryId, user, 'Query');
}

async function execute(deps: ServiceDeps, user: User, u: Understood, existing: Query | null): Promise<QueryOutcome> {
  const opts = parseOptions(deps);
  const explanation = explainSegment(u.segment, opts);

  let connector;
  try {
    connector = await connectorForUser(deps, user);
  } catch (err) {
    const known = asAppError(err);
    if (!known || !['CRM_NOT_CONNECTED', 'NOT_SUPPORTED'].includes(known.code)) throw err;
    // Fails before reaching the CRM: kept in history, no quota used.
    return store(deps, user, u, existing, {
      hubspotQuery: null,
      hasError: true,
      customers: [],
      total: 0,
      assistant: `I understood: ${explanation}. But I couldn't search your CRM: ${known.message}`,
      charge: null,
    });
  }

  const compiled = connector.compile(u.segment, opts); // throws SegmentationError → 400, before any quota

  // Turned away here (429) before any CRM call when today's units are spent; the unit itself is taken
  // in the transaction that stores the query, so a crash at any point leaves the counter equal to the
  // charged queries stored (never a unit spent on a query that is not there).
  const admission = await admitQuota(deps, user, 'chat');
  // Aborts the CRM read of the rows after the first page (a failed store, a re-run, shutdown).
  const controller = new AbortController();
  let backgrounded = false;
  try {
    let fetched: StreamedSegment;
    try {
      fetched = await streamSegment(connector, compiled, opts, { limit: MAX_STORED_RESULTS, firstRows: FIRST_PAGE_ROWS + 1, signal: controller.signal });
    } catch (err) {
      if (!isCrmError(err)) throw err;
      // A request the CRM refused as malformed is the product's bug: its answer goes to the log (never to the user).
      deps.logger.warn({ userId: user.id, code: err.code, status: err.status, category: err.category, ...(err.code === 'VALIDATION' ? { crmAnswer: err.details } : {}) }, 'CRM search failed');
      // The CRM did not answer (after retries): stored with hasError, no customers, not charged.
      return await store(deps, user, u, existing, {
        hubspotQuery: compiled,
        hasError: true,
        customers: [],
        total: 0,
        assistant: crmIssueMessage(explanation, asAppError(err)!.message),
        charge: null,
      });
    }
    // When more follows, the answer stores only the table's first page (and one more): the rest of what the
    // CRM sent goes first into the background, which keeps the answer's transaction small.
    const answered = fetched.rest ? fetched.first.slice(0, FIRST_PAGE_ROWS + 1) : fetched.first;
    const outcome = await store(deps, user, u, existing, {
      hubspotQuery: compiled,
      hasError: false,
      customers: answered,
      total: fetched.total,
      resultsState: fetched.rest ? 'loading' : 'complete',
      assistant: buildAssistantMessage({ segment: u.segment, count: fetched.total, unrecognized: u.unrecognized, notes: [...u.notes, ...residualNotes(connector, compiled, opts)], ...opts }),
      charge: admission,
    });
    if (fetched.rest) {
      const queryId = outcome.query.id;
      storeRestInBackground(deps, {
        userId: user.id,
        queryId,
        position: answered.length,
        rest: withHead(fetched.first.slice(answered.length), fetched.rest),
        controller,
        onFailed: (err) => failAfterFirstPage(deps, user, queryId, err, explanation, admission),
      });
      backgrounded = true;
    }
    // after the commit, not before the answer: subscribers hear of the unit while the answer is on its way
    publishUsage(deps, user).catch((err) => deps.logger.warn({ userId: user.id, err: err instanceof Error ? err.message : String(err) }, 'usage not published'));
    return outcome;
  } finally {
    if (!backgrounded) controller.abort();
    admission.release();
  }
}

/**
 * The chunks of `rest`, the first one with `head` before it: what the CRM's first answer held beyond the
 * answered rows is stored with its second answer, not while the first is being sent to the user.
 */
async function* withHead<T>(head: T[], rest: AsyncIterable<T[]>): AsyncGenerator<T[]> {
  let pending = head;
  for await (const chunk of rest) {
    yield pending.length ? [...pending, ...chunk] : chunk;
    pending = [];
  }
  if (pending.length) yield pending;
}

/**
 * The CRM failed (after the connector's retries) while the rest of an answered question was read: the
 * query becomes what such a failure makes of it at once (hasError, no customers, the answer says why)
 * and its unit is given back, so the quota rule is the same whenever the CRM fails.
 */
async function failAfterFirstPage(deps: ServiceDeps, user: User, queryId: string, err: unknown, explanation: string, admission: Admission): Promise<boolean> {
  const known = isCrmError(err) ? asAppError(err) : null;
  deps.logger.warn(
    { userId: user.id, queryId, ...(isCrmError(err) ? { code: err.code, status: err.status, category: err.category } : { err: err instanceof Error ? err.message : String(err) }) },
    'CRM search failed after the first page',
  );
  const failed = await deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.query.updateMany({ where: { id: queryId, resultsState: 'loading' }, data: { hasError: true, resultCount: 0, resultsState: 'complete' } });
    if (!count) return false;
    await tx.queryResult.deleteMany({ where: { queryId } });
    const answer = await tx.chatMessage.findFirst({ where: { queryId, role: 'assistant' }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true } });
    const reason = known?.message ?? 'the CRM stopped answering';
    if (answer) await tx.chatMessage.update({ where: { id: answer.id }, data: { content: crmIssueMessage(explanation, reason) } });
    await refundCharge(tx, admission.terms);
    return true;
  });
  if (failed) await publishUsage(deps, user);
  return failed;
}

/** Says which conditions the product checked itself because the CRM cannot filter on them. */
function residualNotes(connector: CrmConnector, plan: SegmentPlan, opts: { now: Date; timeZone: string }): string[] {
  if (!plan.residual) return [];
  const what = explainSegment({ version: 1, where: plan.residual }, opts).replace(/^Customers · /, '');
  return [`${crmLabel(connector.crmType)} cannot filter on part of this, so CRM Assistant checked it on the contacts ${crmLabel(connector.crmType)} returned: ${what}.`];
}

/**
 * The stored and returned answer of a query whose CRM search failed (after the connector's retries):
 * says that it completed with issues and why, and that nothing was kept or charged.
 */
export function crmIssueMessage(explanation: string, reason: string): string {
  return `I understood: ${explanation}. The search completed with issues: ${reason.replace(/\.$/, '')}. No customers were kept from it and it did not count against your daily queries; please try again in a moment.`;
}

interface RunResult {
  hubspotQuery: unknown;
  hasError: boolean;
  customers: Customer[];
  total: number;
  /** 'loading' when `customers` is the first page and the rest follows in the background */
  resultsState?: ResultsState;
  assistant: string;
  /** the admitted unit this query pays for, taken in the same transaction (null: not charged) */
  charge: Admission | null;
}

async function store(deps: ServiceDeps, user: User, u: Understood, existing: Query | null, r: RunResult): Promise<QueryOutcome> {
  const now = deps.now();
  // A re-run replaces the results: the previous run's background read stops first.
  if (existing) await stopBackground(existing.id);
  let removedQueryIds: string[] = [];
  const query = await deps.prisma.$transaction(
    async (tx) => {
      // First, so that a query over the limit (a race another process won) stores nothing.
      if (r.charge) await chargeQuota(tx, r.charge.terms);
      const data = {
        naturalLanguage: u.text,
        segment: u.segment as unknown as Prisma.InputJsonValue,
        unrecognized: u.unrecognized,
        hubspotQuery: r.hubspotQuery === null ? Prisma.DbNull : (r.hubspotQuery as Prisma.InputJsonValue),
        resultCount: r.total,
        hasError: r.hasError,
        resultsState: r.resultsState ?? 'complete',
      };
      const q = existing
        ? await tx.query.update({ where: { id: existing.id }, data })
        : await tx.query.create({ data: { ...data, userId: user.id, createdAt: now } });
      if (existing) {
        await tx.queryResult.deleteMany({ where: { queryId: q.id } });
      }
      await tx.chatMessage.createMany({
        data: [
          ...(existing ? [] : [{ userId: user.id, queryId: q.id, role: 'user', content: u.text, createdAt: now }]),
          { userId: user.id, queryId: q.id, role: 'assistant', content: r.assistant, createdAt: new Date(now.getTime() + 1) },
        ],
      });
      await storeResults(tx, user.id, q.id, r.customers, 0);
      if (!existing) removedQueryIds = await trimHistory(tx, user.id);
      // Stop counting the unit as in flight just before it is committed, not after: in between, an
      // admission would count it twice and turn away a question that fits. Counting it too little
      // instead only lets one more through to the charge above, which is exact.
      r.charge?.release();
      return q;
    },
    { timeout: 60_000 },
  );
  for (const id of removedQueryIds) await stopBackground(id);
  return { query, resultCount: r.total, hasError: r.hasError, message: r.assistant, removedQueryIds };
}

type Tx = Prisma.TransactionClient;

/** Keeps the 50 most recent queries; older ones go with their messages, result links and orphaned customers (none a Smart Segment shows). */
async function trimHistory(tx: Tx, userId: string): Promise<string[]> {
  const old = await tx.query.findMany({
    where: { userId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip: HISTORY_LIMIT,
    select: { id: true },
  });
  if (!old.length) return [];
  await tx.query.deleteMany({ where: { id: { in: old.map((q) => q.id) } } });
  await tx.$executeRaw`
    DELETE FROM customers c WHERE c.user_id = ${userId}::uuid
    AND NOT EXISTS (SELECT 1 FROM query_results r WHERE r.customer_id = c.id AND r.user_id = c.user_id)
    AND NOT EXISTS (SELECT 1 FROM smart_segment_results r WHERE r.customer_id = c.id AND r.user_id = c.user_id)`;
  return old.map((q) => q.id);
}

/** The user's history, newest first (list arguments for GraphQL and REST alike). */
export function historyListArgs(user: Pick<User, 'id'>) {
  return {
    where: { userId: user.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  } satisfies Prisma.QueryFindManyArgs;
}

export async function listQueries(deps: ServiceDeps, user: User): Promise<Query[]> {
  return deps.prisma.query.findMany({ ...historyListArgs(user), take: HISTORY_LIMIT });
}

/** A query's chat messages in order (list arguments for the relation and for REST). */
export const messageListArgs = { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } satisfies Prisma.ChatMessageFindManyArgs;

export async function listMessages(deps: ServiceDeps, user: User, queryId: string) {
  await getOwnQuery(deps, user, queryId);
  return deps.prisma.chatMessage.findMany({ where: { queryId, userId: user.id }, ...messageListArgs });
}

export interface CustomerFilter {
  lifecycle?: string | null;
  region?: string | null;
  search?: string | null;
}

/** Where-clause over a query's results, done in the database (lifecycle, region, free text). */
export function customerWhere(filter: CustomerFilter, regionCountries: (region: string) => string[] | null): Prisma.CustomerWhereInput {
  const and: Prisma.CustomerWhereInput[] = [];
  if (filter.lifecycle && filter.lifecycle !== 'all') and.push({ lifecycleStage: filter.lifecycle });
  if (filter.region && filter.region !== 'all') {
    const countries = regionCountries(filter.region);
    if (!countries) throw new AppError('BAD_USER_INPUT', `Unknown region "${filter.region}"`, { field: 'region' });
    and.push({ country: { in: countries, mode: 'insensitive' } });
  }
  const q = filter.search?.trim();
  if (q) {
    and.push({
      OR: (['firstName', 'lastName', 'email', 'company'] as const).map((f) => ({ [f]: { contains: q, mode: 'insensitive' } })),
    });
  }
  return and.length ? { AND: and } : {};
}

/** The latest query of the user (the one the results panel shows by default). */
export async function latestQuery(deps: ServiceDeps, user: User): Promise<Query | null> {
  return deps.prisma.query.findFirst({ where: { userId: user.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/** Every stored customer of a query (default: the latest), waiting for the rows still being stored. */
export async function queryCustomers(deps: ServiceDeps, user: User, queryId: string | undefined) {
  const query = queryId ? await getOwnQuery(deps, user, queryId) : await latestQuery(deps, user);
  if (!query) return [];
  await waitForStoredResults(deps, query);
  const rows = await deps.prisma.queryResult.findMany({ where: { queryId: query.id }, orderBy: { position: 'asc' }, include: { customer: true } });
  return rows.map((r) => r.customer);
}

/** Where-clause over a query's stored results with the table's filters. */
export const resultWhere = (queryId: string, filter: CustomerFilter = {}): Prisma.QueryResultWhereInput => ({
  queryId,
  customer: customerWhere(filter, countriesOfRegion),
});

/** The columns of the results table a user can sort by (on the server, over every stored row). */
export const RESULT_SORT_FIELDS = ['name', 'email', 'company', 'lifecycleStage', 'location', 'lifetimeValue', 'lastPurchaseDate'] as const;
export type ResultSortField = (typeof RESULT_SORT_FIELDS)[number];
export interface ResultOrder {
  field: ResultSortField;
  direction: 'asc' | 'desc';
}

const SORT_COLUMNS: Record<ResultSortField, (keyof Prisma.CustomerOrderByWithRelationInput)[]> = {
  name: ['lastName', 'firstName'],
  email: ['email'],
  company: ['company'],
  lifecycleStage: ['lifecycleStage'],
  location: ['country', 'state', 'city'],
  lifetimeValue: ['lifetimeValue'],
  lastPurchaseDate: ['lastPurchaseDate'],
};

/**
 * The order of a results page: the column's values in the direction asked (empty values last either
 * way), ties in the CRM's order; without a sort, the CRM's order.
 */
export function resultOrderBy(order: ResultOrder | null | undefined): Prisma.QueryResultOrderByWithRelationInput[] {
  const columns = order ? SORT_COLUMNS[order.field] : [];
  return [
    ...columns.map((column) => ({ customer: { [column]: column === 'lifecycleStage' ? order!.direction : { sort: order!.direction, nulls: 'last' as const } } })),
    { position: 'asc' as const },
  ];
}

export interface ResultPageArgs {
  /** 0-based place of the first row in the page's order */
  offset: number;
  limit: number;
  order?: ResultOrder | null;
}

/** One page of a query's stored customers with the table's filters, in the CRM's order or a column's. */
export async function resultPage(deps: ServiceDeps, queryId: string, filter: CustomerFilter, page: ResultPageArgs) {
  return deps.prisma.queryResult.findMany({
    where: resultWhere(queryId, filter),
    orderBy: resultOrderBy(page.order),
    skip: page.offset,
    take: page.limit,
    select: { position: true, customer: true },
  });
}

