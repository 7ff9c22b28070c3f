/**
 * The compiled form of a segment: HubSpot searches whose union is the segment, plus the order and cap
 * of the merged result. Written by the compiler, stored as `queries.hubspotQuery`, run by the segment
 * runner. HubSpot's own facts (wire types, properties, order) are in the HubSpot model.
 */
import { FIELD_PROPERTIES, type HubSpotSearchBody, type HubSpotSort } from '../crm/hubspot/model/index.js';
import type { SegmentSort } from './ast.js';

/** One search as the compiler writes it: paging and the properties to return are always set. */
export type CompiledSearch = HubSpotSearchBody & Required<Pick<HubSpotSearchBody, 'limit' | 'after' | 'properties'>>;

export interface CompiledHubSpotQuery {
  /** Run every search, merge the results and de-duplicate by id: the union is the segment. */
  searches: CompiledSearch[];
  /** Order of the merged result (HubSpot's result order, see the model's sortContacts). */
  sort?: HubSpotSort;
  /** Keep at most this many contacts of the merged, sorted result. */
  maxResults?: number;
}

/** A segment's sort as a HubSpot sort. */
export function hubSpotSort(sort: SegmentSort): HubSpotSort {
  return { propertyName: FIELD_PROPERTIES[sort.field], direction: sort.direction === 'asc' ? 'ASCENDING' : 'DESCENDING' };
}
