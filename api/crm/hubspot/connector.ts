/**
 * HubSpot implementation of the CRM connector, on the official `@hubspot/api-client`.
 *
 * The same code talks to https://api.hubapi.com and to the sandbox (`baseUrl`). What it adds on top
 * of the client (whose own retry/limiter are left off: `numberOfApiCallRetries: 0`, no limiter):
 *  - a per-account client-side throttle of 5 search requests per second, shared by every connector
 *    instance in the process for the same account (rate-limiter.ts);
 *  - retries on 429 (honouring `Retry-After`), 5xx and network errors, with capped exponential
 *    backoff and jitter, up to `maxAttempts`;
 *  - one token refresh (`getAccessToken({ forceRefresh: true })`) on a 401 EXPIRED_AUTHENTICATION;
 *  - request-size and filter-limit checks before sending (clear VALIDATION errors);
 *  - reading result sets beyond HubSpot's 10,000 window by hs_object_id ranges (partition.ts).
 */
import { Client } from '@hubspot/api-client';
import type { Segment } from '../../segmentation/ast.js';
import type { CompiledHubSpotQuery } from '../../segmentation/hubspot-query.js';
import { CallPolicy } from '../call-policy.js';
import type {
  AccessTokenProvider, CompileContext, CrmConnector, CrmConnectorOptions, CrmContact, CrmCredentialsInfo, CrmPropertyDescription,
  NativeCursor, ReadOptions, RecordPage, SearchContactsOptions, VocabularyField,
} from '../connector.js';
import { CrmError } from '../errors.js';
import type { CrmFieldDescription, FieldMap } from '../field-map.js';
import { CONTACT_PROPERTIES } from '../mapping.js';
import type { SegmentPlan } from '../plan.js';
import type { CrmRecord } from '../record.js';
import { HUBSPOT_FIELD_MAP } from './field-map.js';
import { compileHubSpotPlan, countCompiled, countCostOf, readCompiled, readCompiledPage } from './segments.js';
import {
  ID_PROPERTY, SEARCH_LIMITS, sortContacts, type HubSpotFilterGroup, type HubSpotSearchBody, type HubSpotSearchRequest, type HubSpotSort,
} from './model/index.js';
import { assertBodySize, assertWithinSearchLimits, planPartition, withIdFloor } from './partition.js';
import { realClock, searchBucketFor, type LimiterClock, type SearchLimiter } from './rate-limiter.js';

export const HUBSPOT_API_BASE_URL = 'https://api.hubapi.com';

export interface HubSpotConnectorOptions extends CrmConnectorOptions {
  getAccessToken: AccessTokenProvider;
  /** default https://api.hubapi.com; the sandbox's URL (with its mount prefix) in embedded mode */
  baseUrl?: string;
  /** HubSpot account (hub id); looked up with verifyCredentials() when absent */
  accountId?: string;
  /** search page size, 1–200 (default 200) */
  pageSize?: number;
  /** attempts per request including the first (default 6) */
  maxAttempts?: number;
  /** backoff cap (default 30 s) */
  maxBackoffMs?: number;
  // requestTimeoutMs (default 30 s), retryDeadlineMs (default 60 s: a long outage fails a call in
  // bounded time instead of hanging) and baseBackoffMs (default 500 ms) come from CrmConnectorOptions.
  /** client-side search throttle (default 5/s, HubSpot's limit) */
  searchRequestsPerSecond?: number;
  /** the account's search throttle shared across processes (Redis); default: this process's bucket */
  searchLimiter?: (key: string, limit: number) => SearchLimiter;
  /** injectable time source (tests) */
  clock?: LimiterClock;
  /** injectable randomness for jitter (tests) */
  random?: () => number;
  /** called before each retry */
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; error: CrmError }) => void;
}

interface Apis {
  search: Client['crm']['contacts']['searchApi'];
  basic: Client['crm']['contacts']['basicApi'];
  batch: Client['crm']['contacts']['batchApi'];
  properties: Client['crm']['properties']['coreApi'];
  accessTokens: Client['oauth']['accessTokensApi'];
}

interface Page {
  total: number;
  results: CrmContact[];
  nextAfter: string | null;
}

const ID_ASC: HubSpotSort = { propertyName: ID_PROPERTY, direction: 'ASCENDING' };

export class HubSpotConnector implements CrmConnector {
  readonly crmType = 'hubspot' as const;
  readonly baseUrl: string;
  readonly fieldMap: FieldMap;
  private readonly clock: LimiterClock;
  private readonly policy: CallPolicy;
  private readonly pageSize: number;
  private cached: { token: string; apis: Apis } | null = null;
  private accountId: Promise<string> | null;

  constructor(private readonly options: HubSpotConnectorOptions) {
    this.baseUrl = (options.baseUrl ?? HUBSPOT_API_BASE_URL).replace(/\/+$/, '');
    this.fieldMap = options.fieldMap ?? HUBSPOT_FIELD_MAP;
    this.clock = options.clock ?? realClock;
    this.policy = new CallPolicy({
      crmName: 'HubSpot',
      toCrmError,
      isExpiredToken: (err) => err.code === 'UNAUTHORIZED' && err.category === 'EXPIRED_AUTHENTICATION',
      clock: this.clock,
      random: options.random,
      maxAttempts: options.maxAttempts,
      baseBackoffMs: options.baseBackoffMs,
      maxBackoffMs: options.maxBackoffMs,
      requestTimeoutMs: options.requestTimeoutMs,
      retryDeadlineMs: options.retryDeadlineMs,
      onRetry: options.onRetry,
    });
    this.pageSize = clampPageSize(options.pageSize ?? SEARCH_LIMITS.maxPageSize);
    this.accountId = options.accountId ? Promise.resolve(options.accountId) : null;
  }

  // ------------------------------------------------------------------------------------------------
  // CrmConnector: segments (every condition is native to HubSpot's search, see segments.ts)

  compile(segment: Segment, ctx: CompileContext): SegmentPlan<CompiledHubSpotQuery> {
    return compileHubSpotPlan(segment, ctx, this.fieldMap);
  }

  count(plan: SegmentPlan): Promise<number> {
    return countCompiled(this, plan.native as CompiledHubSpotQuery);
  }

  countCost(plan: SegmentPlan): number {
    return countCostOf(plan.native as CompiledHubSpotQuery);
  }

  read(plan: SegmentPlan, options?: ReadOptions): AsyncIterable<CrmRecord> {
    return readCompiled(this, plan.native as CompiledHubSpotQuery, this.fieldMap, options);
  }

  readPage(plan: SegmentPlan, options: { first: number; cursor: NativeCursor | null }): Promise<RecordPage> {
    return readCompiledPage(this, plan.native as CompiledHubSpotQuery, this.fieldMap, options);
  }

  async describeFields(): Promise<CrmFieldDescription[]> {
    const kind = (p: CrmPropertyDescription): CrmFieldDescription['kind'] =>
      p.name === this.fieldMap.fields.lifecycleStage ? 'stage'
      : p.type === 'number' ? 'number'
      : p.type === 'datetime' || p.type === 'date' ? 'date'
      : p.type === 'string' || p.type === 'enumeration' ? 'text'
      : 'other';
    return (await this.describeProperties()).map((p) => ({
      name: p.name,
      label: p.label,
      kind: kind(p),
      ...(p.description ? { description: p.description } : {}),
      ...(p.options?.length ? { options: p.options.map((o) => ({ value: o.value, label: o.label })) } : {}),
    }));
  }

  /** Values of a field by frequency, from the contacts list API (not a search: no search budget). */
  async listValues(field: VocabularyField, options: { maxRecords?: number } = {}): Promise<string[]> {
    const property = field === 'emailDomain' ? this.fieldMap.fields.email : this.fieldMap.fields[field];
    const value = (v: string) => (field === 'emailDomain' ? (v.includes('@') ? v.slice(v.lastIndexOf('@') + 1).toLowerCase() : '') : v);
    return this.valuesByFrequency(property, value, options.maxRecords ?? 3000);
  }

  // ------------------------------------------------------------------------------------------------
  // HubSpot's own search API (the segment functions above run on it)

  async *searchContacts(request: HubSpotSearchRequest, options: SearchContactsOptions = {}): AsyncIterable<CrmContact> {
    assertWithinSearchLimits(request);
    const pageSize = clampPageSize(options.pageSize ?? this.pageSize);
    const properties = [...new Set([...(options.properties ?? CONTACT_PROPERTIES), ID_PROPERTY])];
    const groups = request.filterGroups ?? [];
    const query = request.query?.trim() ? request.query : undefined;
    const sort = request.sorts?.[0];
    const customSort = sort && !(sort.propertyName === ID_PROPERTY && sort.direction === 'ASCENDING') ? sort : undefined;
    const base = { query, properties, limit: pageSize };

    const limit = options.limit !== undefined && options.limit >= 0 ? Math.floor(options.limit) : undefined;
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    if (offset > 0 && (limit === undefined || offset + limit > SEARCH_LIMITS.maxResultWindow)) {
      throw new CrmError(
        'VALIDATION',
        `Paging by position needs a limit and stays within HubSpot's first ${SEARCH_LIMITS.maxResultWindow} results (offset ${offset}, limit ${limit ?? 'none'}).`,
      );
    }
    const first = await this.searchPage({
      ...base,
      limit: limit !== undefined ? clampPageSize(Math.max(1, Math.min(pageSize, limit))) : pageSize,
      filterGroups: groups,
      sorts: [customSort ?? ID_ASC],
      after: offset > 0 ? String(offset) : undefined,
    });
    options.onTotal?.(first.total);
    if (first.total <= SEARCH_LIMITS.maxResultWindow || (limit !== undefined && limit <= SEARCH_LIMITS.maxResultWindow)) {
      // The wanted contacts fit HubSpot's window: plain `after` paging, in the requested order.
      let page = first;
      let yielded = 0;
      for (;;) {
        options.signal?.throwIfAborted();
        for (const c of page.results) {
          if (limit !== undefined && yielded >= limit) return;
          yielded++;
          yield c;
        }
        if (!page.nextAfter || page.results.length === 0 || (limit !== undefined && yielded >= limit)) return;
        // From an offset, ask for no more than is still wanted: a page may not end beyond the window.
        const pageLimit = offset > 0 && limit !== undefined ? clampPageSize(Math.min(pageSize, limit - yielded)) : pageSize;
        page = await this.searchPage({ ...base, limit: pageLimit, filterGroups: groups, sorts: [customSort ?? ID_ASC], after: page.nextAfter });
      }
    }

    // Beyond 10,000 results: hs_object_id ranges.
    const plan = planPartition(groups);
    const scan = async function* (this: HubSpotConnector): AsyncGenerator<CrmContact> {
      const single = plan.batches.length === 1 && plan.unpartitionable.length === 0;
      const seen = single ? null : new Set<string>();
      for (const [i, batch] of plan.batches.entries()) {
        const initial = single && !customSort && i === 0 ? first : null;
        for await (const c of this.scanById(batch, base, initial, options.signal)) {
          if (seen) {
            if (seen.has(c.id)) continue;
            seen.add(c.id);
          }
          yield c;
        }
      }
      for (const group of plan.unpartitionable) {
        const body = { ...base, filterGroups: [group], sorts: [ID_ASC] };
        let page = await this.searchPage(body);
        if (page.total > SEARCH_LIMITS.maxResultWindow) {
          throw new CrmError(
            'VALIDATION',
            `A filter group with ${group.filters.length} filters matches ${page.total} contacts; HubSpot returns at most ${SEARCH_LIMITS.maxResultWindow} per search and the group has no room for the paging filter. Use at most ${SEARCH_LIMITS.maxFiltersPerGroup - 1} filters in that group.`,
          );
        }
        for (;;) {
          options.signal?.throwIfAborted();
          for (const c of page.results) {
            if (seen!.has(c.id)) continue;
            seen!.add(c.id);
            yield c;
          }
          if (!page.nextAfter || page.results.length === 0) break;
          page = await this.searchPage({ ...body, after: page.nextAfter });
        }
      }
    }.bind(this);

    if (!customSort) {
      yield* scan();
      return;
    }
    // A custom sort cannot be kept across id ranges: read everything, then sort like HubSpot does.
    const all: CrmContact[] = [];
    for await (const c of scan()) all.push(c);
    yield* sortContacts(all, customSort);
  }

  async countContacts(request: HubSpotSearchRequest): Promise<number> {
    assertWithinSearchLimits(request);
    const page = await this.searchPage({
      filterGroups: request.filterGroups ?? [],
      query: request.query?.trim() ? request.query : undefined,
      properties: [ID_PROPERTY],
      limit: 1,
    });
    return page.total;
  }

  async getContactsByIds(ids: readonly string[], options: { properties?: string[] } = {}): Promise<CrmContact[]> {
    const properties = [...new Set([...(options.properties ?? CONTACT_PROPERTIES), ID_PROPERTY])];
    const unique = [...new Set(ids.map(String))];
    const found = new Map<string, CrmContact>();
    for (let i = 0; i < unique.length; i += 100) {
      const chunk = unique.slice(i, i + 100);
      const res = await this.request('batchRead', (apis) =>
        apis.batch.read({ inputs: chunk.map((id) => ({ id })), properties, propertiesWithHistory: [] }),
      );
      for (const o of res.results) found.set(String(o.id), toCrmContact(o));
    }
    return ids.map((id) => found.get(String(id))).filter((c): c is CrmContact => c !== undefined);
  }

  /** Company names by frequency over the first `maxContacts` contacts (list API, 100 per page; not a search). */
  listCompanyNames(options: { maxContacts?: number } = {}): Promise<string[]> {
    return this.valuesByFrequency(this.fieldMap.fields.company, (v) => v, options.maxContacts ?? 3000);
  }

  private async valuesByFrequency(property: string, value: (v: string) => string, maxContacts: number): Promise<string[]> {
    const max = Math.max(1, maxContacts);
    const counts = new Map<string, number>();
    let after: string | undefined;
    for (let read = 0; read < max; ) {
      const limit = Math.min(100, max - read);
      const page = await this.request('listValues', (apis) => apis.basic.getPage(limit, after, [property]));
      for (const o of page.results) {
        const v = o.properties?.[property]?.trim();
        const key = v ? value(v) : '';
        if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      read += page.results.length;
      after = page.paging?.next?.after;
      if (!after || page.results.length === 0) break;
    }
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name);
  }

  async describeProperties(): Promise<CrmPropertyDescription[]> {
    const res = await this.request('describeProperties', (apis) => apis.properties.getAll('contacts'));
    return res.results.map((p) => ({
      name: p.name,
      label: p.label,
      type: p.type,
      fieldType: p.fieldType,
      ...(p.description ? { description: p.description } : {}),
      options: (p.options ?? []).map((o) => ({ label: o.label, value: o.value })),
    }));
  }

  async verifyCredentials(): Promise<CrmCredentialsInfo> {
    const token = await this.token();
    try {
      if (token.startsWith('pat-')) {
        // Private-app tokens are not OAuth tokens: HubSpot describes them on a dedicated endpoint.
        const info = await this.request('verifyCredentials', async () => {
          const res = await fetch(`${this.baseUrl}/oauth/v2/private-apps/get/access-token-info`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ tokenKey: token }),
          });
          const body = await res.json().catch(() => ({}));
          if (!res.ok) throw httpError(res.status, body, Object.fromEntries(res.headers));
          return body as { hubId: number; scopes?: string[] };
        });
        const result: CrmCredentialsInfo = { accountId: String(info.hubId), scopes: info.scopes ?? [], tokenType: 'pat' };
        this.accountId ??= Promise.resolve(result.accountId);
        return result;
      }
      const info = await this.request('verifyCredentials', (apis) => apis.accessTokens.get(token));
      const result: CrmCredentialsInfo = {
        accountId: String(info.hubId),
        scopes: info.scopes ?? [],
        tokenType: 'oauth',
        expiresInSeconds: info.expiresIn,
      };
      this.accountId ??= Promise.resolve(result.accountId);
      return result;
    } catch (err) {
      if (err instanceof CrmError && err.code === 'VALIDATION') {
        throw new CrmError('UNAUTHORIZED', 'HubSpot does not recognise this access token.', {
          status: err.status, category: err.category, correlationId: err.correlationId, cause: err,
        });
      }
      throw err;
    }
  }

  // ------------------------------------------------------------------------------------------------
  // internals

  /** Pages through one batch of groups by hs_object_id ranges, restarting `after` at each window. */
  private async *scanById(
    groups: HubSpotFilterGroup[],
    base: { query?: string; properties: string[]; limit: number },
    initial: Page | null,
    signal?: AbortSignal,
  ): AsyncGenerator<CrmContact> {
    let floor: string | null = null;
    let after: string | undefined;
    let page = initial;
    for (;;) {
      signal?.throwIfAborted();
      page ??= await this.searchPage({ ...base, filterGroups: withIdFloor(groups, floor), sorts: [ID_ASC], after });
      yield* page.results;
      if (!page.nextAfter || page.results.length === 0) return;
      const next = Number(page.nextAfter);
      if (next + base.limit > SEARCH_LIMITS.maxResultWindow) {
        floor = page.results[page.results.length - 1].id;
        after = undefined;
      } else after = page.nextAfter;
      page = null;
    }
  }

  private async searchPage(body: HubSpotSearchBody): Promise<Page> {
    const clean: HubSpotSearchBody = { ...body };
    if (clean.query === undefined) delete clean.query;
    if (clean.after === undefined) delete clean.after;
    if (clean.sorts === undefined) delete clean.sorts;
    assertBodySize(clean);
    // The generated client types `sorts` as string[]; HubSpot accepts sort objects and the client
    // passes them through unchanged.
    const res = await this.request('search', (apis) => apis.search.doSearch(clean as any), { search: true });
    return {
      total: res.total,
      results: res.results.map(toCrmContact),
      nextAfter: res.paging?.next?.after ?? null,
    };
  }

  private async token(forceRefresh = false): Promise<string> {
    const token = await this.options.getAccessToken(forceRefresh ? { forceRefresh: true } : undefined);
    if (!token) throw new CrmError('UNAUTHORIZED', 'No HubSpot access token is available. Connect HubSpot again.');
    return token;
  }

  private async apis(forceRefresh = false): Promise<Apis> {
    const token = await this.token(forceRefresh);
    if (this.cached?.token === token) return this.cached.apis;
    // Build the client and its API objects synchronously: the client library keeps its decorators
    // (retry / limiter) in a process-wide singleton that is read when API objects are created.
    const client = new Client({ accessToken: token, basePath: this.baseUrl, numberOfApiCallRetries: 0 });
    const apis: Apis = {
      search: client.crm.contacts.searchApi,
      basic: client.crm.contacts.basicApi,
      batch: client.crm.contacts.batchApi,
      properties: client.crm.properties.coreApi,
      accessTokens: client.oauth.accessTokensApi,
    };
    this.cached = { token, apis };
    return apis;
  }

  private async searchBucket(): Promise<SearchLimiter> {
    if (!this.accountId) {
      this.accountId = this.verifyCredentials().then((i) => i.accountId);
      this.accountId.catch(() => {
        this.accountId = null;
      });
    }
    const account = await this.accountId;
    const key = `${this.baseUrl}#${account}`;
    const limit = this.options.searchRequestsPerSecond ?? SEARCH_LIMITS.requestsPerSecond;
    if (this.options.searchLimiter) return this.options.searchLimiter(key, limit);
    return searchBucketFor(key, { limit, clock: this.clock });
  }

  /** Runs one API call through the call policy: the search budget, token refresh, retries. */
  private async request<T>(operation: string, fn: (apis: Apis) => Promise<T>, opts: { search?: boolean } = {}): Promise<T> {
    const bucket = opts.search ? await this.searchBucket() : null;
    return this.policy.run(operation, ({ forceRefresh }) => this.apis(forceRefresh), fn, bucket);
  }

  /** max(Retry-After, base·2^(attempt-1)), capped, plus up to 25 % jitter (itself capped at 1 s). */
  backoff(attempt: number, retryAfterMs?: number): number {
    return this.policy.backoff(attempt, retryAfterMs);
  }
}

export function createHubSpotConnector(options: HubSpotConnectorOptions): HubSpotConnector {
  return new HubSpotConnector(options);
}

function clampPageSize(n: number): number {
  if (!Number.isFinite(n)) return SEARCH_LIMITS.maxPageSize;
  return Math.min(SEARCH_LIMITS.maxPageSize, Math.max(1, Math.floor(n)));
}

function toCrmContact(o: { id: string; properties: Record<string, string | null>; createdAt?: Date | string; updatedAt?: Date | string }): CrmContact {
  const iso = (d: Date | string | undefined) => (d instanceof Date ? d.toISOString() : d);
  return { id: String(o.id), properties: { ...o.properties }, createdAt: iso(o.createdAt), updatedAt: iso(o.updatedAt) };
}

/** An error object shaped like the client's ApiException, for calls made with fetch. */
function httpError(code: number, body: unknown, headers: Record<string, string>) {
  return Object.assign(new Error(`HTTP ${code}`), { code, body, headers });
}

/** Parses Retry-After (delta-seconds or HTTP-date) into milliseconds. */
export function parseRetryAfter(value: string | undefined | null, now = Date.now()): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, t - now) : undefined;
}

/** Maps client / HTTP failures to CrmError codes. Programming errors are rethrown unchanged. */
export function toCrmError(raw: unknown, operation = 'request'): CrmError {
  if (raw instanceof CrmError) return raw;
  const e = raw as { code?: unknown; body?: any; headers?: Record<string, string>; message?: string; name?: string; type?: string };
  if (typeof e?.code === 'number') {
    const status = e.code;
    const body = e.body && typeof e.body === 'object' ? e.body : {};
    const headers = lowerKeys(e.headers ?? {});
    const message: string = typeof body.message === 'string' ? body.message : (e.message ?? `HTTP ${status}`);
    const category: string | undefined = body.category ?? body.errorType ?? body.status;
    const common = { status, category, correlationId: body.correlationId, details: body, cause: raw };
    if (status === 401) return new CrmError('UNAUTHORIZED', `HubSpot rejected the access token (${operation}): ${message}`, common);
    if (status === 403) return new CrmError('UNAUTHORIZED', `HubSpot denied access (${operation}): ${message}`, common);
    if (status === 429) {
      return new CrmError('RATE_LIMITED', `HubSpot rate limit reached (${operation}): ${message}`, {
        ...common,
        retryAfterMs: parseRetryAfter(headers['retry-after']),
      });
    }
    if (status >= 500) return new CrmError('UNAVAILABLE', `HubSpot is unavailable (${operation}, HTTP ${status}): ${message}`, common);
    return new CrmError('VALIDATION', `HubSpot rejected the request (${operation}, HTTP ${status}): ${message}`, common);
  }
  // The client parses bodies with JSON.parse: a response cut short (truncated, connection dropped
  // mid-body by a proxy) surfaces as a SyntaxError and is as transient as the network error behind it.
  if (raw instanceof SyntaxError && /JSON/.test(raw.message)) {
    return new CrmError('UNAVAILABLE', `HubSpot sent an incomplete response (${operation})`, { cause: raw });
  }
  const name = e?.name ?? '';
  const code = typeof e?.code === 'string' ? e.code : '';
  if (name === 'FetchError' || e?.type === 'system' || /^E[A-Z]+/.test(code) || (raw instanceof TypeError && /fetch failed/i.test(String(e.message)))) {
    return new CrmError('UNAVAILABLE', `HubSpot could not be reached (${operation}): ${e.message ?? String(raw)}`, { cause: raw });
  }
  throw raw;
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
