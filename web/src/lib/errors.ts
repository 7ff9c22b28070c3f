// What the UI reads from a failed GraphQL call: the server's code and message (client/errors.ts).
import { GraphQLClientError } from '../../../client/errors.js';

export const codeOf = (e: unknown): string | undefined => (e instanceof GraphQLClientError ? e.code : undefined);

/** The server's message, or the fallback when there is none (network failure, unexpected error). */
export function messageOf(e: unknown, fallback: string): string {
  if (e instanceof GraphQLClientError && e.code !== 'INTERNAL_SERVER_ERROR' && e.code !== 'NETWORK_ERROR' && e.message) return e.message;
  return fallback;
}

export function detailsOf(e: unknown): Record<string, unknown> {
  return e instanceof GraphQLClientError ? e.details : {};
}

/** Per-field messages of a BAD_USER_INPUT error (`extensions.fields`). */
export function fieldErrors(e: unknown): Record<string, string> {
  const d = detailsOf(e);
  const fields = (d.fields as Record<string, string> | undefined) ?? {};
  if (typeof d.field === 'string' && e instanceof Error && !fields[d.field]) fields[d.field] = e.message;
  return fields;
}
