/**
 * The official `pipedrive` client (v1 and v2 namespaces), set up for the connector: the credentials of
 * one call (a personal API token as `x-api-token`, or an OAuth access token as a bearer), the company's
 * API host, and answers read with their status and rate-limit headers. The client's own interceptors
 * hand back bare bodies and reject with bare error bodies (no status, no headers): they are replaced on
 * each API object by ones that keep both, so 429s, expired tokens and the daily budget can be told apart.
 */
import type { AxiosError, AxiosInstance, AxiosResponse } from 'axios';
import * as v1 from 'pipedrive/v1';
import * as v2 from 'pipedrive/v2';
import { CrmError } from '../errors.js';
import { RATE_LIMIT_HEADERS, type PipedriveErrorBody } from './model/index.js';

export type TokenKind = 'api_token' | 'oauth';

/** A personal API token is 40 hex characters; anything else is an OAuth access token. */
export function tokenKindOf(token: string, hasInstanceUrl: boolean): TokenKind {
  return !hasInstanceUrl && /^[0-9a-f]{40}$/i.test(token.trim()) ? 'api_token' : 'oauth';
}

/** What the rate-limit headers of the last answer said. */
export interface RateLimitState {
  /** requests per 2 s window for this token */
  burstLimit?: number;
  burstRemaining?: number;
  /** the company's daily token budget and what is left of it */
  dailyLimit?: number;
  dailyRemaining?: number;
  at: number;
}

/** An HTTP failure with what Pipedrive answered (or no `status` when nothing came back). */
export class PipedriveHttpError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly body: unknown,
    readonly headers: Record<string, string>,
    readonly networkCode?: string,
    options?: { cause?: unknown },
  ) {
    super(`Pipedrive answered ${status ?? networkCode ?? 'nothing'}`, options);
    this.name = 'PipedriveHttpError';
  }
}

function headerMap(h: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h || typeof h !== 'object') return out;
  for (const [k, v] of Object.entries(h as Record<string, unknown>)) if (v !== undefined && v !== null) out[k.toLowerCase()] = String(v);
  return out;
}

function readRateLimits(headers: Record<string, string>, now: number): RateLimitState | null {
  const num = (k: string) => (headers[k] === undefined ? undefined : Number(headers[k]));
  const state: RateLimitState = {
    burstLimit: num(RATE_LIMIT_HEADERS.burstLimit),
    burstRemaining: num(RATE_LIMIT_HEADERS.burstRemaining),
    dailyLimit: num(RATE_LIMIT_HEADERS.dailyLimit),
    dailyRemaining: num(RATE_LIMIT_HEADERS.dailyRemaining),
    at: now,
  };
  return Object.values(state).some((v, i) => i < 4 && v !== undefined) ? state : null;
}

export interface PipedriveApis {
  filters: v1.FiltersApi;
  personFields: v1.PersonFieldsApi;
  organizationFields: v1.OrganizationFieldsApi;
  dealFields: v1.DealFieldsApi;
  users: v1.UsersApi;
  persons: v2.PersonsApi;
  organizations: v2.OrganizationsApi;
  deals: v2.DealsApi;
}

export interface ClientOptions {
  /** the company's API host (OAuth api_domain), https://api.pipedrive.com, or a sandbox */
  baseUrl: string;
  token: string;
  kind: TokenKind;
  /** called with every answer's rate-limit headers */
  onRateLimits?: (state: RateLimitState) => void;
  now?: () => number;
}

/** The API objects for one call's credentials. */
export function pipedriveApis(options: ClientOptions): PipedriveApis {
  const base = options.baseUrl.replace(/\/+$/, '');
  const auth = options.kind === 'api_token' ? { apiKey: options.token } : { accessToken: options.token };
  const c1 = new v1.Configuration({ ...auth, basePath: `${base}/api/v1` });
  const c2 = new v2.Configuration({ ...auth, basePath: `${base}/api/v2` });
  const now = options.now ?? Date.now;
  const instrument = <T>(api: T): T => {
    const axios = (api as unknown as { axios: AxiosInstance }).axios;
    axios.interceptors.response.clear();
    axios.interceptors.response.use(
      (res: AxiosResponse) => {
        const headers = headerMap(res.headers);
        const limits = readRateLimits(headers, now());
        if (limits) options.onRateLimits?.(limits);
        // A body cut short arrives as a string (axios parses JSON silently): not an answer.
        if (typeof res.data === 'string' && res.data !== '') throw new PipedriveHttpError(res.status, res.data, headers, 'INCOMPLETE_BODY');
        return res.data;
      },
      (err: AxiosError) => {
        if (err instanceof PipedriveHttpError) return Promise.reject(err);
        const res = err.response;
        if (res) {
          const headers = headerMap(res.headers);
          const limits = readRateLimits(headers, now());
          if (limits) options.onRateLimits?.(limits);
          return Promise.reject(new PipedriveHttpError(res.status, res.data, headers, undefined, { cause: err }));
        }
        return Promise.reject(new PipedriveHttpError(undefined, undefined, {}, err.code ?? 'NETWORK', { cause: err }));
      },
    );
    return api;
  };
  return {
    filters: instrument(new v1.FiltersApi(c1)),
    personFields: instrument(new v1.PersonFieldsApi(c1)),
    organizationFields: instrument(new v1.OrganizationFieldsApi(c1)),
    dealFields: instrument(new v1.DealFieldsApi(c1)),
    users: instrument(new v1.UsersApi(c1)),
    persons: instrument(new v2.PersonsApi(c2)),
    organizations: instrument(new v2.OrganizationsApi(c2)),
    deals: instrument(new v2.DealsApi(c2)),
  };
}

/** Milliseconds until the next midnight UTC (when Pipedrive's daily budget starts again). */
export function msUntilMidnightUtc(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - now;
}

/** Categories the connector sets on its CrmErrors. */
export const ERROR_CATEGORIES = {
  invalidApiToken: 'INVALID_API_TOKEN',
  oauthToken: 'OAUTH_TOKEN',
  scope: 'SCOPE_MISMATCH',
  burst: 'BURST_LIMIT',
  daily: 'DAILY_BUDGET',
  notFound: 'NOT_FOUND',
} as const;

/**
 * Any failure of a call as a CrmError: 401 → UNAUTHORIZED (an OAuth token is refreshed once by the call
 * policy), 403 → UNAUTHORIZED (the app lacks a scope) or, as a non-JSON block page, RATE_LIMITED;
 * 429 → RATE_LIMITED (the daily budget: until midnight UTC; the burst window: Retry-After /
 * x-ratelimit-reset); other 4xx → VALIDATION (a request the product built that Pipedrive refused: its
 * answer is kept in `details` for the log, never shown); 5xx, network, bodies cut short → UNAVAILABLE.
 */
export function toPipedriveCrmError(raw: unknown, operation: string, kind: TokenKind, now = Date.now()): CrmError {
  if (raw instanceof CrmError) return raw;
  if (!(raw instanceof PipedriveHttpError)) throw raw;
  const body = (raw.body && typeof raw.body === 'object' ? raw.body : {}) as Partial<PipedriveErrorBody>;
  const said = typeof body.error === 'string' ? body.error : undefined;
  const status = raw.status;
  if (status === undefined || raw.networkCode === 'INCOMPLETE_BODY') {
    return new CrmError('UNAVAILABLE', raw.networkCode === 'INCOMPLETE_BODY' ? `Pipedrive sent an incomplete response (${operation})` : `Pipedrive could not be reached (${operation})`, {
      status, category: raw.networkCode, cause: raw,
    });
  }
  if (status === 401) {
    return kind === 'api_token'
      ? new CrmError('UNAUTHORIZED', 'Pipedrive does not accept this API token (it may have been regenerated).', { status, category: ERROR_CATEGORIES.invalidApiToken, revoked: true, cause: raw })
      : new CrmError('UNAUTHORIZED', `Pipedrive refused the access token: ${said ?? 'unauthorized'}`, { status, category: ERROR_CATEGORIES.oauthToken, cause: raw });
  }
  if (status === 403) {
    if (typeof raw.body !== 'object' || raw.body === null) {
      return new CrmError('RATE_LIMITED', `Pipedrive is blocking requests for a while (${operation})`, { status, retryAfterMs: 60_000, cause: raw });
    }
    return new CrmError('UNAUTHORIZED', 'The Pipedrive connection lacks a permission the product needs (reconnect and grant contacts and deals access).', {
      status, category: ERROR_CATEGORIES.scope, cause: raw,
    });
  }
  if (status === 429) {
    if (raw.headers[RATE_LIMIT_HEADERS.dailyRemaining] === '0') {
      return new CrmError('RATE_LIMITED', "Pipedrive's daily API budget for this company is used up; it starts again at midnight UTC.", {
        status, category: ERROR_CATEGORIES.daily, retryAfterMs: msUntilMidnightUtc(now), cause: raw,
      });
    }
    const seconds = Number(raw.headers['retry-after'] ?? raw.headers[RATE_LIMIT_HEADERS.burstReset] ?? 2);
    return new CrmError('RATE_LIMITED', `Pipedrive's rate limit was reached (${operation})`, {
      status, category: ERROR_CATEGORIES.burst, retryAfterMs: Math.max(0, (Number.isFinite(seconds) ? seconds : 2) * 1000), cause: raw,
    });
  }
  if (status === 404) return new CrmError('VALIDATION', `Pipedrive has no such record (${operation})`, { status, category: ERROR_CATEGORIES.notFound, details: body, cause: raw });
  if (status >= 500) return new CrmError('UNAVAILABLE', `Pipedrive is unavailable (${status}, ${operation})`, { status, cause: raw });
  return new CrmError('VALIDATION', `Pipedrive refused a request the product built (${operation}).`, { status, details: body, cause: raw });
}
