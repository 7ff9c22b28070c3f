/** The HubSpot contact properties the product reads, and how HubSpot compares each of them. */

/** Product field → HubSpot contact property. */
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

/** The record id; HubSpot's default order and the key for paging past 10,000 results. */
export const ID_PROPERTY = FIELD_PROPERTIES.id;

/** Every property a segment can filter or sort on. */
export const SEGMENT_PROPERTIES: readonly HubSpotProperty[] = Object.values(FIELD_PROPERTIES);

/**
 * HubSpot property types decide comparisons: strings fold case, enumerations compare exactly, numbers
 * numerically, datetimes as instants (epoch milliseconds).
 */
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
  lastmodifieddate: 'datetime',
};
