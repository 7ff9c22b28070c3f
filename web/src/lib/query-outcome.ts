// The toasts of a query's outcome (spec §8): limit reached, failure, completed with issues, no
// results, found n customers; re-runs say "Query re-run completed with issues" / "Query updated".
import { codeOf, detailsOf, messageOf } from './errors';
import type { Notice } from './toasts';
import { formatCount } from './format';

export function outcomeNotice(kind: 'run' | 'rerun', outcome: { resultCount: number; hasError: boolean }): Notice {
  if (outcome.hasError) {
    return {
      title: kind === 'run' ? 'Search completed with issues' : 'Query re-run completed with issues',
      body: 'There was a problem connecting to your CRM. Check the CRM connection and try again.',
      intent: 'warning',
    };
  }
  if (kind === 'rerun') return { title: 'Query updated', body: `Found ${formatCount(outcome.resultCount)} customers matching your criteria.`, intent: 'success' };
  if (outcome.resultCount === 0) return { title: 'No results found', body: 'Try adjusting your search criteria.', intent: 'info' };
  return { title: 'Search completed', body: `Found ${formatCount(outcome.resultCount)} customers matching your criteria.`, intent: 'success' };
}

/** A question none of which was understood (no query used): the assistant's reply says what it can filter on. */
export function notUnderstoodNotice(message: string): Notice {
  return { title: 'Question not understood', body: message, intent: 'info' };
}

export function failureNotice(kind: 'run' | 'rerun', err: unknown): Notice {
  if (codeOf(err) === 'QUOTA_EXCEEDED') {
    const d = detailsOf(err);
    const used = typeof d.used === 'number' ? d.used : 10;
    const limit = typeof d.limit === 'number' ? d.limit : 10;
    return {
      title: "You've reached your daily limit",
      body: `You've used ${used} of ${limit} queries today. Upgrade your plan or wait until tomorrow when limits reset.`,
      intent: 'warning',
    };
  }
  return kind === 'run'
    ? { title: 'Query failed', body: messageOf(err, 'Failed to process query'), intent: 'error' }
    : { title: 'Failed to rerun query', body: messageOf(err, 'Failed to rerun query'), intent: 'error' };
}
