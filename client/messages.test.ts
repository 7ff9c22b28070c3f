// The spec's texts (§8) as both clients show them, with the §9 fallbacks.
import { describe, expect, it } from 'vitest';
import { accountSuspended, queryLimitReached, queryOutcome, segmentsGenerated, unlockLimitReached } from './messages.js';
import { meterLevel, upgradeLabel } from './usage.js';

describe('messages', () => {
  it('limit reached, with used/limit from the 429, else 10 of 10 on the Free Plan', () => {
    expect(queryLimitReached({ used: 25, limit: 25 })).toEqual({
      title: "You've reached your daily limit",
      body: "You've used 25 of 25 queries today. Upgrade your plan or wait until tomorrow when limits reset.",
    });
    expect(queryLimitReached().body).toContain("You've used 10 of 10 queries today.");
    expect(unlockLimitReached({ used: 3, limit: 3, tier: 'Free Plan' }).body).toBe(
      "You've used all 3 smart segments today on Free plan. Upgrade or wait until tomorrow to unlock more segments.",
    );
    expect(unlockLimitReached({}).body).toContain('all 10 smart segments today on Free plan');
  });

  it('suspension, outcomes and generation', () => {
    expect(accountSuspended('')).toEqual({ title: 'Account Suspended', body: 'Your account has been suspended. Please contact support for assistance.' });
    expect(accountSuspended('Your account has been suspended: spam.').body).toBe('Your account has been suspended: spam.');
    expect(queryOutcome('run', { resultCount: 1234, hasError: false })).toMatchObject({ title: 'Search completed', body: 'Found 1,234 customers matching your criteria.' });
    expect(queryOutcome('run', { resultCount: 0, hasError: false }).title).toBe('No results found');
    expect(queryOutcome('rerun', { resultCount: 0, hasError: true }).title).toBe('Query re-run completed with issues');
    expect(segmentsGenerated(36, 3).body).toBe('Successfully generated 36 segments for 3 users');
  });

  it('usage meters: normal below 80 %, warning above, limit at 100 %', () => {
    expect([meterLevel(8, 10), meterLevel(9, 10), meterLevel(10, 10), meterLevel(0, 0)]).toEqual(['normal', 'warning', 'limit', 'limit']);
    expect(upgradeLabel('Pro Plan', 'normal')).toBeNull();
    expect(upgradeLabel('Free Plan', 'normal')).toBe('Upgrade Plan');
    expect(upgradeLabel('Pro Plan', 'limit')).toBe('Upgrade Required');
  });
});
