/**
 * Salesforce-shaped errors. The REST API answers errors with a JSON array of
 * `{ message, errorCode }` (some with `fields`); the OAuth endpoints with `{ error, error_description }`.
 * Query errors point into the query the way Salesforce does:
 *
 *   \nSELECT Foo FROM Contact\n       ^\nERROR at Row:1:Column:8\nNo such column 'Foo' on entity 'Contact'. ...
 */

export interface SalesforceErrorItem {
  message: string;
  errorCode: string;
  fields?: string[];
}

/** An error the sandbox answers with a given HTTP status, body and headers. */
export class SalesforceApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: SalesforceErrorItem[] | { error: string; error_description: string } | string,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'string' ? body : Array.isArray(body) ? body[0].message : body.error_description);
    this.name = 'SalesforceApiError';
  }

  get errorCode(): string {
    return Array.isArray(this.body) ? this.body[0].errorCode : typeof this.body === 'string' ? this.body : this.body.error;
  }
}

export function apiError(httpStatus: number, errorCode: string, message: string): SalesforceApiError {
  return new SalesforceApiError(httpStatus, [{ message, errorCode }]);
}

export const invalidSession = () => apiError(401, 'INVALID_SESSION_ID', 'Session expired or invalid');
export const notFound = () => apiError(404, 'NOT_FOUND', 'The requested resource does not exist');
export const invalidQueryLocator = () => apiError(400, 'INVALID_QUERY_LOCATOR', 'invalid query locator');
export const totalRequestsExceeded = () => apiError(403, 'REQUEST_LIMIT_EXCEEDED', 'TotalRequests Limit exceeded.');
export const concurrentRequestsExceeded = () => apiError(403, 'REQUEST_LIMIT_EXCEEDED', 'ConcurrentRequests (Concurrent API Requests) Limit exceeded.');
export const serverUnavailable = (status = 503) =>
  apiError(status, 'SERVER_UNAVAILABLE', 'Our servers are temporarily unavailable. Please try again later.');

/** OAuth endpoint error (`/services/oauth2/token`, `/revoke`). */
export function oauthError(error: string, description: string, httpStatus = 400): SalesforceApiError {
  return new SalesforceApiError(httpStatus, { error, error_description: description });
}

/**
 * A query error located at character `index` of the query (Salesforce prints the offending line with
 * a caret, then "ERROR at Row:r:Column:c", then the reason).
 */
export function queryError(errorCode: string, query: string, index: number, reason: string): SalesforceApiError {
  const at = Math.max(0, Math.min(index, query.length));
  const before = query.slice(0, at).split('\n');
  const row = before.length;
  const column = before[before.length - 1].length + 1;
  const line = query.split('\n')[row - 1] ?? '';
  return apiError(400, errorCode, `\n${line}\n${' '.repeat(column - 1)}^\nERROR at Row:${row}:Column:${column}\n${reason}`);
}
