/**
 * Column store over the sandbox contacts, with lazily built indexes:
 *  - per property: a "has value" bitset, typed values (Float64Array for numbers/datetimes, folded
 *    strings for text), postings (value → rows), a value-sorted row order (range filters + sorts),
 *    and a token dictionary (CONTAINS_TOKEN);
 *  - rows are kept in hs_object_id order, so a bitset scan yields the default sort for free.
 */
import { compareSortKeys, ID_PROPERTY, isMissingValue, storedValue, type PropertyKind } from '../hubspot/model/index.js';
import { Bitset } from './bitset.js';
import type { SandboxContact } from './data.js';
import { CONTACT_PROPERTY_DEFS, type SandboxPropertyDef } from './properties.js';

export interface PropertyColumn {
  def: SandboxPropertyDef;
  type: PropertyKind;
  /** rows that have a value */
  has: Bitset;
  /** number/datetime values (NaN = no value) */
  num?: Float64Array;
  /** string/enumeration: the stored value as-is (null = no value) */
  raw?: (string | null)[];
  /**
   * string/enumeration: comparison key. Strings compare case-insensitively (lower-cased key),
   * enumerations compare exactly (key = raw value).
   */
  key?: (string | null)[];
}

/** Rows grouped by distinct value key: rows of key k are rows[start[k] .. start[k+1]). */
export interface Postings {
  keys: string[];
  index: Map<string, number>;
  start: Uint32Array;
  rows: Uint32Array;
}

/** token → value keys: keys of token t are valueKeys[start[t] .. start[t+1]) (indexes into `keys`). */
export interface TokenIndex {
  tokens: string[];
  tokenIds: Map<string, number>;
  start: Uint32Array;
  valueKeys: Uint32Array;
  keys: string[];
}

/**
 * Ascending order of a property (the HubSpot model's result order, api/crm/hubspot/model/order.ts):
 * walked backwards it is the descending order, ties then falling by id in that direction too.
 */
interface SortedIndex {
  /** rows having a value, sorted by value (ties by row, i.e. by hs_object_id) */
  rows: Uint32Array;
  /** values aligned with `rows` */
  values: Float64Array | string[];
  /** rank of each row in ascending order; rows without a value rank after all others (by id) */
  rank: Uint32Array;
}

export class ContactStore {
  /** contacts in row order (ascending hs_object_id) */
  readonly contacts: readonly SandboxContact[];
  readonly size: number;
  /** hs_object_id per row (ascending) */
  readonly ids: Float64Array;
  private readonly columns = new Map<string, PropertyColumn>();
  private readonly postings = new Map<string, Postings>();
  private readonly sorted = new Map<string, SortedIndex>();
  private readonly tokens = new Map<string, TokenIndex>();
  private readonly idToRow = new Map<number, number>();
  /** small LRU of evaluated searches (key → ordered rows) so paging does not re-evaluate */
  readonly resultCache = new Map<string, Uint32Array>();
  readonly resultCacheLimit = 32;

  constructor(contacts: readonly SandboxContact[]) {
    const sortedContacts = [...contacts].sort((a, b) => a.id - b.id);
    this.contacts = sortedContacts;
    this.size = sortedContacts.length;
    this.ids = new Float64Array(this.size);
    for (let i = 0; i < this.size; i++) {
      const id = sortedContacts[i].id;
      if (this.idToRow.has(id)) throw new Error(`Duplicate contact id ${id}`);
      this.ids[i] = id;
      this.idToRow.set(id, i);
    }
    for (const def of CONTACT_PROPERTY_DEFS) this.columns.set(def.name, this.buildColumn(def));
  }

  rowOfId(id: number): number {
    return this.idToRow.get(id) ?? -1;
  }

  column(name: string): PropertyColumn | undefined {
    return this.columns.get(name);
  }

  /** Builds every lazy index now (useful before benchmarks or serving large data sets). */
  warmUp(): void {
    for (const [name, col] of this.columns) {
      this.sortedIndex(name);
      if (col.key) {
        this.postingsOf(name);
        this.tokenIndex(name);
      }
    }
  }

  private buildColumn(def: SandboxPropertyDef): PropertyColumn {
    const n = this.size;
    const has = new Bitset(n);
    if (def.type === 'number' || def.type === 'datetime') {
      const num = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const c = this.contacts[i];
        const v = def.name === ID_PROPERTY ? c.id : (c[def.name as keyof SandboxContact] as number | null);
        if (v === null || v === undefined || !Number.isFinite(v)) num[i] = NaN;
        else {
          num[i] = v;
          has.set(i);
        }
      }
      return { def, type: def.type, has, num };
    }
    const raw: (string | null)[] = new Array(n);
    const key: (string | null)[] = new Array(n);
    const exact = def.type === 'enumeration';
    for (let i = 0; i < n; i++) {
      const input = this.contacts[i][def.name as keyof SandboxContact] as string | null;
      if (isMissingValue(input)) {
        raw[i] = null;
        key[i] = null;
      } else {
        const v = storedValue(def.name, input);
        raw[i] = v;
        key[i] = exact ? v : v.toLowerCase();
        has.set(i);
      }
    }
    return { def, type: def.type, has, raw, key };
  }

  /** Distinct value keys → rows (ascending), for string/enumeration columns. */
  postingsOf(name: string): Postings {
    let p = this.postings.get(name);
    if (p) return p;
    const col = this.columns.get(name)!;
    const key = col.key!;
    const index = new Map<string, number>();
    const keys: string[] = [];
    const keyOfRow = new Int32Array(this.size);
    const counts: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const k = key[i];
      if (k === null) {
        keyOfRow[i] = -1;
        continue;
      }
      let id = index.get(k);
      if (id === undefined) {
        id = keys.length;
        index.set(k, id);
        keys.push(k);
        counts.push(0);
      }
      keyOfRow[i] = id;
      counts[id]++;
    }
    const start = new Uint32Array(keys.length + 1);
    for (let k = 0; k < keys.length; k++) start[k + 1] = start[k] + counts[k];
    const fill = start.slice(0, keys.length);
    const rows = new Uint32Array(start[keys.length]);
    for (let i = 0; i < this.size; i++) {
      const id = keyOfRow[i];
      if (id >= 0) rows[fill[id]++] = i;
    }
    p = { keys, index, start, rows };
    this.postings.set(name, p);
    return p;
  }

  /**
   * Token dictionary for CONTAINS_TOKEN: token → distinct value keys containing it. Tokens: the whole
   * value, its whitespace- and `@`-separated parts and its words (see {@link tokenize}).
   */
  tokenIndex(name: string): TokenIndex {
    let t = this.tokens.get(name);
    if (t) return t;
    const col = this.columns.get(name)!;
    let keys: string[];
    if (col.key) keys = this.postingsOf(name).keys;
    else {
      // numbers / datetimes: tokens of the rendered number; map through a tiny postings of their own
      keys = [];
      const seen = new Set<string>();
      for (let i = 0; i < this.size; i++) {
        const v = col.num![i];
        if (Number.isNaN(v)) continue;
        const s = String(v);
        if (!seen.has(s)) {
          seen.add(s);
          keys.push(s);
        }
      }
    }
    const tokenIds = new Map<string, number>();
    const tokens: string[] = [];
    let pairTok = new Uint32Array(keys.length * 4 + 16);
    let pairKey = new Uint32Array(keys.length * 4 + 16);
    let n = 0;
    for (let k = 0; k < keys.length; k++) {
      for (const tok of tokenize(keys[k])) {
        let id = tokenIds.get(tok);
        if (id === undefined) {
          id = tokens.length;
          tokenIds.set(tok, id);
          tokens.push(tok);
        }
        if (n === pairTok.length) {
          const grow = (a: Uint32Array) => {
            const b = new Uint32Array(a.length * 2);
            b.set(a);
            return b;
          };
          pairTok = grow(pairTok);
          pairKey = grow(pairKey);
        }
        pairTok[n] = id;
        pairKey[n] = k;
        n++;
      }
    }
    const start = new Uint32Array(tokens.length + 1);
    for (let i = 0; i < n; i++) start[pairTok[i] + 1]++;
    for (let i = 0; i < tokens.length; i++) start[i + 1] += start[i];
    const fill = start.slice(0, tokens.length);
    const valueKeys = new Uint32Array(n);
    for (let i = 0; i < n; i++) valueKeys[fill[pairTok[i]]++] = pairKey[i];
    t = { tokens, tokenIds, start, valueKeys, keys };
    this.tokens.set(name, t);
    return t;
  }

  /** Rows of the given column whose value key (or rendered number) is `keys[k]`, added to `out`. */
  addRowsOfKey(name: string, tix: TokenIndex, k: number, out: Bitset): void {
    const col = this.columns.get(name)!;
    if (col.key) {
      const p = this.postingsOf(name);
      out.addRows(p.rows, p.start[k], p.start[k + 1]);
      return;
    }
    const target = Number(tix.keys[k]);
    const idx = this.sortedIndex(name);
    const vals = idx.values as Float64Array;
    for (let i = lowerBound(vals, target, false); i < vals.length && vals[i] === target; i++) out.set(idx.rows[i]);
  }

  sortedIndex(name: string): SortedIndex {
    let s = this.sorted.get(name);
    if (s) return s;
    const col = this.columns.get(name)!;
    const n = this.size;
    let rows: Uint32Array;
    let values: Float64Array | string[];
    if (col.num) {
      const num = col.num;
      rows = col.has.toRows();
      if (name !== ID_PROPERTY) rows.sort((a, b) => compareSortKeys(num[a], num[b]) || a - b);
      values = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) values[i] = num[rows[i]];
    } else {
      const p = this.postingsOf(name);
      const order = p.keys.map((_, i) => i).sort((a, b) => compareSortKeys(p.keys[a], p.keys[b]));
      rows = new Uint32Array(p.rows.length);
      const strs: string[] = new Array(p.rows.length);
      let k = 0;
      for (const id of order) {
        for (let j = p.start[id]; j < p.start[id + 1]; j++) {
          rows[k] = p.rows[j];
          strs[k++] = p.keys[id];
        }
      }
      values = strs;
    }
    const rank = new Uint32Array(n);
    for (let i = 0; i < rows.length; i++) rank[rows[i]] = i;
    let next = rows.length;
    for (let i = 0; i < n; i++) if (!col.has.has(i)) rank[i] = next++;
    s = { rows, values, rank };
    this.sorted.set(name, s);
    return s;
  }

  cacheGet(key: string): Uint32Array | undefined {
    const v = this.resultCache.get(key);
    if (v) {
      this.resultCache.delete(key);
      this.resultCache.set(key, v);
    }
    return v;
  }

  cacheSet(key: string, rows: Uint32Array): void {
    this.resultCache.set(key, rows);
    while (this.resultCache.size > this.resultCacheLimit) {
      const oldest = this.resultCache.keys().next().value as string;
      this.resultCache.delete(oldest);
    }
  }
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c > 127 && c !== 160 && c !== 0x2019);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 160;
}

/**
 * Splits a (already case-folded) value into search tokens: the whole value, its whitespace-separated
 * parts, the `@`-separated pieces of those parts, and its words (runs of letters and digits).
 * "jane.doe@acme.com" → ["jane.doe@acme.com", "jane.doe", "acme.com", "jane", "doe", "acme", "com"].
 */
export function tokenize(value: string): string[] {
  const out: string[] = [value];
  const push = (t: string) => {
    if (t && !out.includes(t)) out.push(t);
  };
  const n = value.length;
  // whitespace parts and their @-pieces
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(value.charCodeAt(i))) i++;
    const s = i;
    while (i < n && !isSpace(value.charCodeAt(i))) i++;
    if (i > s) {
      const part = value.slice(s, i);
      push(part);
      if (part.includes('@')) for (const piece of part.split('@')) push(piece);
    }
  }
  // words
  i = 0;
  while (i < n) {
    while (i < n && !isWordChar(value.charCodeAt(i))) i++;
    const s = i;
    while (i < n && isWordChar(value.charCodeAt(i))) i++;
    if (i > s) push(value.slice(s, i));
  }
  return out;
}

/** First index i of a sorted array with vals[i] >= x (or > x when `strict`). */
export function lowerBound(vals: ArrayLike<string | number>, x: string | number, strict: boolean): number {
  let lo = 0;
  let hi = vals.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = vals[mid];
    if (strict ? v <= x : v < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createContactStore(contacts: readonly SandboxContact[]): ContactStore {
  return new ContactStore(contacts);
}

/** HubSpot renders every property value as a string; datetimes as ISO-8601 with milliseconds. */
export function renderValue(store: ContactStore, col: PropertyColumn, row: number): string | null {
  if (col.num) {
    const v = col.num[row];
    if (Number.isNaN(v)) return null;
    return col.type === 'datetime' ? new Date(v).toISOString() : String(v);
  }
  void store;
  return col.raw![row];
}

export interface RenderedContact {
  id: string;
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
  archived: false;
}

/** Renders one row in the v3 objects shape. Unknown property names are ignored, as HubSpot does. */
export function renderContact(store: ContactStore, row: number, properties: readonly string[]): RenderedContact {
  const props: Record<string, string | null> = {};
  for (const name of properties) {
    const col = store.column(name);
    if (!col) continue;
    props[name] = renderValue(store, col, row);
  }
  const c = store.contacts[row];
  return {
    id: String(c.id),
    properties: props,
    createdAt: new Date(c.createdate).toISOString(),
    updatedAt: new Date(c.lastmodifieddate).toISOString(),
    archived: false,
  };
}
