/**
 * The REST API (`/services/data`): versions, resources, query / queryAll with query locators, limits,
 * sObject describe and retrieve, and composite (several subrequests for one API call).
 */
import { Hono } from 'hono';
import { canonicalId } from '../../salesforce/model/ids.js';
import { renderDescribe, renderGlobalDescribe, renderObjectInfo } from '../describe.js';
import { apiError, invalidQueryLocator, notFound } from '../errors.js';
import { apiVersion, baseUrlOf, restApiGate, salesforceRouter, type SandboxEnv } from '../http.js';
import { compileSoql } from '../soql/compile.js';
import { executeQuery, recordUrl, renderRecord, renderValue } from '../soql/run.js';
import { API_VERSIONS, type SandboxState } from '../state.js';

/** Batch sizes a client may ask for with `Sforce-Query-Options: batchSize=n` (Salesforce: 200-2,000). */
export const MIN_BATCH_SIZE = 200;
export const MAX_BATCH_SIZE = 2000;
/** Subrequests per composite call, and how many of them may be queries. */
export const MAX_COMPOSITE_SUBREQUESTS = 25;
export const MAX_COMPOSITE_QUERIES = 5;

function batchSizeOf(header: string | undefined): number {
  for (const part of (header ?? '').split(';')) {
    const [k, v] = part.split('=').map((s) => s.trim());
    if (k?.toLowerCase() === 'batchsize' && v) {
      const n = Number(v);
      if (Number.isInteger(n)) return Math.min(MAX_BATCH_SIZE, Math.max(MIN_BATCH_SIZE, n));
    }
  }
  return MAX_BATCH_SIZE;
}

function orgLimits(state: SandboxState) {
  const fixed = (max: number) => ({ Max: max, Remaining: max });
  return {
    ActiveScratchOrgs: fixed(3),
    ConcurrentAsyncGetReportInstances: fixed(200),
    ConcurrentSyncReportRuns: fixed(20),
    DailyAnalyticsDataflowJobExecutions: fixed(60),
    DailyApiRequests: { Max: state.allocation.max, Remaining: state.allocation.remaining() },
    DailyAsyncApexExecutions: fixed(250_000),
    DailyBulkApiBatches: fixed(15_000),
    DailyBulkV2QueryFileStorageMB: fixed(976_562),
    DailyBulkV2QueryJobs: fixed(10_000),
    DailyDurableStreamingApiEvents: fixed(1_000_000),
    DailyGenericStreamingApiEvents: fixed(10_000),
    DailyStandardVolumePlatformEvents: fixed(10_000),
    DailyStreamingApiEvents: fixed(1_000_000),
    DailyWorkflowEmails: fixed(2_000),
    DataStorageMB: { Max: 10_240, Remaining: 10_120 },
    FileStorageMB: { Max: 20_480, Remaining: 20_431 },
    HourlyAsyncReportRuns: fixed(1_200),
    HourlyDashboardRefreshes: fixed(200),
    HourlyDashboardResults: fixed(5_000),
    HourlyDashboardStatuses: fixed(999_999_999),
    HourlyODataCallout: fixed(20_000),
    HourlySyncReportRuns: fixed(500),
    HourlyTimeBasedWorkflow: fixed(1_000),
    MassEmail: fixed(5_000),
    SingleEmail: fixed(5_000),
  };
}

export function dataRoutes(state: SandboxState): Hono<SandboxEnv> {
  const { schema, store, locators, identity } = state;
  const app = salesforceRouter();

  app.get('/services/data', (c) => c.json(API_VERSIONS.map((v) => ({ label: `API ${v}`, url: `/services/data/v${v}`, version: v }))));
  app.get('/services/data/', (c) => c.redirect(new URL(c.req.url).pathname.slice(0, -1), 301));

  const gate = restApiGate(state);
  app.use('/services/data/:version', gate);
  app.use('/services/data/:version/*', async (c, next) => {
    // '/services/data/:version' already ran the gate for the bare version path.
    if (c.get('version') !== undefined) return next();
    return gate(c, next);
  });

  app.get('/services/data/:version', (c) => {
    const v = `/services/data/v${c.get('version')}`;
    const base = baseUrlOf(c, '/services/data');
    return c.json({
      tooling: `${v}/tooling`,
      metadata: `${v}/metadata`,
      composite: `${v}/composite`,
      query: `${v}/query`,
      queryAll: `${v}/queryAll`,
      limits: `${v}/limits`,
      sobjects: `${v}/sobjects`,
      search: `${v}/search`,
      recent: `${v}/recent`,
      identity: `${base}/id/${identity.orgId}/${identity.userId}`,
    });
  });

  const runQuery = (all: boolean) => (c: import('hono').Context<SandboxEnv>) => {
    const soql = c.req.query('q');
    if (!soql) throw apiError(400, 'MALFORMED_QUERY', 'A query string has to be specified');
    state.stats.queries++;
    state.queryLog.push(soql);
    if (state.queryLog.length > 200) state.queryLog.shift();
    const compiled = compileSoql(soql, { schema, dates: state.dates() });
    const outcome = executeQuery(store, compiled, { includeDeleted: all });
    const version = c.get('version');
    if (outcome.kind === 'count') return c.json({ totalSize: outcome.totalSize, done: true, records: [] });
    if (outcome.kind === 'aggregate') return c.json({ totalSize: outcome.records.length, done: true, records: outcome.records });
    const batch = batchSizeOf(c.req.header('sforce-query-options'));
    const first = outcome.rows.slice(0, batch).map((r) => renderRecord(store, compiled, r, version));
    if (outcome.rows.length <= batch) return c.json({ totalSize: outcome.rows.length, done: true, records: first });
    const loc = locators.create(identity.userId, compiled, outcome.rows, batch);
    return c.json({
      totalSize: outcome.rows.length,
      done: false,
      nextRecordsUrl: `/services/data/v${version}/${all ? 'queryAll' : 'query'}/${loc.id}-${batch}`,
      records: first,
    });
  };

  const queryMore = (all: boolean) => (c: import('hono').Context<SandboxEnv>) => {
    state.stats.queryMores++;
    const raw = c.req.param('locator') ?? '';
    const dash = raw.lastIndexOf('-');
    const id = canonicalId(dash < 0 ? raw : raw.slice(0, dash));
    const offset = dash < 0 ? NaN : Number(raw.slice(dash + 1));
    const loc = id ? locators.get(id, identity.userId) : null;
    if (!loc || !Number.isInteger(offset) || offset < 0 || offset >= loc.rows.length) throw invalidQueryLocator();
    const version = c.get('version');
    const end = Math.min(loc.rows.length, offset + loc.batchSize);
    const records = loc.rows.slice(offset, end).map((r) => renderRecord(store, loc.query, r, version));
    if (end >= loc.rows.length) {
      locators.close(loc.id);
      return c.json({ totalSize: loc.rows.length, done: true, records });
    }
    return c.json({ totalSize: loc.rows.length, done: false, nextRecordsUrl: `/services/data/v${version}/${all ? 'queryAll' : 'query'}/${loc.id}-${end}`, records });
  };

  app.get('/services/data/:version/query', runQuery(false));
  app.get('/services/data/:version/queryAll', runQuery(true));
  app.get('/services/data/:version/query/:locator', queryMore(false));
  app.get('/services/data/:version/queryAll/:locator', queryMore(true));

  app.get('/services/data/:version/limits', (c) => c.json(orgLimits(state)));

  app.get('/services/data/:version/sobjects', (c) => {
    state.stats.describes++;
    return c.json(renderGlobalDescribe(schema, c.get('version')));
  });
  app.get('/services/data/:version/sobjects/:object', (c) => {
    const def = schema.object(c.req.param('object'));
    if (!def) throw notFound();
    return c.json(renderObjectInfo(def, c.get('version')));
  });
  app.get('/services/data/:version/sobjects/:object/describe', (c) => {
    const def = schema.object(c.req.param('object'));
    if (!def) throw notFound();
    state.stats.describes++;
    return c.json(renderDescribe(def, c.get('version')));
  });
  app.get('/services/data/:version/sobjects/:object/:id', (c) => {
    const def = schema.object(c.req.param('object'));
    if (!def) throw notFound();
    const id = canonicalId(c.req.param('id'));
    const row = id ? store.get(def.name, id) : undefined;
    if (!row) throw notFound();
    const wanted = c.req.query('fields');
    const fields = wanted ? wanted.split(',').map((name) => {
      const f = schema.field(def, name.trim());
      if (!f) throw apiError(400, 'INVALID_FIELD', `No such column '${name.trim()}' on sobject of type ${def.name}`);
      return f;
    }) : def.fields;
    const out: Record<string, unknown> = { attributes: { type: def.name, url: recordUrl(c.get('version'), def.name, row.Id as string) } };
    for (const f of fields) out[f.name] = renderValue(f, row[f.name] ?? null, row);
    return c.json(out);
  });

  app.get('/services/data/:version/composite', (c) => {
    const v = `/services/data/v${c.get('version')}/composite`;
    return c.json({ batch: `${v}/batch`, tree: `${v}/tree`, sobjects: `${v}/sobjects`, graph: `${v}/graph` });
  });

  app.post('/services/data/:version/composite', async (c) => {
    let body: { allOrNone?: boolean; compositeRequest?: unknown };
    try {
      body = await c.req.json();
    } catch {
      throw apiError(400, 'JSON_PARSER_ERROR', 'The request body is not valid JSON.');
    }
    const requests = body.compositeRequest;
    if (!Array.isArray(requests) || requests.length === 0) throw apiError(400, 'INVALID_INPUT', 'compositeRequest must be a non-empty array.');
    if (requests.length > MAX_COMPOSITE_SUBREQUESTS) throw apiError(400, 'LIMIT_EXCEEDED', `Limit Exceeded. Max number of subrequests allowed is ${MAX_COMPOSITE_SUBREQUESTS}`);
    const isQuery = (url: unknown) => typeof url === 'string' && (url.includes('/query') || url.includes('/queryAll'));
    if (requests.filter((r) => isQuery((r as { url?: unknown })?.url)).length > MAX_COMPOSITE_QUERIES) {
      throw apiError(400, 'LIMIT_EXCEEDED', `Limit Exceeded. Max number of query subrequests allowed is ${MAX_COMPOSITE_QUERIES}`);
    }
    state.stats.composites++;
    const results = new Map<string, unknown>();
    const compositeResponse: { body: unknown; httpHeaders: Record<string, string>; httpStatusCode: number; referenceId: string }[] = [];
    let halted = false;
    for (const raw of requests) {
      const sub = raw as { method?: string; url?: string; referenceId?: string; httpHeaders?: Record<string, string> };
      const referenceId = String(sub.referenceId ?? '');
      const fail = (status: number, errorCode: string, message: string) =>
        compositeResponse.push({ body: [{ errorCode, message }], httpHeaders: {}, httpStatusCode: status, referenceId });
      if (halted) {
        fail(400, 'PROCESSING_HALTED', 'The transaction was rolled back since another operation in the same transaction failed.');
        continue;
      }
      const url = typeof sub.url === 'string' ? resolveReferences(sub.url, results) : null;
      const method = (sub.method ?? '').toUpperCase();
      if (url === null) fail(400, 'PROCESSING_HALTED', `Invalid reference specified in ${String(sub.url)}.`);
      else if (method !== 'GET') fail(405, 'METHOD_NOT_ALLOWED', `HTTP Method '${method}' not allowed. The Salesforce sandbox is read-only: allowed are GET`);
      else if (!url.startsWith('/services/data/v') || !apiVersion(url.split('/')[3])) fail(400, 'NOT_FOUND', 'The requested resource does not exist');
      else {
        const headers = new Headers({ authorization: c.req.header('authorization') ?? '' });
        for (const [k, v] of Object.entries(sub.httpHeaders ?? {})) headers.set(k, v);
        const res = await app.request(url, { method: 'GET', headers }, { compositeSubrequest: true });
        const text = await res.text();
        const parsed = text ? JSON.parse(text) : null;
        results.set(referenceId, parsed);
        compositeResponse.push({ body: parsed, httpHeaders: {}, httpStatusCode: res.status, referenceId });
        if (res.status >= 400 && body.allOrNone === true) halted = true;
        continue;
      }
      if (body.allOrNone === true) halted = true;
    }
    return c.json({ compositeResponse });
  });

  app.all('/services/data/:version/*', () => {
    throw notFound();
  });

  return app;
}

/** Replaces `@{ref.path}` references to earlier subrequests' bodies (null when one does not resolve). */
function resolveReferences(url: string, results: Map<string, unknown>): string | null {
  let out = '';
  let i = 0;
  while (i < url.length) {
    const start = url.indexOf('@{', i);
    if (start < 0) {
      out += url.slice(i);
      break;
    }
    const end = url.indexOf('}', start);
    if (end < 0) return null;
    out += url.slice(i, start);
    const value = lookup(results, url.slice(start + 2, end));
    if (value === undefined || value === null || typeof value === 'object') return null;
    out += encodeURIComponent(String(value));
    i = end + 1;
  }
  return out;
}

function lookup(results: Map<string, unknown>, ref: string): unknown {
  const parts: (string | number)[] = [];
  for (const seg of ref.split('.')) {
    const bracket = seg.indexOf('[');
    parts.push(bracket < 0 ? seg : seg.slice(0, bracket));
    let rest = bracket < 0 ? '' : seg.slice(bracket);
    while (rest.startsWith('[')) {
      const close = rest.indexOf(']');
      parts.push(Number(rest.slice(1, close)));
      rest = rest.slice(close + 1);
    }
  }
  let node: unknown = results.get(String(parts[0]));
  for (const p of parts.slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[p];
  }
  return node;
}
