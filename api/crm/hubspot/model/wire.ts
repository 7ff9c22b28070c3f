/**
 * HubSpot's contacts search on the wire (`POST /crm/v3/objects/contacts/search`): request and response
 * shapes and the documented limits. The connector sends these, the compiler writes them and the sandbox
 * answers them.
 */

export const FILTER_OPERATORS = [
  'EQ', 'NEQ', 'LT', 'LTE', 'GT', 'GTE', 'BETWEEN', 'IN', 'NOT_IN',
  'HAS_PROPERTY', 'NOT_HAS_PROPERTY', 'CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface HubSpotFilter {
  propertyName: string;
  operator: FilterOperator;
  /** single value (EQ, NEQ, LT..., BETWEEN low bound, CONTAINS_TOKEN); datetimes as epoch-ms strings */
  value?: string;
  /** IN / NOT_IN */
  values?: string[];
  /** BETWEEN high bound (inclusive) */
  highValue?: string;
}

export interface HubSpotFilterGroup {
  filters: HubSpotFilter[];
}

export type SortDirection = 'ASCENDING' | 'DESCENDING';

export interface HubSpotSort {
  propertyName: string;
  direction: SortDirection;
}

/** What the product asks for: filters, optional sort and optional full-text query. */
export interface HubSpotSearchRequest {
  filterGroups: HubSpotFilterGroup[];
  sorts?: HubSpotSort[];
  query?: string;
}

/** The full wire body (adds paging and the properties to return). */
export interface HubSpotSearchBody extends HubSpotSearchRequest {
  properties?: string[];
  limit?: number;
  after?: string;
}

export interface HubSpotObject {
  id: string;
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
  archived?: boolean;
}

/** A contact as the product reads it: its id and raw property values (all strings on the wire). */
export interface HubSpotContact {
  id: string;
  properties: Record<string, string | null | undefined>;
}

export interface HubSpotSearchResponse {
  total: number;
  results: HubSpotObject[];
  paging?: { next: { after: string; link?: string } };
}

/** HubSpot's documented search limits. */
export const SEARCH_LIMITS = {
  maxFilterGroups: 5,
  maxFiltersPerGroup: 6,
  maxFiltersTotal: 18,
  maxPageSize: 200,
  defaultPageSize: 10,
  maxResultWindow: 10_000,
  maxBodyChars: 3_000,
  requestsPerSecond: 5,
} as const;
export type SearchLimits = typeof SEARCH_LIMITS;
