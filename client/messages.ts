// The product's user-facing texts from the spec (§8 error catalogue, §9 fallbacks), written once for
// both clients: the web app shows them as toasts, the CLI as lines. Each returns a title and a body.
import { formatCount } from './format.js';

export interface Notice {
  title: string;
  body: string;
}

/** Assumed when a limit error's body cannot be read (spec §8, §9). */
export const LIMIT_FALLBACK = { used: 10, limit: 10, tier: 'Free Plan' } as const;

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

export const LOGIN_SUCCESS: Notice = { title: 'Login successful!', body: 'Welcome back!' };
export const LOGIN_FAILED = 'Login failed';

/** A query or re-run refused by the daily chat-query limit (429 with used, limit, tier). */
export function queryLimitReached(details: Record<string, unknown> = {}): Notice {
  const used = num(details.used, LIMIT_FALLBACK.used);
  const limit = num(details.limit, LIMIT_FALLBACK.limit);
  return {
    title: "You've reached your daily limit",
    body: `You've used ${used} of ${limit} queries today. Upgrade your plan or wait until tomorrow when limits reset.`,
  };
}

/** An unlock refused by the daily smart-segment limit. */
export function unlockLimitReached(details: Record<string, unknown> = {}): Notice {
  const used = num(details.used, num(details.limit, LIMIT_FALLBACK.used));
  // Tier display names may already end in "Plan" ("Free Plan"): no "Free Plan plan".
  const tier = (typeof details.tier === 'string' ? details.tier : LIMIT_FALLBACK.tier).replace(/\s+plan$/i, '');
  return {
    title: 'Daily limit reached',
    body: `You've used all ${used} smart segments today on ${tier} plan. Upgrade or wait until tomorrow to unlock more segments.`,
  };
}

/** A banned user's sign-in (or a banned user's token): the server's message, else the spec's. */
export function accountSuspended(serverMessage?: string | null): Notice {
  return { title: 'Account Suspended', body: serverMessage || 'Your account has been suspended. Please contact support for assistance.' };
}

/** The outcome of a query ("run") or a re-run. */
export function queryOutcome(kind: 'run' | 'rerun', outcome: { resultCount: number; hasError: boolean }): Notice & { level: 'success' | 'info' | 'warning' } {
  if (outcome.hasError) {
    return {
      title: kind === 'run' ? 'Search completed with issues' : 'Query re-run completed with issues',
      body: 'There was a problem connecting to your CRM. Check the CRM connection and try again.',
      level: 'warning',
    };
  }
  const found = `Found ${formatCount(outcome.resultCount)} customers matching your criteria.`;
  if (kind === 'rerun') return { title: 'Query updated', body: found, level: 'success' };
  if (outcome.resultCount === 0) return { title: 'No results found', body: 'Try adjusting your search criteria.', level: 'info' };
  return { title: 'Search completed', body: found, level: 'success' };
}

export const segmentCreated = (description: string): Notice => ({ title: 'Segment created', body: description });
export const segmentDeleted = (description: string): Notice => ({ title: 'Segment deleted', body: description });
export const SEGMENT_DELETE_CONFIRM = 'Are you sure you want to delete this segment?';

export const segmentUnlocked = (name: string): Notice => ({ title: 'Segment unlocked!', body: name });
export const downloadComplete = (total: number): Notice => ({ title: 'Download Complete', body: `Successfully downloaded ${formatCount(total)} customers` });
/** spec §9: smart-segment-customers-{id}-{date}.csv */
export const smartSegmentFileName = (segmentId: string, date: string) => `smart-segment-customers-${segmentId}-${date}.csv`;

export const banConfirm = (name: string) => `Are you sure you want to ban ${name}?`;
export const unbanConfirm = (name: string) => `Are you sure you want to unban ${name}?`;
export const userBanned = (): Notice => ({ title: 'User banned', body: 'User has been successfully banned from the platform' });
export const userUnbanned = (name: string): Notice => ({ title: 'User unbanned', body: `${name} can now access the platform` });

export const segmentsGenerated = (segments: number, users: number): Notice => ({
  title: 'Segments Generated!',
  body: `Successfully generated ${formatCount(segments)} ${segments === 1 ? 'segment' : 'segments'} for ${formatCount(users)} ${users === 1 ? 'user' : 'users'}`,
});
export const segmentsCleared = (count: number): Notice => ({ title: 'Segments Cleared!', body: `Successfully cleared ${formatCount(count)} segments` });
export const NO_USER_TO_CLEAR = 'No user found to clear segments for';
export const cleanupCompleted = (serverMessage: string): Notice => ({ title: 'Cleanup Completed', body: serverMessage });

// CRM connection (spec §8): the CRM Integration dialog and `crm crm connect|disconnect`.
export const CRM_TOKEN_REQUIRED: Notice = { title: 'Token required', body: 'Please enter your CRM API token.' };
export const CRM_TOKEN_SAVED: Notice = { title: 'CRM Token saved', body: 'Your CRM is connected.' };
export const CRM_TOKEN_FAILED = 'Failed to save token';
export const CRM_DISCONNECTED: Notice = { title: 'Disconnected', body: 'Your CRM is no longer connected.' };
export const CRM_DISCONNECT_FAILED: Notice = { title: 'Disconnect Error', body: 'Failed to disconnect' };

// Contacts from a file (issue 27): the CRM Integration dialog's import and `crm import`.
export const contactsImported = (count: number, fileName: string): Notice => ({
  title: 'Contacts imported',
  body: `${formatCount(count)} contacts from ${fileName} are now your customers.`,
});
export const IMPORT_FAILED = 'Import failed';
export const UPLOAD_FAILED = 'Upload failed';
export const importUndone = (restored: { fileName: string; importedCount: number } | null): Notice => ({
  title: 'Import undone',
  body: restored ? `Your contacts are those of ${restored.fileName} again (${formatCount(restored.importedCount)}).` : 'You have no imported contacts now.',
});
export const fileTooLarge = (limit: string): Notice => ({ title: 'File too large', body: `A contacts file can be at most ${limit}.` });
