/**
 * Pipedrive filter definitions (`conditions` of `POST /v1/filters`): validation and evaluation.
 *
 * Structure (as documented): a top-level `{ glue: "and", conditions: [group, group] }` whose groups are
 * one glued with "and" and one with "or" (either may be empty; a definition with just one of them is
 * accepted too); at most 16 condition lines in all. A line is
 * `{ object, field_id, operator, value, extra_value }`.
 *
 * Semantics (the sandbox's, see README "Documented decisions"):
 * - Text compares ignore case; `LIKE '%$%'` contains, `LIKE '$%'` starts with, `NOT LIKE` their negation.
 * - As in SQL, every operator except `IS NULL` / `IS NOT NULL` is false on a record without a value
 *   (so `!=` and `NOT LIKE` never match a blank field). E-mail lists: a positive operator matches when
 *   one address does, a negative one when every address does.
 * - Dates compare as calendar days in the company's time zone; `value` is `YYYY-MM-DD` or a relative
 *   keyword (`last_month`, ...: a range of days; `=` inside it, `<` before it, `>` after it).
 * - Multiple-option fields (labels): `=` "has the option", `!=` "has options, not this one".
 * - A line on a linked object (a person's organization, a deal's person or organization) reads that
 *   record; when there is none, every field of it is blank.
 */
import {
  ADDRESS_COMPONENTS, CONDITION_OBJECTS, FILTER_LIMITS, OPERATORS, RELATIVE_DATES,
  type ConditionObject, type FilterCondition, type FilterConditions, type FilterOperator, type FilterType, type RelativeDate,
} from '../pipedrive/model/index.js';
import type { CompanyFields, FieldDef, FieldKind, FieldLookup, FieldValue } from './fields.js';
import type { PdAddress, PdDeal, PdOrganization, PdPerson } from './data.js';

export class FilterDefinitionError extends Error {}

const ALL_OPERATORS = Object.values(OPERATORS) as FilterOperator[];
const TEXT_OPS: FilterOperator[] = ['=', '!=', "LIKE '$%'", "LIKE '%$%'", "NOT LIKE '$%'", "NOT LIKE '%$%'", 'IS NULL', 'IS NOT NULL'];
const ORDER_OPS: FilterOperator[] = ['=', '!=', '<', '>', '<=', '>=', 'IS NULL', 'IS NOT NULL'];
const OPTION_OPS: FilterOperator[] = ['=', '!=', 'IS NULL', 'IS NOT NULL'];

/** The operators each kind of field accepts (what `GET /v1/filters/helpers` lists per type). */
export const OPERATORS_BY_KIND: Record<FieldKind, FilterOperator[]> = {
  text: TEXT_OPS, texts: TEXT_OPS, address: TEXT_OPS,
  number: ORDER_OPS, date: ORDER_OPS,
  enum: OPTION_OPS, set: OPTION_OPS, status: OPTION_OPS, ref: OPTION_OPS,
};

/** Which linked objects a filter of each type may test (the sandbox's subset of Pipedrive's). */
const OBJECTS_BY_TYPE: Partial<Record<FilterType, ConditionObject[]>> = {
  people: ['person', 'organization'],
  deals: ['deal', 'person', 'organization'],
  org: ['organization'],
};

interface ParsedLine {
  field: FieldDef<any>;
  object: ConditionObject;
  operator: FilterOperator;
  value: string | null;
  /** address component (address fields) */
  component: string;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Checks a definition against the company's fields and returns it normalised (string field ids and
 * values, explicit nulls). Throws FilterDefinitionError with a readable message.
 */
export function validateConditions(raw: unknown, type: FilterType, fields: CompanyFields): FilterConditions {
  const objects = OBJECTS_BY_TYPE[type];
  if (!objects) throw new FilterDefinitionError(`Filters of type "${type}" are not supported by the sandbox.`);
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new FilterDefinitionError('conditions must be a JSON object.');
    }
  }
  if (!isRecord(value) || value.glue !== 'and' || !Array.isArray(value.conditions)) {
    throw new FilterDefinitionError('conditions must be an object with glue "and" and a conditions array of condition groups.');
  }
  const groups = value.conditions;
  if (groups.length < 1 || groups.length > 2) throw new FilterDefinitionError('conditions must hold one or two condition groups (one glued with "and", one with "or").');
  const normalised: { glue: 'and' | 'or'; conditions: FilterCondition[] }[] = [];
  const glues = new Set<string>();
  let count = 0;
  for (const g of groups) {
    if (!isRecord(g) || (g.glue !== 'and' && g.glue !== 'or') || !Array.isArray(g.conditions)) {
      throw new FilterDefinitionError('Each condition group needs glue "and" or "or" and a conditions array.');
    }
    if (glues.has(g.glue)) throw new FilterDefinitionError('Only one condition group glued with "and" and one glued with "or" are supported.');
    glues.add(g.glue);
    const lines = g.conditions.map((c) => normaliseLine(c, objects, fields));
    count += lines.length;
    normalised.push({ glue: g.glue, conditions: lines });
  }
  if (count > FILTER_LIMITS.maxConditions) {
    throw new FilterDefinitionError(`A filter can have at most ${FILTER_LIMITS.maxConditions} conditions, got ${count}.`);
  }
  const and = normalised.find((g) => g.glue === 'and') ?? { glue: 'and' as const, conditions: [] };
  const or = normalised.find((g) => g.glue === 'or') ?? { glue: 'or' as const, conditions: [] };
  return { glue: 'and', conditions: [{ glue: 'and', conditions: and.conditions }, { glue: 'or', conditions: or.conditions }] };
}

function normaliseLine(c: unknown, objects: ConditionObject[], fields: CompanyFields): FilterCondition {
  if (!isRecord(c)) throw new FilterDefinitionError('Each condition must be an object { object, field_id, operator, value, extra_value }.');
  const object = c.object as ConditionObject;
  if (!(CONDITION_OBJECTS as readonly string[]).includes(String(object))) throw new FilterDefinitionError(`Unknown condition object ${JSON.stringify(c.object)}.`);
  if (!objects.includes(object)) throw new FilterDefinitionError(`Conditions on "${object}" are not supported in this filter type by the sandbox.`);
  const id = Number(c.field_id);
  const field = Number.isInteger(id) ? fields.byId(object, id) : undefined;
  if (!field) throw new FilterDefinitionError(`Field ${JSON.stringify(c.field_id)} does not exist for object "${object}".`);
  if (!field.filtering) throw new FilterDefinitionError(`Field "${field.name}" cannot be used in filters.`);
  const operator = c.operator as FilterOperator;
  if (!ALL_OPERATORS.includes(operator)) throw new FilterDefinitionError(`Unknown operator ${JSON.stringify(c.operator)}.`);
  if (!OPERATORS_BY_KIND[field.kind].includes(operator)) {
    throw new FilterDefinitionError(`Operator ${operator} cannot be used with field "${field.name}" (${field.field_type}).`);
  }
  const hasValue = operator !== 'IS NULL' && operator !== 'IS NOT NULL';
  const rawValue = c.value === null || c.value === undefined ? null : String(c.value);
  if (hasValue && (rawValue === null || rawValue === '')) throw new FilterDefinitionError(`Condition on "${field.name}" with ${operator} needs a value.`);
  const value = hasValue ? rawValue : null;
  if (value !== null) checkValue(field, value);
  let extra: string | null = c.extra_value === undefined || c.extra_value === null || c.extra_value === '' ? null : String(c.extra_value);
  if (field.kind === 'address') {
    if (extra !== null && !(ADDRESS_COMPONENTS as readonly string[]).includes(extra)) {
      throw new FilterDefinitionError(`Unknown address component ${JSON.stringify(extra)}.`);
    }
  } else extra = null;
  return { object, field_id: String(field.id), operator, value, extra_value: extra };
}

function checkValue(field: FieldDef<any>, value: string): void {
  switch (field.kind) {
    case 'number':
    case 'ref':
      if (!Number.isFinite(Number(value)) || value.trim() === '') throw new FilterDefinitionError(`"${value}" is not a number (field "${field.name}").`);
      return;
    case 'date':
      if (!(RELATIVE_DATES as readonly string[]).includes(value) && !isCalendarDate(value)) {
        throw new FilterDefinitionError(`Date values must be in the YYYY-MM-DD format or a relative date, got "${value}" (field "${field.name}").`);
      }
      return;
    case 'enum':
    case 'set':
    case 'status':
      if (!field.options?.some((o) => String(o.id) === value)) throw new FilterDefinitionError(`"${value}" is not an option of field "${field.name}".`);
      return;
    default:
      return;
  }
}

function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

// ---------------------------------------------------------------------------------------------------
// Evaluation

export interface EvaluationContext {
  fields: CompanyFields;
  lookup: FieldLookup;
  /** the company's time zone (IANA) for date conditions */
  timeZone: string;
  /** the sandbox clock's now (relative dates) */
  now: number;
}

/** A predicate over the filter type's records. */
export type RecordPredicate<T> = (record: T) => boolean;

export function compilePeopleFilter(conditions: FilterConditions, ctx: EvaluationContext): RecordPredicate<PdPerson> {
  return compile<PdPerson>(conditions, ctx, (p, object) => (object === 'person' ? p : object === 'organization' ? ctx.lookup.orgOf(p) : null));
}

export function compileDealFilter(conditions: FilterConditions, ctx: EvaluationContext): RecordPredicate<PdDeal> {
  return compile<PdDeal>(conditions, ctx, (d, object) => {
    if (object === 'deal') return d;
    if (object === 'person') return ctx.lookup.personOf(d);
    if (object === 'organization') return ctx.lookup.orgById(d.org_id);
    return null;
  });
}

export function compileOrgFilter(conditions: FilterConditions, ctx: EvaluationContext): RecordPredicate<PdOrganization> {
  return compile<PdOrganization>(conditions, ctx, (o, object) => (object === 'organization' ? o : null));
}

function compile<T>(conditions: FilterConditions, ctx: EvaluationContext, target: (r: T, object: ConditionObject) => unknown): RecordPredicate<T> {
  const [andGroup, orGroup] = conditions.conditions;
  const line = (c: FilterCondition) => {
    const field = ctx.fields.byId(c.object, Number(c.field_id))!;
    const test = compileLine({ field, object: c.object, operator: c.operator, value: c.value, component: c.extra_value ?? 'value' }, ctx);
    return (r: T) => {
      const linked = target(r, c.object);
      return test(linked === null || linked === undefined ? null : field.get(linked, ctx.lookup));
    };
  };
  const ands = andGroup.conditions.map(line);
  const ors = orGroup.conditions.map(line);
  return (r) => ands.every((t) => t(r)) && (ors.length === 0 || ors.some((t) => t(r)));
}

function compileLine(l: ParsedLine, ctx: EvaluationContext): (v: FieldValue) => boolean {
  const { operator } = l;
  if (operator === 'IS NULL') return (v) => isBlank(v, l);
  if (operator === 'IS NOT NULL') return (v) => !isBlank(v, l);
  const value = l.value!;
  const present = (test: (v: FieldValue) => boolean) => (v: FieldValue) => !isBlank(v, l) && test(v);
  switch (l.field.kind) {
    case 'text':
    case 'texts':
    case 'address': {
      const text = textTest(operator, value.toLowerCase());
      const negative = operator === '!=' || operator.startsWith('NOT');
      return present((v) => {
        const list = textsOf(v, l).map((s) => s.toLowerCase());
        return negative ? list.every(text) : list.some(text);
      });
    }
    case 'number': {
      const n = Number(value);
      return present((v) => compare(operator, v as number, n));
    }
    case 'ref':
    case 'enum':
    case 'status': {
      const target = value;
      return present((v) => (operator === '=' ? String(v) === target : String(v) !== target));
    }
    case 'set': {
      const target = Number(value);
      return present((v) => ((v as number[]).includes(target) ? operator === '=' : operator === '!='));
    }
    case 'date': {
      const [from, to] = dateRange(value, ctx);
      const day = localDate(ctx.timeZone);
      return present((v) => {
        const d = day(v as number);
        switch (operator) {
          case '=': return d >= from && d <= to;
          case '!=': return d < from || d > to;
          case '<': return d < from;
          case '<=': return d <= to;
          case '>': return d > to;
          case '>=': return d >= from;
          default: return false;
        }
      });
    }
  }
}

function textTest(operator: FilterOperator, needle: string): (s: string) => boolean {
  switch (operator) {
    case '=': return (s) => s === needle;
    case '!=': return (s) => s !== needle;
    case "LIKE '%$%'": return (s) => s.includes(needle);
    case "NOT LIKE '%$%'": return (s) => !s.includes(needle);
    case "LIKE '$%'": return (s) => s.startsWith(needle);
    case "NOT LIKE '$%'": return (s) => !s.startsWith(needle);
    default: return () => false;
  }
}

function compare(operator: FilterOperator, a: number, b: number): boolean {
  switch (operator) {
    case '=': return a === b;
    case '!=': return a !== b;
    case '<': return a < b;
    case '<=': return a <= b;
    case '>': return a > b;
    case '>=': return a >= b;
    default: return false;
  }
}

function textsOf(v: FieldValue, l: ParsedLine): string[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'object') {
    const a = v as PdAddress;
    const s = l.component === 'value' ? a.value : (a as unknown as Record<string, string | null>)[l.component];
    return s ? [s] : [];
  }
  return [String(v)];
}

function isBlank(v: FieldValue, l: ParsedLine): boolean {
  if (v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return textsOf(v, l).length === 0;
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Dates

const formatters = new Map<string, (ms: number) => string>();

/** The calendar day (YYYY-MM-DD) of an instant in a time zone; memoised per quarter hour. */
export function localDate(timeZone: string): (ms: number) => string {
  let f = formatters.get(timeZone);
  if (f) return f;
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') f = (ms) => new Date(ms).toISOString().slice(0, 10);
  else {
    const fmt = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    const cache = new Map<number, string>();
    // Every offset is a multiple of 15 minutes, so the day cannot change inside a UTC quarter hour.
    f = (ms) => {
      const q = Math.floor(ms / 900_000);
      let s = cache.get(q);
      if (s === undefined) cache.set(q, (s = fmt.format(q * 900_000)));
      return s;
    };
  }
  formatters.set(timeZone, f);
  return f;
}

function ymd(s: string): [number, number, number] {
  const [y, m, d] = s.split('-').map(Number);
  return [y, m, d];
}

const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

/** A date value as an inclusive range of days (a single day for `YYYY-MM-DD`). */
export function dateRange(value: string, ctx: { timeZone: string; now: number }): [string, string] {
  if (!(RELATIVE_DATES as readonly string[]).includes(value)) return [value, value];
  const [y, m, d] = ymd(localDate(ctx.timeZone)(ctx.now));
  const today = utc(y, m, d);
  const DAY = 86_400_000;
  const rel = value as RelativeDate;
  const shift = rel.startsWith('last_') || rel === 'yesterday' ? -1 : rel.startsWith('next_') || rel === 'tomorrow' ? 1 : 0;
  if (rel === 'today' || rel === 'yesterday' || rel === 'tomorrow') return [iso(today + shift * DAY), iso(today + shift * DAY)];
  if (rel.endsWith('_week')) {
    const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY + shift * 7 * DAY;
    return [iso(monday), iso(monday + 6 * DAY)];
  }
  if (rel.endsWith('_month')) return [iso(utc(y, m + shift, 1)), iso(utc(y, m + shift + 1, 1) - DAY)];
  if (rel.endsWith('_quarter')) {
    const q0 = Math.floor((m - 1) / 3) * 3 + 1 + shift * 3;
    return [iso(utc(y, q0, 1)), iso(utc(y, q0 + 3, 1) - DAY)];
  }
  return [iso(utc(y + shift, 1, 1)), iso(utc(y + shift + 1, 1, 1) - DAY)];
}
