/**
 * Zoho's default field map. Zoho keeps people in two modules, Leads and Contacts, whose standard fields
 * differ where Contacts have an account and a mailing address: the map names the Contacts field, and
 * `fieldIn` translates it for Leads (`Mailing_Country` → `Country`, the account name → `Company`).
 * Purchases are not a field of either module: by default they are derived from the contact's Deals at
 * stage "Closed Won" (names starting with `$`); a connection may map them to fields of its own instead
 * (e.g. a rollup summary field), and its stage field to any picklist.
 */
import type { FieldMap, MappableField } from '../field-map.js';

export type ZohoPersonModule = 'Leads' | 'Contacts';
export const PERSON_MODULES: readonly ZohoPersonModule[] = ['Leads', 'Contacts'];

/** The won-deal values the connector derives (not fields of Zoho's). */
export const DERIVED_FIELDS = {
  lastPurchaseDate: '$won_deals.last_closing_date',
  lastPurchaseAmount: '$won_deals.last_amount',
  lifetimeValue: '$won_deals.total_amount',
} as const;
export const isDerived = (name: string) => name.startsWith('$');

/** The deal stage that means a purchase, and the deal fields read. */
export const WON_DEAL_STAGE = 'Closed Won';

export const ZOHO_FIELD_MAP: FieldMap = {
  fields: {
    firstName: 'First_Name',
    lastName: 'Last_Name',
    email: 'Email',
    company: 'Account_Name.Account_Name',
    lifecycleStage: 'Lifecycle_Stage',
    lastPurchaseDate: DERIVED_FIELDS.lastPurchaseDate,
    lastPurchaseAmount: DERIVED_FIELDS.lastPurchaseAmount,
    lifetimeValue: DERIVED_FIELDS.lifetimeValue,
    city: 'Mailing_City',
    state: 'Mailing_State',
    country: 'Mailing_Country',
    createdAt: 'Created_Time',
  } satisfies Record<MappableField, string>,
  // A `Lifecycle_Stage` picklist with HubSpot's stages by label (what an org migrated from HubSpot, or
  // set up like the sandbox, holds); compared trimmed and lower-cased.
  stages: {
    subscriber: 'subscriber',
    lead: 'lead',
    'marketing qualified lead': 'marketingqualifiedlead',
    'sales qualified lead': 'salesqualifiedlead',
    opportunity: 'opportunity',
    customer: 'customer',
    evangelist: 'evangelist',
    other: 'other',
  },
};

/** Contacts' standard fields that Leads hold under another name. */
const LEAD_NAME_OF: Readonly<Record<string, string>> = {
  'Account_Name.Account_Name': 'Company',
  Mailing_City: 'City',
  Mailing_State: 'State',
  Mailing_Country: 'Country',
  Mailing_Street: 'Street',
  Mailing_Zip: 'Zip_Code',
};

/**
 * The field a module holds a mapped name under: the name itself, its Leads equivalent, or null when the
 * module cannot have it (a lookup only Contacts have). Derived names are returned as they are.
 */
export function fieldIn(module: ZohoPersonModule, mapped: string): string | null {
  if (module === 'Contacts' || isDerived(mapped)) return mapped;
  if (LEAD_NAME_OF[mapped]) return LEAD_NAME_OF[mapped];
  return mapped.includes('.') ? null : mapped;
}
