/**
 * Client-side throttle for HubSpot's search endpoints (5 requests per second per account).
 *
 * A token bucket whose tokens come back exactly one window (1 s + a small safety margin) after they
 * were last in use (the answer to the request) — i.e. a sliding-window log. A classic refill-at-rate bucket with capacity 5 would let
 * up to 9 requests into one second (5 burst + 4 refilled) and trip HubSpot's SECONDLY policy; this
 * one never sends more than `limit` requests in any window. Waiters are served FIFO.
 *
 * Buckets live in a module-level registry keyed by account (and API base URL), so every connector
 * instance in the process that talks to the same HubSpot account shares one budget.
 */

import Bottleneck from 'bottleneck';

export interface LimiterClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: LimiterClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

export class TokenBucket {
  /** When each token of the current window was last in use: sent, then answered (see acquire). */
  private spent: { at: number }[] = [];
  private queue: Promise<void> = Promise.resolve();
  private blockedUntil = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: LimiterClock = realClock,
  ) {
    if (!(limit > 0)) throw new Error(`TokenBucket limit must be > 0, got ${limit}`);
  }

  /**
   * Resolves when a request may be sent, with a function to call once it has been answered (or given
   * up). HubSpot counts a request when it arrives, which is some time after we send it and before
   * we hear back: a token counted from the answer comes back a window after the arrival at the
   * latest, however late that arrival was (a busy event loop, a slow network) — counted from the
   * send, a request that arrived late could share HubSpot's second with the sixth one after it.
   */
  acquire(): Promise<() => void> {
    const run = async () => {
      for (;;) {
        const now = this.clock.now();
        if (now < this.blockedUntil) {
          await this.clock.sleep(this.blockedUntil - now);
          continue;
        }
        this.spent = this.spent.filter((t) => t.at > now - this.windowMs);
        if (this.spent.length < this.limit) {
          const token = { at: now };
          this.spent.push(token);
          return () => void (token.at = Math.max(token.at, this.clock.now()));
        }
        await this.clock.sleep(Math.min(...this.spent.map((t) => t.at)) + this.windowMs - now);
      }
    };
    const p = this.queue.then(run);
    this.queue = p.then(
      () => undefined,
      () => undefined,
    );
    return p;
  }

  /** After a 429: nobody sharing this bucket sends before `ms` from now. */
  pause(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + ms);
  }

  /** Requests admitted in the current window (for tests / metrics). */
  inFlightWindow(): number {
    const now = this.clock.now();
    return this.spent.filter((t) => t.at > now - this.windowMs).length;
  }
}

const buckets = new Map<string, TokenBucket>();

/** The shared search bucket for an account (created on first use). */
export function searchBucketFor(
  key: string,
  options: { limit?: number; windowMs?: number; clock?: LimiterClock } = {},
): TokenBucket {
  let b = buckets.get(key);
  if (!b) {
    b = new TokenBucket(options.limit ?? 5, options.windowMs ?? 1050, options.clock ?? realClock);
    buckets.set(key, b);
  }
  return b;
}

/** Forgets every bucket (tests). */
export function resetSearchBuckets(): void {
  buckets.clear();
}

/** What the connector needs from a search throttle (TokenBucket, or the shared one below). */
export interface SearchLimiter {
  /** Resolves when a search may be sent, with the function to call when it has been answered. */
  acquire(): Promise<() => void>;
  /** After a 429: this process sends nothing before `ms` from now. */
  pause(ms: number): void;
}

/** Search throttles per account, shared by every process that uses the same Redis. */
export interface SharedSearchLimiters {
  forAccount(key: string, limit: number): SearchLimiter;
  close(): Promise<void>;
}

/**
 * The per-account search budget shared across processes (API and workers) through Redis, with
 * Bottleneck's clustering (the HubSpot client's own limiter library): requests of one account start
 * at least `windowMs / limit` apart across all processes, so no window of `windowMs` holds more than
 * `limit` of them. Each process keeps its local sliding-window bucket too (and its 429 pause).
 */
export function createSharedSearchLimiters(redisUrl: string, options: { windowMs?: number } = {}): SharedSearchLimiters {
  // Starts are spaced by windowMs / limit; requests from different processes reach the CRM with some
  // jitter, so the shared window is a little wider than the local one (4.5/s sustained at 5/s).
  const windowMs = options.windowMs ?? 1100;
  const connection = new Bottleneck.IORedisConnection({ clientOptions: redisOptions(redisUrl) });
  const limiters = new Map<string, SearchLimiter>();
  return {
    forAccount(key, limit) {
      let limiter = limiters.get(key);
      if (!limiter) {
        const local = new TokenBucket(limit, 1050);
        const shared = new Bottleneck({
          id: `crm-search:${key}`,
          datastore: 'ioredis',
          connection,
          minTime: Math.ceil(windowMs / limit),
          maxConcurrent: null,
          timeout: 10 * 60_000, // Redis keys of an idle account expire
        });
        limiter = {
          acquire: async () => {
            const answered = await local.acquire();
            await shared.schedule(() => Promise.resolve());
            return answered;
          },
          pause: (ms) => local.pause(ms),
        };
        limiters.set(key, limiter);
      }
      return limiter;
    },
    async close() {
      await connection.disconnect(true);
    },
  };
}

/** ioredis options from a redis:// URL (host, port, db, password). */
function redisOptions(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    db: Number(u.pathname.slice(1) || 0),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
  };
}
