/**
 * `POST /crm/v3/objects/contacts/search` semantics, as a pure function over a {@link ContactStore}.
 *
 * Documented HubSpot behaviour followed here (developers.hubspot.com "Search the CRM", 2026-03):
 *  - filterGroups are ORed, filters inside a group are ANDed; at most 5 groups, 6 filters per group and
 *    18 filters in total, otherwise 400 VALIDATION_ERROR;
 *  - at most 200 results per page (default 10); `after` is an integer offset; results are capped at
 *    10,000 per query: asking for a page that ends beyond 10,000 (after + limit > 10,000) is a 400;
 *    `total` still reports the full count;
 *  - a request body longer than 3,000 characters is a 400;
 *  - "Values in filters are case-insensitive, with two exceptions: enumeration properties are
 *    case-sensitive for all operators; IN / NOT_IN on string properties need lowercase values".
 *    So here: string EQ/NEQ/LT../CONTAINS_TOKEN fold case; `lifecyclestage` (enumeration) compares
 *    exactly (`Customer` ≠ `customer`); string IN/NOT_IN compare the stored value folded to lowercase
 *    with the given values as sent (an uppercase value in `values` never matches — as on HubSpot);
 *  - number properties compare numerically; datetime properties take epoch milliseconds (strings or
 *    numbers; ISO-8601 strings are accepted too as a convenience) and compare as instants;
 *  - only one sort is allowed; default order is object creation (oldest first). In the sandbox ids
 *    grow with createdate, so the default order is hs_object_id ascending. Ties in a sort are broken
 *    by hs_object_id in the sort's direction; records without a value sort last in both directions.
 *  - without `properties`, contacts come back with createdate, email, firstname, hs_object_id,
 *    lastmodifieddate, lastname; with `properties`, the requested ones plus createdate,
 *    hs_object_id and lastmodifieddate. Requested properties without a value are `null`; unknown
 *    requested properties are ignored. A filter or sort on an unknown property is a 400.
 *
 * Missing values (decision — HubSpot's documentation is silent on this): positive comparisons
 * (EQ, LT, LTE, GT, GTE, BETWEEN, IN, CONTAINS_TOKEN, HAS_PROPERTY) never match a record that has no
 * value; negations (NEQ, NOT_IN, NOT_CONTAINS_TOKEN, NOT_HAS_PROPERTY) DO match it, because HubSpot's
 * search index evaluates negations as "must not match" clauses. Callers who want "has a value and is
 * not X" must add HAS_PROPERTY explicitly — which is correct under either reading.
 *
 * Full-text `query`: split on whitespace; every term must occur (case-insensitive substring) in at
 * least one of the default searchable contact properties present in the sandbox (firstname, lastname,
 * email, company).
 *
 * CONTAINS_TOKEN: the value is matched against tokens of the property value: the whole value, its
 * whitespace- and `@`-separated parts, and its words (runs of letters/digits). `*` is a wildcard for
 * any characters, so `*@acme.com` matches every e-mail at acme.com, and `acme` matches
 * "Acme Corporation" or `jane@acme.com`.
 */
import { Bitset } from './bitset.js';
import { validationError } from './errors.js';
import { ALWAYS_RETURNED_PROPERTIES, DEFAULT_SEARCHABLE_PROPERTIES, DEFAULT_SEARCH_PROPERTIES } from './properties.js';
import { ContactStore, createContactStore, lowerBound, renderContact, type PropertyColumn } from './store.js';
import { FILTER_OPERATORS, ID_PROPERTY, SEARCH_LIMITS, parseInstant, type FilterOperator, type HubSpotSearchResponse } from '../hubspot/model/index.js';

export { ContactStore, createContactStore };

interface CompiledFilter {
  propertyName: string;
  operator: FilterOperator;
  col: PropertyColumn;
  value?: string | number;
  high?: string | number;
  values?: (string | number)[];
}

interface CompiledSearch {
  groups: CompiledFilter[][];
  terms: string[];
  sort: { propertyName: string; descending: boolean } | null;
  properties: string[];
  limit: number;
  after: number;
}

const OPERATORS = new Set<string>(FILTER_OPERATORS);

/**
 * Runs a contacts search. `body` is the raw JSON text (its length is checked against HubSpot's 3,000
 * character limit) or an already-parsed object (its JSON serialization is checked).
 * Throws {@link HubSpotApiError} (400) for requests HubSpot would reject.
 */
export function executeSearch(store: ContactStore, body: string | object): HubSpotSearchResponse {
  const compiled = compileSearch(store, body);
  const rows = matchingRows(store, compiled);
  const total = rows.length;
  const end = Math.min(total, compiled.after + compiled.limit);
  const results = [];
  for (let i = compiled.after; i < end; i++) results.push(renderContact(store, rows[i], compiled.properties));
  const response: HubSpotSearchResponse = { total, results };
  if (compiled.after + compiled.limit < total) response.paging = { next: { after: String(compiled.after + compiled.limit) } };
  return response;
}

/** Number of matching records (no paging limits apply). */
export function countMatches(store: ContactStore, body: string | object): number {
  return matchingRows(store, compileSearch(store, body)).length;
}

// ---------------------------------------------------------------------------------------------------
// validation / compilation

function compileSearch(store: ContactStore, input: string | object): CompiledSearch {
  let text: string;
  let body: unknown;
  if (typeof input === 'string') {
    text = input;
    try {
      body = input.trim() === '' ? {} : JSON.parse(input);
    } catch {
      throw validationError('Invalid input JSON: the request body is not valid JSON.');
    }
  } else {
    body = input;
    text = JSON.stringify(input);
  }
  if (text.length > SEARCH_LIMITS.maxBodyChars) {
    throw validationError(
      `The request body is ${text.length} characters long; a search request can contain at most ${SEARCH_LIMITS.maxBodyChars} characters.`,
    );
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError('Invalid input JSON: expected a JSON object.');
  }
  const b = body as Record<string, unknown>;

  // limit / after
  let limit: number = SEARCH_LIMITS.defaultPageSize;
  if (b.limit !== undefined && b.limit !== null) {
    const l = typeof b.limit === 'number' ? b.limit : typeof b.limit === 'string' && /^-?\d+$/.test(b.limit.trim()) ? Number(b.limit) : NaN;
    if (!Number.isInteger(l)) throw validationError(`Invalid input JSON: limit must be an integer, got ${JSON.stringify(b.limit)}.`);
    if (l < 0) throw validationError(`limit must be at least 0, got ${l}.`);
    if (l > SEARCH_LIMITS.maxPageSize) {
      throw validationError(`limit must be at most ${SEARCH_LIMITS.maxPageSize}, got ${l}.`);
    }
    limit = l;
  }
  let after = 0;
  if (b.after !== undefined && b.after !== null && b.after !== '') {
    const s = String(b.after).trim();
    if (!/^\d+$/.test(s)) throw validationError(`after must be formatted as an integer, got ${JSON.stringify(b.after)}.`);
    after = Number(s);
  }
  if (after + limit > SEARCH_LIMITS.maxResultWindow) {
    throw validationError(
      `Paging beyond ${SEARCH_LIMITS.maxResultWindow} results is not supported (after=${after}, limit=${limit}). Narrow the search with filters.`,
    );
  }

  // filter groups
  let rawGroups: unknown = b.filterGroups;
  if ((rawGroups === undefined || (Array.isArray(rawGroups) && rawGroups.length === 0)) && Array.isArray(b.filters) && b.filters.length > 0) {
    rawGroups = [{ filters: b.filters }];
  }
  if (rawGroups === undefined || rawGroups === null) rawGroups = [];
  if (!Array.isArray(rawGroups)) throw validationError('Invalid input JSON: filterGroups must be an array.');
  if (rawGroups.length > SEARCH_LIMITS.maxFilterGroups) {
    throw validationError(
      `Too many filter groups: ${rawGroups.length}. A search can include at most ${SEARCH_LIMITS.maxFilterGroups} filterGroups.`,
    );
  }
  let totalFilters = 0;
  const groups: CompiledFilter[][] = [];
  rawGroups.forEach((g, gi) => {
    const filters = g && typeof g === 'object' ? (g as Record<string, unknown>).filters : undefined;
    if (filters !== undefined && !Array.isArray(filters)) throw validationError(`Invalid input JSON: filterGroups[${gi}].filters must be an array.`);
    const list = (filters as unknown[] | undefined) ?? [];
    if (list.length > SEARCH_LIMITS.maxFiltersPerGroup) {
      throw validationError(
        `Too many filters in filterGroups[${gi}]: ${list.length}. Each filter group can include at most ${SEARCH_LIMITS.maxFiltersPerGroup} filters.`,
      );
    }
    totalFilters += list.length;
    groups.push(list.map((f, fi) => compileFilter(store, f, `filterGroups[${gi}].filters[${fi}]`)));
  });
  if (totalFilters > SEARCH_LIMITS.maxFiltersTotal) {
    throw validationError(
      `Too many filters: ${totalFilters}. A search can include at most ${SEARCH_LIMITS.maxFiltersTotal} filters in total.`,
    );
  }

  // query
  let terms: string[] = [];
  if (b.query !== undefined && b.query !== null) {
    if (typeof b.query !== 'string') throw validationError('Invalid input JSON: query must be a string.');
    terms = b.query.toLowerCase().split(/\s+/).filter(Boolean);
  }

  // sorts
  let sort: CompiledSearch['sort'] = null;
  if (b.sorts !== undefined && b.sorts !== null) {
    if (!Array.isArray(b.sorts)) throw validationError('Invalid input JSON: sorts must be an array.');
    if (b.sorts.length > 1) throw validationError(`Only one sort can be applied to a search; got ${b.sorts.length}.`);
    if (b.sorts.length === 1) {
      const s = b.sorts[0] as unknown;
      let propertyName: string;
      let descending = false;
      if (typeof s === 'string') {
        // The OpenAPI spec types sorts as strings; accept "prop" and "-prop" as a leniency.
        descending = s.startsWith('-');
        propertyName = descending ? s.slice(1) : s;
      } else if (s && typeof s === 'object') {
        const so = s as Record<string, unknown>;
        propertyName = String(so.propertyName ?? '');
        const dir = so.direction === undefined ? 'ASCENDING' : String(so.direction);
        if (dir !== 'ASCENDING' && dir !== 'DESCENDING') {
          throw validationError(`Invalid input JSON: sort direction must be ASCENDING or DESCENDING, got ${JSON.stringify(so.direction)}.`);
        }
        descending = dir === 'DESCENDING';
      } else throw validationError('Invalid input JSON: invalid sort.');
      if (!store.column(propertyName)) throw validationError(`Unable to sort by property "${propertyName}": the property does not exist.`);
      sort = { propertyName, descending };
    }
  }

  // properties
  let properties = DEFAULT_SEARCH_PROPERTIES;
  if (b.properties !== undefined && b.properties !== null) {
    if (!Array.isArray(b.properties)) throw validationError('Invalid input JSON: properties must be an array of strings.');
    if (b.properties.length > 0) {
      properties = [...new Set([...b.properties.map(String), ...ALWAYS_RETURNED_PROPERTIES])];
    }
  }
  properties = properties.filter((p) => store.column(p)).sort();

  return { groups, terms, sort, properties, limit, after };
}

function compileFilter(store: ContactStore, raw: unknown, where: string): CompiledFilter {
  if (!raw || typeof raw !== 'object') throw validationError(`Invalid input JSON: ${where} must be an object.`);
  const f = raw as Record<string, unknown>;
  const propertyName = typeof f.propertyName === 'string' ? f.propertyName : '';
  if (!propertyName) throw validationError(`Invalid input JSON: ${where}.propertyName is required.`);
  const operator = String(f.operator ?? '');
  if (!OPERATORS.has(operator)) {
    throw validationError(`Invalid input JSON: ${where}.operator ${JSON.stringify(f.operator)} is not one of ${FILTER_OPERATORS.join(', ')}.`);
  }
  const col = store.column(propertyName);
  if (!col) {
    throw validationError(`Unable to filter by property "${propertyName}": the property does not exist.`, {
      errors: [{ message: `Property "${propertyName}" does not exist`, code: 'INVALID_PROPERTY', context: { propertyName: [propertyName] } }],
    });
  }
  const op = operator as FilterOperator;
  const out: CompiledFilter = { propertyName, operator: op, col };
  const need = (v: unknown, field: string): string | number => {
    if (v === undefined || v === null || (typeof v === 'string' && v === '' && col.type !== 'string')) {
      throw validationError(`${where}: operator ${op} requires a ${field}.`);
    }
    return coerce(col, v, where);
  };
  switch (op) {
    case 'HAS_PROPERTY':
    case 'NOT_HAS_PROPERTY':
      break;
    case 'BETWEEN':
      out.value = need(f.value, 'value');
      out.high = need(f.highValue, 'highValue');
      break;
    case 'IN':
    case 'NOT_IN':
      if (!Array.isArray(f.values) || f.values.length === 0) throw validationError(`${where}: operator ${op} requires a non-empty values array.`);
      out.values = f.values.map((v) => coerce(col, v, where, /* inList */ true));
      break;
    case 'CONTAINS_TOKEN':
    case 'NOT_CONTAINS_TOKEN': {
      if (f.value === undefined || f.value === null || String(f.value) === '') throw validationError(`${where}: operator ${op} requires a value.`);
      const s = String(f.value);
      out.value = col.type === 'enumeration' ? s : s.toLowerCase();
      break;
    }
    default:
      out.value = need(f.value, 'value');
  }
  return out;
}

/** Converts a filter value to the column's comparison domain. */
function coerce(col: PropertyColumn, v: unknown, where: string, inList = false): string | number {
  if (col.type === 'number') {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n)) throw validationError(`${where}: ${JSON.stringify(v)} is not a valid number for property "${col.def.name}".`);
    return n;
  }
  if (col.type === 'datetime') {
    const t = parseInstant(v);
    if (t === null) {
      throw validationError(`${where}: ${JSON.stringify(v)} is not a valid datetime for property "${col.def.name}" (use epoch milliseconds).`);
    }
    return t;
  }
  const s = String(v);
  if (col.type === 'enumeration') return s;
  // string: IN/NOT_IN compare as sent (HubSpot requires lowercase values); other operators fold case
  return inList ? s : s.toLowerCase();
}

// ---------------------------------------------------------------------------------------------------
// evaluation

function matchingRows(store: ContactStore, c: CompiledSearch): Uint32Array {
  const cacheKey = JSON.stringify([
    c.groups.map((g) => g.map((f) => [f.propertyName, f.operator, f.value, f.high, f.values])),
    c.terms,
    c.sort,
  ]);
  const cached = store.cacheGet(cacheKey);
  if (cached) return cached;

  let set: Bitset;
  const nonEmptyGroups = c.groups.filter((g) => g.length > 0);
  if (c.groups.length === 0 || nonEmptyGroups.length < c.groups.length) {
    // no filters (or an empty group, which matches everything)
    set = Bitset.full(store.size);
  } else {
    set = new Bitset(store.size);
    for (const group of nonEmptyGroups) {
      let g: Bitset | null = null;
      for (const f of group) {
        const fs = evalFilter(store, f);
        g = g ? g.and(fs) : fs;
      }
      set.or(g!);
    }
  }
  for (const term of c.terms) set.and(queryTerm(store, term));

  const rows = orderRows(store, set, c.sort);
  store.cacheSet(cacheKey, rows);
  return rows;
}

function evalFilter(store: ContactStore, f: CompiledFilter): Bitset {
  const { col } = f;
  switch (f.operator) {
    case 'HAS_PROPERTY':
      return col.has.clone();
    case 'NOT_HAS_PROPERTY':
      return col.has.clone().not();
    case 'EQ':
      return eqSet(store, f.col, f.value!);
    case 'NEQ':
      return eqSet(store, f.col, f.value!).not();
    case 'IN':
      return inSet(store, f.col, f.values!);
    case 'NOT_IN':
      return inSet(store, f.col, f.values!).not();
    case 'LT':
      return rangeSet(store, col, null, f.value!, false, false);
    case 'LTE':
      return rangeSet(store, col, null, f.value!, false, true);
    case 'GT':
      return rangeSet(store, col, f.value!, null, false, false);
    case 'GTE':
      return rangeSet(store, col, f.value!, null, true, false);
    case 'BETWEEN':
      return rangeSet(store, col, f.value!, f.high!, true, true);
    case 'CONTAINS_TOKEN':
      return tokenSet(store, col, String(f.value));
    case 'NOT_CONTAINS_TOKEN':
      return tokenSet(store, col, String(f.value)).not();
  }
}

function eqSet(store: ContactStore, col: PropertyColumn, v: string | number): Bitset {
  if (col.key) {
    const p = store.postingsOf(col.def.name);
    const k = p.index.get(String(v));
    return k === undefined ? new Bitset(store.size) : Bitset.fromRows(store.size, p.rows, p.start[k], p.start[k + 1]);
  }
  return rangeSet(store, col, v, v, true, true);
}

function inSet(store: ContactStore, col: PropertyColumn, values: (string | number)[]): Bitset {
  const out = new Bitset(store.size);
  if (col.key) {
    const p = store.postingsOf(col.def.name);
    for (const v of values) {
      const k = p.index.get(String(v));
      if (k !== undefined) out.addRows(p.rows, p.start[k], p.start[k + 1]);
    }
    return out;
  }
  for (const v of values) out.or(rangeSet(store, col, v, v, true, true));
  return out;
}

/** Rows whose value lies in the given range (null bound = open). Missing values never match. */
function rangeSet(
  store: ContactStore,
  col: PropertyColumn,
  lo: string | number | null,
  hi: string | number | null,
  loInclusive: boolean,
  hiInclusive: boolean,
): Bitset {
  const idx = store.sortedIndex(col.def.name);
  const vals = idx.values as ArrayLike<string | number>;
  const start = lo === null ? 0 : lowerBound(vals, lo, !loInclusive);
  const end = hi === null ? vals.length : lowerBound(vals, hi, hiInclusive);
  if (end <= start) return new Bitset(store.size);
  return Bitset.fromRows(store.size, idx.rows, start, end);
}

function tokenSet(store: ContactStore, col: PropertyColumn, pattern: string): Bitset {
  const name = col.def.name;
  const tix = store.tokenIndex(name);
  const out = new Bitset(store.size);
  const seenKeys = new Uint8Array(tix.keys.length);
  const addToken = (t: number) => {
    for (let j = tix.start[t]; j < tix.start[t + 1]; j++) {
      const k = tix.valueKeys[j];
      if (seenKeys[k]) continue;
      seenKeys[k] = 1;
      store.addRowsOfKey(name, tix, k, out);
    }
  };
  if (!pattern.includes('*')) {
    const t = tix.tokenIds.get(pattern);
    if (t !== undefined) addToken(t);
    return out;
  }
  const parts = pattern.split('*');
  if (parts.length === 2 && parts[0] === '' && parts[1].startsWith('@') && parts[1].length > 1 && !parts[1].slice(1).includes('@')) {
    // "*@domain" (e.g. "*@acme.com"): only values having the token "domain" can match
    const domain = parts[1].slice(1);
    const t = tix.tokenIds.get(domain);
    if (t === undefined) return out;
    for (let j = tix.start[t]; j < tix.start[t + 1]; j++) {
      const k = tix.valueKeys[j];
      if (!seenKeys[k] && tix.keys[k].endsWith(parts[1])) {
        seenKeys[k] = 1;
        store.addRowsOfKey(name, tix, k, out);
      }
    }
    return out;
  }
  const test = wildcardMatcher(parts);
  const tokens = tix.tokens;
  for (let t = 0; t < tokens.length; t++) if (test(tokens[t])) addToken(t);
  return out;
}

function wildcardMatcher(parts: string[]): (s: string) => boolean {
  if (parts.every((p) => p === '')) return () => true;
  if (parts.length === 2) {
    const [a, b] = parts;
    if (b === '') return (s) => s.startsWith(a);
    return (s) => s.length >= a.length + b.length && s.startsWith(a) && s.endsWith(b);
  }
  if (parts.length === 3 && parts[0] === '' && parts[2] === '') {
    const mid = parts[1];
    return (s) => s.includes(mid);
  }
  const re = new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');
  return (s) => re.test(s);
}

function queryTerm(store: ContactStore, term: string): Bitset {
  const out = new Bitset(store.size);
  for (const name of DEFAULT_SEARCHABLE_PROPERTIES) {
    if (!store.column(name)) continue;
    const p = store.postingsOf(name);
    const keys = p.keys;
    for (let k = 0; k < keys.length; k++) if (keys[k].includes(term)) out.addRows(p.rows, p.start[k], p.start[k + 1]);
  }
  return out;
}

/** Orders the matching rows: default hs_object_id ascending, else by the sort property. */
function orderRows(store: ContactStore, set: Bitset, sort: CompiledSearch['sort']): Uint32Array {
  if (!sort || sort.propertyName === ID_PROPERTY) {
    const rows = set.toRows();
    return sort?.descending ? rows.reverse() : rows;
  }
  const idx = store.sortedIndex(sort.propertyName);
  const nHas = idx.rows.length;
  const count = set.count();
  const out = new Uint32Array(count);
  if (count * 16 < store.size) {
    // few matches: sort them by rank
    const rows = set.toRows();
    const rank = idx.rank;
    const key = (r: number) => {
      const k = rank[r];
      return sort.descending && k < nHas ? nHas - 1 - k : k;
    };
    const arr = Array.from(rows);
    arr.sort((a, b) => key(a) - key(b));
    out.set(arr);
    return out;
  }
  // many matches: walk the pre-sorted order
  let k = 0;
  if (sort.descending) {
    for (let i = nHas - 1; i >= 0; i--) if (set.has(idx.rows[i])) out[k++] = idx.rows[i];
  } else {
    for (let i = 0; i < nHas; i++) if (set.has(idx.rows[i])) out[k++] = idx.rows[i];
  }
  // rows without a value: last, by hs_object_id
  if (k < count) {
    const rest = set.clone().and(store.column(sort.propertyName)!.has.clone().not()).toRows();
    out.set(rest, k);
  }
  return out;
}
