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
  ) {
    super(message);
  }

  static fromNotice(notice: Notice, hint?: string): CliError {
    return new CliError(`${notice.title}: ${notice.body}`, hint);
  }
}

export interface Failure {
  exitCode: number;
  /** One line; empty when the message was already written (commander's usage errors). */
  message: string;
  /** Only for failures that are bugs, shown with CRM_DEBUG=1. */
  stack?: string;
}

const SERVER_CODES = new Set(['NETWORK_ERROR', 'INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE', 'CRM_ERROR', 'QUERY_TOO_COMPLEX']);

function fromClientError(err: GraphQLClientError): Failure {
  const oneLine = err.message.replace(/\s+/g, ' ').trim();
  if (err.code === 'ACCOUNT_SUSPENDED') return { exitCode: EXIT.user, message: `Account suspended: ${accountSuspended(oneLine).body}` };
  if (err.code === 'UNAUTHENTICATED') {
    return { exitCode: EXIT.user, message: 'Not signed in: the server does not accept the saved token (signed out, revoked or expired). Run crm login.' };
  }
  if (SERVER_CODES.has(err.code) || err.isServerProblem) {
    const what = err.code === 'NETWORK_ERROR' ? oneLine : err.code === 'CRM_ERROR' ? `The CRM did not answer: ${oneLine}` : `The server failed: ${oneLine}`;
    return { exitCode: EXIT.server, message: what };
  }
  return { exitCode: EXIT.user, message: oneLine };
}

export function toFailure(err: unknown): Failure {
  if (err instanceof CliError) {
    const sep = /[.!?:]$/.test(err.message) ? ' ' : '. ';
    return { exitCode: err.exitCode, message: err.hint ? `${err.message}${sep}${err.hint}` : err.message };
  }
  if (err instanceof CommanderError) {
    // Commander has written its usage error (or the help) already.
    return { exitCode: err.exitCode === 0 ? EXIT.ok : EXIT.user, message: '' };
  }
  if (isClientError(err)) return fromClientError(err);
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.code === 'EACCES' || e?.code === 'ENOENT' || e?.code === 'EISDIR' || e?.code === 'ENOTDIR' || e?.code === 'EEXIST') {
    return { exitCode: EXIT.user, message: e.message };
  }
  if (e?.code === 'EPIPE') return { exitCode: EXIT.ok, message: '' }; // the reader went away (crm … | head)
  return { exitCode: EXIT.server, message: `Unexpected error: ${e?.message ?? String(err)} (CRM_DEBUG=1 shows the stack)`, stack: e?.stack };
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
      throw new CliError(`${title}: ${err.message.replace(/\s+/g, ' ').trim()}`);
    }
    throw err;
  }
}
