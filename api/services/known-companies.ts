// The CRM's own company names for the question parser (issue 15: "prefer matching against the CRM's own
// company values over guessing"). Read once per user from the CRM (a sample of its contacts, see
// CrmConnector.listCompanyNames), kept for an hour and refreshed in the background. A question never
// waits more than WAIT_MS for the first load: without the names the parser guesses from capitalisation.
// Keyed by user: after a reconnection to another account the old names serve until they expire.
import type { User } from '@prisma/client';
import { LRUCache } from 'lru-cache';
import { KnownCompanies } from '../segmentation/index.js';
import { connectorForUser } from './crm.js';
import type { ServiceDeps } from './deps.js';

export const KNOWN_COMPANIES_TTL_MS = 60 * 60 * 1000;
const WAIT_MS = 1500;
const MAX_USERS = 1000;

async function load(deps: ServiceDeps, user: User): Promise<KnownCompanies | undefined> {
  const connector = await connectorForUser(deps, user);
  if (!connector.listCompanyNames) return undefined;
  return KnownCompanies.from(await connector.listCompanyNames());
}

// lru-cache's fetch() shares one load per user between concurrent questions, serves a stale list while
// it is refreshed (allowStale), and keeps nothing when the load fails or finds no names (not connected,
// the CRM failed): the next question tries again.
const cache = new LRUCache<string, KnownCompanies, { deps: ServiceDeps; user: User }>({
  max: MAX_USERS,
  ttl: KNOWN_COMPANIES_TTL_MS,
  allowStale: true,
  fetchMethod: (_userId, _stale, { context }) => load(context.deps, context.user),
});

/** The user's CRM company names as a parser dictionary, or undefined (not connected, not loaded yet, failed). */
export async function knownCompaniesFor(deps: ServiceDeps, user: User): Promise<KnownCompanies | undefined> {
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
