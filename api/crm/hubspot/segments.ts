/**
 * HubSpot's side of the seam: a segment compiled to HubSpot searches (segmentation/compile-hubspot.ts:
 * every condition is expressible; only a long list that would be more filters than a HubSpot search takes is left
 * to the product, as the plan's residual), and those searches run:
 * exact counts, every contact once in the segment's order (several searches merged and de-duplicated, so
 * they read like one), and stateless pages for exports (keyset by hs_object_id, or by position within
 * HubSpot's 10,000-result window for a "top N" segment).
 */
import type { Condition, Segment } from '../../segmentation/ast.js';
import { isSegmentationError } from '../../segmentation/errors.js';
import { compileToHubSpot } from '../../segmentation/compile-hubspot.js';
import type { CompiledHubSpotQuery } from '../../segmentation/hubspot-query.js';
import { InvalidCursorError, type CompileContext, type CrmContact, type NativeCursor, type ReadOptions, type RecordPage, type SearchContactsOptions } from '../connector.js';
import type { FieldMap } from '../field-map.js';
import { planSegment, type SegmentPlan } from '../plan.js';
import type { CrmRecord } from '../record.js';
import { compareContacts, compareIds, ID_PROPERTY, SEARCH_LIMITS, sortContacts, type HubSpotSearchRequest } from './model/index.js';
import { planPartition, withIdFloor } from './partition.js';
import { hubspotRecord, mappedProperties } from './records.js';

/** What the segment functions need of the connector: its search API. */
export interface HubSpotSearcher {
  searchContacts(request: HubSpotSearchRequest, options?: SearchContactsOptions): AsyncIterable<CrmContact>;
  countContacts(request: HubSpotSearchRequest): Promise<number>;
}

/** Conditions that become one filter each per value: the first to leave a search that is over HubSpot's limits. */
const wideCondition = (c: Condition) => (c.op === 'in' || c.op === 'not_in') && c.values.length > 2 && (c.field === 'emailDomain' || c.field === 'company');

export function compileHubSpotPlan(segment: Segment, ctx: CompileContext, map: FieldMap): SegmentPlan<CompiledHubSpotQuery> {
  const opts = { now: ctx.now, timeZone: ctx.timeZone, fieldMap: map };
  try {
    return { crmType: 'hubspot', native: compileToHubSpot(segment, opts) };
  } catch (err) {
    // "leads with a work email": one NOT filter per free-mail domain is more than HubSpot's filters per group.
    // HubSpot searches the rest and the product checks the long lists on what it returns (the plan's residual).
    if (!isSegmentationError(err) || err.code !== 'TOO_MANY_FILTERS_IN_GROUP') throw err;
    const plan = planSegment('hubspot', segment, { now: ctx.now }, (c) => !wideCondition(c), (s) => compileToHubSpot(s, opts));
    if (!plan.residual) throw err;
    return plan;
  }
}

const ID_ONLY = [ID_PROPERTY];
const ID_ASC = { propertyName: ID_PROPERTY, direction: 'ASCENDING' } as const;

async function unionOf(api: HubSpotSearcher, compiled: CompiledHubSpotQuery, properties?: string[]) {
  const byId = new Map<string, CrmContact>();
  for (const search of compiled.searches) {
    for await (const c of api.searchContacts(search, { properties })) byId.set(c.id, c);
  }
  return [...byId.values()];
}

/** Exact number of contacts in the compiled segment. */
export async function countCompiled(api: HubSpotSearcher, compiled: CompiledHubSpotQuery): Promise<number> {
  if (compiled.searches.length === 0) return 0;
  const total =
    compiled.searches.length === 1
      ? await api.countContacts(compiled.searches[0])
      : (await unionOf(api, compiled, ID_ONLY)).length; // overlapping searches: count distinct ids
  return compiled.maxResults !== undefined ? Math.min(total, compiled.maxResults) : total;
}

/**
 * The compiled segment's contacts in its order, each once, up to `limit` (the total stays exact): one
 * search is read as HubSpot sorts and counts it; several are merged, de-duplicated and sorted.
 */
export async function* readCompiled(api: HubSpotSearcher, compiled: CompiledHubSpotQuery, map: FieldMap, options: ReadOptions = {}): AsyncGenerator<CrmRecord> {
  if (compiled.searches.length === 0) {
    options.onTotal?.(0);
    return;
  }
  const cap = Math.min(options.limit ?? Infinity, compiled.maxResults ?? Infinity);
  const properties = mappedProperties(map);
  let contacts: CrmContact[];
  if (compiled.searches.length === 1) {
    const search = compiled.searches[0];
    const contactsOf = api.searchContacts(search, {
      limit: Number.isFinite(cap) ? cap : undefined,
      properties,
      signal: options.signal,
      onTotal: (n) => options.onTotal?.(compiled.maxResults !== undefined ? Math.min(n, compiled.maxResults) : n),
    });
    if (search.sorts?.length || !compiled.sort) {
      // HubSpot returns them in the segment's order (its sort, or ids): each page is passed on as it
      // arrives, so the first rows are there after the first search (services/segment-runner.ts).
      for await (const c of contactsOf) yield hubspotRecord(c, map);
      return;
    }
    contacts = [];
    for await (const c of contactsOf) contacts.push(c);
    sortContacts(contacts, compiled.sort);
  } else {
    contacts = sortContacts(await unionOf(api, compiled, properties), compiled.sort);
    options.onTotal?.(compiled.maxResults !== undefined ? Math.min(contacts.length, compiled.maxResults) : contacts.length);
  }
  for (const c of contacts.slice(0, Number.isFinite(cap) ? cap : undefined)) yield hubspotRecord(c, map);
}

// ---------------------------------------------------------------------------------------------
// Pages: stateless, each fetched from HubSpot when asked

/**
 * Where the next page of a segment starts. The cursor is all the state there is:
 *  - `id`: a segment without a limit is read in hs_object_id order, each page asking every search for
 *    its first contacts with an id above `after` (keyset paging; any size, beyond HubSpot's window);
 *  - `position`: a "top N" segment (N ≤ 10,000, within HubSpot's window) is read in its own order, by
 *    position in each of its searches (`offsets`), merged; `taken` contacts were returned before.
 */
export type HubSpotCursor = { by: 'id'; after: string } | { by: 'position'; offsets: number[]; taken: number };

const cursorKindOf = (compiled: CompiledHubSpotQuery): HubSpotCursor['by'] => (compiled.maxResults === undefined ? 'id' : 'position');

/** A cursor this segment could have handed out (ids are hs_object_ids; positions stay in HubSpot's window). */
function isCursorOf(c: unknown, compiled: CompiledHubSpotQuery): c is HubSpotCursor {
  if (!c || typeof c !== 'object') return false;
  const o = c as Record<string, unknown>;
  const inWindow = (n: unknown) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= SEARCH_LIMITS.maxResultWindow;
  if (o.by !== cursorKindOf(compiled)) return false;
  if (o.by === 'id') return typeof o.after === 'string' && /^\d{1,20}$/.test(o.after);
  return Array.isArray(o.offsets) && o.offsets.length === compiled.searches.length && o.offsets.every(inWindow) && inWindow(o.taken);
}

/** How many requests counting costs: one per search (several are read whole to count distinct ids). */
export const countCostOf = (compiled: CompiledHubSpotQuery): number => Math.max(1, compiled.searches.length);

/**
 * One page of at most `first` (1–200) contacts of the segment, starting at `cursor` (null: the
 * beginning). A page is a few HubSpot requests (one per search, usually one).
 */
export async function readCompiledPage(
  api: HubSpotSearcher,
  compiled: CompiledHubSpotQuery,
  map: FieldMap,
  opts: { first: number; cursor: NativeCursor | null },
): Promise<RecordPage> {
  const first = Math.min(SEARCH_LIMITS.maxPageSize, Math.max(1, Math.floor(opts.first)));
  const cursor = opts.cursor ?? null;
  if (cursor !== null && !isCursorOf(cursor, compiled)) throw new InvalidCursorError('not a cursor of this segment');
  if (compiled.searches.length === 0) return { records: [], next: null };
  return compiled.maxResults === undefined
    ? pageById(api, compiled, map, first, cursor?.by === 'id' ? cursor.after : null)
    : pageByPosition(api, compiled, map, compiled.maxResults, first, cursor?.by === 'position' ? cursor : null);
}

interface Part {
  results: CrmContact[];
  /** matching contacts after the cursor, these results included */
  total: number;
}

async function pageById(api: HubSpotSearcher, compiled: CompiledHubSpotQuery, map: FieldMap, first: number, after: string | null): Promise<RecordPage> {
  const properties = mappedProperties(map);
  const parts: Part[] = [];
  for (const search of compiled.searches) {
    // The id filter takes one filter per group: pack the groups as the connector does beyond 10,000.
    const plan = planPartition(search.filterGroups ?? []);
    for (const batch of plan.batches) {
      const part: Part = { results: [], total: 0 };
      const request = { filterGroups: withIdFloor(batch, after), sorts: [ID_ASC], query: search.query };
      for await (const c of api.searchContacts(request, { limit: first, pageSize: first, properties, onTotal: (n) => (part.total = n) })) part.results.push(c);
      parts.push(part);
    }
    for (const group of plan.unpartitionable) {
      // No room for the id filter (HubSpot lets such a group match at most 10,000 contacts): read the
      // group in id order and keep what lies after the cursor.
      const rest: CrmContact[] = [];
      for await (const c of api.searchContacts({ filterGroups: [group], sorts: [ID_ASC], query: search.query }, { properties })) {
        if (after === null || compareIds(c.id, after) > 0) rest.push(c);
      }
      parts.push({ results: rest.slice(0, first), total: rest.length });
    }
  }
  const byId = new Map<string, CrmContact>();
  for (const part of parts) for (const c of part.results) byId.set(c.id, c);
  const page = [...byId.values()].sort((a, b) => compareIds(a.id, b.id)).slice(0, first);
  if (page.length === 0) return { records: [], next: null };
  const end = page[page.length - 1].id;
  // More when some search has matches beyond what this page took from it.
  const more = parts.some((p) => p.total > p.results.filter((c) => compareIds(c.id, end) <= 0).length);
  return {
    records: page.map((c) => ({ record: hubspotRecord(c, map), cursor: { by: 'id', after: c.id } satisfies HubSpotCursor })),
    next: more ? ({ by: 'id', after: end } satisfies HubSpotCursor) : null,
  };
}

async function pageByPosition(
  api: HubSpotSearcher,
  compiled: CompiledHubSpotQuery,
  map: FieldMap,
  maxResults: number,
  first: number,
  cursor: { offsets: number[]; taken: number } | null,
): Promise<RecordPage> {
  const properties = mappedProperties(map);
  const offsets = cursor?.offsets ?? compiled.searches.map(() => 0);
  if (offsets.length !== compiled.searches.length) throw new InvalidCursorError('not a cursor of this segment');
  let taken = cursor?.taken ?? 0;
  const want = Math.min(first, maxResults - taken);
  if (want <= 0) return { records: [], next: null };
  // Each search's next `want` contacts in the segment's order; merging them gives the next `want`
  // of the union (a search is never drained before `want` contacts are taken).
  const buffers: Part[] = [];
  for (const [i, search] of compiled.searches.entries()) {
    const part: Part = { results: [], total: 0 };
    for await (const c of api.searchContacts(search, { offset: offsets[i], limit: want, pageSize: want, properties, onTotal: (n) => (part.total = n) })) {
      part.results.push(c);
    }
    buffers.push(part);
  }
  const compare = compareContacts(compiled.sort);
  const index = buffers.map(() => 0);
  const records: RecordPage['records'] = [];
  while (records.length < want) {
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
    records.push({ record: hubspotRecord(c, map), cursor: { by: 'position', offsets: offsets.map((o, i) => o + index[i]), taken } satisfies HubSpotCursor });
  }
  const nextOffsets = offsets.map((o, i) => o + index[i]);
  const more = taken < maxResults && buffers.some((b, i) => nextOffsets[i] < b.total);
  return { records, next: more ? ({ by: 'position', offsets: nextOffsets, taken } satisfies HubSpotCursor) : null };
}
