/**
 * The search budget of one HubSpot account shared across processes through Redis. Two limiter
 * registries stand for two processes (API and worker, each with its own memory): with only their own
 * buckets they send twice HubSpot's limit and meet 429s; sharing through Redis, the account stays
 * within 5 searches per second and the sandbox throttles nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHubSpotSandboxServer, type RunningSandbox } from '../hubspot-sandbox/server.js';
import { HubSpotConnector, type HubSpotConnectorOptions } from './connector.js';
import { createSharedSearchLimiters, TokenBucket, type SearchLimiter } from './rate-limiter.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PER_PROCESS = 12;

let r: RunningSandbox;
beforeAll(async () => {
  r = await startHubSpotSandboxServer({ contactCount: 50, seed: 3, rateLimitPerSecond: 5 });
});
afterAll(async () => {
  await r?.close();
});

function connector(searchLimiter: HubSpotConnectorOptions['searchLimiter']) {
  return new HubSpotConnector({
    baseUrl: r.url,
    getAccessToken: () => r.sandbox.config.privateAppTokens[0],
    accountId: String(r.sandbox.config.hubId),
    maxAttempts: 10,
    baseBackoffMs: 100,
    searchLimiter,
  });
}

/** Each "process" runs its searches at once; returns how many the sandbox refused with 429. */
async function burst(processes: NonNullable<HubSpotConnectorOptions['searchLimiter']>[]) {
  const before = r.sandbox.stats.rateLimited;
  const runs = processes.flatMap((limiter) => {
    const c = connector(limiter);
    return Array.from({ length: PER_PROCESS }, () => c.countContacts({ filterGroups: [] }));
  });
  const counts = await Promise.all(runs);
  expect(counts.every((n) => n === 50)).toBe(true); // every search succeeded in the end
  return r.sandbox.stats.rateLimited - before;
}

describe('one account, two processes', () => {
  it('per-process buckets alone exceed the limit (the sandbox throttles)', async () => {
    const ownBucket = () => {
      const buckets = new Map<string, SearchLimiter>();
      return (key: string, limit: number) => buckets.get(key) ?? buckets.set(key, new TokenBucket(limit, 1050)).get(key)!;
    };
    expect(await burst([ownBucket(), ownBucket()])).toBeGreaterThan(0);
    await new Promise((res) => setTimeout(res, 1200)); // let the sandbox's window empty
  }, 60_000);

  it('a budget shared through Redis keeps the account within 5/s: no 429', async () => {
    const a = createSharedSearchLimiters(REDIS_URL);
    const b = createSharedSearchLimiters(REDIS_URL);
    try {
      expect(await burst([a.forAccount, b.forAccount])).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});
