/**
 * The segment definition: a versioned, JSON-serialisable boolean tree of conditions over customer fields.
 *
 * ```jsonc
 * {
 *   "version": 1,
 *   "where": { "and": [                                      // optional; absent = every contact
 *     { "field": "region", "op": "eq", "value": "Europe" },
 *     { "field": "lastPurchaseDate", "op": "gte",
 *       "value": { "kind": "relative", "amount": 30, "unit": "day", "direction": "past" } },
 *     { "field": "lifetimeValue", "op": "gt", "value": 5000 },
 *     { "not": { "field": "lifecycleStage", "op": "in", "values": ["lead", "subscriber"] } }
 *   ] },
 *   "sort": { "field": "lifetimeValue", "direction": "desc" },  // optional
 *   "limit": 20                                                  // optional
 * }
 * ```
 *
 * Semantics (shared by the in-memory evaluator and the HubSpot compiler):
 * - A positive condition (eq, in, contains, lt, lte, gt, gte, between, is_set) is false when the contact
 *   does not have the property. `neq`, `not_in`, `not_contains` and `is_not_set` are the exact logical
 *   complements of `eq`, `in`, `contains` and `is_set` (so they match contacts without the property).
 *   `not` is logical complement.
 * - Text compares are case-insensitive; `contains` is a case-insensitive substring test.
 * - `lifecycleStage` is the product stage derived from HubSpot's `lifecyclestage` (the HubSpot model's lifecycle.ts);
 *   every contact has exactly one stage (missing or unmapped -> "unknown").
 * - `hubspotStage` is HubSpot's own `lifecyclestage` option (marketingqualifiedlead, salesqualifiedlead,
 *   evangelist, other, …), for questions that name a sub-stage ("MQLs"); a contact whose value names
 *   no option has none (so a positive test is false and `neq` / `not_in` are true).
 * - `region` tests `country` against the region's country list (regions.ts); `country`, `state` and
 *   `city` values also match their known spelling variants (e.g. "United States" ~ "USA").
 * - `emailDomain` "acme.com" matches emails ending in "@acme.com"; a value starting with a dot (".edu")
 *   matches emails ending in that suffix.
 * - `name` eq "Ann Lee" matches firstName = value, lastName = value, or a first/last split of the value
 *   at a space; `name` contains matches firstName or lastName containing the value.
 * - `hasPurchased` true <=> lastPurchaseDate is set.
 * - Numbers: `between` is inclusive on both ends. Dates: values are instants (an absolute date is the
 *   start of that day in the query's time zone); `between` is from <= x < to (half-open) so that
 *   "in March" is { from: Mar 1, to: Apr 1 }.
 * - Dates are resolved against an injected `now` and IANA time zone (resolve.ts); weeks start Monday.
 */
import { z } from 'zod';
import { LIFECYCLE_STAGES, LIFECYCLE_VALUES, type LifecycleStage, type LifecycleValue } from '../crm/hubspot/model/index.js';
import { REGIONS, type Region } from './regions.js';

export const SEGMENT_VERSION = 1 as const;

/** The product's lifecycle stages come with HubSpot's mapping to them (the HubSpot model). */
export { LIFECYCLE_STAGES, LIFECYCLE_VALUES, type LifecycleStage, type LifecycleValue };

export const STRING_FIELDS = ['firstName', 'lastName', 'email', 'company', 'city', 'state', 'country'] as const;
export const NUMBER_FIELDS = ['lastPurchaseAmount', 'lifetimeValue'] as const;
export const DATE_FIELDS = ['lastPurchaseDate', 'createdAt'] as const;
export const SORT_FIELDS = [
  'lifetimeValue', 'lastPurchaseAmount', 'lastPurchaseDate', 'createdAt',
  'firstName', 'lastName', 'company', 'email', 'city', 'state', 'country',
] as const;
export const DATE_UNITS = ['day', 'week', 'month', 'quarter', 'year'] as const;

export type StringField = (typeof STRING_FIELDS)[number];
export type NumberField = (typeof NUMBER_FIELDS)[number];
export type DateField = (typeof DATE_FIELDS)[number];
export type SortField = (typeof SORT_FIELDS)[number];
export type DateUnit = (typeof DATE_UNITS)[number];
export type { Region };

// ---------------------------------------------------------------------------------------------------
// Dates

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a calendar date YYYY-MM-DD')
  .refine((s) => {
    const [y, m, d] = s.split('-').map(Number);
    const dt = new Date(Date.UTC(y, m - 1, d));
    return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
  }, 'not a valid calendar date');

export const dateExprSchema = z.discriminatedUnion('kind', [
  /** Start of the given calendar day in the query's time zone. */
  z.strictObject({ kind: z.literal('absolute'), date: isoDate }),
  /** `now` moved by `amount` units into the past or future (calendar arithmetic in the time zone). */
  z.strictObject({
    kind: z.literal('relative'),
    amount: z.number().int().min(0).max(10_000),
    unit: z.enum(DATE_UNITS),
    direction: z.enum(['past', 'future']),
  }),
  /** Start of the current `unit` (day, week, month, quarter, year), shifted by `offset` units. */
  z.strictObject({ kind: z.literal('anchor'), unit: z.enum(DATE_UNITS), offset: z.number().int().min(-1000).max(1000) }),
  z.strictObject({ kind: z.literal('now') }),
]);
export type DateExpr = z.infer<typeof dateExprSchema>;

// ---------------------------------------------------------------------------------------------------
// Conditions

const text = z.string().trim().min(1).max(200);
const noWildcard = text.refine((s) => !s.includes('*'), 'must not contain "*"');
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^\.?[a-z0-9-]+(\.[a-z0-9-]+)*$/, 'expected a domain such as "acme.com" or a suffix such as ".edu"');
const money = z.number().finite();

const stringField = z.enum(STRING_FIELDS);
const numberField = z.enum(NUMBER_FIELDS);
const dateField = z.enum(DATE_FIELDS);
const region = z.enum(REGIONS);
const stage = z.enum(LIFECYCLE_STAGES);
const hubspotStage = z.enum(LIFECYCLE_VALUES as [LifecycleValue, ...LifecycleValue[]]);

export const conditionSchema = z.union([
  // text fields
  z.strictObject({ field: stringField, op: z.enum(['eq', 'neq']), value: text }),
  z.strictObject({ field: stringField, op: z.enum(['contains', 'not_contains']), value: noWildcard }),
  z.strictObject({ field: stringField, op: z.enum(['in', 'not_in']), values: z.array(text).min(1).max(200) }),
  z.strictObject({ field: stringField, op: z.enum(['is_set', 'is_not_set']) }),
  // money
  z.strictObject({ field: numberField, op: z.enum(['eq', 'neq', 'lt', 'lte', 'gt', 'gte']), value: money }),
  z
    .strictObject({ field: numberField, op: z.literal('between'), from: money, to: money })
    .refine((c) => c.from <= c.to, '"from" must not be greater than "to"'),
  z.strictObject({ field: numberField, op: z.enum(['is_set', 'is_not_set']) }),
  // dates
  z.strictObject({ field: dateField, op: z.enum(['lt', 'lte', 'gt', 'gte']), value: dateExprSchema }),
  z.strictObject({ field: dateField, op: z.literal('between'), from: dateExprSchema, to: dateExprSchema }),
  z.strictObject({ field: dateField, op: z.enum(['is_set', 'is_not_set']) }),
  // enumerations and derived fields
  z.strictObject({ field: z.literal('lifecycleStage'), op: z.enum(['eq', 'neq']), value: stage }),
  z.strictObject({ field: z.literal('lifecycleStage'), op: z.enum(['in', 'not_in']), values: z.array(stage).min(1) }),
  z.strictObject({ field: z.literal('hubspotStage'), op: z.enum(['eq', 'neq']), value: hubspotStage }),
  z.strictObject({ field: z.literal('hubspotStage'), op: z.enum(['in', 'not_in']), values: z.array(hubspotStage).min(1) }),
  z.strictObject({ field: z.literal('region'), op: z.enum(['eq', 'neq']), value: region }),
  z.strictObject({ field: z.literal('region'), op: z.enum(['in', 'not_in']), values: z.array(region).min(1) }),
  z.strictObject({ field: z.literal('emailDomain'), op: z.enum(['eq', 'neq']), value: domain }),
  z.strictObject({ field: z.literal('emailDomain'), op: z.enum(['in', 'not_in']), values: z.array(domain).min(1).max(50) }),
  z.strictObject({ field: z.literal('name'), op: z.literal('eq'), value: text }),
  z.strictObject({ field: z.literal('name'), op: z.literal('contains'), value: noWildcard }),
  z.strictObject({ field: z.literal('hasPurchased'), op: z.literal('eq'), value: z.boolean() }),
]);
export type Condition = z.infer<typeof conditionSchema>;

export type SegmentNode = Condition | { and: SegmentNode[] } | { or: SegmentNode[] } | { not: SegmentNode };

export const nodeSchema: z.ZodType<SegmentNode> = z.lazy(() =>
  z.union([
    z.strictObject({ and: z.array(nodeSchema) }),
    z.strictObject({ or: z.array(nodeSchema) }),
    z.strictObject({ not: nodeSchema }),
    conditionSchema,
  ]),
);

export const sortSchema = z.strictObject({ field: z.enum(SORT_FIELDS), direction: z.enum(['asc', 'desc']) });
export type SegmentSort = z.infer<typeof sortSchema>;

export const segmentSchema = z.strictObject({
  version: z.literal(SEGMENT_VERSION),
  where: nodeSchema.optional(),
  sort: sortSchema.optional(),
  limit: z.number().int().min(1).max(10_000).optional(),
});
export type Segment = z.infer<typeof segmentSchema>;

// ---------------------------------------------------------------------------------------------------
// Helpers

export function isAnd(n: SegmentNode): n is { and: SegmentNode[] } {
  return 'and' in n;
}
export function isOr(n: SegmentNode): n is { or: SegmentNode[] } {
  return 'or' in n;
}
export function isNot(n: SegmentNode): n is { not: SegmentNode } {
  return 'not' in n;
}
export function isCondition(n: SegmentNode): n is Condition {
  return 'field' in n;
}

export function isStringField(f: string): f is StringField {
  return (STRING_FIELDS as readonly string[]).includes(f);
}
export function isNumberField(f: string): f is NumberField {
  return (NUMBER_FIELDS as readonly string[]).includes(f);
}
export function isDateField(f: string): f is DateField {
  return (DATE_FIELDS as readonly string[]).includes(f);
}

/** Validates an unknown value (e.g. a stored `queries` row or a model's answer) as a segment. */
export function parseStoredSegment(json: unknown): Segment {
  return segmentSchema.parse(json);
}

export function emptySegment(): Segment {
  return { version: SEGMENT_VERSION };
}
