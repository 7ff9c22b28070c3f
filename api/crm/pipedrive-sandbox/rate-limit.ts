/**
 * Pipedrive's token-based rate limiting, emulated:
 *  - burst: requests per token over a rolling 2-second window (Growth plan: 40 for an API token, 160 for
 *    an OAuth access token, the documented figures; configurable);
 *  - daily budget: the company spends tokens per request (each endpoint has a cost) from one daily
 *    allowance shared by every user and app (30,000 × plan multiplier × seats; here 30,000 × 2 × 3 =
 *    180,000 by default), reset at midnight UTC.
 * Every authenticated answer carries `x-ratelimit-limit|remaining|reset` and
 * `x-daily-ratelimit-token-limit|remaining`; over a limit the answer is 429 (burst: with `Retry-After`
 * and `x-ratelimit-reset` in seconds; budget: remaining 0 and `Retry-After` until midnight UTC).
 */
import { BURST_WINDOW_MS, RATE_LIMIT_HEADERS } from '../pipedrive/model/index.js';
import { burstLimited, dailyBudgetExhausted } from './errors.js';

export interface BurstLimits {
  apiToken: number;
  oauth: number;
}

/**
 * Token costs per request (the sandbox's table, after Pipedrive's published classes: v2 lists 10 —
 * `getDeals` is priced 10 in Pipedrive's OpenAPI —, v2 single reads 1, v1 lists 20, v1 single reads 2,
 * v1 writes 10, v1 deletes 6).
 */
export function requestCost(method: string, path: string): number {
  const v2 = /\/api\/v2\//.test(path);
  const single = /\/\d+$/.test(path) || /\/users\/me$/.test(path) || /\/filters\/helpers$/.test(path);
  if (method === 'GET') return v2 ? (single ? 1 : 10) : single ? 2 : 20;
  if (method === 'DELETE') return v2 ? 3 : 6;
  return v2 ? 5 : 10;
}

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();
  private day = '';
  private spent = 0;
  /** tokens spent and requests refused, for tests and benchmarks */
  readonly stats = { tokensSpent: 0, burstRefused: 0, budgetRefused: 0 };

  constructor(
    private readonly burst: BurstLimits,
    /** the company's daily token budget; 0 disables it */
    readonly dailyBudget: number,
  ) {}

  /**
   * Admits a request of `cost` tokens for `token` at `now`, or throws the 429. Returns the headers the
   * answer carries either way.
   */
  admit(token: string, kind: 'api_token' | 'oauth', cost: number, now: number): Record<string, string> {
    const today = new Date(now).toISOString().slice(0, 10);
    if (today !== this.day) {
      this.day = today;
      this.spent = 0;
    }
    const limit = kind === 'api_token' ? this.burst.apiToken : this.burst.oauth;
    let hits = this.windows.get(token);
    if (!hits) this.windows.set(token, (hits = []));
    while (hits.length && hits[0] <= now - BURST_WINDOW_MS) hits.shift();
    const headers = (remaining: number, daily: number) => {
      const h: Record<string, string> = {};
      if (limit > 0) {
        const resetMs = hits!.length ? hits![0] + BURST_WINDOW_MS - now : BURST_WINDOW_MS;
        h[RATE_LIMIT_HEADERS.burstLimit] = String(limit);
        h[RATE_LIMIT_HEADERS.burstRemaining] = String(Math.max(0, remaining));
        h[RATE_LIMIT_HEADERS.burstReset] = String(Math.max(1, Math.ceil(resetMs / 1000)));
      }
      if (this.dailyBudget > 0) {
        h[RATE_LIMIT_HEADERS.dailyLimit] = String(this.dailyBudget);
        h[RATE_LIMIT_HEADERS.dailyRemaining] = String(Math.max(0, daily));
      }
      return h;
    };
    if (limit > 0 && hits.length >= limit) {
      this.stats.burstRefused++;
      const h = headers(0, this.dailyBudget - this.spent);
      throw burstLimited({ ...h, 'retry-after': h[RATE_LIMIT_HEADERS.burstReset] });
    }
    if (this.dailyBudget > 0 && this.spent + cost > this.dailyBudget) {
      this.stats.budgetRefused++;
      const midnight = Date.parse(`${today}T00:00:00Z`) + 86_400_000;
      throw dailyBudgetExhausted({ ...headers(limit - hits.length, 0), 'retry-after': String(Math.ceil((midnight - now) / 1000)) });
    }
    if (limit > 0) hits.push(now);
    this.spent += cost;
    this.stats.tokensSpent += cost;
    return headers(limit - hits.length, this.dailyBudget - this.spent);
  }

  /** Forgets burst windows and the day's spending. */
  reset(): void {
    this.windows.clear();
    this.spent = 0;
  }

  get remainingToday(): number {
    return this.dailyBudget - this.spent;
  }

  /** Spends tokens as if other apps had used the budget (tests). */
  spend(tokens: number, now: number): void {
    const today = new Date(now).toISOString().slice(0, 10);
    if (today !== this.day) {
      this.day = today;
      this.spent = 0;
    }
    this.spent += tokens;
  }
}
