/** What every sandbox route shares: Pipedrive's error bodies, credentials and scopes, rate limiting, paging parameters. */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { V2_PAGING, V2_SORT_FIELDS, type V2SortField } from '../pipedrive/model/index.js';
import type { Authenticated } from './auth.js';
import { expiredToken, invalidToken, PipedriveApiError, scopeMismatch, unauthorized, validationFailed } from './errors.js';
import { requestCost } from './rate-limit.js';
import type { SandboxState } from './state.js';
import type { PageRequest } from './store.js';

export const SCOPES = {
  base: ['base'],
  contactsRead: ['contacts:read', 'contacts:full'],
  dealsRead: ['deals:read', 'deals:full'],
  /** reading filters: any read scope of what they filter */
  filtersRead: ['deals:read', 'deals:full', 'contacts:read', 'contacts:full', 'activities:read', 'activities:full'],
  /** creating, changing and deleting filters (the official client's declared scopes) */
  filtersWrite: ['deals:full', 'activities:full', 'contacts:full'],
} as const;

/**
 * A router for sandbox routes: a PipedriveApiError thrown by a route becomes Pipedrive's JSON error
 * (with the rate-limit headers the request earned); anything else goes to the app that mounts the sandbox.
 */
export function pipedriveRouter(): Hono {
  const app = new Hono();
  app.onError((err, c) => {
    if (err instanceof PipedriveApiError) return c.json(err.body, err.httpStatus as ContentfulStatusCode, err.headers);
    throw err;
  });
  return app;
}

/** `/pipedrive-sandbox/v1/filters/12` → `/api/v1/filters/:id` (stats keys, costs). */
export function apiPath(path: string): string {
  const at = path.search(/\/(api\/v[12]|v1)\//);
  const rel = at < 0 ? path : path.slice(at);
  return rel.replace(/^\/v1\//, '/api/v1/').replace(/\/\d+$/, '/:id');
}

/**
 * Authenticates the request, checks that its grant holds one of the scopes, charges its tokens to the
 * company's budget and its request to the token's burst window (429 over either), and sets the
 * rate-limit headers. Returns who is calling.
 */
export function requireAuth(state: SandboxState, c: Context, anyOfScopes: readonly string[]): Authenticated {
  const auth = state.tokens.authenticate({
    apiTokenHeader: c.req.header('x-api-token'),
    apiTokenQuery: c.req.query('api_token'),
    authorization: c.req.header('authorization'),
  });
  if (auth.kind === 'missing') throw unauthorized();
  if (auth.kind === 'invalid') throw auth.via === 'bearer' ? invalidToken() : unauthorized();
  if (auth.kind === 'expired') throw expiredToken();
  if (auth.kind === 'oauth' && !anyOfScopes.some((s) => auth.scopes.includes(s))) throw scopeMismatch();
  const path = apiPath(c.req.path);
  const key = `${c.req.method} ${path}`;
  state.stats.requests++;
  state.stats.byRoute[key] = (state.stats.byRoute[key] ?? 0) + 1;
  try {
    const headers = state.limiter.admit(auth.token, auth.kind, requestCost(c.req.method, path), state.clock.now());
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
  } catch (err) {
    state.stats.rateLimited++;
    throw err;
  }
  return auth;
}

/** v2 list paging and sorting parameters, validated as Pipedrive does (400 `ERR_SCHEMA_VALIDATION_FAILED`). */
export function v2PageRequest(c: Context): PageRequest {
  const limitRaw = c.req.query('limit');
  const limit = limitRaw === undefined ? V2_PAGING.defaultLimit : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1) throw validationFailed(`limit: Value must be a positive integer`);
  if (limit > V2_PAGING.maxLimit) throw validationFailed(`limit: Value must be smaller than or equal to ${V2_PAGING.maxLimit}`);
  const sortBy = (c.req.query('sort_by') ?? 'id') as V2SortField;
  if (!(V2_SORT_FIELDS as readonly string[]).includes(sortBy)) throw validationFailed(`sort_by: Value must be one of ${V2_SORT_FIELDS.join(', ')}`);
  const direction = c.req.query('sort_direction') ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') throw validationFailed('sort_direction: Value must be one of asc, desc');
  return { sortBy, direction, limit, cursor: c.req.query('cursor') || null };
}

/** A comma-separated id list (`ids`, at most 100), or null when absent. */
export function idsParam(c: Context, name = 'ids'): number[] | null {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return null;
  const ids = raw.split(',').map((s) => Number(s.trim()));
  if (ids.some((n) => !Number.isInteger(n) || n < 1)) throw validationFailed(`${name}: Value must be a comma separated list of ids`);
  if (ids.length > V2_PAGING.maxIds) throw validationFailed(`${name}: At most ${V2_PAGING.maxIds} ids are allowed`);
  return ids;
}

/** An optional positive integer parameter. */
export function intParam(c: Context, name: string): number | null {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw validationFailed(`${name}: Value must be a positive integer`);
  return n;
}

/** An RFC 3339 time parameter (`updated_since`, `updated_until`) as epoch ms, or null. */
export function timeParam(c: Context, name: string): number | null {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return null;
  const t = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || !Number.isFinite(t)) throw validationFailed(`${name}: Value must be a date-time in RFC3339 format`);
  return t;
}

/** A comma-separated list parameter (`include_fields`, `custom_fields`). */
export function listParam(c: Context, name: string): string[] {
  return (c.req.query(name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}
