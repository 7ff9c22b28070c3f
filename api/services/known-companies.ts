// The CRM's own company names for the question parser (issue 15: "prefer matching against the CRM's own
// company values over guessing"). Read once per user from the CRM (a sample of its contacts, see
// CrmConnector.listCompanyNames), kept for an hour and refreshed in the background. A question never
// waits more than WAIT_MS for the first load: without the names the parser guesses from capitalisation.
// Keyed by user: after a reconnection to another account the old names serve until they expire.
import type { User } from '@prisma/client';
import { KnownCompanies } from '../segmentation/index.js';
import { connectorForUser } from './crm.js';
import type { ServiceDeps } from './deps.js';

export const KNOWN_COMPANIES_TTL_MS = 60 * 60 * 1000;
const WAIT_MS = 1500;
const MAX_USERS = 1000;

interface Entry {
  at: number;
  value?: KnownCompanies;
  pending?: Promise<KnownCompanies | undefined>;
}

const cache = new Map<string, Entry>();

async function load(deps: ServiceDeps, user: User): Promise<KnownCompanies | undefined> {
  const connector = await connectorForUser(deps, user);
  if (!connector.listCompanyNames) return undefined;
  return KnownCompanies.from(await connector.listCompanyNames());
}

/** The user's CRM company names as a parser dictionary, or undefined (not connected, not loaded yet, failed). */
export async function knownCompaniesFor(deps: ServiceDeps, user: User): Promise<KnownCompanies | undefined> {
  const entry = cache.get(user.id);
  const fresh = entry?.value !== undefined && Date.now() - entry.at < KNOWN_COMPANIES_TTL_MS;
  if (fresh) return entry.value;
  let pending = entry?.pending;
  if (!pending) {
    pending = load(deps, user).then(
      (value) => {
        cache.set(user.id, { at: Date.now(), value });
        return value;
      },
      () => {
        // not connected or the CRM failed: try again at the next question
        cache.delete(user.id);
        return undefined;
      },
    );
    if (cache.size >= MAX_USERS) cache.delete(cache.keys().next().value as string);
    cache.set(user.id, { at: entry?.at ?? 0, value: entry?.value, pending });
  }
  if (entry?.value) return entry.value; // stale while it is refreshed
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
