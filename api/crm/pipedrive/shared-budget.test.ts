/**
 * A Pipedrive company's limits shared across processes through Redis. Two connectors with their own
 * budgets and limiters stand for two processes (API and worker) using one token: pacing only their own
 * requests each keeps under Pipedrive's burst window but together they exceed it (429s, retried); with the
 * search limiter shared through Redis they stay within it. And the daily budget one process read in
 * Pipedrive's headers stops the other before it sends anything.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedSearchLimiters, type SharedSearchLimiters } from '../hubspot/rate-limiter.js';
import { startPipedriveSandboxServer, type RunningPipedriveSandbox } from '../pipedrive-sandbox/server.js';
import { PipedriveConnector } from './connector.js';
import { PipedriveDailyBudget } from './daily-budget.js';
import { resetRememberedFilters } from './filters.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BURST = 8;

let r: RunningPipedriveSandbox;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  r = await startPipedriveSandboxServer({ personCount: 50, seed: 3, burstLimit: BURST });
});
afterAll(async () => {
  await r?.close();
  for (const c of closers) await c();
});

function redis() {
  const c = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  closers.push(() => c.disconnect());
  return c;
}

function shared(): SharedSearchLimiters {
  const s = createSharedSearchLimiters(REDIS_URL);
  closers.push(() => s.close());
  return s;
}

function connector(accountId: string, opts: { limiter?: SharedSearchLimiters; budget?: PipedriveDailyBudget } = {}) {
  return new PipedriveConnector({
    getAccessToken: () => r.sandbox.config.apiTokens[0], baseUrl: r.url, accountId, resultTtlMs: 0, baseBackoffMs: 20, maxAttempts: 10,
    ...(opts.limiter ? { searchLimiter: opts.limiter.forAccount } : {}),
    ...(opts.budget ? { budget: opts.budget } : {}),
  });
}

async function burst(a: PipedriveConnector, b: PipedriveConnector) {
  // Both learn Pipedrive's limit first (one answer each), then 2 × 10 reads at once.
  await Promise.all([a.verifyCredentials(), b.verifyCredentials()]);
  r.sandbox.resetRateLimits();
  const before = r.sandbox.stats.rateLimited;
  await Promise.all([a, b].flatMap((c) => Array.from({ length: 10 }, () => c.verifyCredentials())));
  return r.sandbox.stats.rateLimited - before;
}

describe("a Pipedrive company's limits across processes", () => {
  it('keeps one token within its burst window only when the limiter is shared', async () => {
    resetRememberedFilters();
    const alone = await burst(connector(`local-${randomUUID()}`), connector(`local-${randomUUID()}`));
    expect(alone).toBeGreaterThan(0);
    const company = `shared-${randomUUID()}`;
    const together = await burst(connector(company, { limiter: shared() }), connector(company, { limiter: shared() }));
    expect(together).toBe(0);
  }, 120_000);

  it('lets one process know the daily budget Pipedrive reported to the other', async () => {
    const company = `budget-${randomUUID()}`;
    const api = connector(company, { budget: new PipedriveDailyBudget(company, redis()) });
    const worker = connector(company, { budget: new PipedriveDailyBudget(company, redis()) });
    await worker.verifyCredentials();
    // Other apps spent the company's day down to the reserve; the API process's next answer says so.
    const { dailyTokenBudget } = r.sandbox.config;
    r.sandbox.limiter.spend(r.sandbox.limiter.remainingToday - PipedriveDailyBudget.reserve(dailyTokenBudget) - 2, Date.now());
    await api.verifyCredentials();
    expect(api.rateLimits?.dailyRemaining).toBeLessThanOrEqual(PipedriveDailyBudget.reserve(dailyTokenBudget));
    await new Promise((res) => setTimeout(res, 5100)); // the worker reads Redis again
    const sent = r.sandbox.stats.requests;
    await expect(worker.verifyCredentials()).rejects.toMatchObject({ code: 'RATE_LIMITED', category: 'DAILY_BUDGET' });
    expect(r.sandbox.stats.requests).toBe(sent);
  }, 60_000);
});
