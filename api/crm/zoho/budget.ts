/**
 * Zoho's limits, as the product paces itself against them, per org and shared by every process:
 *
 *  - **API credits** per rolling 24 hours (by edition and licences; a COQL call costs 1–3 by its LIMIT).
 *    Zoho reports what is left on every answer (`X-RATELIMIT-DAY-LIMIT`, `X-RATELIMIT-DAY-REMAINING`);
 *    the budget keeps the latest figure, in Redis when there is one (so a worker knows what the API
 *    process spent), and refuses a call up front (RATE_LIMITED) when it would eat into the reserve left
 *    for the org's other integrations (5 % of the day's credits, at least 50).
 *  - **Concurrency**: Zoho answers 429 beyond the org's calls in flight (10 Standard … 25 Ultimate); the
 *    product keeps to `concurrency` at once (default 5), through Bottleneck — clustered on Redis when
 *    configured, the same mechanism as HubSpot's shared search budget.
 */
import Bottleneck from 'bottleneck';
import { Redis } from 'ioredis';
import { CrmError, QUOTA_EXHAUSTED } from '../errors.js';
import type { SearchLimiter } from '../hubspot/rate-limiter.js';

export interface CreditsSeen {
  limit: number;
  remaining: number;
  /** epoch ms when Zoho said so */
  at: number;
}

export interface ZohoBudgetOptions {
  /** calls in flight at once for the org, across processes (default 5) */
  concurrency?: number;
  /** Redis shared by the product's processes (API, workers) */
  redisUrl?: string;
  now?: () => number;
}

export class ZohoBudget {
  private seen: CreditsSeen | null = null;
  private sharedReadAt = 0;
  private readonly now: () => number;

  constructor(
    readonly key: string,
    private readonly limiterImpl: Bottleneck,
    private readonly redis: Redis | null,
    now?: () => number,
  ) {
    this.now = now ?? Date.now;
  }

  /** The day's credits as last reported (this process's answers, or another's through Redis). */
  credits(): CreditsSeen | null {
    return this.seen;
  }

  /** Credits kept for the org's other integrations. */
  static reserve(limit: number): number {
    return Math.max(50, Math.ceil(limit * 0.05));
  }

  private async refreshShared(): Promise<void> {
    if (!this.redis || this.now() - this.sharedReadAt < 5000) return;
    this.sharedReadAt = this.now();
    try {
      const raw = await this.redis.get(`crm:zoho:credits:${this.key}`);
      const other = raw ? (JSON.parse(raw) as CreditsSeen) : null;
      if (other && (!this.seen || other.at > this.seen.at)) this.seen = other;
    } catch {
      // Redis away: this process's own figure still holds
    }
  }

  /** A limiter for one call costing `credits`, for the call policy. */
  limiter(credits: number): SearchLimiter {
    return {
      acquire: async () => {
        await this.refreshShared();
        const s = this.seen;
        if (s && s.remaining - credits < ZohoBudget.reserve(s.limit)) {
          throw new CrmError('RATE_LIMITED', "Zoho's API credits for the last 24 hours are nearly used up. Try again later.", {
            category: QUOTA_EXHAUSTED,
            retryAfterMs: 3_600_000,
            details: { remaining: s.remaining, limit: s.limit },
          });
        }
        let release!: () => void;
        const started = new Promise<void>((resolve) => {
          void this.limiterImpl.schedule(() => new Promise<void>((done) => {
            release = done;
            resolve();
          }));
        });
        await started;
        return () => release();
      },
      pause: () => {},
    };
  }

  /** Reads Zoho's credit headers of an answer. */
  observe(headers: Headers): void {
    const limit = Number(headers.get('x-ratelimit-day-limit'));
    const remaining = Number(headers.get('x-ratelimit-day-remaining'));
    if (!headers.has('x-ratelimit-day-remaining') || !Number.isFinite(limit) || !Number.isFinite(remaining)) return;
    this.seen = { limit, remaining, at: this.now() };
    if (this.redis) void this.redis.set(`crm:zoho:credits:${this.key}`, JSON.stringify(this.seen), 'EX', 86_400).catch(() => {});
  }
}

const budgets = new Map<string, ZohoBudget>();
const redisClients = new Map<string, Redis>();
let defaults: ZohoBudgetOptions = {};

/** The process's settings (config: REDIS_URL, ZOHO_CONCURRENCY), set when the Zoho endpoints are resolved. */
export function configureZohoBudgets(options: ZohoBudgetOptions): void {
  defaults = { ...options };
}

/** The budget of an org (one per process and org; its concurrency shared through Redis when given). */
export function zohoBudgetFor(orgKey: string, given: ZohoBudgetOptions = {}): ZohoBudget {
  const options = { ...defaults, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) } as ZohoBudgetOptions;
  const id = `${orgKey}|${options.redisUrl ?? ''}`;
  let b = budgets.get(id);
  if (b) return b;
  let redis: Redis | undefined;
  if (options.redisUrl) {
    redis = redisClients.get(options.redisUrl);
    if (!redis) redisClients.set(options.redisUrl, (redis = newRedis(options.redisUrl)));
  }
  b = createZohoBudget(orgKey, { ...options, redis });
  budgets.set(id, b);
  return b;
}

function newRedis(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  return redis;
}

/**
 * A budget of its own (what one process holds): with `redisUrl` (or a `redis` client) its concurrency and
 * the credits Zoho reported are shared with every other process of the same org.
 */
export function createZohoBudget(orgKey: string, options: ZohoBudgetOptions & { redis?: Redis } = {}): ZohoBudget {
  const maxConcurrent = options.concurrency ?? 5;
  const redis = options.redis ?? (options.redisUrl ? newRedis(options.redisUrl) : null);
  const limiter = redis
    ? new Bottleneck({
        id: `crm-zoho:${orgKey}`,
        datastore: 'ioredis',
        connection: new Bottleneck.IORedisConnection({ client: redis }),
        maxConcurrent,
        timeout: 10 * 60_000, // Redis keys of an idle org expire
      })
    : new Bottleneck({ maxConcurrent });
  return new ZohoBudget(orgKey, limiter, redis, options.now);
}

/** Forgets every budget (tests). */
export async function resetZohoBudgets(): Promise<void> {
  budgets.clear();
  for (const r of redisClients.values()) r.disconnect();
  redisClients.clear();
}
