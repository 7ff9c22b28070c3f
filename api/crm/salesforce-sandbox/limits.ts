/**
 * The org's API limits as Salesforce enforces them on the REST API:
 *  - **Daily API requests**: an allocation over a rolling 24 hours (`DailyApiRequests` in the limits
 *    resource, `Sforce-Limit-Info: api-usage=used/max` on every response). When it is used up, calls
 *    are refused with 403 REQUEST_LIMIT_EXCEEDED "TotalRequests Limit exceeded." Calls are counted
 *    per minute and leave the window 24 hours later.
 *  - **Concurrent long-running requests**: at most `limit` requests that have been running for
 *    `thresholdMs` (Salesforce: 25 requests of 20 s or more in production orgs) may be in flight; the
 *    next is refused with 403 REQUEST_LIMIT_EXCEEDED "ConcurrentRequests (Concurrent API Requests)
 *    Limit exceeded." (durations on the real clock, so the latency fault can provoke it).
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export class DailyAllocation {
  private readonly perMinute = new Map<number, number>();

  constructor(
    readonly max: number,
    private readonly now: () => number,
  ) {}

  /** Calls counted in the last 24 hours. */
  used(): number {
    const cutoff = Math.floor((this.now() - DAY) / MINUTE);
    let n = 0;
    for (const [minute, count] of this.perMinute) {
      if (minute <= cutoff) this.perMinute.delete(minute);
      else n += count;
    }
    return n;
  }

  remaining(): number {
    return Math.max(0, this.max - this.used());
  }

  /** Counts `n` calls now (tests use n > 1 to bring an org close to its limit). */
  record(n = 1): void {
    const minute = Math.floor(this.now() / MINUTE);
    this.perMinute.set(minute, (this.perMinute.get(minute) ?? 0) + n);
  }

  reset(): void {
    this.perMinute.clear();
  }
}

export class ConcurrencyGate {
  private readonly started = new Set<{ at: number }>();

  constructor(
    readonly limit: number,
    readonly thresholdMs: number,
  ) {}

  /** Admits a request (returns its release function) or refuses it (null). */
  enter(): (() => void) | null {
    const now = performance.now();
    let longRunning = 0;
    for (const s of this.started) if (now - s.at >= this.thresholdMs) longRunning++;
    if (this.limit > 0 && longRunning >= this.limit) return null;
    const slot = { at: now };
    this.started.add(slot);
    return () => void this.started.delete(slot);
  }

  get inFlight(): number {
    return this.started.size;
  }
}
