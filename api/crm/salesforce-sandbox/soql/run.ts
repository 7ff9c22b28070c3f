/**
 * Runs a compiled SOQL query over the org's records and renders records the way the REST API does.
 *
 * Semantics (Salesforce's, as documented; where Salesforce leaves something open the sandbox's choice
 * is noted):
 *  - Text compares ignore case (`=`, `!=`, IN, LIKE, `<`/`>`); ids compare exactly (15- and
 *    18-character forms are the same id).
 *  - Null is a value, not SQL's unknown: `=`/`<`/`>`/IN/LIKE are false for a record without a value,
 *    `!=`, NOT IN and NOT are their exact complements (so `Country != 'France'` includes records with
 *    no country).
 *  - A date literal is a range: `=` inside, `<` before it, `<=` before its end, `>` from its end on,
 *    `>=` from its start on.
 *  - ORDER BY: nulls first unless NULLS LAST (Salesforce's documented default, both directions), text
 *    case-insensitively; ties, which Salesforce leaves unordered, by Id ascending. Without ORDER BY:
 *    by Id (Salesforce does not promise an order).
 */
import type { ObjectDef, Schema, FieldDef } from '../schema.js';
import type { Row, Value } from '../data.js';
import { apiError } from '../errors.js';
import type { AggregateTarget, CmpOp, CompiledQuery, FieldPath, HavingPredicate, Operand, OrderItem, Predicate, SelectAggregate } from './compile.js';

/** Rows aggregate queries may return: they have no query locator. */
export const AGGREGATE_ROW_LIMIT = 2000;

export class OrgStore {
  private readonly tables = new Map<string, { def: ObjectDef; rows: Row[]; byId: Map<string, Row> }>();
  private readonly childIndex = new Map<string, Map<string, Row[]>>();

  constructor(
    readonly schema: Schema,
    rows: Record<string, Row[]>,
  ) {
    for (const def of schema.defs) {
      const list = rows[def.name] ?? [];
      this.tables.set(def.name, { def, rows: list, byId: new Map(list.map((r) => [r.Id as string, r])) });
    }
  }

  rows(object: ObjectDef | string): Row[] {
    return this.tables.get(typeof object === 'string' ? object : object.name)?.rows ?? [];
  }

  get(object: string, id: string): Row | undefined {
    return this.tables.get(object)?.byId.get(id);
  }

  /** The `childObject` rows whose `field` is `parentId`. */
  children(childObject: string, field: string, parentId: string): Row[] {
    const key = `${childObject}.${field}`;
    let index = this.childIndex.get(key);
    if (!index) {
      index = new Map();
      for (const r of this.rows(childObject)) {
        const p = r[field];
        if (typeof p !== 'string') continue;
        let list = index.get(p);
        if (!list) index.set(p, (list = []));
        list.push(r);
      }
      this.childIndex.set(key, index);
    }
    return index.get(parentId) ?? [];
  }
}

/** The value at a field path, following references (null when a reference is empty). */
export function valueAt(store: OrgStore, row: Row, path: FieldPath): Value {
  let r: Row | undefined = row;
  for (const step of path.steps) {
    const id: Value = r[step.name];
    if (typeof id !== 'string') return null;
    r = store.get(step.referenceTo[0], id);
    if (!r) return null;
  }
  return r[path.leaf.name] ?? null;
}

// --- comparisons ----------------------------------------------------------------------------------

type Kind = 'text' | 'id' | 'plain';
const kindOf = (f: FieldDef['type']): Kind =>
  f === 'id' || f === 'reference' ? 'id' : f === 'string' || f === 'email' || f === 'phone' || f === 'url' || f === 'picklist' || f === 'textarea' ? 'text' : 'plain';

function norm(kind: Kind, v: string | number | boolean): string | number | boolean {
  return kind === 'text' && typeof v === 'string' ? v.toLowerCase() : v;
}

function compareOne(kind: Kind, v: Value, op: CmpOp, operand: Operand): boolean {
  if (operand.kind === 'null') return op === '=' ? v === null : v !== null;
  if (v === null) return op === '!=' || op === 'NOT IN';
  const x = norm(kind, v);
  if (operand.kind === 'range') {
    const from = norm(kind, operand.from);
    const to = norm(kind, operand.to);
    switch (op) {
      case '=': case 'IN': return x >= from && x < to;
      case '!=': case 'NOT IN': return !(x >= from && x < to);
      case '<': return x < from;
      case '<=': return x < to;
      case '>': return x >= to;
      case '>=': return x >= from;
    }
  }
  const y = norm(kind, operand.value);
  switch (op) {
    case '=': case 'IN': return x === y;
    case '!=': case 'NOT IN': return x !== y;
    case '<': return x < y;
    case '<=': return x <= y;
    case '>': return x > y;
    case '>=': return x >= y;
  }
}

function compare(kind: Kind, v: Value, op: CmpOp, operands: Operand[]): boolean {
  if (op === 'IN') return operands.some((o) => compareOne(kind, v, '=', o));
  if (op === 'NOT IN') return operands.every((o) => compareOne(kind, v, '!=', o));
  return compareOne(kind, v, op, operands[0]);
}

/** SOQL LIKE: `%` any run, `_` one character, `\%` / `\_` literal; case-insensitive. */
export function likeMatcher(pattern: string): (s: string) => boolean {
  type Part = { any: true } | { one: true } | { lit: string };
  const parts: Part[] = [];
  const p = pattern.toLowerCase();
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (ch === '\\' && (p[i + 1] === '%' || p[i + 1] === '_')) parts.push({ lit: p[++i] });
    else if (ch === '%') parts.push({ any: true });
    else if (ch === '_') parts.push({ one: true });
    else parts.push({ lit: ch });
  }
  return (input: string) => {
    const s = input.toLowerCase();
    // Classic wildcard matching with backtracking to the last %.
    let si = 0;
    let pi = 0;
    let star = -1;
    let mark = 0;
    while (si < s.length) {
      const part = parts[pi];
      if (part && ('one' in part || ('lit' in part && part.lit === s[si]))) {
        si++;
        pi++;
      } else if (part && 'any' in part) {
        star = pi++;
        mark = si;
      } else if (star >= 0) {
        pi = star + 1;
        si = ++mark;
      } else return false;
    }
    while (pi < parts.length && 'any' in parts[pi]) pi++;
    return pi === parts.length;
  };
}

// --- predicates -----------------------------------------------------------------------------------

export type RowPredicate = (row: Row) => boolean;

export function predicateOf(store: OrgStore, p: Predicate): RowPredicate {
  switch (p.kind) {
    case 'and': {
      const fs = p.items.map((i) => predicateOf(store, i));
      return (r) => fs.every((f) => f(r));
    }
    case 'or': {
      const fs = p.items.map((i) => predicateOf(store, i));
      return (r) => fs.some((f) => f(r));
    }
    case 'not': {
      const f = predicateOf(store, p.item);
      return (r) => !f(r);
    }
    case 'cmp': {
      const kind = kindOf(p.path.leaf.type);
      return (r) => compare(kind, valueAt(store, r, p.path), p.op, p.operands);
    }
    case 'like': {
      const m = likeMatcher(p.pattern);
      return (r) => {
        const v = valueAt(store, r, p.path);
        return typeof v === 'string' && m(v);
      };
    }
    case 'semi': {
      // The subquery runs once; the outer rows test membership.
      const sub = p.query;
      const selected = (sub.select[0] as { path: FieldPath }).path;
      const where = sub.where ? predicateOf(store, sub.where) : () => true;
      const ids = new Set<string>();
      for (const r of store.rows(sub.object)) {
        if (r.IsDeleted === true || !where(r)) continue;
        const v = valueAt(store, r, selected);
        if (typeof v === 'string') ids.add(v);
      }
      return (r) => {
        const v = valueAt(store, r, p.path);
        const hit = typeof v === 'string' && ids.has(v);
        return p.negate ? !hit : hit;
      };
    }
  }
}

// --- ordering -------------------------------------------------------------------------------------

type SortKey = string | number | boolean | null;

function sortKey(v: Value, type: FieldDef['type']): SortKey {
  if (v === null) return null;
  return typeof v === 'string' && kindOf(type) === 'text' ? v.toUpperCase() : v;
}

function compareKeys(a: SortKey, b: SortKey, item: { descending: boolean; nullsLast: boolean }): number {
  if (a === null || b === null) {
    if (a === b) return 0;
    return (a === null) === item.nullsLast ? 1 : -1;
  }
  const d = a < b ? -1 : a > b ? 1 : 0;
  return item.descending ? -d : d;
}

function sortRows(store: OrgStore, rows: Row[], orderBy: OrderItem[]): Row[] {
  const keyed = rows.map((row) => ({
    row,
    keys: orderBy.map((o) => (o.target.kind === 'group' ? sortKey(valueAt(store, row, o.target.path), o.target.path.leaf.type) : null)),
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < orderBy.length; i++) {
      const d = compareKeys(a.keys[i], b.keys[i], orderBy[i]);
      if (d) return d;
    }
    const x = a.row.Id as string;
    const y = b.row.Id as string;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return keyed.map((k) => k.row);
}

// --- execution ------------------------------------------------------------------------------------

export type QueryOutcome =
  | { kind: 'count'; totalSize: number }
  | { kind: 'records'; query: CompiledQuery; rows: Row[] }
  | { kind: 'aggregate'; records: Record<string, unknown>[] };

/** The rows of `object` a query selects, in its order, with OFFSET and LIMIT applied. */
export function selectRows(store: OrgStore, q: CompiledQuery, source: Row[] = store.rows(q.object), includeDeleted = false): Row[] {
  const where = q.where ? predicateOf(store, q.where) : null;
  let rows = source.filter((r) => (includeDeleted || r.IsDeleted !== true) && (!where || where(r)));
  rows = q.orderBy.length ? sortRows(store, rows, q.orderBy) : [...rows].sort((a, b) => ((a.Id as string) < (b.Id as string) ? -1 : 1));
  const start = q.offset ?? 0;
  const end = q.limit === null ? rows.length : start + q.limit;
  return start === 0 && end >= rows.length ? rows : rows.slice(start, end);
}

export function executeQuery(store: OrgStore, q: CompiledQuery, options: { includeDeleted?: boolean } = {}): QueryOutcome {
  if (q.countOnly) {
    const where = q.where ? predicateOf(store, q.where) : null;
    let n = 0;
    for (const r of store.rows(q.object)) if ((options.includeDeleted || r.IsDeleted !== true) && (!where || where(r))) n++;
    return { kind: 'count', totalSize: q.limit === null ? n : Math.min(n, q.limit) };
  }
  if (q.aggregate) return { kind: 'aggregate', records: aggregate(store, q, options.includeDeleted === true) };
  return { kind: 'records', query: q, rows: selectRows(store, q, undefined, options.includeDeleted === true) };
}

// --- aggregates -----------------------------------------------------------------------------------

function aggregateValue(store: OrgStore, rows: Row[], fn: SelectAggregate['fn'], path: FieldPath | null): Value {
  if (!path) return rows.length;
  const values = rows.map((r) => valueAt(store, r, path)).filter((v): v is string | number | boolean => v !== null);
  switch (fn) {
    case 'COUNT': return values.length;
    case 'COUNT_DISTINCT': return new Set(values.map((v) => (typeof v === 'string' ? v.toLowerCase() : v))).size;
    case 'SUM': return values.length ? Math.round((values as number[]).reduce((a, b) => a + b, 0) * 1e6) / 1e6 : null;
    case 'AVG': return values.length ? (values as number[]).reduce((a, b) => a + b, 0) / values.length : null;
    case 'MIN': return values.length ? values.reduce((a, b) => (sortKey(b, path.leaf.type)! < sortKey(a, path.leaf.type)! ? b : a)) : null;
    case 'MAX': return values.length ? values.reduce((a, b) => (sortKey(b, path.leaf.type)! > sortKey(a, path.leaf.type)! ? b : a)) : null;
  }
}

function aggregate(store: OrgStore, q: CompiledQuery, includeDeleted: boolean): Record<string, unknown>[] {
  const where = q.where ? predicateOf(store, q.where) : null;
  const rows = store.rows(q.object).filter((r) => (includeDeleted || r.IsDeleted !== true) && (!where || where(r)));
  const groups = new Map<string, Row[]>();
  if (q.groupBy.length === 0) groups.set('', rows);
  else {
    for (const r of rows) {
      const key = JSON.stringify(q.groupBy.map((g) => valueAt(store, r, g)));
      let list = groups.get(key);
      if (!list) groups.set(key, (list = []));
      list.push(r);
    }
  }
  const targetValue = (t: AggregateTarget, members: Row[]): Value =>
    t.kind === 'group' ? valueAt(store, members[0], t.path) : aggregateValue(store, members, t.fn, t.path);
  const havingOf = (h: HavingPredicate, members: Row[]): boolean => {
    switch (h.kind) {
      case 'and': return h.items.every((i) => havingOf(i, members));
      case 'or': return h.items.some((i) => havingOf(i, members));
      case 'not': return !havingOf(h.item, members);
      case 'cmp': return compare(kindOf(h.type), targetValue(h.target, members), h.op, h.operands);
    }
  };
  let kept = [...groups.values()].filter((members) => members.length > 0 || q.groupBy.length === 0);
  if (q.having) kept = kept.filter((m) => havingOf(q.having!, m));
  if (q.orderBy.length) {
    const keyed = kept.map((members) => ({
      members,
      keys: q.orderBy.map((o) => {
        const type = o.target.kind === 'aggregate' && (o.target.fn === 'COUNT' || o.target.fn === 'COUNT_DISTINCT') ? 'int' : (o.target.path?.leaf.type ?? 'int');
        return sortKey(targetValue(o.target, members), type);
      }),
    }));
    keyed.sort((a, b) => {
      for (let i = 0; i < q.orderBy.length; i++) {
        const d = compareKeys(a.keys[i], b.keys[i], q.orderBy[i]);
        if (d) return d;
      }
      return 0;
    });
    kept = keyed.map((k) => k.members);
  }
  const start = q.offset ?? 0;
  kept = kept.slice(start, q.limit === null ? undefined : start + q.limit);
  if (kept.length > AGGREGATE_ROW_LIMIT) {
    throw apiError(400, 'EXCEEDED_ID_LIMIT', 'Aggregate query does not support queryMore(), use LIMIT to restrict the results to a single batch');
  }
  return kept.map((members) => {
    const out: Record<string, unknown> = { attributes: { type: 'AggregateResult' } };
    for (const s of q.select) {
      if (s.kind === 'field') out[s.alias ?? s.path.leaf.name] = renderValue(s.path.leaf, members.length ? valueAt(store, members[0], s.path) : null);
      else if (s.kind === 'aggregate') {
        const v = aggregateValue(store, members, s.fn, s.path);
        out[s.alias] = s.path && (s.fn === 'MIN' || s.fn === 'MAX') ? renderValue(s.path.leaf, v) : v;
      }
    }
    return out;
  });
}

// --- rendering ------------------------------------------------------------------------------------

/** Salesforce's dateTime format: 2026-06-15T12:00:00.000+0000 */
export function formatDateTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}+0000`;
}

const ADDRESS_PREFIX: Record<string, string> = { Address: '', MailingAddress: 'Mailing', BillingAddress: 'Billing' };

export function renderValue(f: FieldDef, v: Value, row?: Row): unknown {
  if (f.type === 'address') {
    const prefix = ADDRESS_PREFIX[f.name] ?? '';
    const get = (k: string) => (row ? (row[`${prefix}${k}`] ?? null) : null);
    const parts = { city: get('City'), country: get('Country'), state: get('State'), street: get('Street'), postalCode: get('PostalCode') };
    if (Object.values(parts).every((x) => x === null)) return null;
    return { ...parts, countryCode: null, geocodeAccuracy: null, latitude: null, longitude: null, stateCode: null };
  }
  if (v === null || v === undefined) return null;
  if (f.type === 'datetime' && typeof v === 'number') return formatDateTime(v);
  return v;
}

export function recordUrl(version: string, object: string, id: string): string {
  return `/services/data/v${version}/sobjects/${object}/${id}`;
}

/** A record as the REST API returns it: `attributes`, then the selected fields (nested for relationships). */
export function renderRecord(store: OrgStore, q: CompiledQuery, row: Row, version: string): Record<string, unknown> {
  const out: Record<string, unknown> = { attributes: { type: q.object.name, url: recordUrl(version, q.object.name, row.Id as string) } };
  for (const item of q.select) {
    if (item.kind === 'field') {
      const { steps, leaf } = item.path;
      let node = out;
      let r: Row | undefined = row;
      let broken = false;
      for (const step of steps) {
        const key = step.relationshipName!;
        const id: Value = r![step.name];
        const parent: Row | undefined = typeof id === 'string' ? store.get(step.referenceTo[0], id) : undefined;
        if (!parent) {
          if (!(key in node)) node[key] = null;
          broken = true;
          break;
        }
        if (node[key] === null) {
          broken = true;
          break;
        }
        if (!node[key]) node[key] = { attributes: { type: step.referenceTo[0], url: recordUrl(version, step.referenceTo[0], parent.Id as string) } };
        node = node[key] as Record<string, unknown>;
        r = parent;
      }
      if (!broken) node[leaf.name] = renderValue(leaf, r![leaf.name] ?? null, r);
    } else if (item.kind === 'subquery') {
      const children = store.children(item.relationship.childSObject, item.relationship.field, row.Id as string);
      const selected = children.length ? selectRows(store, item.query, children) : [];
      out[item.relationship.relationshipName] = selected.length
        ? { totalSize: selected.length, done: true, records: selected.map((c) => renderRecord(store, item.query, c, version)) }
        : null;
    }
  }
  return out;
}
