// The toasts of a query's outcome (spec §8): limit reached, failure, completed with issues, no
// results, found n customers; re-runs say "Query re-run completed with issues" / "Query updated".
// The texts live in client/messages.ts, shared with the CLI.
import { queryLimitReached, queryOutcome } from '../../../client/messages.js';
import { codeOf, detailsOf, messageOf } from './errors';
import type { Notice } from './toasts';

export function outcomeNotice(kind: 'run' | 'rerun', outcome: { resultCount: number; hasError: boolean }): Notice {
  const { title, body, level } = queryOutcome(kind, outcome);
  return { title, body, intent: level };
}

/** A question none of which was understood (no query used): the reply, in the conversation, says what it can filter on. */
export function notUnderstoodNotice(): Notice {
  return { title: 'Question not understood', body: 'No query was used. The reply in the conversation says what you can ask about.', intent: 'info' };
}

export function failureNotice(kind: 'run' | 'rerun', err: unknown): Notice {
  if (codeOf(err) === 'QUOTA_EXCEEDED') return { ...queryLimitReached(detailsOf(err)), intent: 'warning' };
  return kind === 'run'
    ? { title: 'Query failed', body: messageOf(err, 'Failed to process query'), intent: 'error' }
    : { title: 'Failed to rerun query', body: messageOf(err, 'Failed to rerun query'), intent: 'error' };
}
