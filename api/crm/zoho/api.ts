/**
 * Zoho CRM's REST API as the connector uses it (COQL, field metadata, org, current user), over fetch,
 * every call through the shared call policy (call-policy.ts: one refresh on an expired token, retries of
 * what is transient within a deadline) and the org's budget (budget.ts: credits and concurrency).
 * Answers of Zoho read as CrmErrors (`toZohoCrmError`); a malformed query is a bug of ours: its details
 * go to the error's `details` (for the log), never to the message a user sees.
 */
import type { AccessTokenProvider } from '../connector.js';
import { CallPolicy } from '../call-policy.js';
import { CrmError, QUOTA_EXHAUSTED } from '../errors.js';
import type { ZohoBudget } from './budget.js';

export const ZOHO_API_VERSION = 'v7';

/** A non-2xx answer of Zoho's API. */
export class ZohoHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { code?: string; message?: string; details?: Record<string, unknown> } | null,
    readonly headers: Headers,
  ) {
    super(`Zoho answered ${status}${body?.code ? ` ${body.code}` : ''}`);
    this.name = 'ZohoHttpError';
  }
}

const QUERY_BUGS = new Set(['SYNTAX_ERROR', 'INVALID_QUERY', 'LIMIT_EXCEEDED', 'DUPLICATE_DATA', 'INVALID_DATA', 'REQUIRED_PARAM_MISSING', 'INVALID_MODULE']);

/** A failure of a Zoho call as a CrmError. Programming errors are rethrown. */
export function toZohoCrmError(raw: unknown, operation: string): CrmError {
  if (raw instanceof CrmError) return raw;
  if (raw instanceof ZohoHttpError) {
    const code = raw.body?.code;
    const opts = { status: raw.status, category: code, details: { operation, ...(raw.body?.details ? { zoho: raw.body.details } : {}) } };
    if (raw.status === 401) {
      if (code === 'OAUTH_SCOPE_MISMATCH') return new CrmError('UNAUTHORIZED', 'The Zoho connection lacks a permission the product needs. Reconnect Zoho.', opts);
      return new CrmError('UNAUTHORIZED', 'Zoho did not accept the connection. Reconnect Zoho.', opts);
    }
    if (raw.status === 429 || code === 'LIMIT_REACHED') {
      if (code === 'LIMIT_REACHED') {
        const reset = Date.parse(String(raw.body?.details?.reset_time ?? ''));
        const retryAfterMs = Number.isFinite(reset) ? Math.max(0, reset - Date.now()) : 3_600_000;
        // A spent daily budget keeps its own words to the user (api/errors.ts), not the generic "rate limiting".
        return new CrmError('RATE_LIMITED', "Zoho's API credits for the last 24 hours are used up. Try again later.", { ...opts, category: QUOTA_EXHAUSTED, retryAfterMs });
      }
      const retryAfter = Number(raw.headers.get('retry-after'));
      return new CrmError('RATE_LIMITED', 'Zoho is busy with other requests of this account. Try again in a moment.', {
        ...opts,
        ...(Number.isFinite(retryAfter) && retryAfter >= 0 && raw.headers.has('retry-after') ? { retryAfterMs: retryAfter * 1000 } : {}),
      });
    }
    if (raw.status >= 500) return new CrmError('UNAVAILABLE', `Zoho is not answering properly (${raw.status}). Try again in a moment.`, opts);
    if (code && QUERY_BUGS.has(code)) return new CrmError('VALIDATION', 'Zoho could not run this search.', opts);
    if (raw.status === 403 || code === 'NO_PERMISSION') return new CrmError('UNAUTHORIZED', 'The Zoho user of this connection may not read these records.', opts);
    return new CrmError('VALIDATION', `Zoho refused the request (${raw.status}).`, opts);
  }
  if (raw instanceof Error && (raw.name === 'TypeError' || raw.name === 'AbortError' || raw.name === 'TimeoutError' || raw.name === 'SyntaxError' || 'code' in raw)) {
    return new CrmError('UNAVAILABLE', 'Zoho could not be reached. Try again in a moment.', { cause: raw, details: { operation } });
  }
  throw raw;
}

export const isExpiredZohoToken = (err: CrmError) => err.code === 'UNAUTHORIZED' && err.category === 'INVALID_TOKEN';

export interface ZohoApiOptions {
  /** the account's API domain (`https://www.zohoapis.eu`, or the sandbox's `/api/{dc}`) */
  apiDomain: string;
  getAccessToken: AccessTokenProvider;
  policy: CallPolicy;
  budget: ZohoBudget;
}

export interface CoqlPage {
  data: Record<string, unknown>[];
  more: boolean;
}

export class ZohoApi {
  /** calls sent (for the benchmark's "API calls per question") */
  calls = 0;
  /** credits charged by Zoho for those calls, as Zoho's prices say */
  credits = 0;

  constructor(private readonly options: ZohoApiOptions) {}

  private async request<T>(operation: string, path: string, init: { method: 'GET' | 'POST'; body?: unknown; credits: number }): Promise<T | null> {
    const url = `${this.options.apiDomain}/crm/${ZOHO_API_VERSION}${path}`;
    const limiter = this.options.budget.limiter(init.credits);
    return this.options.policy.run(
      operation,
      async ({ forceRefresh }) => this.options.getAccessToken({ forceRefresh }),
      async (token) => {
        this.calls++;
        this.credits += init.credits;
        const res = await fetch(url, {
          method: init.method,
          headers: { authorization: `Zoho-oauthtoken ${token}`, accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
          ...(init.body ? { body: JSON.stringify(init.body) } : {}),
        });
        this.options.budget.observe(res.headers);
        if (res.status === 204) return null;
        const text = await res.text();
        let body: unknown = null;
        if (text) body = JSON.parse(text); // a cut body is a SyntaxError: UNAVAILABLE, retried
        if (!res.ok) throw new ZohoHttpError(res.status, body as ZohoHttpError['body'], res.headers);
        return body as T;
      },
      limiter,
    );
  }

  /** One COQL call (`credits`: 1 up to LIMIT 200, 2 up to 1,000, 3 up to 2,000). */
  async coql(query: string, limit: number): Promise<CoqlPage> {
    const credits = limit <= 200 ? 1 : limit <= 1000 ? 2 : 3;
    const body = await this.request<{ data?: Record<string, unknown>[]; info?: { more_records?: boolean } }>('coql', '/coql', { method: 'POST', body: { select_query: query }, credits });
    return { data: body?.data ?? [], more: Boolean(body?.info?.more_records) };
  }

  async fields(module: string): Promise<ZohoFieldMeta[]> {
    const body = await this.request<{ fields?: ZohoFieldMeta[] }>('fields', `/settings/fields?module=${encodeURIComponent(module)}`, { method: 'GET', credits: 1 });
    return body?.fields ?? [];
  }

  async org(): Promise<ZohoOrg> {
    const body = await this.request<{ org?: ZohoOrg[] }>('org', '/org', { method: 'GET', credits: 1 });
    const org = body?.org?.[0];
    if (!org) throw new CrmError('UNAVAILABLE', 'Zoho did not describe the organization.');
    return org;
  }

  async currentUser(): Promise<{ id: string; email?: string; full_name?: string } | null> {
    const body = await this.request<{ users?: { id: string; email?: string; full_name?: string }[] }>('users', '/users?type=CurrentUser', { method: 'GET', credits: 1 });
    return body?.users?.[0] ?? null;
  }
}

export interface ZohoFieldMeta {
  api_name: string;
  field_label: string;
  data_type: string;
  custom_field?: boolean;
  tooltip?: { value?: string } | null;
  pick_list_values?: { display_value: string; actual_value: string }[];
  lookup?: { module?: { api_name?: string } };
}

export interface ZohoOrg {
  id: string;
  zgid?: string;
  company_name?: string;
  license_details?: { paid_type?: string; users_license_purchased?: number };
}
