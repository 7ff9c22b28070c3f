/**
 * The Salesforce connector: segments compiled to SOQL (compile.ts, render.ts) and run over the org's
 * unconverted Leads and its Contacts through jsforce (rest.ts), every call through the shared call
 * policy (retries, deadlines, one session refresh, the account's request pacing shared across
 * processes) and the daily-allocation guard (allocation.ts).
 *
 * Requests per question: the first page of every object's query (and, for a "top N", the page of the
 * records without a value in the sort field) travel in one composite request, which Salesforce counts
 * as one API call; then one call per further page of 2,000 records; plus one call per two-step
 * condition (its aggregate query). Counting is one composite of COUNT() queries.
 */
import { createHash } from 'node:crypto';
import type { Segment } from '../../segmentation/ast.js';
import { compileRecordEvaluator } from '../../segmentation/evaluate.js';
import { CallPolicy } from '../call-policy.js';
import {
  InvalidCursorError, type AccessTokenProvider, type CompileContext, type CrmConnector, type CrmConnectorOptions, type CrmCredentialsInfo,
  type NativeCursor, type ReadOptions, type RecordPage, type VocabularyField,
} from '../connector.js';
import { CrmError } from '../errors.js';
import type { CrmFieldDescription, FieldMap } from '../field-map.js';
import { realClock, searchBucketFor, type LimiterClock, type SearchLimiter } from '../hubspot/rate-limiter.js';
import type { SegmentPlan } from '../plan.js';
import { sortRecords, type CrmRecord } from '../record.js';
import { assertAllocation, recordUsage } from './allocation.js';
import { compileSalesforce, type SalesforceQuery } from './compile.js';
import { DAILY_LIMIT_WAIT_MS, toCrmError } from './errors.js';
import { CATALOG, SALESFORCE_FIELD_MAP, sideOf, type SfObject } from './field-map.js';
import { weekStartOf, type DateContext } from './model/date-literals.js';
import { NOT_PROVIDED } from './model/org.js';
import { soqlString } from './model/soql-text.js';
import { salesforceRecord, selectFields, valueAt } from './records.js';
import { MAX_INLINE_IDS, renderWhere, stepSoql, type RenderEnv } from './render.js';
import { DEFAULT_API_VERSION, MAX_COMPOSITE_QUERIES, SalesforceRest, type QueryPage, type Raw, type UserInfo } from './rest.js';

export interface SalesforceConnectorOptions extends CrmConnectorOptions {
  getAccessToken: AccessTokenProvider;
  /** the org's instance URL (stored with the connection); default `baseUrl` (the sandbox in embedded mode) */
  instanceUrl?: string;
  apiVersion?: string;
  /** share of the daily API allocation left to the org's other integrations (default 0.1) */
  allocationReserve?: number;
  /** the connector's pace, requests per second per org, shared across processes (default 10) */
  requestsPerSecond?: number;
  /** ids a two-step condition inlines at most (default MAX_INLINE_IDS); beyond, a superset is read and filtered */
  maxInlineIds?: number;
  maxAttempts?: number;
  clock?: LimiterClock;
  random?: () => number;
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; error: CrmError }) => void;
}

/** Records per query batch (Salesforce: 200-2,000). */
const MAX_BATCH = 2000;
const MIN_BATCH = 200;
const OBJECTS: readonly SfObject[] = ['Contact', 'Lead'];
/** How long the org's time zone and locale (userinfo) are reused. */
const ORG_CONTEXT_TTL_MS = 10 * 60_000;

interface OrgContext {
  orgId: string;
  userId: string;
  timeZone: string;
  weekStart: number;
  at: number;
}

const orgContexts = new Map<string, OrgContext>();

/** A query stream: one SOQL whose pages are read in order. */
interface Stream {
  object: SfObject;
  soql: string;
}

interface PreparedRun {
  /** WHERE per object: null = every record, 'FALSE' = none */
  where: Record<SfObject, string | null | 'FALSE'>;
  /** the WHERE reads more than the segment: the records must be filtered exactly */
  superset: boolean;
}

export class SalesforceConnector implements CrmConnector {
  readonly crmType = 'salesforce' as const;
  readonly fieldMap: FieldMap;
  readonly instanceUrl: string;
  private readonly version: string;
  private readonly policy: CallPolicy;
  private readonly reserve: number;
  private cached: { token: string; rest: SalesforceRest } | null = null;

  constructor(private readonly options: SalesforceConnectorOptions) {
    const url = options.instanceUrl ?? options.baseUrl;
    if (!url) throw new CrmError('VALIDATION', 'The Salesforce connection has no instance URL. Connect Salesforce again.');
    this.instanceUrl = url.replace(/\/+$/, '');
    this.fieldMap = options.fieldMap ?? SALESFORCE_FIELD_MAP;
    this.version = options.apiVersion ?? DEFAULT_API_VERSION;
    this.reserve = options.allocationReserve ?? 0.1;
    this.policy = new CallPolicy({
      crmName: 'Salesforce',
      toCrmError,
      isExpiredToken: (err) => err.code === 'UNAUTHORIZED' && err.category === 'INVALID_SESSION_ID',
      clock: options.clock ?? realClock,
      random: options.random,
      maxAttempts: options.maxAttempts,
      // Uncapped waits: a spent daily allocation asks for an hour, beyond any call's deadline (no retry).
      maxBackoffMs: DAILY_LIMIT_WAIT_MS,
      baseBackoffMs: options.baseBackoffMs,
      requestTimeoutMs: options.requestTimeoutMs,
      retryDeadlineMs: options.retryDeadlineMs,
      onRetry: options.onRetry,
    });
  }

  /** The org's key for pacing and the allocation: its instance URL (one per org). */
  private get orgKey(): string {
    return `salesforce:${this.instanceUrl}`;
  }

  private limiter(): SearchLimiter {
    const limit = this.options.requestsPerSecond ?? 10;
    return this.options.searchLimiter?.(this.orgKey, limit) ?? searchBucketFor(this.orgKey, { limit, windowMs: 1000 });
  }

  private async rest(forceRefresh: boolean): Promise<SalesforceRest> {
    const token = await this.options.getAccessToken(forceRefresh ? { forceRefresh: true } : undefined);
    if (!token) throw new CrmError('UNAUTHORIZED', 'No Salesforce session is available. Connect Salesforce again.');
    if (this.cached?.token !== token) this.cached = { token, rest: new SalesforceRest(this.instanceUrl, token, this.version) };
    return this.cached.rest;
  }

  /** One REST call under the call policy; `paced` calls count against the org's API allocation. */
  private call<T>(operation: string, send: (rest: SalesforceRest) => Promise<T>, paced = true): Promise<T> {
    return this.policy.run(
      operation,
      ({ forceRefresh }) => this.rest(forceRefresh),
      async (rest) => {
        try {
          return await send(rest);
        } finally {
          const usage = rest.apiUsage;
          if (usage) recordUsage(this.orgKey, usage.used, usage.limit);
        }
      },
      paced ? this.limiter() : null,
    );
  }

  // ------------------------------------------------------------------------------------------------
  // The org's calendar and identity (userinfo: not counted against the allocation)

  /** The connected user's calendar (time zones are per user), cached per instance and session. */
  private async orgContext(): Promise<OrgContext> {
    const token = await this.options.getAccessToken();
    const key = `${this.instanceUrl}|${createHash('sha256').update(String(token)).digest('base64url').slice(0, 22)}`;
    const hit = orgContexts.get(key);
    if (hit && Date.now() - hit.at < ORG_CONTEXT_TTL_MS) return hit;
    const info: UserInfo = await this.call('userinfo', (r) => r.userinfo(), false);
    const ctx: OrgContext = {
      orgId: info.organization_id,
      userId: info.user_id,
      timeZone: validTimeZone(info.zoneinfo) ?? 'UTC',
      weekStart: weekStartOf(info.locale ?? 'en_US'),
      at: Date.now(),
    };
    if (orgContexts.size > 10_000) orgContexts.clear();
    orgContexts.set(key, ctx);
    return ctx;
  }

  /** The org's calendar now (date literals are evaluated by the org when the query runs). */
  private dates(ctx: OrgContext): DateContext {
    return { nowMs: (this.options.clock ?? realClock).now(), timeZone: ctx.timeZone, weekStart: ctx.weekStart, fiscalYearStartMonth: 1 };
  }

  // ------------------------------------------------------------------------------------------------
  // CrmConnector

  compile(segment: Segment, ctx: CompileContext): SegmentPlan<SalesforceQuery> {
    return compileSalesforce(segment, ctx, this.fieldMap);
  }

  countCost(plan: SegmentPlan): number {
    return 1 + (plan.native as SalesforceQuery).steps.length;
  }

  async count(plan: SegmentPlan): Promise<number> {
    const q = this.query(plan);
    assertAllocation(this.orgKey, this.reserve);
    const run = await this.prepare(q);
    if (run.superset) {
      let n = 0;
      for await (const _ of this.read(plan)) n++;
      return n;
    }
    const objects = OBJECTS.filter((o) => run.where[o] !== 'FALSE');
    if (objects.length === 0) return 0;
    const counts = await this.pages(objects.map((o) => ({ object: o, soql: `SELECT COUNT() FROM ${o}${whereClause(o, run.where[o])}` })));
    const total = counts.reduce((s, p) => s + p.totalSize, 0);
    return q.limit !== undefined ? Math.min(total, q.limit) : total;
  }

  async *read(plan: SegmentPlan, options: ReadOptions = {}): AsyncGenerator<CrmRecord> {
    const q = this.query(plan);
    assertAllocation(this.orgKey, this.reserve);
    const run = await this.prepare(q);
    const objects = OBJECTS.filter((o) => run.where[o] !== 'FALSE');
    const cap = Math.min(options.limit ?? Infinity, q.limit ?? Infinity);
    if (objects.length === 0) {
      options.onTotal?.(0);
      return;
    }
    let records: CrmRecord[];
    let total: number;
    const sortPaths = q.sort ? objects.map((o) => this.sortPath(q, o)) : [];
    if (Number.isFinite(cap) && !run.superset && sortPaths.every((p) => p !== undefined)) {
      // A "top N" the org can order itself: per object, the records with a value in the sort field in
      // its order and those without by id (the product's order puts them last, by id), each stream's
      // first N in one composite call; the streams' totals add up to the exact total.
      const streams: Stream[] = [];
      objects.forEach((o, i) => streams.push(...this.orderedStreams(o, run.where[o], q, sortPaths[i] ?? null)));
      const batch = Math.min(MAX_BATCH, Math.max(MIN_BATCH, cap));
      const firsts = await this.pages(streams, batch);
      total = firsts.reduce((s, p) => s + p.totalSize, 0);
      options.onTotal?.(q.limit !== undefined ? Math.min(total, q.limit) : total);
      records = [];
      for (const [i, first] of firsts.entries()) records.push(...(await this.drain(streams[i].object, first, options.signal, cap)));
    } else {
      // Everything the WHERE admits, in id order, page by page; ordered here.
      const streams = objects.map((o) => ({ object: o, soql: this.selectSoql(o, run.where[o], 'ORDER BY Id') }));
      const firsts = await this.pages(streams);
      records = [];
      for (const [i, first] of firsts.entries()) records.push(...(await this.drain(streams[i].object, first, options.signal)));
      if (run.superset && q.where) {
        const keep = compileRecordEvaluator(q.where, { now: new Date(q.at.now), timeZone: q.at.timeZone });
        records = records.filter(keep);
      }
      total = records.length;
      options.onTotal?.(q.limit !== undefined ? Math.min(total, q.limit) : total);
    }
    sortRecords(records, q.sort);
    yield* Number.isFinite(cap) ? records.slice(0, cap) : records;
  }

  /**
   * One page of at most `first` records from `cursor`. A segment in id order (no sort, no limit) pages
   * by id (`Id > last`, both objects in one composite call); a sorted or capped one by position.
   */
  async readPage(plan: SegmentPlan, opts: { first: number; cursor: NativeCursor | null }): Promise<RecordPage> {
    const q = this.query(plan);
    const first = Math.min(MAX_BATCH, Math.max(1, Math.floor(opts.first)));
    const cursor = opts.cursor ?? null;
    const byId = !q.sort && q.limit === undefined;
    if (cursor !== null && !isCursor(cursor, byId ? 'id' : 'position')) throw new InvalidCursorError('not a cursor of this segment');
    if (!byId) {
      const offset = cursor ? (cursor as { offset: number }).offset : 0;
      const all: CrmRecord[] = [];
      for await (const r of this.read(plan, { limit: offset + first })) all.push(r);
      const slice = all.slice(offset);
      const end = offset + slice.length;
      // a full page may be the last: the next one is then empty (a count here would cost more calls)
      const more = slice.length === first && end < (q.limit ?? Infinity);
      return { records: slice.map((record, i) => ({ record, cursor: { by: 'position', offset: offset + i + 1 } })), next: more ? { by: 'position', offset: end } : null };
    }
    assertAllocation(this.orgKey, this.reserve);
    const after = cursor ? (cursor as { after: string }).after : null;
    const run = await this.prepare(q);
    const objects = OBJECTS.filter((o) => run.where[o] !== 'FALSE');
    if (objects.length === 0) return { records: [], next: null };
    const streams = objects.map((o) => {
      const idFloor = after === null ? null : `Id > ${soqlString(after)}`;
      return { object: o, soql: this.selectSoql(o, run.where[o], `ORDER BY Id LIMIT ${first + 1}`, idFloor) };
    });
    const pages = await this.pages(streams, Math.max(MIN_BATCH, first + 1));
    let records = pages.flatMap((p, i) => p.records.map((r) => salesforceRecord(streams[i].object, r, this.fieldMap)));
    records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const more = records.length > first;
    records = records.slice(0, first);
    const last = records.at(-1)?.id ?? after;
    if (run.superset && q.where) {
      const keep = compileRecordEvaluator(q.where, { now: new Date(q.at.now), timeZone: q.at.timeZone });
      records = records.filter(keep);
    }
    return {
      records: records.map((record) => ({ record, cursor: { by: 'id', after: record.id } })),
      next: more && last ? { by: 'id', after: last } : null,
    };
  }

  async describeFields(): Promise<CrmFieldDescription[]> {
    const [lead, contact] = await this.call('describe', (r) =>
      r.composite(OBJECTS.slice().reverse().map((o) => ({ referenceId: o, url: `${r.dataPath}/sobjects/${o}/describe` }))),
    ) as [DescribeResult, DescribeResult];
    const out: CrmFieldDescription[] = [];
    const stageOptions = [...picklistOf(lead, 'Status'), ...picklistOf(contact, this.stagePath('Contact') ?? '')];
    for (const [name, e] of Object.entries(CATALOG)) {
      out.push({
        name,
        label: e.label,
        kind: e.kind,
        description: e.description,
        ...(e.kind === 'stage' && stageOptions.length ? { options: stageOptions } : {}),
        ...(name.startsWith('WonOpportunities.') ? { derived: true } : {}),
      });
    }
    for (const [object, d] of [['Lead', lead], ['Contact', contact]] as const) {
      for (const f of d.fields ?? []) {
        if (f.type === 'address' || f.type === 'id' || f.type === 'reference') continue;
        out.push({
          name: `${object}.${f.name}`,
          label: `${object}: ${f.label}`,
          kind: kindOf(f),
          ...(f.inlineHelpText ? { description: f.inlineHelpText } : {}),
          ...(f.picklistValues?.length ? { options: f.picklistValues.filter((p) => p.active !== false).map((p) => ({ value: p.value, label: p.label ?? p.value })) } : {}),
        });
      }
    }
    return out;
  }

  async listValues(field: VocabularyField, options: { maxRecords?: number } = {}): Promise<string[]> {
    const counts = new Map<string, { value: string; n: number }>();
    const add = (value: unknown, n: number) => {
      if (typeof value !== 'string' || !value.trim() || value.toLowerCase() === NOT_PROVIDED) return;
      const k = value.trim().toLowerCase();
      const e = counts.get(k);
      if (e) e.n += n;
      else counts.set(k, { value: value.trim(), n });
    };
    if (field === 'emailDomain') {
      const per = Math.max(1, Math.floor((options.maxRecords ?? 3000) / 2));
      const streams = OBJECTS.flatMap((o) => {
        const side = sideOf(this.fieldMap, 'email', o);
        return side.kind === 'field' ? [{ object: o, soql: `SELECT ${side.path} FROM ${o} WHERE ${o === 'Lead' ? 'IsConverted = false AND ' : ''}${side.path} != null LIMIT ${per}`, path: side.path }] : [];
      });
      const pages = streams.length ? await this.pages(streams, MAX_BATCH) : [];
      pages.forEach((p, i) => {
        for (const r of p.records) {
          const email = valueAt(r, streams[i].path);
          if (typeof email === 'string' && email.includes('@')) add(email.slice(email.lastIndexOf('@') + 1), 1);
        }
      });
    } else {
      const streams = OBJECTS.flatMap((o) => {
        const side = sideOf(this.fieldMap, field, o);
        if (side.kind !== 'field') return [];
        const where = o === 'Lead' ? ' WHERE IsConverted = false' : '';
        return [{ object: o, soql: `SELECT ${side.path} v, COUNT(Id) n FROM ${o}${where} GROUP BY ${side.path} ORDER BY COUNT(Id) DESC LIMIT 2000`, path: side.path }];
      });
      const pages = streams.length ? await this.pages(streams) : [];
      for (const p of pages) for (const r of p.records) add(r.v, Number(r.n) || 0);
    }
    return [...counts.values()].sort((a, b) => b.n - a.n || a.value.localeCompare(b.value)).map((e) => e.value);
  }

  async verifyCredentials(): Promise<CrmCredentialsInfo> {
    const ctx = await this.orgContext();
    const [org, limits] = (await this.call('verifyCredentials', (r) =>
      r.composite([
        { referenceId: 'org', url: r.queryUrl('SELECT Name FROM Organization') },
        { referenceId: 'limits', url: `${r.dataPath}/limits` },
      ]),
    )) as [QueryPage, { DailyApiRequests?: { Max: number; Remaining: number } }];
    const daily = limits?.DailyApiRequests;
    if (daily) recordUsage(this.orgKey, daily.Max - daily.Remaining, daily.Max);
    const name = org?.records?.[0]?.Name;
    return { accountId: ctx.orgId, scopes: ['api'], tokenType: 'oauth', ...(typeof name === 'string' ? { accountName: name } : {}) };
  }

  // ------------------------------------------------------------------------------------------------
  // internals

  private query(plan: SegmentPlan): SalesforceQuery {
    const q = plan.native as SalesforceQuery;
    if (plan.crmType !== 'salesforce' || !q || q.v !== 1) throw new CrmError('VALIDATION', 'This segment was made for another CRM. Ask the question again.');
    return q;
  }

  /** The org's calendar, the two-step id sets, and the WHERE of each object. */
  private async prepare(q: SalesforceQuery): Promise<PreparedRun> {
    const ctx = await this.orgContext();
    const dates = this.dates(ctx);
    const ids = await this.runSteps(q, dates);
    const dateTypes = new Map<string, 'date' | 'datetime'>();
    const env: RenderEnv = {
      dates,
      ids: (i) => (ids[i].length > (this.options.maxInlineIds ?? MAX_INLINE_IDS) ? null : ids[i]),
      dateType: (object, path) => dateTypes.get(`${object}.${path}`) ?? (path.endsWith('Date') && !path.endsWith('__c') ? 'datetime' : 'date'),
    };
    const where = {} as PreparedRun['where'];
    let superset = false;
    for (const o of OBJECTS) {
      const tree = q.objects[o];
      if (!tree) {
        where[o] = 'FALSE';
        continue;
      }
      const r = renderWhere(o, tree, env);
      where[o] = r.soql;
      superset ||= r.superset;
    }
    return { where, superset };
  }

  /** Runs each two-step condition's aggregate query: the first pages together, then page by page. */
  private async runSteps(q: SalesforceQuery, dates: DateContext): Promise<string[][]> {
    if (q.steps.length === 0) return [];
    const pageSize = 2000;
    const out: string[][] = q.steps.map(() => []);
    let pending = q.steps.map((step, i) => ({ i, step, after: null as string | null }));
    while (pending.length) {
      const batch = pending.slice(0, MAX_COMPOSITE_QUERIES);
      const pages = await this.call('twoStep', (r) =>
        batch.length === 1
          ? r.query(stepSoql(batch[0].step, dates, batch[0].after, pageSize)).then((p) => [p])
          : r.queries(batch.map((b) => ({ referenceId: `s${b.i}`, soql: stepSoql(b.step, dates, b.after, pageSize) }))),
      );
      const next: typeof pending = pending.slice(MAX_COMPOSITE_QUERIES);
      batch.forEach((b, k) => {
        const ids = pages[k].records.map((r) => String(r.ContactId));
        out[b.i].push(...ids);
        if (ids.length === pageSize) next.push({ ...b, after: ids[ids.length - 1] });
      });
      pending = next;
    }
    return out;
  }

  /** The first page of each stream: one query alone, several in composite calls of five. */
  private async pages(streams: Stream[], batchSize?: number): Promise<QueryPage[]> {
    const out: QueryPage[] = [];
    for (let i = 0; i < streams.length; i += MAX_COMPOSITE_QUERIES) {
      const part = streams.slice(i, i + MAX_COMPOSITE_QUERIES);
      const pages = await this.call('query', (r) =>
        part.length === 1 ? r.query(part[0].soql, batchSize).then((p) => [p]) : r.queries(part.map((s, k) => ({ referenceId: `q${i + k}`, soql: s.soql, batchSize }))),
      );
      out.push(...pages);
    }
    return out;
  }

  /** A stream's records from its first page on, following nextRecordsUrl (up to `cap`). */
  private async drain(object: SfObject, first: QueryPage, signal?: AbortSignal, cap = Infinity): Promise<CrmRecord[]> {
    const out: CrmRecord[] = [];
    let page: QueryPage = first;
    for (;;) {
      for (const r of page.records) out.push(salesforceRecord(object, r as Raw, this.fieldMap));
      if (page.done || !page.nextRecordsUrl || out.length >= cap) return out;
      signal?.throwIfAborted();
      const url = page.nextRecordsUrl;
      page = await this.call('queryMore', (r) => r.queryMore(url));
    }
  }

  private selectSoql(object: SfObject, where: string | null | 'FALSE', tail: string, extra: string | null = null): string {
    return `SELECT ${selectFields(this.fieldMap, object).join(', ')} FROM ${object}${whereClause(object, where, extra)} ${tail}`;
  }

  /** The sort field's path on an object, when the org can order by it (undefined: it cannot; null: no such field there). */
  private sortPath(q: SalesforceQuery, object: SfObject): string | null | undefined {
    if (!q.sort) return null;
    const f = q.sort.field;
    const side = sideOf(this.fieldMap, f, object);
    if (side.kind === 'none') return null;
    if (side.kind === 'derived') return undefined;
    return side.path;
  }

  /**
   * A "top N" stream pair for one object: records with a value in the sort field, in the product's
   * order (the value, then id, in the sort's direction), and records without one, by id ascending.
   */
  private orderedStreams(object: SfObject, where: string | null | 'FALSE', q: SalesforceQuery, path: string | null): Stream[] {
    if (!q.sort || path === null) return [{ object, soql: this.selectSoql(object, where, 'ORDER BY Id') }];
    const dir = q.sort.direction === 'desc' ? 'DESC' : 'ASC';
    const side = sideOf(this.fieldMap, q.sort.field, object);
    const empty = side.kind === 'field' && side.notProvided ? `(${path} = null OR ${path} = ${soqlString(NOT_PROVIDED)})` : `${path} = null`;
    const present = side.kind === 'field' && side.notProvided ? `${path} != null AND ${path} != ${soqlString(NOT_PROVIDED)}` : `${path} != null`;
    return [
      { object, soql: this.selectSoql(object, where, `ORDER BY ${path} ${dir}, Id ${dir}`, present) },
      { object, soql: this.selectSoql(object, where, 'ORDER BY Id', empty) },
    ];
  }

  private stagePath(object: SfObject): string | null {
    const side = sideOf(this.fieldMap, 'lifecycleStage', object);
    return side.kind === 'field' ? side.path : null;
  }
}

function whereClause(object: SfObject, where: string | null | 'FALSE', extra: string | null = null): string {
  const parts = [object === 'Lead' ? 'IsConverted = false' : null, where === null || where === 'FALSE' ? null : `(${where})`, extra].filter(Boolean);
  return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
}

function isCursor(c: unknown, by: 'id' | 'position'): boolean {
  if (!c || typeof c !== 'object') return false;
  const o = c as Record<string, unknown>;
  if (o.by !== by) return false;
  return by === 'id' ? typeof o.after === 'string' && /^[A-Za-z0-9]{15,18}$/.test(o.after) : Number.isInteger(o.offset) && (o.offset as number) >= 0;
}

function validTimeZone(tz: string | undefined): string | null {
  if (!tz) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return null;
  }
}

interface DescribeField {
  name: string;
  label: string;
  type: string;
  inlineHelpText?: string | null;
  picklistValues?: { value: string; label?: string; active?: boolean }[];
}
interface DescribeResult {
  fields?: DescribeField[];
}

function picklistOf(d: DescribeResult, name: string): { value: string; label: string }[] {
  const f = d.fields?.find((x) => x.name === name);
  return (f?.picklistValues ?? []).filter((p) => p.active !== false).map((p) => ({ value: p.value, label: p.label ?? p.value }));
}

function kindOf(f: DescribeField): CrmFieldDescription['kind'] {
  switch (f.type) {
    case 'currency': case 'double': case 'int': case 'percent': case 'long': return 'number';
    case 'date': case 'datetime': return 'date';
    case 'picklist': return /stage|status/i.test(`${f.name} ${f.label}`) ? 'stage' : 'text';
    case 'string': case 'email': case 'phone': case 'url': case 'textarea': case 'combobox': return 'text';
    default: return 'other';
  }
}

/** Resets what the connector caches per org (tests). */
export function resetSalesforceCaches(): void {
  orgContexts.clear();
}

