/**
 * HubSpot contact → product Customer (spec §3 "Customer" / `customers` table).
 *
 * Decisions:
 *  - missing values map to `null` (never to "" or 0), so "unknown" stays distinguishable;
 *  - lastPurchaseDate is the UTC calendar date of `recent_deal_close_date` as `YYYY-MM-DD` (the
 *    column is text; a date reads well in the table and in CSV exports, and the time of day of a
 *    deal close carries no meaning for segmentation);
 *  - money fields are whole USD, rounded half away from zero (`Math.round` on the absolute value);
 *  - lifecycle stages collapse to the product's five values (see LIFECYCLE_STAGE_MAP).
 */
import type { CrmContact } from './connector.js';

export type CustomerLifecycleStage = 'lead' | 'customer' | 'opportunity' | 'subscriber' | 'unknown';

export interface Customer {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  company: string | null;
  lifecycleStage: CustomerLifecycleStage;
  /** YYYY-MM-DD (UTC) */
  lastPurchaseDate: string | null;
  /** whole USD */
  lastPurchaseAmount: number | null;
  /** whole USD */
  lifetimeValue: number | null;
  city: string | null;
  state: string | null;
  country: string | null;
}

/** HubSpot contact properties the product requests (`properties` of every search / read). */
export const CONTACT_PROPERTIES = [
  'hs_object_id',
  'firstname',
  'lastname',
  'email',
  'company',
  'lifecyclestage',
  'recent_deal_close_date',
  'recent_deal_amount',
  'total_revenue',
  'city',
  'state',
  'country',
] as const;

/** Customer field ← HubSpot property (documentation table; README is generated from the same facts). */
export const FIELD_MAPPING: ReadonlyArray<{ field: keyof Customer; property: string; rule: string }> = [
  { field: 'id', property: 'hs_object_id', rule: 'as-is (string); falls back to the record id' },
  { field: 'firstName', property: 'firstname', rule: 'trimmed text, empty → null' },
  { field: 'lastName', property: 'lastname', rule: 'trimmed text, empty → null' },
  { field: 'email', property: 'email', rule: 'trimmed text, empty → null' },
  { field: 'company', property: 'company', rule: 'trimmed text, empty → null' },
  { field: 'lifecycleStage', property: 'lifecyclestage', rule: 'see lifecycle table; anything else → unknown' },
  { field: 'lastPurchaseDate', property: 'recent_deal_close_date', rule: 'UTC date YYYY-MM-DD; missing/invalid → null' },
  { field: 'lastPurchaseAmount', property: 'recent_deal_amount', rule: 'whole USD (rounded); missing/invalid → null' },
  { field: 'lifetimeValue', property: 'total_revenue', rule: 'whole USD (rounded); missing/invalid → null' },
  { field: 'city', property: 'city', rule: 'trimmed text, empty → null' },
  { field: 'state', property: 'state', rule: 'trimmed text, empty → null' },
  { field: 'country', property: 'country', rule: 'trimmed text, empty → null' },
];

export const LIFECYCLE_STAGE_MAP: Readonly<Record<string, CustomerLifecycleStage>> = {
  subscriber: 'subscriber',
  lead: 'lead',
  marketingqualifiedlead: 'lead',
  salesqualifiedlead: 'lead',
  opportunity: 'opportunity',
  customer: 'customer',
  evangelist: 'customer',
};

export function mapLifecycleStage(value: string | null | undefined): CustomerLifecycleStage {
  if (!value) return 'unknown';
  return LIFECYCLE_STAGE_MAP[value.trim().toLowerCase()] ?? 'unknown';
}

function text(v: string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** Whole USD from a HubSpot number string ("1520.5" → 1521). */
export function toWholeUsd(v: string | null | undefined): number | null {
  const t = text(v);
  if (t === null) return null;
  const n = Number(t);
  if (!Number.isFinite(n)) return null;
  const r = Math.sign(n) * Math.round(Math.abs(n));
  return Object.is(r, -0) ? 0 : r;
}

/** YYYY-MM-DD (UTC) from a HubSpot datetime value (ISO-8601, or epoch milliseconds). */
export function toIsoDate(v: string | null | undefined): string | null {
  const t = text(v);
  if (t === null) return null;
  const ms = /^-?\d+$/.test(t) ? Number(t) : Date.parse(t);
  if (!Number.isFinite(ms)) return null;
  return new Date(ms).toISOString().slice(0, 10);
}

export function mapContactToCustomer(contact: CrmContact): Customer {
  const p = contact.properties ?? {};
  return {
    id: text(p.hs_object_id) ?? contact.id,
    firstName: text(p.firstname),
    lastName: text(p.lastname),
    email: text(p.email),
    company: text(p.company),
    lifecycleStage: mapLifecycleStage(p.lifecyclestage),
    lastPurchaseDate: toIsoDate(p.recent_deal_close_date),
    lastPurchaseAmount: toWholeUsd(p.recent_deal_amount),
    lifetimeValue: toWholeUsd(p.total_revenue),
    city: text(p.city),
    state: text(p.state),
    country: text(p.country),
  };
}
