/**
 * Pure helpers for HubSpot search requests: limit checks, and the plan used to read result sets larger
 * than HubSpot's 10,000-result window.
 *
 * Beyond 10,000 results the connector pages by hs_object_id ranges: it sorts by hs_object_id
 * ascending and adds `hs_object_id GT <last id seen>` to every filter group, restarting `after` at 0
 * each time the 10,000 window is reached. That extra filter costs one filter per group, so the
 * groups are packed into batches that still respect HubSpot's limits (≤ 6 filters per group, ≤ 18
 * in total, ≤ 5 groups); several batches mean several searches whose results are de-duplicated. A
 * group that already has 6 filters cannot take the extra filter: it is searched on its own and must
 * match at most 10,000 contacts.
 */
import { CrmError } from '../errors.js';
import { ID_PROPERTY, SEARCH_LIMITS, type HubSpotFilterGroup, type HubSpotSearchBody, type HubSpotSearchRequest } from './model/index.js';

/** Throws a VALIDATION CrmError when the request breaks HubSpot's documented limits. */
export function assertWithinSearchLimits(request: HubSpotSearchRequest): void {
  const groups = request.filterGroups ?? [];
  if (groups.length > SEARCH_LIMITS.maxFilterGroups) {
    throw new CrmError('VALIDATION', `HubSpot search allows at most ${SEARCH_LIMITS.maxFilterGroups} filter groups; this segment has ${groups.length}.`);
  }
  let total = 0;
  groups.forEach((g, i) => {
    const n = g.filters?.length ?? 0;
    if (n > SEARCH_LIMITS.maxFiltersPerGroup) {
      throw new CrmError('VALIDATION', `HubSpot search allows at most ${SEARCH_LIMITS.maxFiltersPerGroup} filters per group; group ${i + 1} has ${n}.`);
    }
    total += n;
  });
  if (total > SEARCH_LIMITS.maxFiltersTotal) {
    throw new CrmError('VALIDATION', `HubSpot search allows at most ${SEARCH_LIMITS.maxFiltersTotal} filters in total; this segment has ${total}.`);
  }
  if ((request.sorts?.length ?? 0) > 1) throw new CrmError('VALIDATION', 'HubSpot search allows only one sort.');
}

/** Throws a VALIDATION CrmError when the JSON body exceeds HubSpot's 3,000 characters. */
export function assertBodySize(body: HubSpotSearchBody): void {
  const length = JSON.stringify(body).length;
  if (length > SEARCH_LIMITS.maxBodyChars) {
    throw new CrmError(
      'VALIDATION',
      `This search is too large for HubSpot: the request body is ${length} characters and HubSpot accepts at most ${SEARCH_LIMITS.maxBodyChars}. Use fewer filters or shorter value lists.`,
      { details: { length, max: SEARCH_LIMITS.maxBodyChars } },
    );
  }
}

export interface PartitionPlan {
  /** batches of groups; each batch, with the id floor added to every group, fits HubSpot's limits */
  batches: HubSpotFilterGroup[][];
  /** groups with no room for the id floor (6 filters already) */
  unpartitionable: HubSpotFilterGroup[];
}

/** Packs filter groups into batches that stay within limits once the id floor is added. */
export function planPartition(groups: readonly HubSpotFilterGroup[]): PartitionPlan {
  if (groups.length === 0) return { batches: [[]], unpartitionable: [] };
  const batches: HubSpotFilterGroup[][] = [];
  const unpartitionable: HubSpotFilterGroup[] = [];
  let current: HubSpotFilterGroup[] = [];
  let currentFilters = 0;
  for (const g of groups) {
    const n = g.filters.length + 1;
    if (n > SEARCH_LIMITS.maxFiltersPerGroup) {
      unpartitionable.push(g);
      continue;
    }
    if (current.length > 0 && (currentFilters + n > SEARCH_LIMITS.maxFiltersTotal || current.length + 1 > SEARCH_LIMITS.maxFilterGroups)) {
      batches.push(current);
      current = [];
      currentFilters = 0;
    }
    current.push(g);
    currentFilters += n;
  }
  if (current.length > 0) batches.push(current);
  return { batches, unpartitionable };
}

/** Adds `hs_object_id GT lastId` to every group (or makes it the only group when there is none). */
export function withIdFloor(groups: readonly HubSpotFilterGroup[], lastId: string | null): HubSpotFilterGroup[] {
  if (lastId === null) return groups.map((g) => ({ filters: [...g.filters] }));
  const floor = { propertyName: ID_PROPERTY, operator: 'GT' as const, value: lastId };
  if (groups.length === 0) return [{ filters: [floor] }];
  return groups.map((g) => ({ filters: [...g.filters, floor] }));
}
