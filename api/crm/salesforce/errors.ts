/**
 * Salesforce's failures as the product's CrmErrors (the shared call policy retries RATE_LIMITED and
 * UNAVAILABLE, refreshes once on an expired session, and gives up on the rest):
 *
 *   401 INVALID_SESSION_ID            → UNAUTHORIZED (category INVALID_SESSION_ID: refresh once)
 *   403 REQUEST_LIMIT_EXCEEDED        → RATE_LIMITED: the daily allocation (no retry today: its wait is
 *                                       beyond any call's deadline) or the concurrent-request limit
 *                                       (retried after a short wait)
 *   MALFORMED_QUERY, INVALID_FIELD …  → VALIDATION with a plain message; the query and Salesforce's text
 *                                       go to `details` for the log, never to the user
 *   5xx, SERVER_UNAVAILABLE, network,
 *   a body cut short                  → UNAVAILABLE ("Salesforce … cannot be reached")
 */
import { CrmError, QUOTA_EXHAUSTED } from '../errors.js';

/** What jsforce throws for an API error (its name is Salesforce's errorCode). */
interface JsforceError {
  name?: string;
  errorCode?: string;
  message?: string;
  data?: unknown;
  code?: string;
  type?: string;
}

const QUERY_BUGS = new Set([
  'MALFORMED_QUERY', 'INVALID_FIELD', 'INVALID_TYPE', 'INVALID_QUERY_FILTER_OPERATOR', 'NUMBER_OUTSIDE_VALID_RANGE',
  'EXCEEDED_ID_LIMIT', 'INVALID_QUERY_LOCATOR', 'QUERY_TOO_COMPLICATED', 'JSON_PARSER_ERROR', 'ERROR_HTTP_414', 'ERROR_HTTP_431',
]);

/** One hour: longer than any call's retry deadline, so the daily limit is not retried. */
export const DAILY_LIMIT_WAIT_MS = 3_600_000;

export function dailyLimitMessage(used?: number, max?: number): string {
  const usage = used !== undefined && max !== undefined ? ` (${used.toLocaleString('en-US')} of ${max.toLocaleString('en-US')})` : '';
  return `Your Salesforce org has used its daily API request allocation${usage}. Salesforce frees requests over a rolling 24 hours; try again later.`;
}

export function toCrmError(raw: unknown, operation: string): CrmError {
  if (raw instanceof CrmError) return raw;
  const e = (raw ?? {}) as JsforceError;
  const code = e.errorCode ?? e.name ?? '';
  const message = String(e.message ?? raw);
  if (code === 'INVALID_SESSION_ID' || code === 'INVALID_AUTH_HEADER') {
    return new CrmError('UNAUTHORIZED', 'Salesforce no longer accepts this session. Connect Salesforce again.', { status: 401, category: 'INVALID_SESSION_ID', cause: raw });
  }
  if (code === 'ERROR_HTTP_403' && message.includes('Bad_OAuth_Token')) {
    return new CrmError('UNAUTHORIZED', 'Salesforce does not recognise this access token.', { status: 403, category: 'INVALID_SESSION_ID', cause: raw });
  }
  if (code === 'API_DISABLED_FOR_ORG' || code === 'API_CURRENTLY_DISABLED' || code === 'INSUFFICIENT_ACCESS') {
    return new CrmError('UNAUTHORIZED', 'This Salesforce user may not use the API (the "API Enabled" permission is needed).', { status: 403, category: code, cause: raw });
  }
  if (code === 'REQUEST_LIMIT_EXCEEDED') {
    if (message.includes('Concurrent')) {
      return new CrmError('RATE_LIMITED', 'Salesforce is busy with too many long-running requests of your org; retrying shortly.', {
        status: 403, category: 'CONCURRENT_REQUESTS', retryAfterMs: 2000, cause: raw,
      });
    }
    return new CrmError('RATE_LIMITED', dailyLimitMessage(), { status: 403, category: QUOTA_EXHAUSTED, retryAfterMs: DAILY_LIMIT_WAIT_MS, cause: raw });
  }
  if (QUERY_BUGS.has(code)) {
    // A query the connector built and Salesforce refused is a bug of the product (or a field-map
    // choice the org does not have): say so plainly, keep Salesforce's text for the log.
    const fieldMapHint = code === 'INVALID_FIELD' ? ' If you chose fields in the CRM Integration field map, check that your org has them.' : '';
    return new CrmError('VALIDATION', `Salesforce could not run this query (${code}).${fieldMapHint} The details were logged.`, {
      category: code, details: { operation, salesforce: message }, cause: raw,
    });
  }
  if (code === 'NOT_FOUND' || code === 'ERROR_HTTP_404') {
    return new CrmError('UNAVAILABLE', 'Salesforce answered "not found": check the instance URL of the connection.', { status: 404, category: code, cause: raw });
  }
  if (/^ERROR_HTTP_5\d\d$/.test(code) || code === 'SERVER_UNAVAILABLE' || code === 'UNKNOWN_EXCEPTION') {
    return new CrmError('UNAVAILABLE', 'Salesforce is temporarily unavailable.', { category: code, cause: raw });
  }
  if (e.name === 'FetchError' || e.code || e.name === 'AbortError' || e.type === 'system') {
    return new CrmError('UNAVAILABLE', 'Your Salesforce org cannot be reached.', { category: e.code ?? 'NETWORK', cause: raw });
  }
  if (raw instanceof Error && (raw.name === 'IncompleteResponseError' || raw instanceof SyntaxError)) {
    // a body cut short (not JSON, or not what Salesforce sends): transient
    return new CrmError('UNAVAILABLE', 'Salesforce sent an incomplete response.', { category: 'INCOMPLETE_RESPONSE', cause: raw });
  }
  if (code) return new CrmError('VALIDATION', `Salesforce refused the request (${code}).`, { category: code, details: { operation, salesforce: message }, cause: raw });
  throw raw;
}
