// The values the user's CRM holds, for the question parser (issue 23: "resolve values against the user's own
// CRM"): companies, cities, states, countries and e-mail domains, read with CrmConnector.listValues (most
// frequent first, over a sample of the CRM's records; HubSpot reads them with its list API, not the search
// budget), kept per user for an hour and refreshed in the background. A question never waits more than
// WAIT_MS for the first load: without the values the parser reads places from its own lexicon and companies
// from capitalisation, and asks about what it had to guess. Keyed by user: after a reconnection to another
// account the old values serve until they expire. The same cached values feed the question box's
// suggestions while typing (crmVocabularyValues, the crmVocabulary GraphQL query): one source for both.
import type { User } from '@prisma/client';
import { LRUCache } from 'lru-cache';
import { CrmVocabulary, type VocabularyField, type VocabularyValues } from '../segmentation/index.js';
import { connectorForUser } from './crm.js';
import type { ServiceDeps } from './deps.js';

export const CRM_VOCABULARY_TTL_MS = 60 * 60 * 1000;
const WAIT_MS = 1500;
const MAX_USERS = 1000;
const FIELDS: readonly VocabularyField[] = ['company', 'city', 'state', 'country', 'emailDomain'];

interface Loaded {
  vocabulary: CrmVocabulary;
  values: VocabularyValues;
}

async function load(deps: ServiceDeps, user: User): Promise<Loaded | undefined> {
  const connector = await connectorForUser(deps, user);
  if (!connector.listValues) return undefined;
  // one field failing (a property the account does not have) leaves the others usable
  const lists = await Promise.allSettled(FIELDS.map((f) => connector.listValues!(f)));
  const values: VocabularyValues = {};
  lists.forEach((r, i) => {
    if (r.status === 'fulfilled' && r.value.length > 0) values[FIELDS[i]] = r.value;
  });
  if (Object.keys(values).length === 0) return undefined;
  return { vocabulary: CrmVocabulary.from(values), values };
}

// lru-cache's fetch() shares one load per user between concurrent questions, serves a stale vocabulary while
// it is refreshed (allowStale), and keeps nothing when the load fails or finds no values (not connected, the
// CRM failed): the next question tries again.
const cache = new LRUCache<string, Loaded, { deps: ServiceDeps; user: User }>({
  max: MAX_USERS,
  ttl: CRM_VOCABULARY_TTL_MS,
  allowStale: true,
  fetchMethod: (_userId, _stale, { context }) => load(context.deps, context.user),
});

/** The user's CRM values as a parser vocabulary, or undefined (not connected, not loaded yet, failed). */
export async function crmVocabularyFor(deps: ServiceDeps, user: User): Promise<CrmVocabulary | undefined> {
  const pending = cache
    .fetch(user.id, { context: { deps, user } })
    .then((l) => l?.vocabulary)
    .catch(() => undefined);
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

export type SuggestionValues = Record<'companies' | 'cities' | 'states' | 'countries', string[]>;

/** At most this many values per field go to the question box (the most frequent ones). */
export const SUGGESTION_VALUES_MAX = 500;

/**
 * The user's CRM values for suggestions while typing: companies, cities, states and countries, most
 * frequent first, from the same per-user cache as the parser's (waiting for its load, which a first
 * question would have started anyway). Empty lists when the CRM is not connected or could not be read.
 */
export async function crmVocabularyValues(deps: ServiceDeps, user: User): Promise<SuggestionValues> {
  const loaded = await cache.fetch(user.id, { context: { deps, user } }).catch(() => undefined);
  const list = (f: VocabularyField) => [...(loaded?.values[f] ?? [])].slice(0, SUGGESTION_VALUES_MAX);
  return { companies: list('company'), cities: list('city'), states: list('state'), countries: list('country') };
}

/** Forgets a user's values (tests; a reconnection could call it). */
export function forgetCrmVocabulary(userId: string): void {
  cache.delete(userId);
}
