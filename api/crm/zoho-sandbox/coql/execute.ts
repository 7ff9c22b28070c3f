/**
 * Runs a checked COQL query (parse.ts) over the sandbox's records, with Zoho's semantics as the sandbox
 * models them:
 *  - text and picklist compares are case-insensitive (`like` too); a value that is null or '' is "null";
 *  - a comparison with a null value is false, the negative ones (`!=`, `not in`, `not like`,
 *    `not between`) included, as in SQL (a connector that wants "or has none" says `or X is null`);
 *  - `between` is inclusive; dates compare as calendar days, date-times to the second;
 *  - without ORDER BY rows come by id ascending; ORDER BY puts nulls first ascending and last descending
 *    (MySQL's order), ties by id ascending;
 *  - aggregates skip nulls; groups come in the order of their first row unless ordered.
 * Results of the same query (without its LIMIT / OFFSET) are cached, so paging re-filters nothing.
 */
import type { ModuleName } from '../fields.js';
import type { StoredValue, ZohoRecord } from '../data.js';
import { parseDateLiteral, parseDateTimeLiteral, type Column, type CoqlQuery, type Criteria, type FieldRef, type Literal } from './parse.js';

export interface CoqlDataset {
  rows(module: ModuleName): readonly ZohoRecord[];
  byId(module: ModuleName, id: string): ZohoRecord | undefined;
}

export interface CoqlResult {
  data: Record<string, unknown>[];
  info: { count: number; more_records: boolean };
}

type Getter = (r: ZohoRecord) => StoredValue;

function getter(ds: CoqlDataset, ref: FieldRef): Getter {
  const [first, ...rest] = ref.path;
  if (rest.length === 0) return (r) => r[first] ?? null;
  return (r) => {
    let rec: ZohoRecord | undefined = r;
    for (let i = 0; i < ref.path.length - 1; i++) {
      const id = rec[ref.path[i]];
      if (id === null || id === undefined) return null;
      rec = ds.byId(ref.modules[i + 1], String(id));
      if (!rec) return null;
    }
    return rec[ref.path[ref.path.length - 1]] ?? null;
  };
}

const isNull = (v: StoredValue) => v === null || v === undefined || v === '';
const fold = (v: StoredValue) => String(v).toLowerCase();

/** A literal in the stored form of the field (epoch ms for dates, lower-cased text, ...). */
function typed(ref: FieldRef, v: Literal): StoredValue {
  switch (ref.def.kind) {
    case 'date': return parseDateLiteral(String(v));
    case 'datetime': return parseDateTimeLiteral(String(v));
    case 'number': return Number(v);
    case 'id': case 'lookup': return String(v);
    default: return String(v).toLowerCase();
  }
}

function comparable(ref: FieldRef, v: StoredValue): StoredValue {
  const k = ref.def.kind;
  return k === 'text' || k === 'picklist' ? fold(v) : k === 'id' || k === 'lookup' ? String(v) : v;
}

function compareValues(a: StoredValue, b: StoredValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  // ids: fixed-width digits compare as text, shorter first
  if (sa.length !== sb.length && /^\d+$/.test(sa) && /^\d+$/.test(sb)) return sa.length - sb.length;
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function predicate(ds: CoqlDataset, c: Criteria): (r: ZohoRecord) => boolean {
  if (c.type === 'logic') {
    const l = predicate(ds, c.left);
    const r = predicate(ds, c.right);
    return c.op === 'and' ? (x) => l(x) && r(x) : (x) => l(x) || r(x);
  }
  const get = getter(ds, c.ref);
  const vals = c.values.map((v) => typed(c.ref, v));
  const key = (r: ZohoRecord) => comparable(c.ref, get(r));
  switch (c.op) {
    case 'is null': return (r) => isNull(get(r));
    case 'is not null': return (r) => !isNull(get(r));
    default: break;
  }
  const test = ((): ((v: StoredValue) => boolean) => {
    switch (c.op) {
      case '=': return (v) => compareValues(v, vals[0]) === 0;
      case '!=': return (v) => compareValues(v, vals[0]) !== 0;
      case '<': return (v) => compareValues(v, vals[0]) < 0;
      case '<=': return (v) => compareValues(v, vals[0]) <= 0;
      case '>': return (v) => compareValues(v, vals[0]) > 0;
      case '>=': return (v) => compareValues(v, vals[0]) >= 0;
      case 'in': return (v) => vals.some((x) => compareValues(v, x) === 0);
      case 'not in': return (v) => !vals.some((x) => compareValues(v, x) === 0);
      case 'between': return (v) => compareValues(v, vals[0]) >= 0 && compareValues(v, vals[1]) <= 0;
      case 'not between': return (v) => compareValues(v, vals[0]) < 0 || compareValues(v, vals[1]) > 0;
      case 'like': case 'not like': {
        const p = String(vals[0]);
        const core = p.replace(/^%/, '').replace(/%$/, '');
        const starts = !p.startsWith('%');
        const ends = !p.endsWith('%');
        const match = (s: string) => (starts && ends ? s === core : starts ? s.startsWith(core) : ends ? s.endsWith(core) : s.includes(core));
        return c.op === 'like' ? (v) => match(String(v)) : (v) => !match(String(v));
      }
      default: return () => false;
    }
  })();
  return (r) => {
    const v = key(r);
    return !isNull(get(r)) && test(v);
  };
}

/** Renders a stored value as Zoho's JSON does for the field's type. */
export function renderValue(ref: FieldRef, v: StoredValue): unknown {
  if (isNull(v)) return null;
  switch (ref.def.kind) {
    case 'date': return new Date(Number(v)).toISOString().slice(0, 10);
    case 'datetime': return renderDateTime(Number(v));
    case 'lookup': return { id: String(v) };
    case 'id': return String(v);
    default: return v;
  }
}

/** Zoho's date-time form: seconds and an explicit offset (the sandbox org's time zone is UTC). */
export function renderDateTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

interface Ordered {
  /** records (or groups) in result order */
  rows: { record?: ZohoRecord; group?: Record<string, unknown> }[];
}

const cache = new WeakMap<CoqlDataset, Map<string, Ordered>>();
const CACHE_SIZE = 16;

/** The query's identity without its page (same rows, different window). */
function cacheKey(q: CoqlQuery): string {
  return JSON.stringify([q.module, q.columns.map((c) => [c.type, c.key, c.type === 'aggregate' ? c.fn : '']), q.where, q.groupBy.map((g) => g.key), q.orderBy.map((o) => [o.ref.key, o.desc])]);
}

function sortByRefs(ds: CoqlDataset, refs: { ref: FieldRef; desc: boolean }[]) {
  const getters = refs.map((o) => ({ get: getter(ds, o.ref), ref: o.ref, dir: o.desc ? -1 : 1 }));
  return (a: ZohoRecord, b: ZohoRecord): number => {
    for (const g of getters) {
      const va = g.get(a);
      const vb = g.get(b);
      const na = isNull(va);
      const nb = isNull(vb);
      if (na || nb) {
        if (na && nb) continue;
        // nulls first ascending, last descending
        return (na ? -1 : 1) * g.dir;
      }
      const d = compareValues(comparable(g.ref, va), comparable(g.ref, vb));
      if (d !== 0) return d * g.dir;
    }
    return compareValues(a.id, b.id);
  };
}

function order(ds: CoqlDataset, q: CoqlQuery): Ordered {
  const matches = ds.rows(q.module).filter(predicate(ds, q.where));
  const aggregates = q.columns.filter((c): c is Extract<Column, { type: 'aggregate' }> => c.type === 'aggregate');
  if (aggregates.length === 0 && q.groupBy.length === 0) {
    if (q.orderBy.length) matches.sort(sortByRefs(ds, q.orderBy));
    return { rows: matches.map((record) => ({ record })) };
  }
  // Grouping: one output row per distinct tuple of the group fields.
  const groupGetters = q.groupBy.map((g) => ({ ref: g, get: getter(ds, g) }));
  const groups = new Map<string, { first: ZohoRecord; members: ZohoRecord[] }>();
  for (const r of matches) {
    const k = JSON.stringify(groupGetters.map((g) => (isNull(g.get(r)) ? null : comparable(g.ref, g.get(r)))));
    const g = groups.get(k);
    if (g) g.members.push(r);
    else groups.set(k, { first: r, members: [r] });
  }
  if (q.groupBy.length === 0 && groups.size === 0) groups.set('[]', { first: undefined as unknown as ZohoRecord, members: [] });
  const list = [...groups.values()];
  if (q.orderBy.length) list.sort((a, b) => sortByRefs(ds, q.orderBy)(a.first, b.first));
  const rows = list.map(({ first, members }) => {
    const group: Record<string, unknown> = {};
    for (const g of groupGetters) group[g.ref.key] = renderValue(g.ref, first ? g.get(first) : null);
    for (const a of aggregates) {
      const get = getter(ds, a.ref);
      const values = members.map(get).filter((v) => !isNull(v));
      let v: StoredValue;
      switch (a.fn) {
        case 'COUNT': v = values.length; break;
        case 'SUM': v = values.length ? Math.round(values.reduce<number>((s, x) => s + Math.round(Number(x) * 100), 0)) / 100 : null; break;
        case 'AVG': v = values.length ? Math.round((values.reduce<number>((s, x) => s + Number(x), 0) / values.length) * 100) / 100 : null; break;
        case 'MAX': v = values.length ? values.reduce((m, x) => (compareValues(x, m) > 0 ? x : m)) : null; break;
        case 'MIN': v = values.length ? values.reduce((m, x) => (compareValues(x, m) < 0 ? x : m)) : null; break;
      }
      group[a.key] = a.fn === 'COUNT' || a.fn === 'SUM' || a.fn === 'AVG' ? v : renderValue(a.ref, v);
    }
    return { group };
  });
  return { rows };
}

export function executeCoql(ds: CoqlDataset, q: CoqlQuery): CoqlResult {
  let byQuery = cache.get(ds);
  if (!byQuery) cache.set(ds, (byQuery = new Map()));
  const key = cacheKey(q);
  let ordered = byQuery.get(key);
  if (!ordered) {
    ordered = order(ds, q);
    if (byQuery.size >= CACHE_SIZE) byQuery.delete(byQuery.keys().next().value as string);
    byQuery.set(key, ordered);
  }
  const page = ordered.rows.slice(q.offset, q.offset + q.limit);
  const fields = q.columns.filter((c): c is Extract<Column, { type: 'field' }> => c.type === 'field');
  const getters = fields.map((c) => ({ key: c.key, ref: c.ref, get: getter(ds, c.ref) }));
  const data = page.map(({ record, group }) => {
    if (group) return group;
    const out: Record<string, unknown> = {};
    for (const g of getters) out[g.key] = renderValue(g.ref, g.get(record!));
    out.id = record!.id;
    return out;
  });
  return { data, info: { count: data.length, more_records: q.offset + q.limit < ordered.rows.length } };
}
