/**
 * How every CRM call is made, in one place for every connector: the account's request budget (a
 * throttle shared by every connector instance and, with Redis, every process), one attempt's time
 * limit, one token refresh when the CRM says the access token expired, and retries of what is
 * transient (429 honouring Retry-After, 5xx, network errors, bodies cut short) with capped exponential
 * backoff and jitter, never starting a retry that would end after the call's deadline.
 *
 * A connector supplies what is its own: how its client's failures read as CrmErrors, which error
 * means "refresh the token", its name for messages, and its limits (`CrmLimits`).
 */
import { CrmError } from './errors.js';
import { realClock, type LimiterClock, type SearchLimiter } from './hubspot/rate-limiter.js';

/** A CRM's published request limits, as the product paces itself against them. */
export interface CrmLimits {
  /** requests per `windowMs` per account on the budgeted endpoints */
  requests: number;
  windowMs: number;
}

export interface CallPolicyOptions {
  /** the CRM's name in messages ("HubSpot did not answer within 30 s") */
  crmName: string;
  /** maps a failure of the CRM's client (or fetch) to a CrmError; rethrows programming errors */
  toCrmError: (raw: unknown, operation: string) => CrmError;
  /** whether this error means the access token expired (refresh once, then retry) */
  isExpiredToken?: (err: CrmError) => boolean;
  clock?: LimiterClock;
  random?: () => number;
  /** attempts per call including the first (default 6) */
  maxAttempts?: number;
  /** first backoff step (default 500 ms), doubled per attempt */
  baseBackoffMs?: number;
  /** backoff cap (default 30 s) */
  maxBackoffMs?: number;
  /** one attempt's time limit, body included (default 30 s) */
  requestTimeoutMs?: number;
  /** no retry starts whose wait would end later than this after the call's first attempt (default 60 s) */
  retryDeadlineMs?: number;
  /** called before each retry */
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; error: CrmError }) => void;
}

export class CallPolicy {
  readonly clock: LimiterClock;
  private readonly random: () => number;
  private readonly maxAttempts: number;
  private readonly baseBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly requestTimeoutMs: number;
  private readonly retryDeadlineMs: number;

  constructor(private readonly options: CallPolicyOptions) {
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 6);
    this.baseBackoffMs = options.baseBackoffMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.retryDeadlineMs = options.retryDeadlineMs ?? 60_000;
  }

  /**
   * Runs one CRM call. Each attempt first `prepare`s what it needs (a client with a current token;
   * `forceRefresh` is set after the CRM said the token expired), then takes a token of `limiter` (the
   * account's budget, when the call is budgeted) just before `send` makes the request, and counts it
   * until the answer.
   */
  async run<C, T>(
    operation: string,
    prepare: (ctx: { forceRefresh: boolean }) => Promise<C>,
    send: (prepared: C) => Promise<T>,
    limiter?: SearchLimiter | null,
  ): Promise<T> {
    let refreshed = false;
    let forceRefresh = false;
    const giveUpAt = this.clock.now() + this.retryDeadlineMs;
    for (let n = 1; ; n++) {
      const prepared = await prepare({ forceRefresh });
      forceRefresh = false;
      const answered = limiter ? await limiter.acquire() : null;
      try {
        return await this.withTimeout(send(prepared), operation).finally(() => answered?.());
      } catch (raw) {
        const err = this.options.toCrmError(raw, operation);
        if (!refreshed && this.options.isExpiredToken?.(err)) {
          refreshed = true;
          forceRefresh = true;
          n--;
          continue;
        }
        const retryable = err.code === 'RATE_LIMITED' || err.code === 'UNAVAILABLE';
        if (!retryable || n >= this.maxAttempts) throw err;
        // The CRM's own wait (e.g. a daily budget until midnight) beyond the deadline: no retry can succeed.
        if (err.retryAfterMs !== undefined && this.clock.now() + err.retryAfterMs > giveUpAt) throw err;
        const delayMs = this.backoff(n, err.retryAfterMs);
        if (this.clock.now() + delayMs > giveUpAt) throw err;
        this.options.onRetry?.({ operation, attempt: n, delayMs, error: err });
        if (limiter && err.code === 'RATE_LIMITED') limiter.pause(delayMs);
        await this.clock.sleep(delayMs);
      }
    }
  }

  /**
   * Fails an attempt that takes longer than requestTimeoutMs (a stalled or trickling body). Clients that
   * take no abort signal keep running; their late answer is ignored rather than cancelled.
   */
  withTimeout<T>(work: Promise<T>, operation: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new CrmError('UNAVAILABLE', `${this.options.crmName} did not answer within ${Math.round(this.requestTimeoutMs / 1000)} s (${operation})`)),
        this.requestTimeoutMs,
      );
    });
    work.catch(() => {}); // a late failure after the timeout is not an unhandled rejection
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  /** max(Retry-After, base·2^(attempt-1)), capped, plus up to 25 % jitter (itself capped at 1 s). */
  backoff(attempt: number, retryAfterMs?: number): number {
    const exp = this.baseBackoffMs * 2 ** (attempt - 1);
    const d = Math.min(this.maxBackoffMs, Math.max(retryAfterMs ?? 0, exp));
    return Math.round(d + this.random() * Math.min(1000, d * 0.25));
  }
}
