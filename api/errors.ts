// Domain errors (the Twenty model): services throw AppError with a string code; this file is the one
// place that maps them to HTTP statuses, REST bodies `{ error, message }` and GraphQL errors.
import { createGraphQLError } from 'graphql-yoga';
import { isCrmError, QUOTA_EXHAUSTED } from './crm/errors.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { isSegmentationError } from './segmentation/errors.js';

export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'ACCOUNT_SUSPENDED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'CRM_ERROR'
  | 'CRM_NOT_CONNECTED'
  | 'NOT_SUPPORTED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL';

const STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  ACCOUNT_SUSPENDED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  CRM_ERROR: 502,
  CRM_NOT_CONNECTED: 409,
  NOT_SUPPORTED: 400,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

export interface AppErrorOptions {
  /** Short title for REST `error` (defaults to the message). */
  title?: string;
  /** Extra fields merged into the REST body and GraphQL extensions (e.g. used/limit). */
  details?: Record<string, unknown>;
  /** Field the problem is about, for form validation. */
  field?: string;
  /** Seconds after which a retry may succeed (429). */
  retryAfter?: number;
}

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: AppErrorOptions = {},
  ) {
    super(message);
  }
  get status(): number {
    return STATUS[this.code];
  }
}

/**
 * Whether an error code is an expected refusal (the client's doing: signed out, not allowed,
 * suspended, not found, bad input, a limit): logged at info, so the error level holds only what
 * needs fixing. Also the codes GraphQL itself and its limits give a request.
 */
export function isRefusalCode(code: unknown): boolean {
  if (typeof code !== 'string') return false;
  if (code in STATUS) return STATUS[code as ErrorCode] < 500;
  return ['QUERY_TOO_COMPLEX', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'BAD_REQUEST', 'PERSISTED_QUERY_NOT_FOUND'].includes(code);
}

export const badInput = (message: string, field?: string) => new AppError('BAD_USER_INPUT', message, { field });
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);

export function restBody(err: AppError): Record<string, unknown> {
  return {
    error: err.options.title ?? err.message,
    message: err.message,
    ...(err.options.field ? { field: err.options.field } : {}),
    ...err.options.details,
  };
}

export function toGraphQLError(err: AppError) {
  const { retryAfter } = err.options;
  return createGraphQLError(err.message, {
    extensions: {
      code: err.code,
      ...(err.options.field ? { field: err.options.field } : {}),
      ...err.options.details,
      // As REST: seconds to wait, in the body and (when the whole request failed) as Retry-After.
      ...(retryAfter ? { retryAfter } : {}),
      http: { status: err.status, ...(retryAfter ? { headers: { 'Retry-After': String(retryAfter) } } : {}) },
    },
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string) => UUID.test(v);
/** Ids in paths are uuids; anything else cannot exist, so it is a 404 rather than a database error. */
export function assertId(id: string, what: string): string {
  if (!isUuid(id)) throw notFound(`${what} not found`);
  return id;
}

/** Maps errors of other domains (CRM connector) to AppError; null for unexpected errors. */
export function asAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  // Pothos rejects a malformed id or an id of the wrong type for an argument ("ID: … is not of type: …").
  if ((err as { name?: string } | null)?.name === 'PothosValidationError') {
    return new AppError('BAD_USER_INPUT', (err as Error).message);
  }
  if (isSegmentationError(err)) return new AppError('BAD_USER_INPUT', err.message, { details: { segmentationCode: err.code } });
  if (isCrmError(err)) {
    switch (err.code) {
      case 'NOT_SUPPORTED':
        return new AppError('NOT_SUPPORTED', err.message);
      case 'VALIDATION':
        return new AppError('BAD_USER_INPUT', err.message);
      case 'UNAUTHORIZED':
        return new AppError('CRM_ERROR', err.revoked ? err.message : `The CRM rejected our credentials: ${err.message}`);
      case 'RATE_LIMITED':
        // A spent daily allocation is not a moment's throttle: the connector's message says what and why.
        if (err.category === QUOTA_EXHAUSTED) return new AppError('CRM_ERROR', err.message, { retryAfter: err.retryAfterMs ? Math.ceil(err.retryAfterMs / 1000) : undefined });
        return new AppError('CRM_ERROR', 'The CRM is rate limiting requests. Try again in a moment.', {
          retryAfter: err.retryAfterMs ? Math.ceil(err.retryAfterMs / 1000) : undefined,
        });
      default:
        return new AppError('CRM_ERROR', `Could not reach the CRM: ${err.message}`);
    }
  }
  if (isDatabaseUnavailable(err)) {
    return new AppError('SERVICE_UNAVAILABLE', 'The service is briefly unavailable. Please try again in a moment.', {
      title: 'Service unavailable',
      details: { code: 'SERVICE_UNAVAILABLE' },
      retryAfter: 1,
    });
  }
  return null;
}
