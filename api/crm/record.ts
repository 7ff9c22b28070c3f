/**
 * The CRM-neutral contact record: what every connector reads a CRM's people into, at full fidelity
 * (exact amounts, instants), in the product's field names. Segments are evaluated on it
 * (segmentation/evaluate.ts `compileRecordEvaluator`), results are ordered by it (`compareRecords`),
 * and the customer the product shows and stores is derived from it (`toCustomer`).
 */
import type { LifecycleStage, LifecycleValue } from './hubspot/model/index.js';
import { compareIds } from './hubspot/model/index.js';
import type { SegmentSort } from '../segmentation/ast.js';

export interface CrmRecord {
  /** the CRM's record id (for imported files: the file's id column, or the row number) */
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  company: string | null;
  /**
   * The detailed lifecycle stage in the product's vocabulary (subscriber, lead, marketingqualifiedlead,
   * salesqualifiedlead, opportunity, customer, evangelist, other), read through the connection's stage
   * map; null when the CRM's value maps to none (then `lifecycleStage` is "unknown").
   */
  stage: LifecycleValue | null;
  /** the product's five stages, derived from `stage` */
  lifecycleStage: LifecycleStage;
  /** epoch milliseconds of the last purchase (won deal), or null when the person never bought */
  lastPurchaseAt: number | null;
  /** USD, as the CRM holds it */
  lastPurchaseAmount: number | null;
  /** USD, as the CRM holds it (or the sum of won deals) */
  lifetimeValue: number | null;
  city: string | null;
  state: string | null;
  country: string | null;
  /** epoch milliseconds */
  createdAt: number | null;
}

/** A customer as the product shows, stores and exports it (spec §3 "Customer"). */
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

/** Whole USD, rounded half away from zero. */
export function wholeUsd(n: number | null): number | null {
  if (n === null || !Number.isFinite(n)) return null;
  const r = Math.sign(n) * Math.round(Math.abs(n));
  return Object.is(r, -0) ? 0 : r;
}

/** The UTC calendar date (YYYY-MM-DD) of an instant. */
export function isoDate(ms: number | null): string | null {
  return ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}

export function toCustomer(r: CrmRecord): Customer {
  return {
    id: r.id,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    company: r.company,
    lifecycleStage: r.lifecycleStage,
    lastPurchaseDate: isoDate(r.lastPurchaseAt),
    lastPurchaseAmount: wholeUsd(r.lastPurchaseAmount),
    lifetimeValue: wholeUsd(r.lifetimeValue),
    city: r.city,
    state: r.state,
    country: r.country,
  };
}

// ---------------------------------------------------------------------------------------------------
// Order: the same rule as HubSpot's result order (hubspot/model/order.ts), so every CRM and the
// product's own merging agree: by the field's value (numbers and instants numerically, text
// lower-cased) in the sort's direction, ties by id in the same direction; records without a value
// last in both directions, by id ascending. Without a sort: by id ascending.

type Key = number | string | undefined;

function sortKeyOf(r: CrmRecord, field: SegmentSort['field']): Key {
  switch (field) {
    case 'lifetimeValue': case 'lastPurchaseAmount':
      return r[field] ?? undefined;
    case 'lastPurchaseDate':
      return r.lastPurchaseAt ?? undefined;
    case 'createdAt':
      return r.createdAt ?? undefined;
    default: {
      const v = r[field];
      return v === null || v === '' ? undefined : v.toLowerCase();
    }
  }
}

function compareKeyed(direction: 1 | -1, a: { id: string; key: Key }, b: { id: string; key: Key }): number {
  if (a.key === undefined || b.key === undefined) {
    if (a.key !== b.key) return a.key === undefined ? 1 : -1;
    return compareIds(a.id, b.id);
  }
  const d = typeof a.key === 'number' && typeof b.key === 'number' ? a.key - b.key : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  return direction * (d || compareIds(a.id, b.id));
}

/** A comparator of two records in the product's result order for `sort`. */
export function compareRecords(sort?: SegmentSort): (a: CrmRecord, b: CrmRecord) => number {
  if (!sort) return (a, b) => compareIds(a.id, b.id);
  const direction = sort.direction === 'desc' ? -1 : 1;
  return (a, b) => compareKeyed(direction, { id: a.id, key: sortKeyOf(a, sort.field) }, { id: b.id, key: sortKeyOf(b, sort.field) });
}

/** Sorts records in place into the product's result order for `sort`, and returns them. */
export function sortRecords<R extends CrmRecord>(records: R[], sort?: SegmentSort): R[] {
  if (!sort) return records.sort((a, b) => compareIds(a.id, b.id));
  const direction = sort.direction === 'desc' ? -1 : 1;
  const keyed = records.map((record) => ({ record, id: record.id, key: sortKeyOf(record, sort.field) }));
  keyed.sort((a, b) => compareKeyed(direction, a, b));
  keyed.forEach((k, i) => (records[i] = k.record));
  return records;
}
