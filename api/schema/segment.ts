// The understood segment as typed GraphQL: clauses of conditions ("chips") with field, operator and
// value, sort, limit and the phrases that were not understood; the matching input type for running
// an edited segment; and the catalogue of fields a chip can use. Conversion lives in
// api/segmentation/clauses.ts; this file only describes it.
import { builder } from '../builder.js';
import type { RequestContext } from '../context.js';
import {
  DATE_UNITS,
  explainCondition,
  explainSegment,
  FIELD_CATALOG,
  fromClauses,
  regionCountries,
  SORT_FIELDS,
  toClauses,
  type ChipInput,
  type ClauseCondition,
  type DateExpr,
  type Segment,
} from '../segmentation/index.js';

const enumOf = <T extends string>(name: string, values: readonly T[], description?: string) =>
  builder.enumType(name, { description, values: Object.fromEntries(values.map((v) => [v, { value: v }])) as Record<T, { value: T }> });

const FieldEnum = enumOf('SegmentField', FIELD_CATALOG.map((f) => f.field));
const OperatorEnum = enumOf('SegmentOperator', ['eq', 'neq', 'contains', 'not_contains', 'in', 'not_in', 'is_set', 'is_not_set', 'lt', 'lte', 'gt', 'gte', 'between'] as const);
const FieldKindEnum = enumOf('SegmentFieldKind', ['text', 'money', 'date', 'stage', 'region', 'domain', 'name', 'boolean'] as const, 'Which kind of value a field takes');
const DateKindEnum = enumOf('SegmentDateKind', ['absolute', 'relative', 'anchor', 'now'] as const);
const DateUnitEnum = enumOf('SegmentDateUnit', DATE_UNITS);
const DirectionEnum = enumOf('SegmentDateDirection', ['past', 'future'] as const);
const SortFieldEnum = enumOf('SegmentSortField', SORT_FIELDS);
export const SortDirectionEnum = enumOf('SortDirection', ['asc', 'desc'] as const);

// ---------------------------------------------------------------------------------------------
// Output

const SegmentDate = builder.objectRef<DateExpr>('SegmentDate').implement({
  description: 'absolute: a calendar day; relative: now moved by amount units; anchor: start of the current unit shifted by offset; now',
  fields: (t) => ({
    kind: t.field({ type: DateKindEnum, resolve: (d) => d.kind }),
    date: t.string({ nullable: true, description: 'YYYY-MM-DD (absolute)', resolve: (d) => (d.kind === 'absolute' ? d.date : null) }),
    amount: t.int({ nullable: true, resolve: (d) => (d.kind === 'relative' ? d.amount : null) }),
    unit: t.field({ type: DateUnitEnum, nullable: true, resolve: (d) => (d.kind === 'relative' || d.kind === 'anchor' ? d.unit : null) }),
    direction: t.field({ type: DirectionEnum, nullable: true, resolve: (d) => (d.kind === 'relative' ? d.direction : null) }),
    offset: t.int({ nullable: true, resolve: (d) => (d.kind === 'anchor' ? d.offset : null) }),
  }),
});

type Scalar = string | number | boolean | DateExpr;

const SegmentValue = builder.objectRef<Scalar>('SegmentValue').implement({
  description: 'Exactly one of text, number, boolean or date is set, by the kind of the field',
  fields: (t) => ({
    text: t.string({ nullable: true, resolve: (v) => (typeof v === 'string' ? v : null) }),
    number: t.float({ nullable: true, resolve: (v) => (typeof v === 'number' ? v : null) }),
    boolean: t.boolean({ nullable: true, resolve: (v) => (typeof v === 'boolean' ? v : null) }),
    date: t.field({ type: SegmentDate, nullable: true, resolve: (v) => (typeof v === 'object' ? v : null) }),
  }),
});

const explainOpts = (ctx: RequestContext) => ({ now: ctx.deps.now(), timeZone: ctx.deps.config.usageTimeZone });

const SegmentCondition = builder.objectRef<ClauseCondition>('SegmentCondition').implement({
  fields: (t) => ({
    field: t.field({ type: FieldEnum, resolve: (c) => c.condition.field }),
    operator: t.field({ type: OperatorEnum, resolve: (c) => c.condition.op }),
    negated: t.boolean({ description: 'The condition is excluded ("not …")', resolve: (c) => c.negated }),
    value: t.field({ type: SegmentValue, nullable: true, resolve: (c) => ('value' in c.condition ? (c.condition.value as Scalar) : null) }),
    values: t.stringList({ nullable: true, description: 'For in / not_in', resolve: (c) => ('values' in c.condition ? [...c.condition.values] : null) }),
    from: t.field({ type: SegmentValue, nullable: true, resolve: (c) => ('from' in c.condition ? (c.condition.from as Scalar) : null) }),
    to: t.field({ type: SegmentValue, nullable: true, resolve: (c) => ('to' in c.condition ? (c.condition.to as Scalar) : null) }),
    label: t.string({ description: 'The condition in words, e.g. "lifetime value over $5,000"', resolve: (c, _a, ctx) => explainCondition(c.condition, explainOpts(ctx), c.negated) }),
    countries: t.stringList({
      nullable: true,
      description: 'For a region condition: the countries it covers',
      resolve: (c) => {
        if (c.condition.field !== 'region') return null;
        const regions = 'values' in c.condition ? c.condition.values : [c.condition.value];
        return regions.flatMap((r) => regionCountries(r));
      },
    }),
  }),
});

const SegmentClause = builder.objectRef<ClauseCondition[]>('SegmentClause').implement({
  description: 'Conditions of which at least one must hold (one condition in the common case)',
  fields: (t) => ({ anyOf: t.field({ type: [SegmentCondition], resolve: (c) => c }) }),
});

const SegmentSort = builder.simpleObject('SegmentSort', {
  fields: (t) => ({ field: t.field({ type: SortFieldEnum }), direction: t.field({ type: SortDirectionEnum }) }),
});

export interface Understood {
  segment: Segment;
  unrecognized: string[];
}

export const SegmentDefinition = builder.objectRef<Understood>('SegmentDefinition').implement({
  description: 'How a question was understood: every clause must hold',
  fields: (t) => ({
    editable: t.boolean({
      description: 'false for a segment whose shape clauses cannot show (then clauses is empty and explanation says it all)',
      resolve: (u) => toClauses(u.segment) !== null,
    }),
    clauses: t.field({ type: [SegmentClause], resolve: (u) => toClauses(u.segment)?.clauses ?? [] }),
    sort: t.field({ type: SegmentSort, nullable: true, resolve: (u) => u.segment.sort ?? null }),
    limit: t.int({ nullable: true, resolve: (u) => u.segment.limit ?? null }),
    ignoredPhrases: t.stringList({ description: 'Parts of the question that were not understood', resolve: (u) => u.unrecognized }),
    explanation: t.string({ resolve: (u, _a, ctx) => explainSegment(u.segment, explainOpts(ctx)) }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Input

const SegmentDateInput = builder.inputType('SegmentDateInput', {
  fields: (t) => ({
    kind: t.field({ type: DateKindEnum, required: true }),
    date: t.string({ description: 'YYYY-MM-DD (absolute)' }),
    amount: t.int(),
    unit: t.field({ type: DateUnitEnum }),
    direction: t.field({ type: DirectionEnum }),
    offset: t.int(),
  }),
});

const SegmentValueInput = builder.inputType('SegmentValueInput', {
  description: 'Exactly one of text, number, boolean or date',
  fields: (t) => ({ text: t.string(), number: t.float(), boolean: t.boolean(), date: t.field({ type: SegmentDateInput }) }),
});

const SegmentConditionInput = builder.inputType('SegmentConditionInput', {
  fields: (t) => ({
    field: t.field({ type: FieldEnum, required: true }),
    operator: t.field({ type: OperatorEnum, required: true }),
    negated: t.boolean(),
    value: t.field({ type: SegmentValueInput }),
    values: t.stringList(),
    from: t.field({ type: SegmentValueInput }),
    to: t.field({ type: SegmentValueInput }),
  }),
});

const SegmentClauseInput = builder.inputType('SegmentClauseInput', {
  fields: (t) => ({ anyOf: t.field({ type: [SegmentConditionInput], required: true }) }),
});

export const SegmentInput = builder.inputType('SegmentInput', {
  description: 'A segment to run: every clause must hold',
  fields: (t) => ({
    clauses: t.field({ type: [SegmentClauseInput], required: true }),
    sort: t.field({
      type: builder.inputType('SegmentSortInput', {
        fields: (f) => ({ field: f.field({ type: SortFieldEnum, required: true }), direction: f.field({ type: SortDirectionEnum, required: true }) }),
      }),
    }),
    limit: t.int({ description: '1 to 10,000' }),
  }),
});

/** The AST of an edited segment (validated like a parsed one; BAD_USER_INPUT otherwise). */
export function segmentFromInput(input: typeof SegmentInput.$inferInput): Segment {
  return fromClauses({
    clauses: input.clauses.map((c) => c.anyOf as ChipInput[]),
    sort: input.sort ?? null,
    limit: input.limit ?? null,
  });
}

// ---------------------------------------------------------------------------------------------
// The field catalogue

export const SegmentFieldInfo = builder.objectRef<(typeof FIELD_CATALOG)[number]>('SegmentFieldInfo').implement({
  fields: (t) => ({
    field: t.field({ type: FieldEnum, resolve: (f) => f.field }),
    label: t.exposeString('label'),
    kind: t.field({ type: FieldKindEnum, resolve: (f) => f.kind }),
    operators: t.field({ type: [OperatorEnum], resolve: (f) => [...f.operators] }),
    options: t.stringList({ nullable: true, description: 'The allowed values (lifecycle stages, regions)', resolve: (f) => (f.options ? [...f.options] : null) }),
    example: t.exposeString('example', { description: 'A question that uses the field' }),
  }),
});

builder.queryField('segmentFields', (t) =>
  t.field({
    type: [SegmentFieldInfo],
    description: 'The fields a segment condition can use, with their operators and an example each',
    resolve: () => [...FIELD_CATALOG],
  }),
);
