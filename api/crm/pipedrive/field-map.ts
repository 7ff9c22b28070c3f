/**
 * Pipedrive's default field map, and the references it (and a connection's overrides) use:
 *
 *   `first_name`, `add_time`, a custom field's 40-character key   a person field, by its key
 *   `postal_address.country`, `<key>.locality`                    a component of a person address field
 *   `org.name`, `org.<key>`                                       a field of the person's organization
 *   `won_deals.last_won_time | last_value | total_value`          derived from the person's won deals
 *
 * Lifecycle stage defaults to the person's labels; `stages` maps label names (lower-cased) to the
 * product's detailed stages, including Pipedrive's stock labels ("Hot lead", "Warm lead", "Cold lead").
 */
import type { FieldMap } from '../field-map.js';

export const WON_DEALS_COUNT = 'won_deals_count';

/** The derived purchase values (computed from won deals; listed by describeFields as derived). */
export const DERIVED_PURCHASE_REFS = {
  lastPurchaseDate: 'won_deals.last_won_time',
  lastPurchaseAmount: 'won_deals.last_value',
  lifetimeValue: 'won_deals.total_value',
} as const;

export function isDerivedPurchaseRef(ref: string): boolean {
  return ref.startsWith('won_deals.');
}

/** Fields a person may hold several values of (a filter line matches when any value does). */
export function isMultiValuedRef(ref: string): boolean {
  return ref === 'email' || ref === 'phone';
}

export const PIPEDRIVE_FIELD_MAP: FieldMap = {
  fields: {
    firstName: 'first_name',
    lastName: 'last_name',
    email: 'email',
    company: 'org.name',
    lifecycleStage: 'label_ids',
    lastPurchaseDate: DERIVED_PURCHASE_REFS.lastPurchaseDate,
    lastPurchaseAmount: DERIVED_PURCHASE_REFS.lastPurchaseAmount,
    lifetimeValue: DERIVED_PURCHASE_REFS.lifetimeValue,
    city: 'postal_address.locality',
    state: 'postal_address.admin_area_level_1',
    country: 'postal_address.country',
    createdAt: 'add_time',
  },
  stages: {
    subscriber: 'subscriber',
    lead: 'lead',
    'hot lead': 'lead',
    'warm lead': 'lead',
    'cold lead': 'lead',
    'marketing qualified lead': 'marketingqualifiedlead',
    mql: 'marketingqualifiedlead',
    'sales qualified lead': 'salesqualifiedlead',
    sql: 'salesqualifiedlead',
    opportunity: 'opportunity',
    customer: 'customer',
    evangelist: 'evangelist',
    other: 'other',
  },
};
