/**
 * The order of HubSpot search results, the one rule for everything that sorts contacts (the sandbox's
 * search engine, the connector beyond 10,000 results, the segment runner merging several searches, the
 * in-memory evaluator):
 *  - without a sort: by id ascending (HubSpot's creation order; ids grow with it);
 *  - with a sort: by the property's sort key (see `sortKey`) in the sort's direction, ties by id in the
 *    same direction; contacts without a value come last in both directions, by id ascending.
 */
import { PROPERTY_KINDS } from './properties.js';
import { isMissingValue, parseInstant } from './values.js';
import type { HubSpotContact, HubSpotSort } from './wire.js';

export type SortKey = number | string;

/**
 * What a stored value sorts by: numbers and datetimes as numbers, strings lower-cased, enumerations as
 * stored; for a property the model does not know, a number when it reads as one, else lower-cased text.
 * `undefined` when the value is missing or unreadable.
 */
export function sortKey(propertyName: string, value: string | null | undefined): SortKey | undefined {
  if (isMissingValue(value)) return undefined;
  switch (PROPERTY_KINDS[propertyName]) {
    case 'number':
      return asNumber(value);
    case 'datetime':
      return parseInstant(value) ?? undefined;
    case 'enumeration':
      return value;
    case 'string':
      return value.toLowerCase();
    default:
      return asNumber(value) ?? value.toLowerCase();
  }
}

function asNumber(value: string): number | undefined {
  const n = value.trim() === '' ? NaN : Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Ascending order of two present sort keys. */
export function compareSortKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Ids are hs_object_id values: numeric order, text order for anything that is not a number. */
export function compareIds(a: string, b: string): number {
  const d = Number(a) - Number(b);
  if (!Number.isNaN(d) && d !== 0) return d;
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Keyed {
  id: string;
  key: SortKey | undefined;
}

/** The order rule itself, over contacts whose sort keys are already computed. */
function compareKeyed(direction: 1 | -1, a: Keyed, b: Keyed): number {
  if (a.key === undefined || b.key === undefined) {
    if (a.key !== b.key) return a.key === undefined ? 1 : -1;
    return compareIds(a.id, b.id);
  }
  return direction * (compareSortKeys(a.key, b.key) || compareIds(a.id, b.id));
}

const directionOf = (sort: HubSpotSort): 1 | -1 => (sort.direction === 'DESCENDING' ? -1 : 1);

/** A comparator of two contacts in HubSpot's result order for `sort` (for merging sorted lists). */
export function compareContacts(sort?: HubSpotSort): (a: HubSpotContact, b: HubSpotContact) => number {
  if (!sort) return (a, b) => compareIds(a.id, b.id);
  const direction = directionOf(sort);
  const keyed = (c: HubSpotContact): Keyed => ({ id: c.id, key: sortKey(sort.propertyName, c.properties[sort.propertyName]) });
  return (a, b) => compareKeyed(direction, keyed(a), keyed(b));
}

/** Sorts `contacts` in place into HubSpot's result order for `sort`, and returns them. */
export function sortContacts<C extends HubSpotContact>(contacts: C[], sort?: HubSpotSort): C[] {
  if (!sort) return contacts.sort((a, b) => compareIds(a.id, b.id));
  const direction = directionOf(sort);
  // Keys are computed once per contact, not once per comparison.
  const keyed = contacts.map((contact) => ({ contact, id: contact.id, key: sortKey(sort.propertyName, contact.properties[sort.propertyName]) }));
  keyed.sort((a, b) => compareKeyed(direction, a, b));
  keyed.forEach((k, i) => (contacts[i] = k.contact));
  return contacts;
}
