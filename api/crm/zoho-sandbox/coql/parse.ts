/**
 * COQL → a checked query, with node-sql-parser (MySQL grammar) doing the parsing and this module
 * confining its AST to COQL's subset, as Zoho documents it for API v7:
 *
 *  - one SELECT from one module: no joins other than lookup traversal with dots (`Account_Name.Account_Name`,
 *    at most two relations), no sub-queries, DISTINCT, HAVING, `*`, NOT(…) or `<>`;
 *  - WHERE is required; at most 25 criteria; more than two criteria must be bracketed in pairs
 *    (`(A and B) and C`, never `A and B and C`);
 *  - comparators by field type: text `= != like 'x%' / '%x' / '%x%' (and not like) in / not in (≤ 50 values)
 *    is [not] null`; picklists and lookups the same without like; numbers, dates (`'2026-01-31'`) and
 *    date-times (`'2026-01-31T09:00:00+05:30'`, offset required) also `< <= > >= [not] between`;
 *  - at most 50 columns, 5 aggregates (COUNT, SUM, MAX, MIN, AVG), 4 GROUP BY and 10 ORDER BY fields;
 *  - LIMIT ≤ 2,000 rows (default 200) and OFFSET + LIMIT ≤ 100,000 (`limit o, n` or `limit n offset o`).
 *
 * Each violation is answered with the error code Zoho uses (SYNTAX_ERROR, INVALID_QUERY, LIMIT_EXCEEDED,
 * DUPLICATE_DATA). No regular expression reads the query: the grammar does.
 */
import nodeSqlParser from 'node-sql-parser';
import { apiError, invalidColumn, invalidQuery, invalidValue, limitExceeded, parseError, syntaxError } from '../errors.js';
import { fieldOf, isModule, type FieldDef, type ModuleName } from '../fields.js';

const { Parser } = nodeSqlParser as unknown as { Parser: new () => { astify(sql: string, opt?: object): unknown } };
const parser = new Parser();
/** node-sql-parser's options for COQL: the MySQL grammar (COQL is SQL-like; keywords case-insensitive). */
const PARSE_OPTIONS = { database: 'MySQL', parseOptions: { includeLocations: true } };

export const MAX_LIMIT = 2000;
export const DEFAULT_LIMIT = 200;
export const MAX_OFFSET_WINDOW = 100_000;
export const MAX_CRITERIA = 25;
export const MAX_IN_VALUES = 50;
export const MAX_COLUMNS = 50;

export type Literal = string | number | boolean | null;

/** A field reached from the base module, possibly through lookups. */
export interface FieldRef {
  /** the lookup fields walked, then the field: ['Account_Name', 'Account_Name'] */
  path: string[];
  /** the modules along the path (path[i] is a field of modules[i]) */
  modules: ModuleName[];
  def: FieldDef;
  /** how the column is named in the response ("Account_Name.Account_Name") */
  key: string;
}

export type Comparator = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'like' | 'not like' | 'in' | 'not in' | 'between' | 'not between' | 'is null' | 'is not null';

export type Criteria =
  | { type: 'logic'; op: 'and' | 'or'; left: Criteria; right: Criteria }
  | { type: 'cmp'; ref: FieldRef; op: Comparator; values: Literal[] };

export type Aggregate = 'COUNT' | 'SUM' | 'MAX' | 'MIN' | 'AVG';
export type Column = { type: 'field'; ref: FieldRef; key: string } | { type: 'aggregate'; fn: Aggregate; ref: FieldRef; key: string };

export interface CoqlQuery {
  module: ModuleName;
  columns: Column[];
  where: Criteria;
  groupBy: FieldRef[];
  orderBy: { ref: FieldRef; desc: boolean }[];
  limit: number;
  offset: number;
  /** API credits the call costs (by LIMIT: ≤ 200 → 1, ≤ 1,000 → 2, else 3) */
  credits: number;
}

// The few node-sql-parser AST shapes COQL uses (the library's own types are far wider).
interface Node {
  type: string;
  [k: string]: unknown;
}
interface ColumnRef extends Node {
  type: 'column_ref';
  db?: string | null;
  table: string | null;
  column: string | { expr: { value: string } };
}

export function parseCoql(query: string): CoqlQuery {
  let ast: unknown;
  try {
    ast = parser.astify(query, PARSE_OPTIONS);
  } catch (e) {
    const loc = (e as { location?: { start?: { offset: number; line: number; column: number } } }).location?.start;
    if (!loc) throw syntaxError('select');
    throw parseError(query.slice(loc.offset).trim().split(/\s+/)[0] ?? '', loc.line, loc.column);
  }
  if (Array.isArray(ast)) {
    if (ast.length !== 1) throw syntaxError('select');
    ast = ast[0];
  }
  const sel = ast as Node;
  if (sel.type !== 'select') throw invalidQuery('only select queries are supported', { query_type: sel.type });
  for (const k of ['with', 'distinct', 'having', 'window', 'into', 'options', 'locking_read'] as const) {
    const v = sel[k];
    const present = k === 'into' ? Boolean((v as { position?: unknown } | null)?.position) : v !== null && v !== undefined;
    if (present) throw syntaxError(k === 'distinct' ? 'select' : k);
  }
  const from = sel.from as Node[] | null;
  if (!from || from.length !== 1 || from[0].join || from[0].expr || typeof from[0].table !== 'string') throw syntaxError('from');
  const moduleName = String(from[0].table);
  if (!isModule(moduleName)) throw invalidQuery('invalid module given', { module: moduleName });
  const module = moduleName;

  const columns = parseColumns(module, sel.columns as Node[]);
  if (!sel.where) throw syntaxError('where');
  const counter = { criteria: 0 };
  const where = parseCriteria(module, sel.where as Node, counter, true);
  if (counter.criteria > MAX_CRITERIA) throw limitExceeded('criteria', MAX_CRITERIA);

  const groupBy = ((sel.groupby as { columns?: Node[] } | null)?.columns ?? []).map((n) => resolveColumn(module, n, 'group by'));
  if (groupBy.length > 4) throw limitExceeded('group by', 4);
  duplicates(groupBy.map((g) => g.key), 'group by');
  const aggregates = columns.filter((c) => c.type === 'aggregate');
  if (aggregates.length > 5) throw limitExceeded('aggregate', 5);
  if (aggregates.length > 0 || groupBy.length > 0) {
    const grouped = new Set(groupBy.map((g) => g.key));
    const stray = columns.find((c) => c.type === 'field' && !grouped.has(c.ref.key));
    if (stray) throw invalidQuery('column not in group by clause', { column_name: stray.key });
  }

  const orderBy = ((sel.orderby as Node[] | null) ?? []).map((o) => {
    const expr = o.expr as Node;
    if (expr.type !== 'column_ref') throw invalidQuery('invalid order by column', { clause: 'order by' });
    return { ref: resolveColumn(module, expr, 'order by'), desc: String(o.type ?? 'ASC').toUpperCase() === 'DESC' };
  });
  if (orderBy.length > 10) throw limitExceeded('order by', 10);
  duplicates(orderBy.map((o) => o.ref.key), 'order by');

  const { limit, offset } = parseLimit(sel.limit as Node | null);
  return { module, columns, where, groupBy, orderBy, limit, offset, credits: limit <= 200 ? 1 : limit <= 1000 ? 2 : 3 };
}

function duplicates(keys: string[], clause: string) {
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k)) throw apiError(400, 'DUPLICATE_DATA', 'duplicate data', { clause, column_name: k });
    seen.add(k);
  }
}

function columnName(n: ColumnRef): string {
  return typeof n.column === 'string' ? n.column : String(n.column?.expr?.value ?? '');
}

/** A field reference (`Email`, `Account_Name.Account_Name`, `Contact_Name.Account_Name.Account_Name`). */
export function resolvePath(module: ModuleName, path: string[]): FieldRef {
  const modules: ModuleName[] = [module];
  let current: ModuleName = module;
  const key = path.join('.');
  if (path.length > 3) throw invalidQuery('more than two relations are not supported', { column_name: key });
  for (let i = 0; i < path.length; i++) {
    const def = fieldOf(current, path[i]);
    if (!def) throw invalidColumn(key);
    if (i === path.length - 1) return { path, modules, def, key };
    if (def.kind !== 'lookup' || !def.lookup || def.lookup === 'users') throw invalidColumn(key);
    current = def.lookup;
    modules.push(current);
  }
  throw invalidColumn(key);
}

function resolveColumn(module: ModuleName, n: Node, clause: string): FieldRef {
  if (n.type === 'single_quote_string' || n.type === 'double_quote_string') return resolvePath(module, String(n.value).split('.'));
  if (n.type !== 'column_ref') throw syntaxError(clause);
  const c = n as ColumnRef;
  const name = columnName(c);
  if (name === '*') throw invalidQuery('select * is not supported', { clause });
  return resolvePath(module, [c.db, c.table, name].filter((s): s is string => typeof s === 'string' && s.length > 0));
}

function parseColumns(module: ModuleName, cols: Node[]): Column[] {
  if (!Array.isArray(cols) || cols.length === 0) throw syntaxError('select');
  if (cols.length > MAX_COLUMNS) throw limitExceeded('select columns', MAX_COLUMNS);
  const out: Column[] = cols.map((c) => {
    const expr = c.expr as Node;
    if (expr.type === 'aggr_func') {
      const fn = String(expr.name).toUpperCase();
      if (!['COUNT', 'SUM', 'MAX', 'MIN', 'AVG'].includes(fn)) throw invalidQuery('invalid aggregate function', { function: fn });
      const arg = (expr.args as { expr?: Node; distinct?: unknown } | undefined)?.expr;
      if (!arg || (expr.args as { distinct?: unknown }).distinct) throw syntaxError('select');
      const ref = resolveColumn(module, arg, 'select');
      if ((fn === 'SUM' || fn === 'AVG') && ref.def.kind !== 'number') throw invalidQuery('invalid column for aggregate function', { column_name: ref.key, function: fn });
      if ((fn === 'MAX' || fn === 'MIN') && !['number', 'date', 'datetime'].includes(ref.def.kind)) throw invalidQuery('invalid column for aggregate function', { column_name: ref.key, function: fn });
      return { type: 'aggregate', fn: fn as Aggregate, ref, key: typeof c.as === 'string' && c.as ? c.as : `${fn}(${ref.key})` };
    }
    if (c.as) throw syntaxError('select');
    const ref = resolveColumn(module, expr, 'select');
    return { type: 'field', ref, key: ref.key };
  });
  duplicates(out.map((c) => c.key), 'select');
  return out;
}

const LOGIC = new Set(['AND', 'OR']);

function parseCriteria(module: ModuleName, n: Node, counter: { criteria: number }, top: boolean): Criteria {
  if (n.type === 'binary_expr' && LOGIC.has(String(n.operator))) {
    const left = n.left as Node;
    const right = n.right as Node;
    // COQL's bracketing rule: a logical operand that is itself an and/or must be in brackets.
    for (const side of [left, right]) {
      if (side.type === 'binary_expr' && LOGIC.has(String(side.operator)) && !side.parentheses) {
        throw syntaxError('where');
      }
    }
    return {
      type: 'logic',
      op: String(n.operator).toLowerCase() as 'and' | 'or',
      left: parseCriteria(module, left, counter, false),
      right: parseCriteria(module, right, counter, false),
    };
  }
  void top;
  if (n.type !== 'binary_expr') throw syntaxError('where');
  counter.criteria++;
  const opRaw = String(n.operator).toUpperCase();
  const leftNode = n.left as Node;
  if (leftNode.type !== 'column_ref') throw syntaxError('where');
  const ref = resolveColumn(module, leftNode, 'where');
  const right = n.right as Node;
  const op = comparator(opRaw, right);
  if (!op) throw invalidQuery('invalid operator found', { operator: String(n.operator).toLowerCase(), column_name: ref.key });
  if (!allowed(ref.def, op)) throw invalidQuery('invalid operator found', { operator: op, column_name: ref.key });
  let values: Literal[] = [];
  if (op === 'is null' || op === 'is not null') values = [];
  else if (op === 'in' || op === 'not in' || op === 'between' || op === 'not between') {
    const list = (right.value as Node[] | undefined) ?? [];
    if (right.type !== 'expr_list' || list.some((v) => v.type === 'select' || 'ast' in v)) throw syntaxError('where');
    if ((op === 'in' || op === 'not in') && list.length > MAX_IN_VALUES) throw limitExceeded('in', MAX_IN_VALUES);
    if ((op === 'between' || op === 'not between') && list.length !== 2) throw syntaxError('where');
    values = list.map((v) => literal(v, ref));
  } else values = [literal(right, ref)];
  if (op === 'like' || op === 'not like') checkLikePattern(String(values[0]), ref);
  return { type: 'cmp', ref, op, values };
}

function comparator(op: string, right: Node): Comparator | null {
  switch (op) {
    case '=': case '!=': case '<': case '<=': case '>': case '>=':
      return op.toLowerCase() as Comparator;
    case 'LIKE': return 'like';
    case 'NOT LIKE': return 'not like';
    case 'IN': return 'in';
    case 'NOT IN': return 'not in';
    case 'BETWEEN': return 'between';
    case 'NOT BETWEEN': return 'not between';
    case 'IS': return right.type === 'null' ? 'is null' : null;
    case 'IS NOT': return right.type === 'null' ? 'is not null' : null;
    default: return null;
  }
}

const BY_KIND: Record<FieldDef['kind'], ReadonlySet<Comparator>> = {
  id: new Set(['=', '!=', '<', '<=', '>', '>=', 'in', 'not in', 'is null', 'is not null']),
  text: new Set(['=', '!=', 'like', 'not like', 'in', 'not in', 'is null', 'is not null']),
  picklist: new Set(['=', '!=', 'in', 'not in', 'is null', 'is not null']),
  lookup: new Set(['=', '!=', 'in', 'not in', 'is null', 'is not null']),
  number: new Set(['=', '!=', '<', '<=', '>', '>=', 'between', 'not between', 'in', 'not in', 'is null', 'is not null']),
  date: new Set(['=', '!=', '<', '<=', '>', '>=', 'between', 'not between', 'in', 'not in', 'is null', 'is not null']),
  datetime: new Set(['=', '!=', '<', '<=', '>', '>=', 'between', 'not between', 'is null', 'is not null']),
};

function allowed(def: FieldDef, op: Comparator): boolean {
  return BY_KIND[def.kind].has(op);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;

/** 'YYYY-MM-DD' → UTC midnight (epoch ms), or null when not a calendar date. */
export function parseDateLiteral(s: string): number | null {
  const m = DATE.exec(s);
  if (!m) return null;
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3]);
  return new Date(t).toISOString().startsWith(s) ? t : null;
}

/** 'YYYY-MM-DDTHH:mm:ss±HH:mm' → epoch ms, or null. Zoho requires the offset. */
export function parseDateTimeLiteral(s: string): number | null {
  const m = DATETIME.exec(s);
  if (!m) return null;
  const day = parseDateLiteral(`${m[1]}-${m[2]}-${m[3]}`);
  if (day === null || +m[4] > 23 || +m[5] > 59 || +m[6] > 59) return null;
  const offset = (m[7] === '-' ? -1 : 1) * (+m[8] * 60 + +m[9]) * 60_000;
  return day + ((+m[4] * 60 + +m[5]) * 60 + +m[6]) * 1000 - offset;
}

/** A literal checked against the field's type: numbers for numbers, quoted dates for dates, ... */
function literal(n: Node, ref: FieldRef): Literal {
  const bad = () => invalidValue(ref.key, ref.def.data_type);
  const isString = n.type === 'single_quote_string' || n.type === 'double_quote_string' || n.type === 'string';
  const str = isString ? String(n.value).replace(/''/g, "'") : null;
  switch (ref.def.kind) {
    case 'number':
      if (n.type === 'number') return Number(n.value);
      throw bad();
    case 'date':
      if (str !== null && parseDateLiteral(str) !== null) return str;
      throw bad();
    case 'datetime':
      if (str !== null && parseDateTimeLiteral(str) !== null) return str;
      throw bad();
    case 'id':
    case 'lookup': {
      const v = n.type === 'bigint' || n.type === 'number' ? String(n.value) : str;
      if (v !== null && /^\d{1,19}$/.test(v)) return v;
      throw bad();
    }
    default:
      if (str !== null) return str;
      if (n.type === 'number' || n.type === 'bigint') return String(n.value);
      throw bad();
  }
}

/** COQL's like is starts-with ('x%'), ends-with ('%x') or contains ('%x%'): no wildcard inside. */
function checkLikePattern(p: string, ref: FieldRef) {
  const core = p.replace(/^%/, '').replace(/%$/, '');
  if (core.length === 0 || core.includes('%') || !(p.startsWith('%') || p.endsWith('%'))) {
    throw invalidValue(ref.key, ref.def.data_type);
  }
}

function parseLimit(l: Node | null): { limit: number; offset: number } {
  const values = ((l?.value as Node[] | undefined) ?? []).map((v) => {
    if (v.type !== 'number' || !Number.isInteger(Number(v.value)) || Number(v.value) < 0) throw syntaxError('limit');
    return Number(v.value);
  });
  let limit = DEFAULT_LIMIT;
  let offset = 0;
  if (values.length === 1) limit = values[0];
  else if (values.length === 2) [limit, offset] = l?.seperator === 'offset' ? [values[0], values[1]] : [values[1], values[0]];
  if (limit < 1) throw syntaxError('limit');
  if (limit > MAX_LIMIT) throw limitExceeded('limit', MAX_LIMIT);
  if (offset + limit > MAX_OFFSET_WINDOW) throw limitExceeded('offset', MAX_OFFSET_WINDOW);
  return { limit, offset };
}
