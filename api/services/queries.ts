// The query pipeline: question (or edited segment) → segment → HubSpot searches → customers, kept in
// the user's history (50 most recent) with the chat messages and the customers it returned.
import { Prisma, type Query, type User } from '@prisma/client';
import { isCrmError } from '../crm/errors.js';
import type { Customer } from '../crm/mapping.js';
import { AppError, asAppError } from '../errors.js';
import {
  buildAssistantMessage,
  buildNotUnderstoodMessage,
  compileToHubSpot,
  explainSegment,
  FIELD_CATALOG,
  segmentSchema,
  type FieldInfo,
  type Segment,
} from '../segmentation/index.js';
import { connectorForUser } from './crm.js';
import type { ServiceDeps } from './deps.js';
import { knownCompaniesFor } from './known-companies.js';
import { parseQuestion } from './nl-parser.js';
import { fetchSegment } from './segment-runner.js';
import { findOwned } from './owned.js';
import { countriesOfRegion } from './regions-filter.js';
import { admitQuota, chargeQuota, publishUsage, type Admission } from './usage.js';

export const HISTORY_LIMIT = 50;
export const MAX_QUESTION_LENGTH = 1000;
/** Customers kept per query (the count is always exact); the table paginates 10 per page. */
export const MAX_STORED_RESULTS = 1000;

export interface QueryOutcome {
  query: Query;
  resultCount: number;
  hasError: boolean;
  message: string;
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
  // the CRM's own company names, when they can be had quickly: "people from Turner Outdoor Group"
  const knownCompanies = await knownCompaniesFor(deps, user);
  const result = await parseQuestion(deps, text, { knownCompanies });
  return { text, segment: result.segment, unrecognized: result.unrecognized ?? [], notes: result.notes ?? [] };
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

export type RunOutcome = (QueryOutcome & { outcome: 'COMPLETED' }) | NotUnderstoodOutcome;

/** Nothing understood: no condition, sort or limit, and something in the question that was not understood. */
export const nothingUnderstood = (u: Pick<Understood, 'segment' | 'unrecognized'>) =>
  !u.segment.where && !u.segment.sort && u.segment.limit === undefined && u.unrecognized.length > 0;

/**
 * Runs a new query from a question (or a segment), unless nothing of the question was understood:
 * then the answer is NOT_UNDERSTOOD, and no quota is used and no query is stored (the result list the
 * user is looking at stays). A partly understood question runs; the reply names the ignored words.
 */
export async function runQuestion(deps: ServiceDeps, user: User, input: { naturalLanguage?: unknown; segment?: unknown }): Promise<RunOutcome> {
  const understood = await understand(deps, user, input);
  if ((input.segment === undefined || input.segment === null) && nothingUnderstood(understood)) {
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
  const compiled = compileToHubSpot(u.segment, opts); // throws SegmentationError → 400, before any quota
  const explanation = explainSegment(u.segment, opts);

  let connector;
  try {
    connector = await connectorForUser(deps, user);
  } catch (err) {
    const known = asAppError(err);
    if (!known || !['CRM_NOT_CONNECTED', 'NOT_SUPPORTED'].includes(known.code)) throw err;
    // Fails before reaching the CRM: kept in history, no quota used.
    return store(deps, user, u, existing, {
      hubspotQuery: compiled,
      hasError: true,
      customers: [],
      total: 0,
      assistant: `I understood: ${explanation}. But I couldn't search your CRM: ${known.message}`,
      charge: null,
    });
  }

  // Turned away here (429) before any CRM call when today's units are spent; the unit itself is taken
  // in the transaction that stores the query, so a crash at any point leaves the counter equal to the
  // charged queries stored (never a unit spent on a query that is not there).
  const admission = await admitQuota(deps, user, 'chat');
  try {
    let fetched;
    try {
      fetched = await fetchSegment(connector, compiled, { limit: MAX_STORED_RESULTS });
    } catch (err) {
      if (!isCrmError(err)) throw err;
      deps.logger.warn({ userId: user.id, code: err.code }, 'CRM search failed');
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
    const outcome = await store(deps, user, u, existing, {
      hubspotQuery: compiled,
      hasError: false,
      customers: fetched.customers,
      total: fetched.total,
      assistant: buildAssistantMessage({ segment: u.segment, count: fetched.total, unrecognized: u.unrecognized, notes: u.notes, ...opts }),
      charge: admission,
    });
    await publishUsage(deps, user);
    return outcome;
  } finally {
    admission.release();
  }
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
  assistant: string;
  /** the admitted unit this query pays for, taken in the same transaction (null: not charged) */
  charge: Admission | null;
}

async function store(deps: ServiceDeps, user: User, u: Understood, existing: Query | null, r: RunResult): Promise<QueryOutcome> {
  const now = deps.now();
  const query = await deps.prisma.$transaction(
    async (tx) => {
      // First, so that a query over the limit (a race another process won) stores nothing.
      if (r.charge) await chargeQuota(tx, r.charge.terms);
      const data = {
        naturalLanguage: u.text,
        segment: u.segment as unknown as Prisma.InputJsonValue,
        unrecognized: u.unrecognized,
        hubspotQuery: r.hubspotQuery as Prisma.InputJsonValue,
        resultCount: r.total,
        hasError: r.hasError,
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
      if (r.customers.length) {
        await upsertCustomers(tx, user.id, r.customers);
        // One statement for the links too (createMany of 1,000 rows costs several times more).
        await tx.$executeRaw`
          INSERT INTO query_results (query_id, customer_id, user_id, position)
          SELECT ${q.id}::uuid, t.id, ${user.id}::uuid, (t.ord - 1)::int
          FROM unnest(${r.customers.map((c) => c.id)}::text[]) WITH ORDINALITY AS t(id, ord)`;
      }
      if (!existing) await trimHistory(tx, user.id);
      // Stop counting the unit as in flight just before it is committed, not after: in between, an
      // admission would count it twice and turn away a question that fits. Counting it too little
      // instead only lets one more through to the charge above, which is exact.
      r.charge?.release();
      return q;
    },
    { timeout: 60_000 },
  );
  return { query, resultCount: r.total, hasError: r.hasError, message: r.assistant };
}

type Tx = Prisma.TransactionClient;

/** One statement for any number of customers (INSERT … SELECT unnest … ON CONFLICT DO UPDATE). */
async function upsertCustomers(tx: Tx, userId: string, customers: Customer[]) {
  const col = <K extends keyof Customer>(k: K) => customers.map((c) => c[k]);
  await tx.$executeRaw`
    INSERT INTO customers (id, user_id, first_name, last_name, email, company, lifecycle_stage, last_purchase_date,
      last_purchase_amount, lifetime_value, city, state, country, created_at, updated_at)
    SELECT t.id, ${userId}::uuid, t.first_name, t.last_name, t.email, t.company, t.lifecycle_stage, t.last_purchase_date,
      t.last_purchase_amount, t.lifetime_value, t.city, t.state, t.country, now(), now()
    FROM unnest(${col('id')}::text[], ${col('firstName')}::text[], ${col('lastName')}::text[], ${col('email')}::text[],
      ${col('company')}::text[], ${col('lifecycleStage')}::text[], ${col('lastPurchaseDate')}::text[],
      ${col('lastPurchaseAmount')}::int[], ${col('lifetimeValue')}::int[], ${col('city')}::text[], ${col('state')}::text[],
      ${col('country')}::text[])
      AS t(id, first_name, last_name, email, company, lifecycle_stage, last_purchase_date, last_purchase_amount,
           lifetime_value, city, state, country)
    ON CONFLICT (id, user_id) DO UPDATE SET
      first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, email = EXCLUDED.email,
      company = EXCLUDED.company, lifecycle_stage = EXCLUDED.lifecycle_stage,
      last_purchase_date = EXCLUDED.last_purchase_date, last_purchase_amount = EXCLUDED.last_purchase_amount,
      lifetime_value = EXCLUDED.lifetime_value, city = EXCLUDED.city, state = EXCLUDED.state,
      country = EXCLUDED.country, updated_at = now()`;
}

/** Keeps the 50 most recent queries; older ones go with their messages, result links and orphaned customers. */
async function trimHistory(tx: Tx, userId: string) {
  const old = await tx.query.findMany({
    where: { userId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip: HISTORY_LIMIT,
    select: { id: true },
  });
  if (!old.length) return;
  await tx.query.deleteMany({ where: { id: { in: old.map((q) => q.id) } } });
  await tx.$executeRaw`
    DELETE FROM customers c WHERE c.user_id = ${userId}::uuid
    AND NOT EXISTS (SELECT 1 FROM query_results r WHERE r.customer_id = c.id AND r.user_id = c.user_id)`;
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

export async function queryCustomers(deps: ServiceDeps, user: User, queryId: string | undefined) {
  const query = queryId ? await getOwnQuery(deps, user, queryId) : await latestQuery(deps, user);
  if (!query) return [];
  const rows = await deps.prisma.queryResult.findMany({ where: { queryId: query.id }, orderBy: { position: 'asc' }, include: { customer: true } });
  return rows.map((r) => r.customer);
}

/** Where-clause over a query's stored results with the table's filters. */
export const resultWhere = (queryId: string, filter: CustomerFilter = {}): Prisma.QueryResultWhereInput => ({
  queryId,
  customer: customerWhere(filter, countriesOfRegion),
});

export interface ResultPageArgs {
  /** Positions strictly after / before these (keyset paging in the stored CRM order). */
  after?: number;
  before?: number;
  limit: number;
  /** Read backwards from the end (for `last`). */
  inverted: boolean;
}

/** One page of a query's stored customers, in the CRM's order, paged by position in the database. */
export async function resultPage(deps: ServiceDeps, queryId: string, filter: CustomerFilter, page: ResultPageArgs) {
  const rows = await deps.prisma.queryResult.findMany({
    where: { ...resultWhere(queryId, filter), position: { gt: page.after, lt: page.before } },
    orderBy: { position: page.inverted ? 'desc' : 'asc' },
    take: page.limit,
    select: { position: true, customer: true },
  });
  return rows;
}

