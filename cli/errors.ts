// One error type for what the user can fix (Shopify cli-kit's AbortError), and the one place that
// turns any failure into a single line on stderr and an exit code:
//   0 ok; 1 the user's problem (bad input, refused, limit reached, signed out); 2 a server or network problem.
// Commands never call process.exit and never print errors themselves.
import { CommanderError } from 'commander';
import { isClientError, type GraphQLClientError } from '../client/index.js';
import { accountSuspended, type Notice } from '../client/messages.js';

/** 130: cancelled with Ctrl-C at a prompt, as a shell reports an interrupted command. */
export const EXIT = { ok: 0, user: 1, server: 2, cancelled: 130 } as const;

export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    /** What to do about it, appended to the line. */
    readonly hint?: string,
    readonly exitCode: number = EXIT.user,
    /** For --json callers: what kind of failure (FILE_ERROR, NOT_SIGNED_IN, …). */
    readonly code: string = exitCode === EXIT.cancelled ? 'CANCELLED' : exitCode === EXIT.server ? 'SERVER_ERROR' : 'USER_ERROR',
    /** For --json callers: what the failure is about (e.g. the choices of a question that needs one). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  static fromNotice(notice: Notice, hint?: string, code?: string): CliError {
    return new CliError(`${notice.title}: ${notice.body}`, hint, EXIT.user, code);
  }
}

export interface Failure {
  exitCode: number;
  /** One line; empty when the message was already written (commander's usage errors). */
  message: string;
  /** For --json callers: the server's error code (QUOTA_EXCEEDED, …) or the CLI's (USAGE, FILE_ERROR, …). */
  code: string;
  /** The server's details of the error (e.g. used, limit and tier of QUOTA_EXCEEDED). */
  details?: Record<string, unknown>;
  /** Only for failures that are bugs, shown with CRM_DEBUG=1. */
  stack?: string;
}

/** Codes that mean the server, the CRM or the network failed (exit 2). */
const SERVER_CODES = new Set(['NETWORK_ERROR', 'TIMEOUT', 'INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE', 'CRM_ERROR', 'QUERY_TOO_COMPLEX']);

function fromClientError(err: GraphQLClientError): Failure {
  const oneLine = err.message.replace(/\s+/g, ' ').trim();
  const failure = (exitCode: number, message: string): Failure => ({
    exitCode,
    message,
    code: err.code,
    ...(Object.keys(err.details).length ? { details: err.details } : {}),
  });
  if (err.code === 'ACCOUNT_SUSPENDED') return failure(EXIT.user, `Account suspended: ${accountSuspended(oneLine).body}`);
  if (err.code === 'UNAUTHENTICATED') {
    return failure(EXIT.user, 'Not signed in: the server does not accept the token (signed out, revoked or expired). Run crm login.');
  }
  if (SERVER_CODES.has(err.code) || err.isServerProblem) {
    const plain = err.code === 'NETWORK_ERROR' || err.code === 'TIMEOUT';
    return failure(EXIT.server, plain ? oneLine : err.code === 'CRM_ERROR' ? `The CRM did not answer: ${oneLine}` : `The server failed: ${oneLine}`);
  }
  return failure(EXIT.user, oneLine);
}

export function toFailure(err: unknown): Failure {
  if (err instanceof CliError) {
    const sep = /[.!?:]$/.test(err.message) ? ' ' : '. ';
    return { exitCode: err.exitCode, message: err.hint ? `${err.message}${sep}${err.hint}` : err.message, code: err.code, ...(err.details ? { details: err.details } : {}) };
  }
  if (err instanceof CommanderError) {
    // Commander has written its usage error (or the help) already.
    return { exitCode: err.exitCode === 0 ? EXIT.ok : EXIT.user, message: '', code: 'USAGE' };
  }
  if (isClientError(err)) return fromClientError(err);
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.code === 'EPIPE') return { exitCode: EXIT.ok, message: '', code: 'EPIPE' }; // the reader went away (crm … | head)
  return { exitCode: EXIT.server, message: `Unexpected error: ${e?.message ?? String(err)} (CRM_DEBUG=1 shows the stack)`, code: 'UNEXPECTED', stack: e?.stack };
}

/**
 * Runs `work`; a refusal the user can act on is reported under the spec's title for that action
 * ("Error creating segment: …"). Sign-in, suspension and server problems keep their own lines.
 */
export async function failingAs<T>(title: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isClientError(err) && !SERVER_CODES.has(err.code) && !err.isServerProblem && err.code !== 'UNAUTHENTICATED' && err.code !== 'ACCOUNT_SUSPENDED') {
      throw new CliError(`${title}: ${err.message.replace(/\s+/g, ' ').trim()}`, undefined, EXIT.user, err.code);
    }
    throw err;
  }
}
