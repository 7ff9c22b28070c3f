// The REST-shaped answer to an error that escaped a handler: a domain error's status and
// { error, message }, or a logged 500 that says nothing of the cause. Shared by the Hono routes and
// the /graphql endpoint (whose only such error is a credential lookup that could not reach the database).
import { asAppError, restBody } from '../errors.js';
import type { Logger } from '../logger.js';

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export function errorResponse(err: unknown, logger: Logger, path: string): ErrorResponse {
  const known = asAppError(err);
  if (known) {
    return { status: known.status, headers: known.options.retryAfter ? { 'retry-after': String(known.options.retryAfter) } : {}, body: restBody(known) };
  }
  logger.error({ err, path }, 'unhandled error');
  return { status: 500, headers: {}, body: { error: 'Internal server error', message: 'Something went wrong. Please try again.' } };
}
