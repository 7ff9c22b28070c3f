/**
 * Pipedrive implementation of the CRM connector, on the official `pipedrive` client (v1 and v2).
 *
 * A plan (compile.ts) runs as two filtered reads:
 *  1. the persons of a people filter (`/v1/filters`, created, reused when identical and cleaned up by
 *     filters.ts) listed with `GET /api/v2/persons?filter_id=…` (500 per page, cursor paging);
 *  2. their won deals — purchases — listed through a deals filter (status won, and the people filter's
 *     person conditions, so only the matching people's deals come back), and the names of their
 *     organizations (`GET /api/v2/organizations?ids=…`, 100 per call).
 * Each person becomes a neutral record through the connection's field map (the last won deal is the
 * last purchase; the deals' values sum to the lifetime value), the conditions the filter only
 * approximates are checked exactly, and the records are ordered and capped. Pipedrive has no count of a
 * filter's persons, so an exact count reads the filter's persons (one request per 500); a plan's records
 * are kept a minute, so the pages of an export or a count followed by a read cost one run.
 *
 * Every call goes through the shared call policy (call-policy.ts: retries, deadlines, one token refresh
 * for OAuth) and the account's burst budget (`searchLimiter`, shared across processes with Redis),
 * sized from Pipedrive's `x-ratelimit-limit`; Pipedrive's daily token budget
 * (`x-daily-ratelimit-token-remaining`, shared through Redis too: daily-budget.ts) stops calls at the
 * reserve left for the company's other apps, before Pipedrive refuses them.
 */
import { createHash } from 'node:crypto';
import type { Segment } from '../../segmentation/ast.js';
import { compileRecordEvaluator } from '../../segmentation/evaluate.js';
import { CallPolicy } from '../call-policy.js';
import {
  InvalidCursorError, type CompileContext, type CrmConnector, type CrmConnectorOptions, type CrmCredentialsInfo, type NativeCursor, type ReadOptions,
  type RecordPage, type VocabularyField,
} from '../connector.js';
import { CrmError } from '../errors.js';
import { productStage, type CrmFieldDescription, type FieldMap } from '../field-map.js';
import { realClock, searchBucketFor, type LimiterClock, type SearchLimiter } from '../hubspot/rate-limiter.js';
import type { SegmentPlan } from '../plan.js';
import { sortRecords, type CrmRecord } from '../record.js';
import { pipedriveApis, tokenKindOf, toPipedriveCrmError, ERROR_CATEGORIES, type PipedriveApis, type RateLimitState, type TokenKind } from './client.js';
import { compilePipedrivePlan, type PdLine, type PipedriveNative, type PipedrivePlan } from './compile.js';
import {
  asInstant, asNumber, asText, fieldKind, readRef, resolveGroups, resolveRef, stageOf, type CompanySchema, type PdFieldDef, type ResolvedRef,
} from './company-schema.js';
import { DERIVED_PURCHASE_REFS, isDerivedPurchaseRef, PIPEDRIVE_FIELD_MAP, WON_DEALS_COUNT } from './field-map.js';
import { PipedriveDailyBudget, pipedriveBudgetFor } from './daily-budget.js';
import { conditionsOf, PipedriveFilters } from './filters.js';
import { OPERATORS, PIPEDRIVE_API_HOST, V2_PAGING, type FilterCondition } from './model/index.js';

export interface PipedriveConnectorOptions extends CrmConnectorOptions {
  /** the connection's API host (OAuth `api_domain`); API-token connections use `baseUrl` */
  instanceUrl?: string;
  region?: string;
  /** attempts per request including the first (default 6) */
  maxAttempts?: number;
  maxBackoffMs?: number;
  clock?: LimiterClock;
  random?: () => number;
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; error: CrmError }) => void;
  /** how long a plan's records are kept for the next count, read or page (default 60 s; 0: not kept) */
  resultTtlMs?: number;
  /** the company's daily budget (default: the process's, shared through Redis when configured) */
  budget?: PipedriveDailyBudget;
}

/** Burst limits before Pipedrive's headers tell the real one: the lowest plan's (Lite) documented figures. */
const DEFAULT_BURST = { api_token: 20, oauth: 80 } as const;
const BURST_WINDOW_MS = 2100;

type V2Person = Record<string, unknown> & { id: number; org_id?: number | null; custom_fields?: Record<string, unknown> };
type V2Deal = { id?: number; person_id?: number | null; value?: number; won_time?: string | null };

interface Purchases {
  lastAt: number;
  lastId: number;
  lastAmount: number;
  cents: number;
}

/**
 * A plan's records, kept a short while (an export's pages, a count then a read): at most 8 plans and
 * 250,000 records in all (a larger result is kept alone).
 */
const results = new Map<string, { at: number; records: CrmRecord[] }>();
const MAX_KEPT = 8;
const MAX_KEPT_RECORDS = 250_000;

/** Organizations per company (scope), as last read. */
const orgCache = new Map<string, Map<number, { org: V2Person; at: number }>>();
const ORG_TTL_MS = 10 * 60_000;
const MAX_CACHED_ORGS = 200_000;

/** Forgets every kept result and organization (tests). */
export function resetPipedriveResults(): void {
  results.clear();
  orgCache.clear();
}

export class PipedriveConnector implements CrmConnector {
  readonly crmType = 'pipedrive' as const;
  readonly fieldMap: FieldMap;
  readonly baseUrl: string;
  private readonly policy: CallPolicy;
  private readonly clock: LimiterClock;
  private schemaPromise: Promise<CompanySchema> | null = null;
  private limits: RateLimitState | null = null;
  /** the company's daily token budget (shared through Redis; a connector of an unknown company keeps its own) */
  private readonly budget: PipedriveDailyBudget;
  private kind: TokenKind | null = null;
  /** requests sent, per operation (benchmarks, tests) */
  readonly requests: Record<string, number> = {};

  constructor(private readonly options: PipedriveConnectorOptions) {
    this.baseUrl = (options.instanceUrl ?? options.baseUrl ?? PIPEDRIVE_API_HOST).replace(/\/+$/, '');
    this.fieldMap = options.fieldMap ?? PIPEDRIVE_FIELD_MAP;
    this.clock = options.clock ?? realClock;
    this.budget = options.budget ?? (options.accountId
      ? pipedriveBudgetFor(`${this.baseUrl}|${options.accountId}`, { now: () => this.clock.now() })
      : new PipedriveDailyBudget('unknown', null, () => this.clock.now()));
    this.policy = new CallPolicy({
      crmName: 'Pipedrive',
      toCrmError: (raw, op) => toPipedriveCrmError(raw, op, this.kind ?? 'oauth', this.clock.now()),
      // An OAuth access token Pipedrive refuses is refreshed once; an API token cannot be.
      isExpiredToken: (err) => err.code === 'UNAUTHORIZED' && err.category === ERROR_CATEGORIES.oauthToken,
      clock: this.clock,
      random: options.random,
      maxAttempts: options.maxAttempts,
      baseBackoffMs: options.baseBackoffMs,
      maxBackoffMs: options.maxBackoffMs,
      requestTimeoutMs: options.requestTimeoutMs,
      retryDeadlineMs: options.retryDeadlineMs,
      onRetry: options.onRetry,
    });
  }

  // ------------------------------------------------------------------------------------------------
  // Calls

  private limiter(): SearchLimiter {
    const kind = this.kind ?? 'oauth';
    // Pipedrive's limit for this token, a tenth below it: other apps of the company may be calling too.
    const limit = this.limits?.burstLimit ? Math.max(1, Math.floor(this.limits.burstLimit * 0.9)) : DEFAULT_BURST[kind];
    const key = `pipedrive:${this.baseUrl}:${this.options.accountId ?? 'account'}:${kind}:${limit}`;
    // The shared (Redis) limiter paces a one-second window: half of Pipedrive's two-second allowance.
    return this.options.searchLimiter?.(key, Math.max(1, Math.floor(limit / 2))) ?? searchBucketFor(key, { limit, windowMs: BURST_WINDOW_MS, clock: this.clock });
  }

  /** One API call under the call policy, the burst budget and the daily budget. */
  private call = <T>(operation: string, send: (apis: PipedriveApis) => Promise<T>): Promise<T> =>
    this.policy.run(
      operation,
      async ({ forceRefresh }) => {
        const token = await this.options.getAccessToken({ forceRefresh });
        this.kind = tokenKindOf(token, Boolean(this.options.instanceUrl));
        return pipedriveApis({ baseUrl: this.baseUrl, token, kind: this.kind, now: () => this.clock.now(), onRateLimits: (s) => this.noteLimits(s) });
      },
      async (apis) => {
        await this.budget.check();
        this.requests[operation] = (this.requests[operation] ?? 0) + 1;
        return send(apis);
      },
      this.limiter(),
    );

  private noteLimits(s: RateLimitState): void {
    this.limits = s;
    this.budget.observe(s);
  }

  /** The last rate-limit headers Pipedrive sent (burst limit, daily budget). */
  get rateLimits(): RateLimitState | null {
    return this.limits;
  }

  /** Pages of a v2 list until its end (`cursor` / `next_cursor`). */
  private async *v2Pages<T>(operation: string, fetch: (apis: PipedriveApis, cursor: string | undefined) => Promise<{ data?: unknown; additional_data?: unknown }>, signal?: AbortSignal): AsyncGenerator<T[]> {
    let cursor: string | undefined;
    do {
      signal?.throwIfAborted();
      const page = await this.call(operation, (apis) => fetch(apis, cursor));
      yield (page.data ?? []) as T[];
      cursor = (page.additional_data as { next_cursor?: string | null } | undefined)?.next_cursor ?? undefined;
    } while (cursor);
  }

  // ------------------------------------------------------------------------------------------------
  // The company: fields and time zone

  schema(): Promise<CompanySchema> {
    this.schemaPromise ??= this.loadSchema().catch((err) => {
      this.schemaPromise = null;
      throw err;
    });
    return this.schemaPromise;
  }

  private async loadSchema(): Promise<CompanySchema> {
    const me = await this.call('users/me', (api) => api.users.getCurrentUser());
    const fields = async (operation: string, get: (api: PipedriveApis, start: number) => Promise<{ data?: unknown[]; additional_data?: unknown }>) => {
      const out: PdFieldDef[] = [];
      for (let start = 0; ; ) {
        const res = await this.call(operation, (api) => get(api, start));
        out.push(...((res.data ?? []) as PdFieldDef[]));
        const p = (res.additional_data as { pagination?: { more_items_in_collection?: boolean; next_start?: number } } | undefined)?.pagination;
        if (!p?.more_items_in_collection) return out;
        start = p.next_start ?? start + 500;
      }
    };
    const [person, organization, deal] = await Promise.all([
      fields('personFields', (api, start) => api.personFields.getPersonFields({ start, limit: 500 })),
      fields('organizationFields', (api, start) => api.organizationFields.getOrganizationFields({ start, limit: 500 })),
      fields('dealFields', (api, start) => api.dealFields.getDealFields({ start, limit: 500 })),
    ]);
    const u = me.data as { id?: number; company_id?: number; company_name?: string; timezone_name?: string } | undefined;
    return { companyId: u?.company_id ?? 0, companyName: u?.company_name ?? '', userId: u?.id ?? 0, timeZone: validTimeZone(u?.timezone_name), person, organization, deal };
  }

  // ------------------------------------------------------------------------------------------------
  // CrmConnector

  compile(segment: Segment, ctx: CompileContext): PipedrivePlan {
    return compilePipedrivePlan(segment, ctx, this.fieldMap);
  }

  async count(plan: SegmentPlan): Promise<number> {
    return (await this.run(plan)).length;
  }

  /** A count reads the filter's persons (and, for purchase conditions, their won deals): more than one request. */
  countCost(plan: SegmentPlan): number {
    const native = plan.native as PipedriveNative;
    return native.never ? 0 : 3;
  }

  async *read(plan: SegmentPlan, options: ReadOptions = {}): AsyncIterable<CrmRecord> {
    const records = await this.run(plan, options.signal);
    options.onTotal?.(records.length);
    yield* options.limit === undefined ? records : records.slice(0, options.limit);
  }

  async readPage(plan: SegmentPlan, options: { first: number; cursor: NativeCursor | null }): Promise<RecordPage> {
    const tag = planKey(plan.native as PipedriveNative, this.fieldMap).slice(0, 12);
    let start = 0;
    const records = await this.run(plan);
    if (options.cursor !== null && options.cursor !== undefined) {
      const c = options.cursor as { p?: unknown; i?: unknown; id?: unknown };
      if (typeof c !== 'object' || c.p !== tag || typeof c.i !== 'number' || !Number.isInteger(c.i) || c.i < 0 || typeof c.id !== 'string') {
        throw new InvalidCursorError('not a cursor of this Pipedrive segment');
      }
      // Resume after the record the cursor names (it may have moved if the CRM changed since).
      start = records[c.i - 1]?.id === c.id ? c.i : (() => {
        const at = records.findIndex((r) => r.id === c.id);
        return at >= 0 ? at + 1 : Math.min(c.i as number, records.length);
      })();
    }
    const slice = records.slice(start, start + Math.max(1, options.first));
    return {
      records: slice.map((record, k) => ({ record, cursor: { p: tag, i: start + k + 1, id: record.id } })),
      next: start + slice.length < records.length && slice.length > 0 ? { p: tag, i: start + slice.length, id: slice[slice.length - 1].id } : null,
    };
  }

  async describeFields(): Promise<CrmFieldDescription[]> {
    const schema = await this.schema();
    const out: CrmFieldDescription[] = [];
    const add = (prefix: string, labelPrefix: string, f: PdFieldDef) => {
      if (f.field_type === 'address') {
        for (const [component, label] of [['locality', 'City'], ['admin_area_level_1', 'State / region'], ['country', 'Country'], ['postal_code', 'Postal code']]) {
          out.push({ name: `${prefix}${f.key}.${component}`, label: `${labelPrefix}${f.name} — ${label}`, kind: 'text' });
        }
        return;
      }
      const kind = f.key === 'label_ids' ? 'stage' : fieldKind(f.field_type);
      out.push({
        name: `${prefix}${f.key}`,
        label: `${labelPrefix}${f.name}`,
        kind,
        ...(f.options?.length ? { options: f.options.map((o) => ({ value: o.label, label: o.label })) } : {}),
      });
    };
    for (const f of schema.person) add('', '', f);
    for (const f of schema.organization) add('org.', 'Organization — ', f);
    out.push(
      { name: DERIVED_PURCHASE_REFS.lastPurchaseDate, label: 'Won deals — last won time', kind: 'date', derived: true, description: 'The won time of the person\u2019s last won deal.' },
      { name: DERIVED_PURCHASE_REFS.lastPurchaseAmount, label: 'Won deals — last value', kind: 'number', derived: true, description: 'The value of the person\u2019s last won deal.' },
      { name: DERIVED_PURCHASE_REFS.lifetimeValue, label: 'Won deals — total value', kind: 'number', derived: true, description: 'The sum of the values of the person\u2019s won deals.' },
    );
    return out;
  }

  /** Values of a field by frequency, over the first `maxRecords` persons (and their organizations). */
  async listValues(field: VocabularyField, options: { maxRecords?: number } = {}): Promise<string[]> {
    const schema = await this.schema();
    const max = Math.max(1, options.maxRecords ?? 3000);
    const ref = resolveRef(schema, field === 'emailDomain' ? this.fieldMap.fields.email : this.fieldMap.fields[field]);
    const persons: V2Person[] = [];
    for await (const page of this.v2Pages<V2Person>('list persons', (api, cursor) => api.persons.getPersons({ limit: Math.min(V2_PAGING.maxLimit, max), cursor }))) {
      persons.push(...page);
      if (persons.length >= max) break;
    }
    const orgs = ref.object === 'organization' ? await this.organizations(persons.slice(0, max)) : new Map<number, V2Person>();
    const counts = new Map<string, number>();
    for (const p of persons.slice(0, max)) {
      let v = asText(readRef(ref, p, orgs.get(Number(p.org_id)) ?? null));
      if (v && field === 'emailDomain') v = v.includes('@') ? v.slice(v.lastIndexOf('@') + 1).toLowerCase() : null;
      if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([v]) => v);
  }

  async verifyCredentials(): Promise<CrmCredentialsInfo> {
    const me = await this.call('users/me', (api) => api.users.getCurrentUser());
    const u = me.data as { company_id?: number; company_name?: string } | undefined;
    if (!u?.company_id) throw new CrmError('UNAUTHORIZED', 'Pipedrive did not say which company this token belongs to.');
    return { accountId: String(u.company_id), accountName: u.company_name, scopes: [], tokenType: this.kind === 'api_token' ? 'pat' : 'oauth' };
  }

  // ------------------------------------------------------------------------------------------------
  // Running a plan

  private resultKey(native: PipedriveNative): string {
    return `${this.baseUrl}|${this.options.accountId ?? ''}|${planKey(native, this.fieldMap)}`;
  }

  /** The plan's records: exact, ordered and capped (kept a short while, see `resultTtlMs`). */
  private async run(plan: SegmentPlan, signal?: AbortSignal): Promise<CrmRecord[]> {
    if (plan.crmType !== 'pipedrive') throw new CrmError('VALIDATION', `A ${plan.crmType} plan cannot run on Pipedrive.`);
    const native = plan.native as PipedriveNative;
    if (native.never) return [];
    const ttl = this.options.resultTtlMs ?? 60_000;
    const key = this.resultKey(native);
    const kept = results.get(key);
    if (kept && ttl > 0 && this.clock.now() - kept.at < ttl) return kept.records;
    const records = await this.runFresh(native, signal);
    if (ttl > 0) {
      results.delete(key);
      results.set(key, { at: this.clock.now(), records });
      const kept = () => [...results.values()].reduce((n, r) => n + r.records.length, 0);
      while (results.size > 1 && (results.size > MAX_KEPT || kept() > MAX_KEPT_RECORDS)) results.delete(results.keys().next().value!);
    }
    return records;
  }

  private async runFresh(native: PipedriveNative, signal?: AbortSignal): Promise<CrmRecord[]> {
    const schema = await this.schema();
    const groups = resolveGroups(schema, native.filter);
    if (!groups) return [];
    const filters = new PipedriveFilters(this.call, `${this.baseUrl}|${schema.companyId}`, () => this.clock.now());
    const persons = await this.withFilter(filters, 'people', groups, async (filterId) => {
      const out: V2Person[] = [];
      const customFields = this.customFieldKeys(schema);
      for await (const page of this.v2Pages<V2Person>('list persons', (api, cursor) =>
        api.persons.getPersons({ filter_id: filterId, limit: V2_PAGING.maxLimit, cursor, include_fields: WON_DEALS_COUNT, ...(customFields ? { custom_fields: customFields } : {}) }), signal)) {
        out.push(...page);
      }
      return out;
    });
    const [purchases, orgs] = await Promise.all([this.purchases(schema, filters, native, persons, signal), this.organizations(persons)]);
    const records = persons.map((p) => this.record(schema, p, orgs.get(Number(p.org_id)) ?? null, purchases.get(p.id) ?? null));
    const keep = native.check ? compileRecordEvaluator(native.check, { now: Date.parse(native.now), timeZone: native.timeZone }) : null;
    const out = keep ? records.filter(keep) : records;
    sortRecords(out, native.sort);
    return native.limit !== undefined ? out.slice(0, native.limit) : out;
  }

  /**
   * Runs `use` with the id of a filter of these conditions (none: the whole list). A filter that went
   * away meanwhile (404) is ensured again once.
   */
  private async withFilter<T>(filters: PipedriveFilters, kind: 'people' | 'deals', groups: { and: FilterCondition[]; or: FilterCondition[] } | null, use: (filterId: number | undefined) => Promise<T>): Promise<T> {
    if (!groups || groups.and.length + groups.or.length === 0) return use(undefined);
    const conditions = conditionsOf(groups);
    for (let attempt = 0; ; attempt++) {
      const id = await filters.ensure(kind, conditions);
      try {
        return await use(id);
      } catch (err) {
        if (attempt === 0 && err instanceof CrmError && err.status === 404) {
          filters.forget(kind, conditions);
          continue;
        }
        throw err;
      }
    }
  }

  /** Custom field keys the map reads (the `custom_fields` parameter allows 15); undefined: all of them. */
  private customFieldKeys(schema: CompanySchema): string | undefined {
    const keys = new Set<string>();
    for (const ref of Object.values(this.fieldMap.fields)) {
      if (isDerivedPurchaseRef(ref) || ref.startsWith('org.')) continue;
      const r = resolveRef(schema, ref);
      if (/^[0-9a-f]{40}$/.test(r.field.key)) keys.add(r.field.key);
    }
    // None mapped: ask for none (a key nobody has); more than 15: every custom field comes back.
    if (keys.size > V2_PAGING.maxCustomFields) return undefined;
    return keys.size ? [...keys].join(',') : undefined;
  }

  /** Won deals per person (when the map derives purchases from them): a deals filter mirroring the person lines. */
  private async purchases(schema: CompanySchema, filters: PipedriveFilters, native: PipedriveNative, persons: V2Person[], signal?: AbortSignal): Promise<Map<number, Purchases>> {
    const f = this.fieldMap.fields;
    const out = new Map<number, Purchases>();
    const derived = [f.lastPurchaseDate, f.lastPurchaseAmount, f.lifetimeValue].some(isDerivedPurchaseRef);
    const buyers = new Set(persons.filter((p) => Number(p[WON_DEALS_COUNT] ?? 1) > 0).map((p) => p.id));
    if (!derived || buyers.size === 0) return out;
    const status = schema.deal.find((d) => d.key === 'status');
    if (!status) throw new CrmError('VALIDATION', 'This Pipedrive company has no deal status field.');
    const mirrored = mirrorPersonLines(schema, native.filter);
    const groups = { and: [{ object: 'deal' as const, field_id: String(status.id), operator: OPERATORS.eq, value: 'won', extra_value: null }, ...mirrored.and], or: mirrored.or };
    const onlyStatus = mirrored.and.length === 0 && mirrored.or.length === 0;
    await this.withFilter(filters, 'deals', onlyStatus ? null : groups, async (filterId) => {
      out.clear();
      for await (const page of this.v2Pages<V2Deal>('list deals', (api, cursor) =>
        api.deals.getDeals(filterId === undefined ? { status: 'won', limit: V2_PAGING.maxLimit, cursor } : { filter_id: filterId, limit: V2_PAGING.maxLimit, cursor }), signal)) {
        for (const d of page) {
          if (d.person_id === null || d.person_id === undefined || !buyers.has(d.person_id)) continue;
          const at = d.won_time ? Date.parse(d.won_time) : NaN;
          if (!Number.isFinite(at) || d.id === undefined) continue;
          const p = out.get(d.person_id);
          const cents = Math.round(Number(d.value ?? 0) * 100);
          if (!p) out.set(d.person_id, { lastAt: at, lastId: d.id, lastAmount: Number(d.value ?? 0), cents });
          else {
            p.cents += cents;
            if (at > p.lastAt || (at === p.lastAt && d.id > p.lastId)) Object.assign(p, { lastAt: at, lastId: d.id, lastAmount: Number(d.value ?? 0) });
          }
        }
      }
    });
    return out;
  }

  /**
   * The organizations of these persons by id (100 per request). Organizations change rarely and many
   * questions name the same ones: the process keeps them ORG_TTL_MS per company.
   */
  private async organizations(persons: V2Person[]): Promise<Map<number, V2Person>> {
    const out = new Map<number, V2Person>();
    if (!Object.values(this.fieldMap.fields).some((ref) => ref.startsWith('org.'))) return out;
    const scope = `${this.baseUrl}|${this.options.accountId ?? (await this.schema()).companyId}`;
    let cache = orgCache.get(scope);
    if (!cache || cache.size > MAX_CACHED_ORGS) orgCache.set(scope, (cache = new Map()));
    const now = this.clock.now();
    const missing: number[] = [];
    for (const id of new Set(persons.map((p) => Number(p.org_id)).filter((x) => Number.isInteger(x) && x > 0))) {
      const hit = cache.get(id);
      if (hit && now - hit.at < ORG_TTL_MS) out.set(id, hit.org);
      else missing.push(id);
    }
    for (let i = 0; i < missing.length; i += V2_PAGING.maxIds) {
      const chunk = missing.slice(i, i + V2_PAGING.maxIds);
      const res = await this.call('list organizations', (api) => api.organizations.getOrganizations({ ids: chunk.join(','), limit: V2_PAGING.maxIds }));
      for (const o of (res.data ?? []) as V2Person[]) {
        out.set(o.id, o);
        cache.set(o.id, { org: o, at: now });
      }
    }
    return out;
  }

  private record(schema: CompanySchema, p: V2Person, org: V2Person | null, bought: Purchases | null): CrmRecord {
    const f = this.fieldMap.fields;
    const resolved = new Map<string, ResolvedRef>();
    const ref = (r: string) => {
      let x = resolved.get(r);
      if (!x) resolved.set(r, (x = resolveRef(schema, r)));
      return x;
    };
    const text = (r: string) => asText(readRef(ref(r), p, org));
    const stageRef = ref(f.lifecycleStage);
    const stage = stageOf(stageRef.field, readRef(stageRef, p, org), this.fieldMap.stages);
    const purchase = (r: string, derived: () => number | null, read: (v: unknown) => number | null) => (isDerivedPurchaseRef(r) ? derived() : read(readRef(ref(r), p, org)));
    return {
      id: String(p.id),
      firstName: text(f.firstName),
      lastName: text(f.lastName),
      email: text(f.email),
      company: text(f.company),
      stage,
      lifecycleStage: productStage(stage),
      lastPurchaseAt: purchase(f.lastPurchaseDate, () => bought?.lastAt ?? null, (v) => asInstant(v, schema.timeZone)),
      lastPurchaseAmount: purchase(f.lastPurchaseAmount, () => bought?.lastAmount ?? null, asNumber),
      lifetimeValue: purchase(f.lifetimeValue, () => (bought ? bought.cents / 100 : null), asNumber),
      city: text(f.city),
      state: text(f.state),
      country: text(f.country),
      createdAt: asInstant(readRef(ref(f.createdAt), p, org), schema.timeZone),
    };
  }
}

/**
 * The people filter's person lines, for a deals filter (there they test the deal's person). A line on
 * the person's organization cannot be carried over (a deal's organization is its own), so it is left
 * out — the deals filter only has to find a superset of the people's won deals; an OR group is carried
 * over only when every line of it can be.
 */
function mirrorPersonLines(schema: CompanySchema, filter: { and: PdLine[]; or: PdLine[] }): { and: FilterCondition[]; or: FilterCondition[] } {
  const resolved = resolveGroups(schema, filter) ?? { and: [], or: [] };
  const persons = (ls: FilterCondition[]) => ls.filter((l) => l.object === 'person');
  const or = persons(resolved.or).length === resolved.or.length ? resolved.or : [];
  // One line of the 16 is the status.
  return { and: persons(resolved.and).slice(0, 15 - or.length), or };
}

/**
 * What a plan asks, whenever it was compiled: its lines without the instants of date lines and without
 * `now` (a stored query is compiled again for each page of its export; the dates themselves are in the
 * check), canonically serialised (a plan read back from the database has its keys in another order).
 * Pages of one export, and a count followed by a read, share the records and cursors of one run.
 */
function planKey(native: PipedriveNative, map: FieldMap): string {
  const line = ({ instant: _instant, ...rest }: PdLine) => rest;
  const shape = { ...native, now: undefined, filter: { and: native.filter.and.map(line), or: native.filter.or.map(line) } };
  return createHash('sha256').update(canonical([shape, map])).digest('hex');
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function validTimeZone(tz: string | undefined): string {
  if (!tz) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
}

export function createPipedriveConnector(options: PipedriveConnectorOptions): PipedriveConnector {
  return new PipedriveConnector(options);
}
