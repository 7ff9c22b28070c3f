/**
 * HubSpot-shaped error bodies. HubSpot's v3 APIs answer errors with
 * `{ status: "error", message, correlationId, category, ... }`; the OAuth token endpoint uses
 * `{ status: "BAD_AUTH_CODE" | ..., message, correlationId }`.
 */
import { randomUUID } from 'node:crypto';

export type HubSpotErrorCategory =
  | 'VALIDATION_ERROR'
  | 'INVALID_AUTHENTICATION'
  | 'EXPIRED_AUTHENTICATION'
  | 'MISSING_SCOPES'
  | 'OBJECT_NOT_FOUND'
  | 'RATE_LIMITS';

export interface HubSpotErrorBody {
  status: string;
  message: string;
  correlationId: string;
  category?: HubSpotErrorCategory;
  [key: string]: unknown;
}

/** An error the sandbox answers with a given HTTP status, body and headers. */
export class HubSpotApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: HubSpotErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = 'HubSpotApiError';
  }
}

export function validationError(message: string, extra: Record<string, unknown> = {}): HubSpotApiError {
  return new HubSpotApiError(400, {
    status: 'error',
    message,
    correlationId: randomUUID(),
    category: 'VALIDATION_ERROR',
    ...extra,
  });
}

export function notFoundError(message: string, extra: Record<string, unknown> = {}): HubSpotApiError {
  return new HubSpotApiError(404, { status: 'error', message, correlationId: randomUUID(), category: 'OBJECT_NOT_FOUND', ...extra });
}

export const AUTH_NOT_FOUND_MESSAGE =
  'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';

export function invalidAuthentication(): HubSpotApiError {
  return new HubSpotApiError(401, {
    status: 'error',
    message: AUTH_NOT_FOUND_MESSAGE,
    correlationId: randomUUID(),
    category: 'INVALID_AUTHENTICATION',
  });
}

export function expiredAuthentication(expiredMsAgo: number): HubSpotApiError {
  const minutes = Math.max(0, Math.floor(expiredMsAgo / 60_000));
  return new HubSpotApiError(401, {
    status: 'error',
    message: `The OAuth token used to make this call expired ${minutes} minute(s) ago.`,
    correlationId: randomUUID(),
    category: 'EXPIRED_AUTHENTICATION',
  });
}

export function missingScopes(required: string[]): HubSpotApiError {
  return new HubSpotApiError(403, {
    status: 'error',
    message: "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
    correlationId: randomUUID(),
    errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: required } }],
    links: { scopes: 'https://developers.hubspot.com/scopes' },
    category: 'MISSING_SCOPES',
  });
}

/** 429 for the search endpoints' per-second policy. `Retry-After` is in seconds (HTTP semantics). */
export function secondlyRateLimit(retryAfterSeconds: number, limit: number): HubSpotApiError {
  return new HubSpotApiError(
    429,
    {
      status: 'error',
      message: 'You have reached your secondly limit.',
      errorType: 'RATE_LIMIT',
      correlationId: randomUUID(),
      policyName: 'SECONDLY',
    },
    {
      'Retry-After': String(retryAfterSeconds),
      'X-HubSpot-RateLimit-Secondly': String(limit),
      'X-HubSpot-RateLimit-Secondly-Remaining': '0',
    },
  );
}

/** OAuth token endpoint error (`POST /oauth/v1/token`). */
export function oauthError(status: string, message: string, httpStatus = 400): HubSpotApiError {
  return new HubSpotApiError(httpStatus, { status, message, correlationId: randomUUID() });
}
