/**
 * Pipedrive's daily token budget of a company, as the product paces itself against it, shared by every
 * process: Pipedrive reports what is left on every answer (`x-daily-ratelimit-token-limit`,
 * `x-daily-ratelimit-token-remaining`); the budget keeps the latest figure — in Redis when there is one,
 * so a worker knows what the API process spent — and refuses a call up front (RATE_LIMITED until
 * midnight UTC, when the budget starts again) when it would eat into the reserve left for the company's
 * other apps and users (5 % of the day's tokens, at least 100). The burst window is paced by the shared
 * search limiter (connector.ts), like HubSpot's.
 */
import { Redis } from 'ioredis';
import { CrmError } from '../errors.js';
import { ERROR_CATEGORIES, msUntilMidnightUtc, type RateLimitState } from './client.js';

export interface BudgetSeen {
  limit: number;
  remaining: number;
  /** epoch ms when Pipedrive said so */
  at: number;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class PipedriveDailyBudget {
  private seen: BudgetSeen | null = null;
  private sharedReadAt = -Infinity;

  constructor(
    readonly key: string,
    private readonly redis: Redis | null,
    private readonly now: () => number = Date.now,
  ) {}

  /** Tokens kept for the company's other apps and users. */
  static reserve(limit: number): number {
    return Math.max(100, Math.ceil(limit * 0.05));
  }

  /** The day's budget as last reported (this process's answers, or another's through Redis). */
  latest(): BudgetSeen | null {
    return this.seen && utcDay(this.seen.at) === utcDay(this.now()) ? this.seen : null;
  }

  private async refreshShared(): Promise<void> {
    if (!this.redis || this.now() - this.sharedReadAt < 5000) return;
    this.sharedReadAt = this.now();
    try {
      const raw = await this.redis.get(`crm:pipedrive:budget:${this.key}`);
      const other = raw ? (JSON.parse(raw) as BudgetSeen) : null;
      if (other && (!this.seen || other.at > this.seen.at)) this.seen = other;
    } catch {
      // Redis away: this process's own figure still holds
    }
  }

  /** Throws RATE_LIMITED when the day's budget is down to the reserve. */
  async check(): Promise<void> {
    await this.refreshShared();
    const s = this.latest();
    if (s && s.remaining <= PipedriveDailyBudget.reserve(s.limit)) {
      throw new CrmError('RATE_LIMITED', "Pipedrive's daily API budget for this company is nearly used up; it starts again at midnight UTC.", {
        category: ERROR_CATEGORIES.daily,
        retryAfterMs: msUntilMidnightUtc(this.now()),
        details: { remaining: s.remaining, limit: s.limit },
      });
    }
  }

  /** Reads the daily-budget figures of an answer's rate-limit headers. */
  observe(state: RateLimitState): void {
    if (state.dailyLimit === undefined || state.dailyRemaining === undefined) return;
    this.seen = { limit: state.dailyLimit, remaining: state.dailyRemaining, at: state.at };
    if (this.redis) void this.redis.set(`crm:pipedrive:budget:${this.key}`, JSON.stringify(this.seen), 'EX', 2 * 86_400).catch(() => {});
  }
}

const budgets = new Map<string, PipedriveDailyBudget>();
const redisClients = new Map<string, Redis>();
let defaultRedisUrl: string | undefined;

/** The process's Redis (config REDIS_URL), set when the Pipedrive endpoints are resolved. */
export function configurePipedriveBudgets(options: { redisUrl?: string }): void {
  defaultRedisUrl = options.redisUrl;
}

/** The budget of a company (one per process and company; shared through Redis when configured). */
export function pipedriveBudgetFor(companyKey: string, options: { redisUrl?: string; now?: () => number } = {}): PipedriveDailyBudget {
  const redisUrl = options.redisUrl ?? defaultRedisUrl;
  const id = `${companyKey}|${redisUrl ?? ''}`;
  let b = budgets.get(id);
  if (b) return b;
  let redis: Redis | null = null;
  if (redisUrl) {
    redis = redisClients.get(redisUrl) ?? null;
    if (!redis) {
      redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
      redis.on('error', () => {});
      redisClients.set(redisUrl, redis);
    }
  }
  b = new PipedriveDailyBudget(companyKey, redis, options.now);
  budgets.set(id, b);
  return b;
}

/** Forgets every budget and closes their Redis connections (tests). */
export function resetPipedriveBudgets(): void {
  budgets.clear();
  for (const r of redisClients.values()) r.disconnect();
  redisClients.clear();
}
