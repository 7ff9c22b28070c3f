/**
 * The editable form of a segment: an AND of clauses, each an OR of conditions that may be negated
 * ("chips"), plus sort and limit. This is what clients render and edit (one chip per condition);
 * `toClauses` and `fromClauses` convert to and from the segment AST, and the field catalogue says,
 * per field, which operators and values a chip may have.
 *
 * Every segment the parser produces fits this form; a hand-written tree that does not (an AND inside
 * an OR, say) is reported as not editable instead of being flattened into something else.
 */
import { z } from 'zod';
import {
  DATE_FIELDS,
  isAnd,
  isCondition,
  isNot,
  isOr,
  LIFECYCLE_STAGES,
  LIFECYCLE_VALUES,
  NUMBER_FIELDS,
  SEGMENT_VERSION,
  segmentSchema,
  STRING_FIELDS,
  type Condition,
  type Segment,
  type SegmentNode,
  type SegmentSort,
} from './ast.js';
import { SegmentationError } from './errors.js';
import { REGION_COUNTRIES, REGIONS, type Region } from './regions.js';

export interface ClauseCondition {
  condition: Condition;
  negated: boolean;
}

export interface SegmentClauses {
  clauses: ClauseCondition[][];
  sort?: SegmentSort;
  limit?: number;
}

// ---------------------------------------------------------------------------------------------------
// The field catalogue

export type FieldKind = 'text' | 'money' | 'date' | 'stage' | 'region' | 'domain' | 'name' | 'boolean';
export type Operator = Condition['op'];

const TEXT_OPS = ['eq', 'neq', 'contains', 'not_contains', 'in', 'not_in', 'is_set', 'is_not_set'] as const;
const OPS_BY_KIND: Record<FieldKind, readonly Operator[]> = {
  text: TEXT_OPS,
  money: ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'between', 'is_set', 'is_not_set'],
  date: ['lt', 'lte', 'gt', 'gte', 'between', 'is_set', 'is_not_set'],
  stage: ['eq', 'neq', 'in', 'not_in'],
  region: ['eq', 'neq', 'in', 'not_in'],
  domain: ['eq', 'neq', 'in', 'not_in'],
  name: ['eq', 'contains'],
  boolean: ['eq'],
};

export interface FieldInfo {
  field: Condition['field'];
  label: string;
  kind: FieldKind;
  operators: readonly Operator[];
  /** The allowed values of an enumeration (stages, regions). */
  options?: readonly string[];
  /** A question that uses the field. */
  example: string;
}

const field = (f: Condition['field'], label: string, kind: FieldKind, example: string, options?: readonly string[]): FieldInfo => ({
  field: f,
  label,
  kind,
  operators: OPS_BY_KIND[kind],
  example,
  ...(options ? { options } : {}),
});

export const FIELD_CATALOG: readonly FieldInfo[] = [
  field('lifecycleStage', 'Lifecycle stage', 'stage', 'leads in Canada', LIFECYCLE_STAGES),
  field('hubspotStage', 'HubSpot lifecycle stage', 'stage', 'MQLs in Germany', LIFECYCLE_VALUES),
  field('region', 'Region', 'region', 'customers in Europe', REGIONS),
  field('country', 'Country', 'text', 'contacts in Germany'),
  field('state', 'State', 'text', 'customers in California'),
  field('city', 'City', 'text', 'leads in London'),
  field('lifetimeValue', 'Lifetime value', 'money', 'customers with lifetime value over $5k'),
  field('lastPurchaseAmount', 'Last purchase amount', 'money', 'last purchase over $500'),
  field('lastPurchaseDate', 'Last purchase', 'date', 'bought in the last 30 days'),
  field('hasPurchased', 'Has purchased', 'boolean', 'contacts who never bought'),
  field('createdAt', 'Created', 'date', 'contacts added this month'),
  field('company', 'Company', 'text', 'contacts at Acme'),
  field('emailDomain', 'Email domain', 'domain', 'emails at gmail.com'),
  field('name', 'Name', 'name', 'contacts named Smith'),
  field('firstName', 'First name', 'text', 'first name is Anna'),
  field('lastName', 'Last name', 'text', 'last name is Lee'),
  field('email', 'Email', 'text', 'email contains "sales"'),
];

const CATALOG = new Map(FIELD_CATALOG.map((f) => [f.field, f]));
export const fieldInfo = (f: string): FieldInfo | undefined => CATALOG.get(f as Condition['field']);

/** The countries a region covers (shown with region conditions so the user sees what it means). */
export const regionCountries = (region: string): readonly string[] => REGION_COUNTRIES[region as Region] ?? [];

// Keep the catalogue honest: every field of the AST is in it, with the kinds the AST allows.
for (const f of [...STRING_FIELDS, ...NUMBER_FIELDS, ...DATE_FIELDS]) {
  if (!CATALOG.has(f)) throw new Error(`field catalogue misses ${f}`);
}

// ---------------------------------------------------------------------------------------------------
// Segment → clauses

function asClauseCondition(n: SegmentNode): ClauseCondition | null {
  if (isCondition(n)) return { condition: n, negated: false };
  if (isNot(n) && isCondition(n.not)) return { condition: n.not, negated: true };
  if (isNot(n) && isNot(n.not)) return asClauseCondition(n.not.not);
  return null;
}

function asClause(n: SegmentNode): ClauseCondition[] | null {
  const single = asClauseCondition(n);
  if (single) return [single];
  if (isOr(n)) {
    const parts = n.or.map(asClause);
    return parts.every((p): p is ClauseCondition[] => p !== null) ? parts.flat() : null;
  }
  return null;
}

/** The segment as clauses, or null when its tree is not an AND of ORs of (negated) conditions. */
export function toClauses(segment: Segment): SegmentClauses | null {
  const clauses: ClauseCondition[][] = [];
  const visit = (n: SegmentNode): boolean => {
    if (isAnd(n)) return n.and.every(visit);
    const clause = asClause(n);
    if (!clause || clause.length === 0) return false;
    clauses.push(clause);
    return true;
  };
  if (segment.where && !visit(segment.where)) return null;
  return { clauses, ...(segment.sort ? { sort: segment.sort } : {}), ...(segment.limit !== undefined ? { limit: segment.limit } : {}) };
}

// ---------------------------------------------------------------------------------------------------
// Clauses → segment

const invalid = (message: string) => new SegmentationError('INVALID_SEGMENT', message);

const dateSchema = z.union([
  z.object({ kind: z.literal('absolute'), date: z.string() }),
  z.object({ kind: z.literal('relative'), amount: z.number(), unit: z.string(), direction: z.string() }),
  z.object({ kind: z.literal('anchor'), unit: z.string(), offset: z.number() }),
  z.object({ kind: z.literal('now') }),
]);

/** A chip's value as a client sends it: exactly one of text, number, boolean or date. */
export interface ChipValue {
  text?: string | null;
  number?: number | null;
  boolean?: boolean | null;
  date?: Record<string, unknown> | null;
}

export interface ChipInput {
  field: string;
  operator: string;
  negated?: boolean | null;
  value?: ChipValue | null;
  values?: string[] | null;
  from?: ChipValue | null;
  to?: ChipValue | null;
}

/** The value of a chip in the type its field takes; a clear error names the chip otherwise. */
function scalar(info: FieldInfo, v: ChipValue | null | undefined, what: string): unknown {
  const given = v ? Object.entries(v).filter(([, x]) => x !== null && x !== undefined) : [];
  if (given.length !== 1) throw invalid(`${info.label}: give exactly one ${what}`);
  const [kind, value] = given[0];
  const expected = info.kind === 'money' ? 'number' : info.kind === 'date' ? 'date' : info.kind === 'boolean' ? 'boolean' : 'text';
  if (kind !== expected) throw invalid(`${info.label}: the ${what} must be a ${expected}`);
  if (kind === 'date') {
    const parsed = dateSchema.safeParse(value);
    if (!parsed.success) throw invalid(`${info.label}: the date is not valid`);
    return Object.fromEntries(Object.entries(value as object).filter(([, x]) => x !== null && x !== undefined));
  }
  return value;
}

function conditionOf(chip: ChipInput): Condition {
  const info = fieldInfo(chip.field);
  if (!info) throw invalid(`Unknown field "${chip.field}"`);
  const op = chip.operator as Operator;
  if (!info.operators.includes(op)) throw invalid(`${info.label} cannot be used with the operator "${chip.operator}"`);
  const raw: Record<string, unknown> = { field: info.field, op };
  if (op === 'in' || op === 'not_in') {
    if (!chip.values?.length) throw invalid(`${info.label}: give at least one value`);
    raw.values = chip.values;
  } else if (op === 'between') {
    raw.from = scalar(info, chip.from, 'lower bound');
    raw.to = scalar(info, chip.to, 'upper bound');
  } else if (op !== 'is_set' && op !== 'is_not_set') {
    raw.value = scalar(info, chip.value, 'value');
  }
  return raw as Condition;
}

/**
 * Builds a segment from clauses of chips and validates it with the segment schema (the same rules
 * as a parsed question). Throws SegmentationError INVALID_SEGMENT with a message fit for the user.
 */
export function fromClauses(input: { clauses: ChipInput[][]; sort?: SegmentSort | null; limit?: number | null }): Segment {
  const nodes: SegmentNode[] = input.clauses.map((clause, i) => {
    if (!clause.length) throw invalid(`Condition group ${i + 1} is empty`);
    const parts = clause.map((chip) => {
      const c = conditionOf(chip);
      return chip.negated ? { not: c } : c;
    });
    return parts.length === 1 ? parts[0] : { or: parts };
  });
  const candidate = {
    version: SEGMENT_VERSION,
    ...(nodes.length === 0 ? {} : { where: nodes.length === 1 ? nodes[0] : { and: nodes } }),
    ...(input.sort ? { sort: input.sort } : {}),
    ...(input.limit !== null && input.limit !== undefined ? { limit: input.limit } : {}),
  };
  const parsed = segmentSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`The segment is not valid: ${issue?.message ?? 'invalid'}${issue?.path.length ? ` (at ${issue.path.join('.')})` : ''}`);
  }
  return parsed.data;
}
