/**
 * A small, independent emulation of HubSpot's contact-search filter semantics, used by the tests to
 * check that compiled requests select exactly the contacts `evaluate.ts` selects. Missing-property
 * behaviour comes from hubspot-semantics.ts (the one place that assumption lives).
 */
import {
  PROPERTY_KINDS, isMissingValue, parseInstant, storedValue, type HubSpotContact, type HubSpotFilter, type HubSpotSearchRequest,
} from '../../crm/hubspot/model/index.js';
import type { CompiledHubSpotQuery } from '../hubspot-query.js';
import { HUBSPOT_SEMANTICS, type HubSpotSemantics } from '../hubspot-semantics.js';

function toNumber(kind: string, v: string): number {
  if (kind === 'datetime') return parseInstant(v) ?? NaN;
  return Number(v);
}

function equals(kind: string, actual: string, expected: string): boolean {
  if (kind === 'number' || kind === 'datetime') return toNumber(kind, actual) === toNumber(kind, expected);
  if (kind === 'enumeration') return actual === expected;
  return actual.toLowerCase() === expected.toLowerCase();
}

/** IN / NOT_IN on strings: the stored value folded to lowercase against the values as sent (HubSpot wants lowercase values). */
function inListEquals(kind: string, actual: string, listed: string): boolean {
  if (kind === 'string') return actual.toLowerCase() === listed;
  return equals(kind, actual, listed);
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'is');
}

/** CONTAINS_TOKEN: a pattern with `*` is a case-insensitive glob over the whole value; otherwise a token match. */
export function containsToken(value: string, pattern: string): boolean {
  if (pattern.includes('*')) return globToRegExp(pattern).test(value);
  return value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .includes(pattern.toLowerCase());
}

export function filterMatches(contact: HubSpotContact, f: HubSpotFilter, sem: HubSpotSemantics = HUBSPOT_SEMANTICS): boolean {
  const raw = contact.properties[f.propertyName];
  const missing = isMissingValue(raw);
  const kind = PROPERTY_KINDS[f.propertyName] ?? 'string';
  const v = missing ? '' : storedValue(f.propertyName, raw as string);
  const num = () => toNumber(kind, v);
  switch (f.operator) {
    case 'HAS_PROPERTY': return !missing;
    case 'NOT_HAS_PROPERTY': return missing;
    case 'EQ': return !missing && equals(kind, v, f.value as string);
    case 'NEQ': return missing ? sem.negativeOperatorsMatchMissing : !equals(kind, v, f.value as string);
    case 'IN': return !missing && (f.values ?? []).some((x) => inListEquals(kind, v, x));
    case 'NOT_IN': return missing ? sem.negativeOperatorsMatchMissing : !(f.values ?? []).some((x) => inListEquals(kind, v, x));
    case 'LT': return !missing && num() < toNumber(kind, f.value as string);
    case 'LTE': return !missing && num() <= toNumber(kind, f.value as string);
    case 'GT': return !missing && num() > toNumber(kind, f.value as string);
    case 'GTE': return !missing && num() >= toNumber(kind, f.value as string);
    case 'BETWEEN': {
      if (missing) return false;
      const x = num();
      return x >= toNumber(kind, f.value as string) && x <= toNumber(kind, f.highValue as string);
    }
    case 'CONTAINS_TOKEN': return !missing && containsToken(v, f.value as string);
    case 'NOT_CONTAINS_TOKEN': return missing ? sem.negativeOperatorsMatchMissing : !containsToken(v, f.value as string);
  }
}

export function requestMatches(contact: HubSpotContact, req: HubSpotSearchRequest, sem: HubSpotSemantics = HUBSPOT_SEMANTICS): boolean {
  if (req.filterGroups.length === 0) return true;
  return req.filterGroups.some((g) => g.filters.every((f) => filterMatches(contact, f, sem)));
}

/** Ids selected by the union of all searches of a compiled query (sort and maxResults ignored). */
export function runCompiledQuery(query: CompiledHubSpotQuery, contacts: readonly HubSpotContact[], sem: HubSpotSemantics = HUBSPOT_SEMANTICS): Set<string> {
  const ids = new Set<string>();
  for (const req of query.searches) for (const c of contacts) if (requestMatches(c, req, sem)) ids.add(c.id);
  return ids;
}
