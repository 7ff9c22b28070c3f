/**
 * Zoho-shaped error bodies. The CRM API answers `{ code, details, message, status: "error" }`; the
 * accounts server's token endpoint answers `{ error: "invalid_code" }` and the like (with HTTP 200 for
 * most grant problems, as Zoho does).
 */
export interface ZohoErrorBody {
  code: string;
  details: Record<string, unknown>;
  message: string;
  status: 'error';
}

/** An error the sandbox answers with a given HTTP status, body and headers. */
export class ZohoApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: ZohoErrorBody | Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String((body as { message?: unknown; error?: unknown }).message ?? (body as { error?: unknown }).error));
    this.name = 'ZohoApiError';
  }
}

export function apiError(httpStatus: number, code: string, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): ZohoApiError {
  return new ZohoApiError(httpStatus, { code, details, message, status: 'error' }, headers);
}

export const invalidToken = () => apiError(401, 'INVALID_TOKEN', 'invalid oauth token');
export const authenticationFailure = () => apiError(401, 'AUTHENTICATION_FAILURE', 'Authentication failed');
export const scopeMismatch = (required: string) => apiError(401, 'OAUTH_SCOPE_MISMATCH', 'invalid oauth scope to access this URL', { required });
export const invalidData = (message: string, details: Record<string, unknown> = {}) => apiError(400, 'INVALID_DATA', message, details);
export const requiredParamMissing = (param: string) => apiError(400, 'REQUIRED_PARAM_MISSING', 'One of the expected parameter is missing', { param });
export const invalidModule = (module: string) => apiError(400, 'INVALID_MODULE', 'the module name given seems to be invalid', { module });

/**
 * COQL: the query does not parse (details: where, as `{ near, line, column }`) or uses syntax outside
 * COQL's subset (details: `{ clause }`), as the COQL error details of Zoho's SDKs have them.
 */
export const parseError = (near: string, line: number, column: number) => apiError(400, 'SYNTAX_ERROR', 'error occured while parsing the query', { near, line, column });
export const syntaxError = (clause: string) => apiError(400, 'SYNTAX_ERROR', 'error occured while parsing the query', { clause });
/** COQL: the query parses but Zoho refuses it; messages and detail keys are Zoho's. */
export const invalidColumn = (column_name: string) => apiError(400, 'INVALID_QUERY', 'column given seems to be invalid', { column_name });
export const invalidValue = (column_name: string, expected_data_type: string) =>
  apiError(400, 'INVALID_QUERY', 'value given seems to be invalid for the column', { column_name, expected_data_type });
export const invalidQuery = (reason: string, details: Record<string, unknown> = {}) => apiError(400, 'INVALID_QUERY', 'invalid query formed', { reason, ...details });
export const limitExceeded = (by: string, limit: number) => apiError(400, 'LIMIT_EXCEEDED', 'limit exceeded', { by, limit });

/** Accounts-server errors (`POST /oauth/v2/token`): HTTP 200 with `{ error }` unless told otherwise. */
export const oauthError = (error: string, httpStatus = 200, extra: Record<string, unknown> = {}) => new ZohoApiError(httpStatus, { error, ...extra });
