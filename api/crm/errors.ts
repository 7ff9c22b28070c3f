/**
 * The CRM domain's error type. Every connector failure surfaces as a CrmError with a code the rest of
 * the product maps in one place (GraphQL / REST / jobs / CLI).
 */
export type CrmErrorCode = 'UNAUTHORIZED' | 'RATE_LIMITED' | 'VALIDATION' | 'UNAVAILABLE' | 'NOT_SUPPORTED';

export interface CrmErrorOptions {
  /** HTTP status of the CRM response, when there was one */
  status?: number;
  /** CRM-specific category / status string (e.g. HubSpot `EXPIRED_AUTHENTICATION`, `BAD_REFRESH_TOKEN`) */
  category?: string;
  correlationId?: string;
  /** milliseconds the CRM asked us to wait (429 Retry-After) */
  retryAfterMs?: number;
  /** the refresh token / grant is revoked or invalid: the user must reconnect */
  revoked?: boolean;
  details?: unknown;
  cause?: unknown;
}

export class CrmError extends Error {
  readonly code: CrmErrorCode;
  readonly status?: number;
  readonly category?: string;
  readonly correlationId?: string;
  readonly retryAfterMs?: number;
  readonly revoked: boolean;
  readonly details?: unknown;

  constructor(code: CrmErrorCode, message: string, options: CrmErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CrmError';
    this.code = code;
    this.status = options.status;
    this.category = options.category;
    this.correlationId = options.correlationId;
    this.retryAfterMs = options.retryAfterMs;
    this.revoked = options.revoked ?? false;
    this.details = options.details;
  }
}

/** The category of a RATE_LIMITED error that is a spent daily quota (its message tells the user what to expect). */
export const QUOTA_EXHAUSTED = 'DAILY_API_REQUESTS';

export function isCrmError(err: unknown): err is CrmError {
  return err instanceof CrmError;
}
