/**
 * Segment → the imported-contacts query: a small predicate tree over the typed columns of
 * `imported_contacts`, with every value the segment names already resolved (dates against `now` in the
 * time zone, places to their spelling variants, regions to country lists, lifecycle stages to the
 * stored stages, text lower-cased as the segment semantics fold case). It is data, not SQL: the plan is
 * stored as JSON with a query or a Smart Segment, and sql.ts turns it into one parameterized statement
 * over a fixed set of columns when it runs, so nothing stored is ever executed as text.
 *
 * The semantics are the record evaluator's (segmentation/evaluate.ts, ast.ts header), which the HubSpot
 * compiler matches: a positive condition is false for a contact without the value, the negations are its
 * exact complements, `between` is inclusive for amounts and half-open for dates.
 */
import { z } from 'zod';
import { LIFECYCLE_STAGES, LIFECYCLE_VALUES, type LifecycleStage, type LifecycleValue } from '../hubspot/model/index.js';
import { DATE_FIELDS, NUMBER_FIELDS, SORT_FIELDS, STRING_FIELDS, isAnd, isNot, isOr, segmentSchema } from '../../segmentation/ast.js';
import type { Condition, Segment, SegmentNode, SegmentSort } from '../../segmentation/ast.js';
import { SegmentationError } from '../../segmentation/errors.js';
import { nameSplits } from '../../segmentation/evaluate.js';
import { expandPlaceValue, regionCountryValues } from '../../segmentation/regions.js';
import { resolveContext, resolveDateExpr, type ResolveContext } from '../../segmentation/resolve.js';

/** Which part of a stored plan says it is ours (plans of other CRMs are refused, not misread). */
export const IMPORTED_QUERY_KIND = 'imported-contacts' as const;

const textField = z.enum(STRING_FIELDS);
const numberField = z.enum(NUMBER_FIELDS);
const dateField = z.enum(DATE_FIELDS);
const finite = z.number().finite();

export type Pred =
  | { p: 'true' }
  | { p: 'false' }
  | { p: 'and'; of: Pred[] }
  | { p: 'or'; of: Pred[] }
  | { p: 'not'; of: Pred }
  /** the field's lower-cased value is one of `values` (already lower-cased) */
  | { p: 'text_in'; field: z.infer<typeof textField>; values: string[] }
  /** the field's lower-cased value contains `value` (lower-cased) */
  | { p: 'text_contains'; field: z.infer<typeof textField>; value: string }
  | { p: 'is_set'; field: z.infer<typeof textField> | z.infer<typeof numberField> | z.infer<typeof dateField> }
  | { p: 'num'; field: z.infer<typeof numberField>; op: 'eq' | 'lt' | 'lte' | 'gt' | 'gte'; value: number }
  | { p: 'num_between'; field: z.infer<typeof numberField>; from: number; to: number }
  /** instants as epoch ms */
  | { p: 'date'; field: z.infer<typeof dateField>; op: 'lt' | 'lte' | 'gt' | 'gte'; value: number }
  /** from <= x < to */
  | { p: 'date_range'; field: z.infer<typeof dateField>; from: number; to: number }
  | { p: 'stage_in'; values: LifecycleStage[] }
  | { p: 'detailed_stage_in'; values: LifecycleValue[] }
  /** the lower-cased e-mail ends in "@<domain>", or for ".edu" its part after an "@" ends in ".edu" */
  | { p: 'email_domain'; domains: string[] };

const predSchema: z.ZodType<Pred> = z.lazy(() =>
  z.union([
    z.strictObject({ p: z.literal('true') }),
    z.strictObject({ p: z.literal('false') }),
    z.strictObject({ p: z.literal('and'), of: z.array(predSchema) }),
    z.strictObject({ p: z.literal('or'), of: z.array(predSchema) }),
    z.strictObject({ p: z.literal('not'), of: predSchema }),
    z.strictObject({ p: z.literal('text_in'), field: textField, values: z.array(z.string()) }),
    z.strictObject({ p: z.literal('text_contains'), field: textField, value: z.string() }),
    z.strictObject({ p: z.literal('is_set'), field: z.union([textField, numberField, dateField]) }),
    z.strictObject({ p: z.literal('num'), field: numberField, op: z.enum(['eq', 'lt', 'lte', 'gt', 'gte']), value: finite }),
    z.strictObject({ p: z.literal('num_between'), field: numberField, from: finite, to: finite }),
    z.strictObject({ p: z.literal('date'), field: dateField, op: z.enum(['lt', 'lte', 'gt', 'gte']), value: finite }),
    z.strictObject({ p: z.literal('date_range'), field: dateField, from: finite, to: finite }),
    z.strictObject({ p: z.literal('stage_in'), values: z.array(z.enum(LIFECYCLE_STAGES)) }),
    z.strictObject({ p: z.literal('detailed_stage_in'), values: z.array(z.enum(LIFECYCLE_VALUES as [LifecycleValue, ...LifecycleValue[]])) }),
    z.strictObject({ p: z.literal('email_domain'), domains: z.array(z.string().regex(/^\.?[a-z0-9-]+(\.[a-z0-9-]+)*$/)) }),
  ]),
);

export const importedQuerySchema = z.strictObject({
  kind: z.literal(IMPORTED_QUERY_KIND),
  where: predSchema,
  sort: z.strictObject({ field: z.enum(SORT_FIELDS), direction: z.enum(['asc', 'desc']) }).optional(),
  limit: z.number().int().min(1).max(10_000).optional(),
});
export type ImportedQuery = z.infer<typeof importedQuerySchema>;

const TRUE: Pred = { p: 'true' };
const FALSE: Pred = { p: 'false' };

/** Case-insensitive de-duplication, lower-cased (the stored keys are lower-cased the same way). */
function keys(values: string[]): string[] {
  return [...new Set(values.map((v) => v.toLowerCase()))];
}

function textIn(field: z.infer<typeof textField>, values: string[]): Pred {
  return values.length ? { p: 'text_in', field, values: keys(values) } : FALSE;
}

const not = (of: Pred): Pred => (of.p === 'true' ? FALSE : of.p === 'false' ? TRUE : { p: 'not', of });
const positive = (op: string) => op === 'eq' || op === 'in';

function conditionPred(cond: Condition, ctx: ResolveContext): Pred {
  switch (cond.field) {
    case 'firstName': case 'lastName': case 'email': case 'company': case 'city': case 'state': case 'country': {
      const field = cond.field;
      const expand = (v: string): string[] => (field === 'country' || field === 'state' || field === 'city' ? expandPlaceValue(field, v) : [v]);
      switch (cond.op) {
        case 'eq': case 'neq': case 'in': case 'not_in': {
          const f = textIn(field, ('values' in cond ? cond.values : [cond.value]).flatMap(expand));
          return positive(cond.op) ? f : not(f);
        }
        case 'contains': return { p: 'text_contains', field, value: cond.value.toLowerCase() };
        case 'not_contains': return not({ p: 'text_contains', field, value: cond.value.toLowerCase() });
        case 'is_set': return { p: 'is_set', field };
        case 'is_not_set': return not({ p: 'is_set', field });
      }
      break;
    }
    case 'lastPurchaseAmount': case 'lifetimeValue': {
      const field = cond.field;
      switch (cond.op) {
        case 'is_set': return { p: 'is_set', field };
        case 'is_not_set': return not({ p: 'is_set', field });
        case 'between': return { p: 'num_between', field, from: cond.from, to: cond.to };
        case 'neq': return not({ p: 'num', field, op: 'eq', value: cond.value });
        default: return { p: 'num', field, op: cond.op, value: cond.value };
      }
    }
    case 'lastPurchaseDate': case 'createdAt': {
      const field = cond.field;
      switch (cond.op) {
        case 'is_set': return { p: 'is_set', field };
        case 'is_not_set': return not({ p: 'is_set', field });
        case 'between': {
          const from = resolveDateExpr(cond.from, ctx);
          const to = resolveDateExpr(cond.to, ctx);
          return to <= from ? FALSE : { p: 'date_range', field, from, to };
        }
        default: return { p: 'date', field, op: cond.op, value: resolveDateExpr(cond.value, ctx) };
      }
    }
    case 'lifecycleStage': {
      // every contact has exactly one product stage ("unknown" included): a set of stages either way
      const listed = new Set<LifecycleStage>('values' in cond ? cond.values : [cond.value]);
      const wanted = LIFECYCLE_STAGES.filter((s) => listed.has(s) === positive(cond.op));
      return wanted.length === 0 ? FALSE : wanted.length === LIFECYCLE_STAGES.length ? TRUE : { p: 'stage_in', values: wanted };
    }
    case 'hubspotStage': {
      const f: Pred = { p: 'detailed_stage_in', values: [...new Set('values' in cond ? cond.values : [cond.value])] };
      return positive(cond.op) ? f : not(f);
    }
    case 'region': {
      const regions = 'values' in cond ? cond.values : [cond.value];
      const f = textIn('country', regions.flatMap(regionCountryValues));
      return positive(cond.op) ? f : not(f);
    }
    case 'emailDomain': {
      const f: Pred = { p: 'email_domain', domains: keys('values' in cond ? cond.values : [cond.value]) };
      return positive(cond.op) ? f : not(f);
    }
    case 'name': {
      if (cond.op === 'contains') {
        const value = cond.value.toLowerCase();
        return { p: 'or', of: [{ p: 'text_contains', field: 'firstName', value }, { p: 'text_contains', field: 'lastName', value }] };
      }
      return {
        p: 'or',
        of: [
          textIn('firstName', [cond.value]),
          textIn('lastName', [cond.value]),
          ...nameSplits(cond.value).map(([a, b]): Pred => ({ p: 'and', of: [textIn('firstName', [a]), textIn('lastName', [b])] })),
        ],
      };
    }
    case 'hasPurchased': {
      const has: Pred = { p: 'is_set', field: 'lastPurchaseDate' };
      return cond.value ? has : not(has);
    }
  }
  throw new SegmentationError('INVALID_SEGMENT', `Unsupported condition ${JSON.stringify(cond)}`);
}

function nodePred(node: SegmentNode, ctx: ResolveContext): Pred {
  if (isAnd(node)) {
    const of = node.and.map((n) => nodePred(n, ctx)).filter((x) => x.p !== 'true');
    return of.some((x) => x.p === 'false') ? FALSE : of.length === 0 ? TRUE : of.length === 1 ? of[0] : { p: 'and', of };
  }
  if (isOr(node)) {
    const of = node.or.map((n) => nodePred(n, ctx)).filter((x) => x.p !== 'false');
    return of.some((x) => x.p === 'true') ? TRUE : of.length === 0 ? FALSE : of.length === 1 ? of[0] : { p: 'or', of };
  }
  if (isNot(node)) return not(nodePred(node.not, ctx));
  return conditionPred(node, ctx);
}

/** Compiles a whole segment (every condition is native here): filter, order and cap. */
export function compileImportedQuery(segment: Segment, opts: { now: Date; timeZone: string }): ImportedQuery {
  const parsed = segmentSchema.safeParse(segment);
  if (!parsed.success) {
    throw new SegmentationError('INVALID_SEGMENT', `The segment definition is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const seg = parsed.data;
  const ctx = resolveContext({ now: opts.now, timeZone: opts.timeZone });
  return {
    kind: IMPORTED_QUERY_KIND,
    where: seg.where ? nodePred(seg.where, ctx) : TRUE,
    ...(seg.sort ? { sort: seg.sort as SegmentSort } : {}),
    ...(seg.limit !== undefined ? { limit: seg.limit } : {}),
  };
}
