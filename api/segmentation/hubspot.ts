/** HubSpot side of the segmentation engine: property names, lifecycle values, request types, limits. */
import type { LifecycleStage } from './ast.js';

/** Product field -> HubSpot contact property. */
export const FIELD_PROPERTIES = {
  id: 'hs_object_id',
  firstName: 'firstname',
  lastName: 'lastname',
  email: 'email',
  company: 'company',
  lifecycleStage: 'lifecyclestage',
  lastPurchaseDate: 'recent_deal_close_date',
  lastPurchaseAmount: 'recent_deal_amount',
  lifetimeValue: 'total_revenue',
  city: 'city',
  state: 'state',
  country: 'country',
  createdAt: 'createdate',
} as const;

export type ProductField = keyof typeof FIELD_PROPERTIES;
export type HubSpotProperty = (typeof FIELD_PROPERTIES)[ProductField];

/** The properties requested with every search (everything a Customer needs). */
export const CUSTOMER_PROPERTIES: readonly string[] = Object.values(FIELD_PROPERTIES);

export type PropertyKind = 'string' | 'number' | 'datetime' | 'enumeration';

export const PROPERTY_KINDS: Readonly<Record<string, PropertyKind>> = {
  hs_object_id: 'number',
  firstname: 'string',
  lastname: 'string',
  email: 'string',
  company: 'string',
  lifecyclestage: 'enumeration',
  recent_deal_close_date: 'datetime',
  recent_deal_amount: 'number',
  total_revenue: 'number',
  city: 'string',
  state: 'string',
  country: 'string',
  createdate: 'datetime',
};

/** Product lifecycle stage -> HubSpot internal `lifecyclestage` values (exact, lowercase). */
export const LIFECYCLE_HUBSPOT_VALUES: Readonly<Record<Exclude<LifecycleStage, 'unknown'>, readonly string[]>> = {
  subscriber: ['subscriber'],
  lead: ['lead', 'marketingqualifiedlead', 'salesqualifiedlead'],
  opportunity: ['opportunity'],
  customer: ['customer', 'evangelist'],
};

export const KNOWN_LIFECYCLE_VALUES: readonly string[] = Object.values(LIFECYCLE_HUBSPOT_VALUES).flat();

/** HubSpot `lifecyclestage` value -> product stage. Exact match: anything else (or empty) is "unknown". */
export function productLifecycleStage(value: string | null | undefined): LifecycleStage {
  if (!value) return 'unknown';
  for (const [stage, values] of Object.entries(LIFECYCLE_HUBSPOT_VALUES)) {
    if (values.includes(value)) return stage as LifecycleStage;
  }
  return 'unknown';
}

export type HubSpotOperator =
  | 'EQ' | 'NEQ' | 'LT' | 'LTE' | 'GT' | 'GTE' | 'BETWEEN' | 'IN' | 'NOT_IN'
  | 'HAS_PROPERTY' | 'NOT_HAS_PROPERTY' | 'CONTAINS_TOKEN' | 'NOT_CONTAINS_TOKEN';

export interface HubSpotFilter {
  propertyName: string;
  operator: HubSpotOperator;
  value?: string;
  values?: string[];
  highValue?: string;
}

export interface HubSpotFilterGroup {
  filters: HubSpotFilter[];
}

export interface HubSpotSort {
  propertyName: string;
  direction: 'ASCENDING' | 'DESCENDING';
}

export interface HubSpotSearchRequest {
  filterGroups: HubSpotFilterGroup[];
  sorts?: HubSpotSort[];
  limit: number;
  after: string;
  properties: string[];
}

/** What is stored as `queries.hubspotQuery`. */
export interface CompiledHubSpotQuery {
  /** Run every search, merge the results and de-duplicate by id: the union is the segment. */
  searches: HubSpotSearchRequest[];
  /** Order of the merged result (missing values last). */
  sort?: HubSpotSort;
  /** Keep at most this many contacts of the merged, sorted result. */
  maxResults?: number;
}

export interface HubSpotLimits {
  maxGroupsPerSearch: number;
  maxFiltersPerGroup: number;
  maxFiltersPerSearch: number;
  maxBodyChars: number;
}

export const HUBSPOT_LIMITS: Readonly<HubSpotLimits> = Object.freeze({
  maxGroupsPerSearch: 5,
  maxFiltersPerGroup: 6,
  maxFiltersPerSearch: 18,
  maxBodyChars: 3000,
});

/** A contact as returned by HubSpot's search API. */
export interface HubSpotContact {
  id: string;
  properties: Record<string, string | null | undefined>;
}
