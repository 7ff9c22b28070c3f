/**
 * A segment compiled for Pipedrive: the conditions Pipedrive's filter definitions can carry, as the lines
 * of one people filter (an AND group and an OR group — the only shape Pipedrive accepts — of at most 16
 * lines), and what the product must evaluate itself (the plan's residual).
 *
 * A filter line may only approximate a condition from above (the filter returns a superset): dates
 * compare as calendar days in the company's time zone, a person may hold several e-mail addresses or
 * labels, purchases are the person's won deals (the filter can say "has won deals", the sums and dates
 * come from the deals). Such conditions are still the CRM's part: the connector reads the filter's
 * persons and their won deals (a second, deals filter) and checks every native condition on them
 * (`native.check`) — a two-step query. What no filter line can narrow at all (a second OR group, a
 * negated comparison, a region of more countries than lines are left) is the residual.
 *
 * Lines name fields by their field-map reference (`first_name`, `postal_address.country`, `org.name`,
 * `label_ids`, a custom field's key) and stages by their label; the connector resolves them to the
 * company's field ids and option ids when it runs the plan (fields.ts), so compiling sends no request.
 */
import { isAnd, isNot, isOr, type Condition, type Segment, type SegmentNode, type SegmentSort } from '../../segmentation/ast.js';
import { expandPlaceValue, regionCountryValues } from '../../segmentation/regions.js';
import { resolveContext, resolveDateExpr, type ResolveContext } from '../../segmentation/resolve.js';
import { nameSplits } from '../../segmentation/evaluate.js';
import type { CompileContext } from '../connector.js';
import { crmValuesOf, type FieldMap } from '../field-map.js';
import { LIFECYCLE_HUBSPOT_VALUES, type LifecycleValue } from '../hubspot/model/index.js';
import type { SegmentPlan } from '../plan.js';
import { FILTER_LIMITS, OPERATORS, type FilterOperator } from './model/index.js';
import { isDerivedPurchaseRef, isMultiValuedRef, WON_DEALS_COUNT } from './field-map.js';

/** One filter line before the company's field ids are known. */
export interface PdLine {
  /** the field-map reference of the field (see field-map.ts) */
  ref: string;
  op: FilterOperator;
  /** the compared value (text or number, as a string); for `stage` lines the CRM value (a label, lower-cased) */
  value?: string;
  /** a date line: the instant, turned into a calendar day in the company's time zone when the plan runs */
  instant?: number;
  /** the value names an option of the field by its label */
  option?: true;
}

export interface PipedriveNative {
  /** the people filter: every `and` line, and at least one `or` line when there are any */
  filter: { and: PdLine[]; or: PdLine[] };
  /**
   * The native conditions, checked with the product's semantics on every person the filter returns
   * (exactly what the lines only approximate; and, for the rest, a guard against undocumented
   * differences of Pipedrive's matching). A `never` plan has none.
   */
  check?: SegmentNode;
  /** the native part matches nobody (e.g. a stage no label means): no request is needed */
  never?: true;
  /** order and cap (only when the plan has no residual: the product orders and caps otherwise) */
  sort?: SegmentSort;
  limit?: number;
  /** what `check`'s relative dates resolve against */
  now: string;
  timeZone: string;
}

export type PipedrivePlan = SegmentPlan<PipedriveNative>;

/** A condition (or node) as filter lines: ANDed, or ORed; `exact` when the lines mean exactly the node. */
interface Lines {
  kind: 'and' | 'or';
  lines: PdLine[];
  exact: boolean;
}

const { eq, neq, lt, lte, gt, gte, isNull, isNotNull, contains, notContains } = OPERATORS;
const lower = (s: string) => s.toLowerCase();
const unique = (xs: string[]) => [...new Set(xs.map(lower))];

function one(line: PdLine, exact: boolean): Lines {
  return { kind: 'and', lines: [line], exact };
}

/** The compiler for one connection's field map. */
export function compilePipedrivePlan(segment: Segment, ctx: CompileContext, map: FieldMap): PipedrivePlan {
  const rctx = resolveContext({ now: ctx.now, timeZone: ctx.timeZone });
  const conjuncts = segment.where ? conjunctsOf(nnf(segment.where, false)) : [];
  const and: PdLine[] = [];
  let or: PdLine[] = [];
  const check: SegmentNode[] = [];
  const residual: SegmentNode[] = [];
  let never = false;
  const ors: { node: SegmentNode; tx: Lines }[] = [];
  const supersets: { node: SegmentNode; tx: Lines }[] = [];
  const exacts: { node: SegmentNode; tx: Lines }[] = [];

  for (const node of conjuncts) {
    const tx = translate(node, map, rctx);
    if (tx === 'never') {
      never = true;
      continue;
    }
    if (!tx) {
      residual.push(node);
      continue;
    }
    if (tx.kind === 'or' && tx.lines.length > 1) {
      ors.push({ node, tx });
      continue;
    }
    and.push(...tx.lines);
    (tx.exact ? exacts : supersets).push({ node, tx });
  }
  // One OR group: the shortest multi-line OR conjunct gets it; the others are the product's.
  ors.sort((a, b) => a.tx.lines.length - b.tx.lines.length);
  for (const [i, { node, tx }] of ors.entries()) {
    if (i === 0 && and.length + tx.lines.length <= FILTER_LIMITS.maxConditions) or = tx.lines;
    else residual.push(node);
  }
  // At most 16 lines: approximations give their lines up first, then exact conjuncts (the check
  // decides either way).
  const lineKey = (l: PdLine) => JSON.stringify(l);
  const size = () => new Set(and.map(lineKey)).size + or.length;
  const drop = (lines: PdLine[]) => lines.forEach((l) => and.splice(and.indexOf(l), 1));
  for (const s of [...supersets.reverse(), ...exacts.reverse()]) {
    if (size() <= FILTER_LIMITS.maxConditions) break;
    drop(s.tx.lines);
  }
  // The check is every native conjunct: the filter narrows, the connector decides with the product's
  // own semantics (so Pipedrive's collation or blank handling, where undocumented, cannot widen or
  // narrow an answer the lines mean exactly).
  check.push(...conjuncts.filter((n) => !residual.includes(n)));
  const distinct = [...new Map(and.map((l) => [lineKey(l), l])).values()];

  const nowIso = ctx.now.toISOString();
  const native: PipedriveNative = { filter: { and: distinct, or }, now: nowIso, timeZone: ctx.timeZone };
  if (never) native.never = true;
  if (check.length) native.check = check.length === 1 ? check[0] : { and: check };
  if (residual.length === 0) {
    if (segment.sort) native.sort = segment.sort;
    if (segment.limit !== undefined) native.limit = segment.limit;
    return { crmType: 'pipedrive', native };
  }
  return {
    crmType: 'pipedrive',
    native,
    residual: residual.length === 1 ? residual[0] : { and: residual },
    ...(segment.sort ? { sort: segment.sort } : {}),
    ...(segment.limit !== undefined ? { limit: segment.limit } : {}),
    compiledAt: nowIso,
  };
}

// ---------------------------------------------------------------------------------------------------
// Normal form: NOT pushed down to the conditions (flipped where the AST has the complement).

function negateCondition(c: Condition): SegmentNode {
  const flip: Record<string, string> = { eq: 'neq', neq: 'eq', in: 'not_in', not_in: 'in', contains: 'not_contains', not_contains: 'contains', is_set: 'is_not_set', is_not_set: 'is_set' };
  if (c.field === 'hasPurchased') return { ...c, value: !c.value };
  if (c.field === 'name') return { not: c };
  const op = flip[c.op];
  if (!op) return { not: c };
  // Number and date fields have no negated comparisons: only eq/neq and is_set flip.
  return { ...c, op } as Condition;
}

function nnf(node: SegmentNode, negated: boolean): SegmentNode {
  if (isAnd(node)) return negated ? { or: node.and.map((n) => nnf(n, true)) } : { and: node.and.map((n) => nnf(n, false)) };
  if (isOr(node)) return negated ? { and: node.or.map((n) => nnf(n, true)) } : { or: node.or.map((n) => nnf(n, false)) };
  if (isNot(node)) return nnf(node.not, !negated);
  return negated ? negateCondition(node) : node;
}

function conjunctsOf(node: SegmentNode): SegmentNode[] {
  return isAnd(node) ? node.and.flatMap(conjunctsOf) : [node];
}

// ---------------------------------------------------------------------------------------------------
// Translation

function translate(node: SegmentNode, map: FieldMap, rctx: ResolveContext): Lines | 'never' | null {
  if (isNot(node)) return null;
  if (isAnd(node)) {
    const parts = node.and.map((n) => translate(n, map, rctx));
    if (parts.includes('never')) return 'never';
    const lines: PdLine[] = [];
    let exact = true;
    for (const p of parts as (Lines | null)[]) {
      if (!p || (p.kind === 'or' && p.lines.length > 1)) exact = false;
      else {
        lines.push(...p.lines);
        exact &&= p.exact;
      }
    }
    return lines.length ? { kind: 'and', lines, exact } : null;
  }
  if (isOr(node)) {
    const parts = node.or.map((n) => translate(n, map, rctx)).filter((p) => p !== 'never');
    if (parts.length === 0) return 'never';
    if (parts.some((p) => p === null)) return null;
    const lines: PdLine[] = [];
    let exact = true;
    for (const p of parts as Lines[]) {
      if (p.kind === 'and' && p.lines.length > 1) {
        lines.push(p.lines[0]); // A ∧ B ⟹ A
        exact = false;
      } else {
        lines.push(...p.lines);
        exact &&= p.exact;
      }
    }
    return { kind: 'or', lines, exact };
  }
  return translateCondition(node, map, rctx);
}

function textLines(ref: string, c: Extract<Condition, { field: 'firstName' | 'lastName' | 'email' | 'company' | 'city' | 'state' | 'country' }>): Lines | null {
  const multi = isMultiValuedRef(ref);
  const place = c.field === 'city' || c.field === 'state' || c.field === 'country' ? c.field : null;
  const expand = (v: string) => (place ? expandPlaceValue(place, v) : [v]);
  switch (c.op) {
    case 'eq':
    case 'in': {
      const values = unique(('values' in c ? c.values : [c.value]).flatMap(expand));
      return { kind: values.length === 1 ? 'and' : 'or', lines: values.map((v) => ({ ref, op: eq, value: v })), exact: !multi };
    }
    case 'neq':
    case 'not_in': {
      // "not X" also holds for a blank field, which Pipedrive's != does not match: OR IS NULL.
      const values = unique(('values' in c ? c.values : [c.value]).flatMap(expand));
      if (multi || values.length !== 1) return null;
      return { kind: 'or', lines: [{ ref, op: neq, value: values[0] }, { ref, op: isNull }], exact: true };
    }
    case 'contains':
      return one({ ref, op: contains, value: lower(c.value) }, !multi);
    case 'not_contains':
      return multi ? null : { kind: 'or', lines: [{ ref, op: notContains, value: lower(c.value) }, { ref, op: isNull }], exact: true };
    case 'is_set':
      return one({ ref, op: isNotNull }, true);
    case 'is_not_set':
      return one({ ref, op: isNull }, true);
  }
}

/** A date condition as calendar-day lines (a superset: the day is resolved in the company's time zone). */
function dateLines(ref: string, c: Extract<Condition, { field: 'lastPurchaseDate' | 'createdAt' }>, rctx: ResolveContext): Lines {
  switch (c.op) {
    case 'is_set':
      return one({ ref, op: isNotNull }, true);
    case 'is_not_set':
      return one({ ref, op: isNull }, true);
    case 'between':
      return {
        kind: 'and',
        lines: [{ ref, op: gte, instant: resolveDateExpr(c.from, rctx) }, { ref, op: lte, instant: resolveDateExpr(c.to, rctx) }],
        exact: false,
      };
    default: {
      const instant = resolveDateExpr(c.value, rctx);
      return one({ ref, op: c.op === 'gt' || c.op === 'gte' ? gte : lte, instant }, false);
    }
  }
}

function numberLines(ref: string, c: Extract<Condition, { field: 'lastPurchaseAmount' | 'lifetimeValue' }>): Lines {
  switch (c.op) {
    case 'is_set':
      return one({ ref, op: isNotNull }, true);
    case 'is_not_set':
      return one({ ref, op: isNull }, true);
    case 'between':
      return { kind: 'and', lines: [{ ref, op: gte, value: String(c.from) }, { ref, op: lte, value: String(c.to) }], exact: true };
    case 'neq':
      return { kind: 'or', lines: [{ ref, op: neq, value: String(c.value) }, { ref, op: isNull }], exact: true };
    default: {
      const op = { eq, lt, lte, gt, gte }[c.op];
      return one({ ref, op, value: String(c.value) }, true);
    }
  }
}

const HAS_WON_DEALS: PdLine = { ref: WON_DEALS_COUNT, op: gt, value: '0' };
const NO_WON_DEALS: PdLine = { ref: WON_DEALS_COUNT, op: eq, value: '0' };

/** A purchase condition on derived values (the won deals): the filter can only say "has won deals". */
function purchaseLines(c: { op: string }): Lines | null {
  if (c.op === 'is_not_set') return one(NO_WON_DEALS, true);
  if (c.op === 'is_set') return one(HAS_WON_DEALS, true);
  if (c.op === 'neq') return null;
  return one(HAS_WON_DEALS, false);
}

function stageLines(ref: string, detailed: readonly LifecycleValue[], map: FieldMap): Lines | 'never' {
  const values = crmValuesOf(map, detailed);
  if (values.length === 0) return 'never';
  // A person may carry several labels: the filter finds everyone holding one of them, the check keeps
  // those whose stage (the most advanced mapped label) is the one asked for.
  return { kind: values.length === 1 ? 'and' : 'or', lines: values.map((v) => ({ ref, op: eq, value: v, option: true })), exact: false };
}

function translateCondition(c: Condition, map: FieldMap, rctx: ResolveContext): Lines | 'never' | null {
  const f = map.fields;
  switch (c.field) {
    case 'firstName': case 'lastName': case 'email': case 'company': case 'city': case 'state': case 'country':
      return textLines(f[c.field], c);
    case 'createdAt':
      return dateLines(f.createdAt, c, rctx);
    case 'lastPurchaseDate':
      return isDerivedPurchaseRef(f.lastPurchaseDate) ? purchaseLines(c) : dateLines(f.lastPurchaseDate, c, rctx);
    case 'lastPurchaseAmount': case 'lifetimeValue':
      return isDerivedPurchaseRef(f[c.field]) ? purchaseLines(c) : numberLines(f[c.field], c);
    case 'hasPurchased': {
      if (isDerivedPurchaseRef(f.lastPurchaseDate)) return one(c.value ? HAS_WON_DEALS : NO_WON_DEALS, true);
      return one({ ref: f.lastPurchaseDate, op: c.value ? isNotNull : isNull }, true);
    }
    case 'lifecycleStage': {
      if (c.op === 'neq' || c.op === 'not_in') return null;
      const stages = 'values' in c ? c.values : [c.value];
      if (stages.includes('unknown')) return null;
      return stageLines(f.lifecycleStage, stages.flatMap((s) => LIFECYCLE_HUBSPOT_VALUES[s as Exclude<typeof s, 'unknown'>]), map);
    }
    case 'hubspotStage': {
      if (c.op === 'neq' || c.op === 'not_in') return null;
      return stageLines(f.lifecycleStage, 'values' in c ? c.values : [c.value], map);
    }
    case 'region': {
      if (c.op === 'neq' || c.op === 'not_in') return null;
      const countries = unique(('values' in c ? c.values : [c.value]).flatMap(regionCountryValues));
      if (countries.length > FILTER_LIMITS.maxConditions) return null;
      return { kind: countries.length === 1 ? 'and' : 'or', lines: countries.map((v) => ({ ref: f.country, op: eq, value: v })), exact: !isMultiValuedRef(f.country) };
    }
    case 'emailDomain': {
      if (c.op === 'neq' || c.op === 'not_in') return null;
      // "contains @acme.com" finds every address ending so (and a few more, which the check drops).
      const domains = unique('values' in c ? c.values : [c.value]);
      const lines = domains.map((d) => ({ ref: f.email, op: contains, value: d.startsWith('.') ? d : `@${d}` }));
      return { kind: lines.length === 1 ? 'and' : 'or', lines, exact: false };
    }
    case 'name': {
      if (c.op === 'contains') {
        const v = lower(c.value);
        return { kind: 'or', lines: [{ ref: f.firstName, op: contains, value: v }, { ref: f.lastName, op: contains, value: v }], exact: true };
      }
      // first = v, last = v, or a split "first last": the first name is one of the splits' first parts.
      const v = lower(c.value);
      const firsts = unique([v, ...nameSplits(c.value).map(([a]) => a)]);
      return { kind: 'or', lines: [...firsts.map((x) => ({ ref: f.firstName, op: eq, value: x })), { ref: f.lastName, op: eq, value: v }], exact: false };
    }
  }
}
