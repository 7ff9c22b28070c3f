/**
 * Pipedrive-shaped errors. API errors (v1 and v2) answer
 * `{ success: false, error, errorCode?, error_info, data: null, additional_data: null }` (v2 validation
 * errors add a `code`); the OAuth token endpoint answers `{ success: false, error: "invalid_grant", message }`.
 */
import type { PipedriveErrorBody, PipedriveOAuthErrorBody } from '../pipedrive/model/index.js';

export const ERROR_INFO = 'Please check developers.pipedrive.com for more information about Pipedrive API.';

/** An error the sandbox answers with a given status, body and headers. */
export class PipedriveApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: PipedriveErrorBody | PipedriveOAuthErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super('error' in body ? `${body.error}${'message' in body ? `: ${body.message}` : ''}` : 'error');
    this.name = 'PipedriveApiError';
  }
}

function apiError(status: number, error: string, extra: Partial<PipedriveErrorBody> = {}, headers: Record<string, string> = {}): PipedriveApiError {
  return new PipedriveApiError(status, { success: false, error, ...extra, error_info: ERROR_INFO, data: null, additional_data: null }, headers);
}

export const badRequest = (error: string) => apiError(400, error, { errorCode: 400 });
/** v2 parameter validation (`code: ERR_SCHEMA_VALIDATION_FAILED`). */
export const validationFailed = (error: string) => apiError(400, `Validation failed: ${error}`, { code: 'ERR_SCHEMA_VALIDATION_FAILED' });
export const notFound = (error: string) => apiError(404, error, { errorCode: 404 });
export const unauthorized = () => apiError(401, 'unauthorized access', { errorCode: 401 });
export const expiredToken = () => apiError(401, 'Invalid token: access token has expired', { errorCode: 401 });
export const invalidToken = () => apiError(401, 'Invalid token: access token is invalid', { errorCode: 401 });
export const scopeMismatch = () => apiError(403, 'Scope and URL mismatch', { errorCode: 403 });

export function burstLimited(headers: Record<string, string>): PipedriveApiError {
  return apiError(429, 'Request over limit', { errorCode: 429 }, headers);
}

export function dailyBudgetExhausted(headers: Record<string, string>): PipedriveApiError {
  return apiError(429, 'Daily API token budget exceeded', { errorCode: 429 }, headers);
}

export function oauthError(status: number, error: PipedriveOAuthErrorBody['error'], message: string): PipedriveApiError {
  return new PipedriveApiError(status, { success: false, error, message });
}
