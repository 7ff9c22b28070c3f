/**
 * The org's daily API allocation as the connector last saw it: Salesforce returns the org's usage on
 * every REST answer (`Sforce-Limit-Info: api-usage=used/max`) and in the limits resource, so any
 * process's latest call knows it as the org counts it (every process and integration of the org
 * included). Before a question starts, the connector refuses to run when what is left falls below the
 * reserve kept for the org's other integrations, with a message that says so, instead of failing half
 * way with REQUEST_LIMIT_EXCEEDED.
 */
import { CrmError, QUOTA_EXHAUSTED } from '../errors.js';
import { dailyLimitMessage } from './errors.js';

interface Seen {
  used: number;
  max: number;
  at: number;
}

const seen = new Map<string, Seen>();
/** A reading older than this no longer holds the org back (allocations free up over 24 hours). */
const STALE_MS = 15 * 60_000;

export function recordUsage(org: string, used: number, max: number, now = Date.now()): void {
  if (Number.isFinite(used) && Number.isFinite(max) && max > 0) seen.set(org, { used, max, at: now });
}

export function lastUsage(org: string): Seen | undefined {
  return seen.get(org);
}

/** Throws RATE_LIMITED when the org has less than `reserve` (a fraction of its allocation) left. */
export function assertAllocation(org: string, reserve: number, now = Date.now()): void {
  const s = seen.get(org);
  if (!s || now - s.at > STALE_MS) return;
  const left = s.max - s.used;
  if (left > s.max * reserve) return;
  const kept = Math.round(reserve * 100);
  throw new CrmError(
    'RATE_LIMITED',
    left <= 0
      ? dailyLimitMessage(s.used, s.max)
      : `Your Salesforce org has used ${s.used.toLocaleString('en-US')} of its ${s.max.toLocaleString('en-US')} daily API requests. CRM Assistant leaves the last ${kept}% to your other integrations; Salesforce frees requests over a rolling 24 hours, try again later.`,
    { category: QUOTA_EXHAUSTED, retryAfterMs: 3_600_000, details: { used: s.used, max: s.max } },
  );
}

/** Forgets what was seen (tests). */
export function resetAllocations(): void {
  seen.clear();
}
