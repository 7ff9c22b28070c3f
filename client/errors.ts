// The one error type both clients (web and CLI) see: built from a GraphQL error's `extensions.code`
// (the server's codes: BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN, ACCOUNT_SUSPENDED, NOT_FOUND,
// CONFLICT, QUOTA_EXCEEDED, RATE_LIMITED, CRM_ERROR, ...), or NETWORK_ERROR when the server could
// not be reached or answered something that is not GraphQL.
export type ClientErrorCode = string;

export interface GraphQLErrorShape {
  message: string;
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

export class GraphQLClientError extends Error {
  override name = 'GraphQLClientError';
  constructor(
    message: string,
    readonly code: ClientErrorCode,
    /** The error's extensions (e.g. `used`, `limit`, `tier` of QUOTA_EXCEEDED; `field` of BAD_USER_INPUT). */
    readonly details: Record<string, unknown> = {},
    /** Every GraphQL error of the response, the first of which made this one. */
    readonly errors: readonly GraphQLErrorShape[] = [],
    /** HTTP status, when there was a response. */
    readonly status?: number,
  ) {
    super(message);
  }

  /** A server or network problem rather than something the user can fix. */
  get isServerProblem(): boolean {
    return this.code === 'NETWORK_ERROR' || this.code === 'INTERNAL_SERVER_ERROR' || this.code === 'SERVICE_UNAVAILABLE' || (this.status ?? 0) >= 500;
  }
}

export function fromGraphQLErrors(errors: readonly GraphQLErrorShape[], status?: number): GraphQLClientError {
  const first = errors[0] ?? { message: 'Unknown error' };
  const { code, ...details } = (first.extensions ?? {}) as { code?: unknown } & Record<string, unknown>;
  return new GraphQLClientError(first.message, typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR', details, errors, status);
}

export const networkError = (message: string, status?: number) => new GraphQLClientError(message, 'NETWORK_ERROR', {}, [], status);

export const isClientError = (e: unknown): e is GraphQLClientError => e instanceof GraphQLClientError;
