// A read that fails because the server went away mid-command (restarting, deploying, a lost
// connection) is tried again with backoff and jitter until it is back, within a deadline: a long
// export or a watched generation carries on instead of failing. Only reads (queries) are retried —
// they are idempotent; a mutation may have been applied before the connection dropped. And only once
// the server has answered in this run: a server that was never reachable fails at once (exit 2).
import pRetry from 'p-retry';
import { GraphQLClientError } from '../client/errors.js';

/** How long a read keeps trying after the server went away (CRM_RETRY_SECONDS, default 60). */
export const retryDeadlineMs = () => {
  const s = Number(process.env.CRM_RETRY_SECONDS);
  return (Number.isFinite(s) && s >= 0 ? s : 60) * 1000;
};

const TRANSIENT_STATUS = new Set([502, 503, 504]);

/**
 * The server is not there, not ready or not answering (as opposed to an answer it meant: a refusal,
 * a bad input).
 */
export const isTransient = (e: unknown) =>
  e instanceof GraphQLClientError && (e.code === 'NETWORK_ERROR' || e.code === 'SERVICE_UNAVAILABLE' || e.code === 'TIMEOUT' || TRANSIENT_STATUS.has(e.status ?? 0));

export function readRetrier(opts: { onRetry: (error: Error, attempt: number) => void; deadlineMs?: number }) {
  let reached = false;
  return async function run<T>(isRead: boolean, request: () => Promise<T>): Promise<T> {
    const result = await pRetry(request, {
      retries: 1000, // bounded by the deadline
      minTimeout: 250,
      factor: 2,
      maxTimeout: 5000,
      randomize: true,
      maxRetryTime: opts.deadlineMs ?? retryDeadlineMs(),
      shouldRetry: ({ error }) => isRead && reached && isTransient(error),
      onFailedAttempt: ({ error, attemptNumber }) => {
        if (isRead && reached && isTransient(error)) opts.onRetry(error, attemptNumber);
      },
    });
    reached = true;
    return result;
  };
}
