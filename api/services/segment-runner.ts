// Runs a compiled segment (one or more HubSpot searches whose union is the segment) against a CRM
// connector: exact counts, and fetching the matching customers (merged, de-duplicated, sorted in
// HubSpot's result order, so several searches read like one).
// Shared by chat queries, Smart Segment generation, saved-segment processing and CSV downloads.
import type { CrmConnector, CrmContact } from '../crm/connector.js';
import { ID_PROPERTY, sortContacts } from '../crm/hubspot/model/index.js';
import { mapContactToCustomer, type Customer } from '../crm/mapping.js';
import type { CompiledHubSpotQuery } from '../segmentation/hubspot-query.js';

const ID_ONLY = [ID_PROPERTY];

async function unionOf(connector: CrmConnector, compiled: CompiledHubSpotQuery, properties?: string[]) {
  const byId = new Map<string, CrmContact>();
  for (const search of compiled.searches) {
    for await (const c of connector.searchContacts(search, { properties })) byId.set(c.id, c);
  }
  return [...byId.values()];
}

/** Exact number of customers in the segment. */
export async function countSegment(connector: CrmConnector, compiled: CompiledHubSpotQuery): Promise<number> {
  if (compiled.searches.length === 0) return 0;
  const total =
    compiled.searches.length === 1
      ? await connector.countContacts(compiled.searches[0])
      : (await unionOf(connector, compiled, ID_ONLY)).length; // overlapping searches: count distinct ids
  return compiled.maxResults !== undefined ? Math.min(total, compiled.maxResults) : total;
}

export interface FetchedSegment {
  /** exact size of the segment */
  total: number;
  /** customers in segment order; all of them unless `limit` cut the list */
  customers: Customer[];
}

/**
 * Fetches the segment's customers. `limit` caps how many are fetched and returned (the count stays
 * exact); without it the whole segment is fetched, beyond HubSpot's 10,000-result window.
 */
export async function fetchSegment(
  connector: CrmConnector,
  compiled: CompiledHubSpotQuery,
  opts: { limit?: number } = {},
): Promise<FetchedSegment> {
  if (compiled.searches.length === 0) return { total: 0, customers: [] };
  const cap = Math.min(opts.limit ?? Infinity, compiled.maxResults ?? Infinity);
  let contacts: CrmContact[];
  let total: number;
  if (compiled.searches.length === 1) {
    // One search: the CRM sorts and counts, so read only the first `cap` contacts.
    const search = compiled.searches[0];
    let exact = 0;
    contacts = [];
    for await (const c of connector.searchContacts(search, {
      limit: Number.isFinite(cap) ? cap : undefined,
      onTotal: (n) => (exact = n),
    })) {
      contacts.push(c);
    }
    total = exact;
    if (!search.sorts?.length) sortContacts(contacts, compiled.sort);
  } else {
    contacts = sortContacts(await unionOf(connector, compiled), compiled.sort);
    total = contacts.length;
  }
  if (compiled.maxResults !== undefined) total = Math.min(total, compiled.maxResults);
  return { total, customers: contacts.slice(0, Number.isFinite(cap) ? cap : undefined).map(mapContactToCustomer) };
}
