// Runs a compiled segment (one or more HubSpot searches whose union is the segment) against a CRM
// connector: exact counts, and fetching the matching customers (merged, de-duplicated, sorted in
// HubSpot's result order, so several searches read like one).
// Shared by chat queries, Smart Segment generation, saved-segment processing and CSV downloads.
import type { CrmConnector, CrmContact } from '../crm/connector.js';
import { compareContacts, compareIds, ID_PROPERTY, SEARCH_LIMITS, sortContacts } from '../crm/hubspot/model/index.js';
import { planPartition, withIdFloor } from '../crm/hubspot/partition.js';
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

// ---------------------------------------------------------------------------------------------
// Reading a whole segment page by page (exports): stateless, each page fetched from the CRM when asked

/**
 * Where the next page of a segment starts. The cursor is all the state there is:
 *  - `id`: a segment without a limit is read in hs_object_id order, each page asking every search for
 *    its first contacts with an id above `after` (keyset paging; any size, beyond HubSpot's window);
 *  - `position`: a "top N" segment (N ≤ 10,000, within HubSpot's window) is read in its own order, by
 *    position in each of its searches (`offsets`), merged; `taken` customers were returned before.
 */
export type SegmentCursor = { by: 'id'; after: string } | { by: 'position'; offsets: number[]; taken: number };

export interface SegmentPage {
  customers: { customer: Customer; cursor: SegmentCursor }[];
  /** Where the next page starts; null after the last page. */
  next: SegmentCursor | null;
}

const ID_ASC = { propertyName: ID_PROPERTY, direction: 'ASCENDING' } as const;

/** The cursor kind a compiled segment is read with. */
export const cursorKindOf = (compiled: CompiledHubSpotQuery): SegmentCursor['by'] => (compiled.maxResults === undefined ? 'id' : 'position');

/**
 * One page of at most `first` (1–200) customers of the segment, starting at `cursor` (null: the
 * beginning). A page is a few CRM requests (one per search, usually one); nothing is kept between pages.
 */
export async function fetchSegmentPage(
  connector: CrmConnector,
  compiled: CompiledHubSpotQuery,
  opts: { first: number; cursor: SegmentCursor | null },
): Promise<SegmentPage> {
  const first = Math.min(SEARCH_LIMITS.maxPageSize, Math.max(1, Math.floor(opts.first)));
  if (opts.cursor && opts.cursor.by !== cursorKindOf(compiled)) throw new Error('cursor of another kind of segment');
  if (compiled.searches.length === 0) return { customers: [], next: null };
  return compiled.maxResults === undefined
    ? pageById(connector, compiled, first, opts.cursor?.by === 'id' ? opts.cursor.after : null)
    : pageByPosition(connector, compiled, compiled.maxResults, first, opts.cursor?.by === 'position' ? opts.cursor : null);
}

interface Part {
  results: CrmContact[];
  /** matching contacts after the cursor, these results included */
  total: number;
}

async function pageById(connector: CrmConnector, compiled: CompiledHubSpotQuery, first: number, after: string | null): Promise<SegmentPage> {
  const parts: Part[] = [];
  for (const search of compiled.searches) {
    // The id filter takes one filter per group: pack the groups as the connector does beyond 10,000.
    const plan = planPartition(search.filterGroups ?? []);
    for (const batch of plan.batches) {
      const part: Part = { results: [], total: 0 };
      const request = { filterGroups: withIdFloor(batch, after), sorts: [ID_ASC], query: search.query };
      for await (const c of connector.searchContacts(request, { limit: first, pageSize: first, onTotal: (n) => (part.total = n) })) part.results.push(c);
      parts.push(part);
    }
    for (const group of plan.unpartitionable) {
      // No room for the id filter (HubSpot lets such a group match at most 10,000 contacts): read the
      // group in id order and keep what lies after the cursor.
      const rest: CrmContact[] = [];
      for await (const c of connector.searchContacts({ filterGroups: [group], sorts: [ID_ASC], query: search.query })) {
        if (after === null || compareIds(c.id, after) > 0) rest.push(c);
      }
      parts.push({ results: rest.slice(0, first), total: rest.length });
    }
  }
  const byId = new Map<string, CrmContact>();
  for (const part of parts) for (const c of part.results) byId.set(c.id, c);
  const page = [...byId.values()].sort((a, b) => compareIds(a.id, b.id)).slice(0, first);
  if (page.length === 0) return { customers: [], next: null };
  const end = page[page.length - 1].id;
  // More when some search has matches beyond what this page took from it.
  const more = parts.some((p) => p.total > p.results.filter((c) => compareIds(c.id, end) <= 0).length);
  return {
    customers: page.map((c) => ({ customer: mapContactToCustomer(c), cursor: { by: 'id', after: c.id } })),
    next: more ? { by: 'id', after: end } : null,
  };
}

async function pageByPosition(
  connector: CrmConnector,
  compiled: CompiledHubSpotQuery,
  maxResults: number,
  first: number,
  cursor: { offsets: number[]; taken: number } | null,
): Promise<SegmentPage> {
  const offsets = cursor?.offsets ?? compiled.searches.map(() => 0);
  if (offsets.length !== compiled.searches.length) throw new Error('cursor of another segment');
  let taken = cursor?.taken ?? 0;
  const want = Math.min(first, maxResults - taken);
  if (want <= 0) return { customers: [], next: null };
  // Each search's next `want` contacts in the segment's order; merging them gives the next `want`
  // of the union (a search is never drained before `want` customers are taken).
  const buffers: Part[] = [];
  for (const [i, search] of compiled.searches.entries()) {
    const part: Part = { results: [], total: 0 };
    for await (const c of connector.searchContacts(search, { offset: offsets[i], limit: want, pageSize: want, onTotal: (n) => (part.total = n) })) {
      part.results.push(c);
    }
    buffers.push(part);
  }
  const compare = compareContacts(compiled.sort);
  const index = buffers.map(() => 0);
  const customers: SegmentPage['customers'] = [];
  while (customers.length < want) {
    let best = -1;
    for (const [i, b] of buffers.entries()) {
      const head = b.results[index[i]];
      if (head && (best < 0 || compare(head, buffers[best].results[index[best]]) < 0)) best = i;
    }
    if (best < 0) break;
    const c = buffers[best].results[index[best]];
    // The same contact found by several searches sits at the head of each: take it once.
    for (const [i, b] of buffers.entries()) if (b.results[index[i]]?.id === c.id) index[i]++;
    taken++;
    customers.push({ customer: mapContactToCustomer(c), cursor: { by: 'position', offsets: offsets.map((o, i) => o + index[i]), taken } });
  }
  const nextOffsets = offsets.map((o, i) => o + index[i]);
  const more = taken < maxResults && buffers.some((b, i) => nextOffsets[i] < b.total);
  return { customers, next: more ? { by: 'position', offsets: nextOffsets, taken } : null };
}
