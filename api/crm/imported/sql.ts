/**
 * The imported-contacts query (query.ts) as SQL over `imported_contacts`: one parameterized statement
 * per count or page. Column names come from the fixed tables below, every value is a bind parameter.
 *
 * Every predicate is written so that it is never NULL (a missing value makes a positive test false, not
 * unknown), so AND / OR / NOT are the segment's two-valued logic. Text compares on the *_key columns,
 * which hold the values lower-cased by the application (the segment semantics' case folding, the same
 * whatever the database's collation); text order is code-point order (COLLATE "C").
 *
 * Result order (api/crm/record.ts compareRecords): without a sort, by id — numeric ids first in numeric
 * order, then the others as text; with a sort, the contacts that have the value first, by it in the
 * sort's direction, ties by id in that direction, then the contacts without it, by id ascending. Pages
 * are keyset pages over exactly that order (cursor.ts).
 */
import type { SegmentSort } from '../../segmentation/ast.js';
import type { ImportedQuery, Pred } from './query.js';

/** The typed columns a predicate or a sort may name (field → column). */
const TEXT_KEY: Record<string, string> = {
  firstName: 'first_name_key', lastName: 'last_name_key', email: 'email_key', company: 'company_key',
  city: 'city_key', state: 'state_key', country: 'country_key',
};
const NUMBER_COLUMN: Record<string, string> = { lastPurchaseAmount: 'last_purchase_amount', lifetimeValue: 'lifetime_value' };
const DATE_COLUMN: Record<string, string> = { lastPurchaseDate: 'last_purchase_at', createdAt: 'created_at' };

/** The columns a record is read from (epoch ms for instants). */
export const RECORD_COLUMNS = `id, first_name, last_name, email, company, city, state, country, stage, lifecycle_stage,
  round(extract(epoch from last_purchase_at) * 1000)::float8 AS last_purchase_at, last_purchase_amount, lifetime_value,
  round(extract(epoch from created_at) * 1000)::float8 AS created_at, id_num`;

/**
 * The bounds of a query are clamped to years 1–9999 (a relative date may reach far beyond what the
 * database holds); stored dates are years 1000–9999, so no comparison changes.
 */
const MIN_MS = Date.parse('0001-01-01T00:00:00Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');
const clampMs = (ms: number) => Math.min(MAX_MS, Math.max(MIN_MS, ms));

/** Collects bind parameters and hands out their placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

function column(field: string): string {
  const c = TEXT_KEY[field] ?? NUMBER_COLUMN[field] ?? DATE_COLUMN[field];
  if (!c) throw new Error(`no column for field ${field}`);
  return c;
}

/** An instant as a timestamptz bind parameter (epoch ms, exact to the millisecond). */
const instant = (params: Params, ms: number) => `to_timestamp(${params.add(clampMs(ms) / 1000, 'float8')})`;

const CMP = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/** Escapes LIKE's wildcards (the e-mail domain is matched as a literal suffix). */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function predicateSql(pred: Pred, params: Params): string {
  switch (pred.p) {
    case 'true': return 'TRUE';
    case 'false': return 'FALSE';
    case 'and': return pred.of.length ? `(${pred.of.map((x) => predicateSql(x, params)).join(' AND ')})` : 'TRUE';
    case 'or': return pred.of.length ? `(${pred.of.map((x) => predicateSql(x, params)).join(' OR ')})` : 'FALSE';
    case 'not': return `(NOT ${predicateSql(pred.of, params)})`;
    case 'text_in': {
      const c = column(pred.field);
      return pred.values.length === 1
        ? `(${c} IS NOT NULL AND ${c} = ${params.add(pred.values[0], 'text')})`
        : `(${c} IS NOT NULL AND ${c} = ANY(${params.add(pred.values, 'text[]')}))`;
    }
    case 'text_contains': {
      const c = column(pred.field);
      return `(${c} IS NOT NULL AND strpos(${c}, ${params.add(pred.value, 'text')}) > 0)`;
    }
    case 'is_set': return `(${column(pred.field)} IS NOT NULL)`;
    case 'num': {
      const c = column(pred.field);
      return `(${c} IS NOT NULL AND ${c} ${CMP[pred.op]} ${params.add(pred.value, 'float8')})`;
    }
    case 'num_between': {
      const c = column(pred.field);
      return `(${c} IS NOT NULL AND ${c} >= ${params.add(pred.from, 'float8')} AND ${c} <= ${params.add(pred.to, 'float8')})`;
    }
    case 'date': {
      const c = column(pred.field);
      return `(${c} IS NOT NULL AND ${c} ${CMP[pred.op]} ${instant(params, pred.value)})`;
    }
    case 'date_range': {
      const c = column(pred.field);
      return `(${c} IS NOT NULL AND ${c} >= ${instant(params, pred.from)} AND ${c} < ${instant(params, pred.to)})`;
    }
    case 'stage_in': return `(lifecycle_stage = ANY(${params.add(pred.values, 'text[]')}))`;
    case 'detailed_stage_in': return `(stage IS NOT NULL AND stage = ANY(${params.add(pred.values, 'text[]')}))`;
    case 'email_domain': {
      // email_domain_key is the e-mail's part after its last "@". "acme.com": the address ends in
      // "@acme.com", i.e. that part is "acme.com" (a domain has no "@"); ".edu": an "@" and, after it,
      // the end ".edu", i.e. that part ends in ".edu".
      const exact = pred.domains.filter((d) => !d.startsWith('.'));
      const suffixes = pred.domains.filter((d) => d.startsWith('.')).map((d) => `%${likeLiteral(d)}`);
      const tests = [
        ...(exact.length ? [`email_domain_key = ANY(${params.add(exact, 'text[]')})`] : []),
        ...(suffixes.length ? [`email_domain_key LIKE ANY(${params.add(suffixes, 'text[]')})`] : []),
      ];
      return `(email_domain_key IS NOT NULL AND (${tests.join(' OR ')}))`;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Order and keyset pages

/** Where a keyset page resumes: the last record's sort value (when it had one) and id. */
export interface KeysetPosition {
  /** false: the last record had no value for the sort field (the trailing part of the order) */
  hasKey: boolean;
  /** its sort value: a number, epoch ms, or lower-cased text */
  key: number | string | null;
  idNum: number | null;
  id: string;
}

interface SortInfo {
  column: string;
  /** how it orders (text: its lower-cased key in code-point order) */
  expr: string;
  kind: 'text' | 'number' | 'date';
  desc: boolean;
}

function sortInfo(sort: SegmentSort | undefined): SortInfo | null {
  if (!sort) return null;
  const desc = sort.direction === 'desc';
  if (TEXT_KEY[sort.field]) return { column: TEXT_KEY[sort.field], expr: `${TEXT_KEY[sort.field]} COLLATE "C"`, kind: 'text', desc };
  if (NUMBER_COLUMN[sort.field]) return { column: NUMBER_COLUMN[sort.field], expr: NUMBER_COLUMN[sort.field], kind: 'number', desc };
  return { column: DATE_COLUMN[sort.field], expr: DATE_COLUMN[sort.field], kind: 'date', desc };
}

/** id order: numeric ids first (numerically), then the others as text; `desc` reverses it. */
const idOrder = (desc: boolean) => (desc ? 'id_num DESC NULLS FIRST, id COLLATE "C" DESC' : 'id_num ASC NULLS LAST, id COLLATE "C" ASC');

/** Records after `at` in id order (ascending or descending). */
function idAfter(at: { idNum: number | null; id: string }, desc: boolean, params: Params): string {
  const id = params.add(at.id, 'text');
  if (!desc) {
    if (at.idNum === null) return `(id_num IS NULL AND id COLLATE "C" > ${id})`;
    const n = params.add(at.idNum, 'float8');
    return `(id_num > ${n} OR (id_num = ${n} AND id COLLATE "C" > ${id}) OR id_num IS NULL)`;
  }
  if (at.idNum === null) return `(id_num IS NOT NULL OR id COLLATE "C" < ${id})`;
  const n = params.add(at.idNum, 'float8');
  return `(id_num < ${n} OR (id_num = ${n} AND id COLLATE "C" < ${id}))`;
}

function keyParam(info: SortInfo, key: number | string, params: Params): string {
  if (info.kind === 'date') return instant(params, key as number);
  return info.kind === 'number' ? params.add(key, 'float8') : `${params.add(key, 'text')} COLLATE "C"`;
}

/** The key of the sort field as read back for a cursor (epoch ms for instants). */
export function sortKeySelect(sort: SegmentSort | undefined): string {
  const info = sortInfo(sort);
  if (!info) return 'NULL::text AS sort_key';
  if (info.kind === 'date') return `round(extract(epoch from ${info.column}) * 1000)::float8 AS sort_key`;
  return info.kind === 'number' ? `${info.column}::float8 AS sort_key` : `${info.column} AS sort_key`;
}

export interface PageSql {
  /** the condition of the page (the query's filter and the position), and its order */
  where: string;
  orderBy: string;
}

/**
 * The part of the order a page reads. With a sort, the contacts with a value come first (`withKey`),
 * then those without; a page reads from one part at a time (the connector moves on to the second).
 */
export function pageSql(query: ImportedQuery, after: KeysetPosition | null, part: 'withKey' | 'withoutKey' | 'all', params: Params, filter: string): PageSql {
  const info = sortInfo(query.sort);
  if (!info || part === 'all') {
    const where = after ? `${filter} AND ${idAfter(after, false, params)}` : filter;
    return { where, orderBy: idOrder(false) };
  }
  const column = info.column;
  if (part === 'withoutKey') {
    const position = after && !after.hasKey ? ` AND ${idAfter(after, false, params)}` : '';
    return { where: `${filter} AND ${column} IS NULL${position}`, orderBy: idOrder(false) };
  }
  let position = '';
  if (after?.hasKey && after.key !== null) {
    const k = keyParam(info, after.key, params);
    position = ` AND (${info.expr} ${info.desc ? '<' : '>'} ${k} OR (${info.expr} = ${k} AND ${idAfter(after, info.desc, params)}))`;
  }
  return {
    where: `${filter} AND ${column} IS NOT NULL${position}`,
    orderBy: `${info.expr} ${info.desc ? 'DESC' : 'ASC'}, ${idOrder(info.desc)}`,
  };
}
