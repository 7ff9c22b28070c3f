/**
 * HubSpot contact → product Customer (spec §3 "Customer" / `customers` table).
 *
 * Decisions:
 *  - missing values map to `null` (never to "" or 0), so "unknown" stays distinguishable;
 *  - lastPurchaseDate is the UTC calendar date of `recent_deal_close_date` as `YYYY-MM-DD` (the
 *    column is text; a date reads well in the table and in CSV exports, and the time of day of a
 *    deal close carries no meaning for segmentation);
 *  - money fields are whole USD, rounded half away from zero (`Math.round` on the absolute value);
 *  - lifecycle stages collapse to the product's five values (hubspot/model/lifecycle.ts).
 * Property names come from the HubSpot model's FIELD_PROPERTIES.
 */
import type { CrmContact } from './connector.js';
import { FIELD_PROPERTIES, parseInstant, productLifecycleStage, type LifecycleStage } from './hubspot/model/index.js';

export interface Customer {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  company: string | null;
  lifecycleStage: LifecycleStage;
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

type CustomerField = keyof Customer;

/** Customer field ← HubSpot property, and the rule that reads it (documentation table, README). */
export const FIELD_MAPPING: ReadonlyArray<{ field: CustomerField; property: string; rule: string }> = (
  [
    ['id', 'as-is (string); falls back to the record id'],
    ['firstName', 'trimmed text, empty → null'],
    ['lastName', 'trimmed text, empty → null'],
    ['email', 'trimmed text, empty → null'],
    ['company', 'trimmed text, empty → null'],
    ['lifecycleStage', 'see lifecycle table; anything else → unknown'],
    ['lastPurchaseDate', 'UTC date YYYY-MM-DD; missing/invalid → null'],
    ['lastPurchaseAmount', 'whole USD (rounded); missing/invalid → null'],
    ['lifetimeValue', 'whole USD (rounded); missing/invalid → null'],
    ['city', 'trimmed text, empty → null'],
    ['state', 'trimmed text, empty → null'],
    ['country', 'trimmed text, empty → null'],
  ] as const
).map(([field, rule]) => ({ field, property: FIELD_PROPERTIES[field], rule }));

/** HubSpot contact properties the product requests (`properties` of every search / read). */
export const CONTACT_PROPERTIES: readonly string[] = FIELD_MAPPING.map((m) => m.property);

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
  const ms = parseInstant(t);
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}

export function mapContactToCustomer(contact: CrmContact): Customer {
  const properties = contact.properties ?? {};
  const p = (field: CustomerField) => properties[FIELD_PROPERTIES[field]];
  return {
    id: text(p('id')) ?? contact.id,
    firstName: text(p('firstName')),
    lastName: text(p('lastName')),
    email: text(p('email')),
    company: text(p('company')),
    lifecycleStage: productLifecycleStage(p('lifecycleStage')),
    lastPurchaseDate: toIsoDate(p('lastPurchaseDate')),
    lastPurchaseAmount: toWholeUsd(p('lastPurchaseAmount')),
    lifetimeValue: toWholeUsd(p('lifetimeValue')),
    city: text(p('city')),
    state: text(p('state')),
    country: text(p('country')),
  };
}
