// The values the user's CRM holds, for the question parser (issue 23: "resolve values against the user's own
// CRM"): companies, cities, states, countries and e-mail domains, read with CrmConnector.listValues (most
// frequent first, over a sample of the CRM's records; HubSpot reads them with its list API, not the search
// budget), kept per user for an hour and refreshed in the background. A question never waits more than
// WAIT_MS for the first load: without the values the parser reads places from its own lexicon and companies
// from capitalisation, and asks about what it had to guess. Keyed by user: after a reconnection to another
// account the old values serve until they expire.
import type { User } from '@prisma/client';
import { LRUCache } from 'lru-cache';
import { CrmVocabulary, type VocabularyField, type VocabularyValues } from '../segmentation/index.js';
import { connectorForUser } from './crm.js';
import type { ServiceDeps } from './deps.js';

export const CRM_VOCABULARY_TTL_MS = 60 * 60 * 1000;
const WAIT_MS = 1500;
const MAX_USERS = 1000;
const FIELDS: readonly VocabularyField[] = ['company', 'city', 'state', 'country', 'emailDomain'];

async function load(deps: ServiceDeps, user: User): Promise<CrmVocabulary | undefined> {
  const connector = await connectorForUser(deps, user);
  if (!connector.listValues) return undefined;
  // one field failing (a property the account does not have) leaves the others usable
  const lists = await Promise.allSettled(FIELDS.map((f) => connector.listValues!(f)));
  const values: VocabularyValues = {};
  lists.forEach((r, i) => {
    if (r.status === 'fulfilled' && r.value.length > 0) values[FIELDS[i]] = r.value;
  });
  if (Object.keys(values).length === 0) return undefined;
  return CrmVocabulary.from(values);
}

// lru-cache's fetch() shares one load per user between concurrent questions, serves a stale vocabulary while
// it is refreshed (allowStale), and keeps nothing when the load fails or finds no values (not connected, the
// CRM failed): the next question tries again.
const cache = new LRUCache<string, CrmVocabulary, { deps: ServiceDeps; user: User }>({
  max: MAX_USERS,
  ttl: CRM_VOCABULARY_TTL_MS,
  allowStale: true,
  fetchMethod: (_userId, _stale, { context }) => load(context.deps, context.user),
});

/** The user's CRM values as a parser vocabulary, or undefined (not connected, not loaded yet, failed). */
export async function crmVocabularyFor(deps: ServiceDeps, user: User): Promise<CrmVocabulary | undefined> {
  const pending = cache.fetch(user.id, { context: { deps, user } }).catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), WAIT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Forgets a user's values (tests; a reconnection could call it). */
export function forgetCrmVocabulary(userId: string): void {
  cache.delete(userId);
}
