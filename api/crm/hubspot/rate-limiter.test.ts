import { describe, expect, it } from 'vitest';
import { resetSearchBuckets, searchBucketFor, TokenBucket, type LimiterClock } from './rate-limiter.js';

function virtualClock() {
  let t = 0;
  const clock: LimiterClock & { t(): number } = {
    now: () => t,
    sleep: async (ms) => {
      t += Math.max(0, ms);
      await Promise.resolve();
    },
    t: () => t,
  };
  return clock;
}

describe('TokenBucket', () => {
  it('never admits more than `limit` requests in any window, FIFO', async () => {
    const clock = virtualClock();
    const bucket = new TokenBucket(5, 1000, clock);
    const admitted: Array<{ i: number; at: number }> = [];
    await Promise.all(Array.from({ length: 23 }, (_, i) => bucket.acquire().then(() => admitted.push({ i, at: clock.t() }))));
    expect(admitted.map((a) => a.i)).toEqual(Array.from({ length: 23 }, (_, i) => i));
    const times = admitted.map((a) => a.at);
    for (let k = 5; k < times.length; k++) expect(times[k] - times[k - 5]).toBeGreaterThanOrEqual(1000);
    expect(times.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(clock.t()).toBe(4000);
  });

  it('counts a token from the answer: a request that arrived late never shares a window with the one a limit later', async () => {
    const clock = virtualClock();
    const bucket = new TokenBucket(2, 1000, clock);
    const first = await bucket.acquire(); // sent at 0, answered at 300: it reached the CRM by then
    await bucket.acquire(); // sent at 0, answered at once
    clock.sleep(300);
    first();
    // The next token is the second one, a window after 0; the one after it waits for 300 + 1000.
    await bucket.acquire();
    expect(clock.t()).toBe(1000);
    await bucket.acquire();
    expect(clock.t()).toBe(1300);
  });

  it('pauses everyone after a 429', async () => {
    const clock = virtualClock();
    const bucket = new TokenBucket(5, 1000, clock);
    await bucket.acquire();
    bucket.pause(2500);
    await bucket.acquire();
    expect(clock.t()).toBe(2500);
  });

  it('is shared per key through the registry', () => {
    resetSearchBuckets();
    const a = searchBucketFor('https://api.hubapi.com#1');
    expect(searchBucketFor('https://api.hubapi.com#1')).toBe(a);
    expect(searchBucketFor('https://api.hubapi.com#2')).not.toBe(a);
    expect(a.limit).toBe(5);
    expect(a.windowMs).toBeGreaterThan(1000); // safety margin over HubSpot's 1-second window
    resetSearchBuckets();
    expect(searchBucketFor('https://api.hubapi.com#1')).not.toBe(a);
  });
});
