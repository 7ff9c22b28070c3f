/**
 * A Zoho org's budget shared across processes through Redis. Two budgets stand for two processes (API
 * and worker): with only their own concurrency each sends its share at once and together they exceed the
 * org's limit (Zoho answers 429, retried); sharing through Redis the org stays within it. The credits one
 * process saw in Zoho's headers are known to the other before it sends anything.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZohoSandboxFaults } from '../zoho-sandbox/faults.js';
import { startZohoSandboxServer, type RunningZohoSandbox } from '../zoho-sandbox/server.js';
import { createZohoBudget, type ZohoBudget } from './budget.js';
import { ZohoConnector } from './connector.js';
import { QUOTA_EXHAUSTED } from '../errors.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 2;

let r: RunningZohoSandbox;
const clients: Redis[] = [];
beforeAll(async () => {
  const faults = createZohoSandboxFaults().inject({ kind: 'latency', latencyMs: 40 });
  r = await startZohoSandboxServer({ contactCount: 50, seed: 3, concurrencyLimit: LIMIT, faults });
});
afterAll(async () => {
  await r?.close();
  for (const c of clients) c.disconnect();
});

function redis() {
  const c = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  clients.push(c);
  return c;
}

function connector(budget: ZohoBudget) {
  const token = r.sandbox.issueTestToken().accessToken;
  return new ZohoConnector({ baseUrl: `${r.url}/api/us`, getAccessToken: () => token, budget, baseBackoffMs: 20, maxAttempts: 10 });
}

async function burst(a: ZohoConnector, b: ZohoConnector) {
  const before = r.sandbox.stats.rateLimited;
  const plan = a.compile({ version: 1 }, { now: new Date(), timeZone: 'UTC' });
  await Promise.all([...Array.from({ length: 6 }, () => a.count(plan)), ...Array.from({ length: 6 }, () => b.count(plan))]);
  return r.sandbox.stats.rateLimited - before;
}

describe("a Zoho org's budget across processes", () => {
  it('keeps the calls in flight within the limit only when shared', async () => {
    const local = await burst(connector(createZohoBudget(`local-${randomUUID()}`, { concurrency: LIMIT })), connector(createZohoBudget(`local-${randomUUID()}`, { concurrency: LIMIT })));
    expect(local).toBeGreaterThan(0);
    const org = `shared-${randomUUID()}`;
    const shared = await burst(connector(createZohoBudget(org, { concurrency: LIMIT, redis: redis() })), connector(createZohoBudget(org, { concurrency: LIMIT, redis: redis() })));
    expect(shared).toBe(0);
  }, 60_000);

  it("lets one process know the credits Zoho reported to the other", async () => {
    const org = `credits-${randomUUID()}`;
    let t = 1_000_000;
    const api = createZohoBudget(org, { redis: redis(), now: () => t });
    const worker = createZohoBudget(org, { redis: redis(), now: () => t });
    api.observe(new Headers({ 'x-ratelimit-day-limit': '60000', 'x-ratelimit-day-remaining': '50000' }));
    await new Promise((res) => setTimeout(res, 100));
    expect(worker.credits()).toBeNull();
    const release = await worker.limiter(1).acquire();
    release();
    expect(worker.credits()).toMatchObject({ limit: 60_000, remaining: 50_000 });
    // Down to the reserve (5 % of 60,000): the worker refuses before sending.
    t += 1;
    api.observe(new Headers({ 'x-ratelimit-day-limit': '60000', 'x-ratelimit-day-remaining': '3000' }));
    await new Promise((res) => setTimeout(res, 100));
    t += 10_000;
    await expect(worker.limiter(1).acquire()).rejects.toMatchObject({ code: 'RATE_LIMITED', category: QUOTA_EXHAUSTED });
  });
});
