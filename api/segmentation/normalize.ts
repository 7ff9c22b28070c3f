/**
 * Canonical form of a segment, for comparing two segments that mean the same thing (the evaluation
 * scorer, tests, de-duplicating saved segments). Dates are resolved against now / time zone, so
 * "since Jan 1" and "this year" compare equal on the same day.
 *
 * Rules: neq/not_in/not_contains/is_not_set -> not(positive); on dates gt -> gte and lte -> lt (one instant apart); in with one value -> eq; numeric between ->
 * gte AND lte; date between -> gte AND lt; hasPurchased false -> not(hasPurchased true); lifecycle is a
 * partition, so not(lifecycle in S) -> lifecycle in (all \ S); text values are lower-cased (compares are
 * case-insensitive); and/or are flattened, de-duplicated and sorted; OR of equalities on one field -> in;
 * not(not x) -> x; negations ANDed -> one negated OR (De Morgan); empty and = true, empty or = false; "has purchased" ANDed with a comparison on the last purchase's
 * date or amount is implied by it; date intervals ORed on one field that touch or overlap are one interval.
 */
import type { Condition, Segment, SegmentNode } from './ast.js';
import { LIFECYCLE_STAGES, isAnd, isNot, isOr } from './ast.js';
import { resolveContext, resolveDateExpr, type ResolveContext, type ResolveOptions } from './resolve.js';

/** Canonical node: plain JSON with resolved dates. */
export type CanonicalNode =
  | { t: 'true' }
  | { t: 'false' }
  | { t: 'and'; xs: CanonicalNode[] }
  | { t: 'or'; xs: CanonicalNode[] }
  | { t: 'not'; x: CanonicalNode }
  | { t: 'c'; field: string; op: string; value?: unknown; values?: unknown[] };

export interface CanonicalSegment {
  where: CanonicalNode;
  sort: Segment['sort'] | null;
  limit: number | null;
}

const key = (n: unknown) => JSON.stringify(n);
const TRUE: CanonicalNode = { t: 'true' };
const FALSE: CanonicalNode = { t: 'false' };
const CASE_INSENSITIVE = new Set(['firstName', 'lastName', 'email', 'company', 'city', 'state', 'country', 'emailDomain', 'name']);
const SET_FIELDS = new Set(['firstName', 'lastName', 'email', 'company', 'city', 'state', 'country', 'emailDomain', 'region', 'lifecycleStage', 'hubspotStage']);

function leaf(field: string, op: string, value?: unknown, values?: unknown[]): CanonicalNode {
  const norm = (v: unknown) => (CASE_INSENSITIVE.has(field) && typeof v === 'string' ? v.toLowerCase() : v);
  if (values) {
    const vs = [...new Set(values.map(norm))].sort((a, b) => key(a).localeCompare(key(b)));
    if (vs.length === 1) return { t: 'c', field, op: 'eq', value: vs[0] };
    return { t: 'c', field, op: 'in', values: vs };
  }
  return value === undefined ? { t: 'c', field, op } : { t: 'c', field, op, value: norm(value) };
}

function lifecycle(stages: Iterable<string>): CanonicalNode {
  const set = new Set(stages);
  if (set.size === LIFECYCLE_STAGES.length) return TRUE;
  if (set.size === 0) return FALSE;
  return leaf('lifecycleStage', 'in', undefined, [...set]);
}

function condition(c: Condition, ctx: ResolveContext): CanonicalNode {
  const neg = (x: CanonicalNode): CanonicalNode => ({ t: 'not', x });
  if (c.field === 'lifecycleStage') {
    const listed = new Set<string>('values' in c ? c.values : [c.value]);
    const positive = c.op === 'eq' || c.op === 'in';
    return lifecycle(LIFECYCLE_STAGES.filter((s) => listed.has(s) === positive));
  }
  if (c.field === 'hasPurchased') return c.value ? leaf('hasPurchased', 'eq', true) : neg(leaf('hasPurchased', 'eq', true));
  switch (c.op) {
    case 'eq': case 'contains': return leaf(c.field, c.op, c.value);
    case 'neq': return neg(leaf(c.field, 'eq', c.value));
    case 'not_contains': return neg(leaf(c.field, 'contains', c.value));
    case 'in': return leaf(c.field, 'in', undefined, c.values);
    case 'not_in': return neg(leaf(c.field, 'in', undefined, c.values));
    case 'is_set': return leaf(c.field, 'is_set');
    case 'is_not_set': return neg(leaf(c.field, 'is_set'));
    case 'lt': case 'lte': case 'gt': case 'gte': {
      if (typeof c.value === 'number') return leaf(c.field, c.op, c.value);
      // dates are instants: "after X" and "from X on" differ by one instant only, so they compare as one
      // bound (gt ~ gte, lte ~ lt)
      const op = c.op === 'gt' ? 'gte' : c.op === 'lte' ? 'lt' : c.op;
      return leaf(c.field, op, resolveDateExpr(c.value, ctx));
    }
    case 'between': {
      if (typeof c.from === 'number' && typeof c.to === 'number') return and([leaf(c.field, 'gte', c.from), leaf(c.field, 'lte', c.to)]);
      if (typeof c.from !== 'number' && typeof c.to !== 'number') {
        return and([leaf(c.field, 'gte', resolveDateExpr(c.from, ctx)), leaf(c.field, 'lt', resolveDateExpr(c.to, ctx))]);
      }
    }
  }
  throw new Error(`unexpected condition ${key(c)}`);
}

function and(xs: CanonicalNode[]): CanonicalNode {
  return junction('and', xs);
}

function junction(t: 'and' | 'or', input: CanonicalNode[]): CanonicalNode {
  const identity = t === 'and' ? 'true' : 'false';
  const absorbing = t === 'and' ? 'false' : 'true';
  let xs: CanonicalNode[] = [];
  for (const x of input) {
    if (x.t === t) xs.push(...x.xs);
    else xs.push(x);
  }
  if (xs.some((x) => x.t === absorbing)) return { t: absorbing };
  xs = xs.filter((x) => x.t !== identity);
  if (t === 'or') {
    // OR of equalities / in-lists on one set-like field -> one in-list
    const merged = new Map<string, unknown[]>();
    const rest: CanonicalNode[] = [];
    for (const x of xs) {
      if (x.t === 'c' && SET_FIELDS.has(x.field) && (x.op === 'eq' || x.op === 'in')) {
        const vs = x.op === 'eq' ? [x.value] : (x.values as unknown[]);
        merged.set(x.field, [...(merged.get(x.field) ?? []), ...vs]);
      } else rest.push(x);
    }
    xs = [...rest, ...[...merged].map(([field, vs]) => (field === 'lifecycleStage' ? lifecycle(vs as string[]) : leaf(field, 'in', undefined, vs)))];
    if (xs.some((x) => x.t === 'true')) return TRUE;
    xs = mergeIntervals(xs);
  }
  if (t === 'and') {
    // De Morgan: "not at Acme and not at Silvermark" is "not (at Acme or at Silvermark)": negations ANDed are one
    // negated OR (whose equalities on one field then merge into an in-list)
    const negations = xs.filter((x): x is Extract<CanonicalNode, { t: 'not' }> => x.t === 'not');
    if (negations.length > 1) xs = [...xs.filter((x) => x.t !== 'not'), negate(junction('or', negations.map((x) => x.x)))];
    // a last purchase's date or amount implies a purchase: "has purchased" next to it adds nothing
    const dated = xs.some((x) => x.t === 'c' && (x.field === 'lastPurchaseDate' || x.field === 'lastPurchaseAmount') && ['eq', 'gt', 'gte', 'lt', 'lte', 'is_set'].includes(x.op));
    if (dated) xs = xs.filter((x) => !(x.t === 'c' && x.field === 'hasPurchased' && x.op === 'eq' && x.value === true));
    // lifecycle conditions intersect
    const lcs = xs.filter((x) => x.t === 'c' && x.field === 'lifecycleStage');
    if (lcs.length > 1) {
      let set = new Set<string>(LIFECYCLE_STAGES);
      for (const x of lcs) {
        const c = x as Extract<CanonicalNode, { t: 'c' }>;
        const vs = new Set((c.op === 'eq' ? [c.value] : c.values) as string[]);
        set = new Set([...set].filter((s) => vs.has(s)));
      }
      xs = [...xs.filter((x) => !lcs.includes(x)), lifecycle(set)];
      if (xs.some((x) => x.t === 'false')) return FALSE;
    }
  }
  const uniq = new Map(xs.map((x) => [key(x), x] as const));
  const sorted = [...uniq.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, x]) => x);
  if (sorted.length === 0) return { t: identity };
  if (sorted.length === 1) return sorted[0];
  return { t, xs: sorted };
}

/** A date interval [from, to) on one field, as a canonical node holds it (gte AND lt). */
function interval(x: CanonicalNode): { field: string; from: number; to: number } | undefined {
  if (x.t !== 'and' || x.xs.length !== 2) return undefined;
  const [a, b] = x.xs;
  if (a.t !== 'c' || b.t !== 'c' || a.field !== b.field) return undefined;
  const lo = a.op === 'gte' ? a : b.op === 'gte' ? b : undefined;
  const hi = a.op === 'lt' ? a : b.op === 'lt' ? b : undefined;
  if (!lo || !hi || typeof lo.value !== 'number' || typeof hi.value !== 'number') return undefined;
  return { field: a.field, from: lo.value, to: hi.value };
}

/** "in March or in April": intervals of one field that touch or overlap are one interval. */
function mergeIntervals(xs: CanonicalNode[]): CanonicalNode[] {
  const spans = xs.map(interval);
  if (spans.filter(Boolean).length < 2) return xs;
  const rest = xs.filter((_x, i) => !spans[i]);
  const byField = new Map<string, Array<{ from: number; to: number }>>();
  for (const sp of spans) if (sp) byField.set(sp.field, [...(byField.get(sp.field) ?? []), sp]);
  for (const [field, list] of byField) {
    list.sort((a, b) => a.from - b.from);
    const out: Array<{ from: number; to: number }> = [];
    for (const sp of list) {
      const last = out[out.length - 1];
      if (last && sp.from <= last.to) last.to = Math.max(last.to, sp.to);
      else out.push({ ...sp });
    }
    for (const sp of out) rest.push(and([leaf(field, 'gte', sp.from), leaf(field, 'lt', sp.to)]));
  }
  return rest;
}

function node(n: SegmentNode, ctx: ResolveContext): CanonicalNode {
  if (isAnd(n)) return junction('and', n.and.map((x) => node(x, ctx)));
  if (isOr(n)) return junction('or', n.or.map((x) => node(x, ctx)));
  if (isNot(n)) return negate(node(n.not, ctx));
  return condition(n, ctx);
}

function negate(x: CanonicalNode): CanonicalNode {
  if (x.t === 'not') return x.x;
  if (x.t === 'true') return FALSE;
  if (x.t === 'false') return TRUE;
  if (x.t === 'c' && x.field === 'lifecycleStage') {
    const vs = new Set((x.op === 'eq' ? [x.value] : x.values) as string[]);
    return lifecycle(LIFECYCLE_STAGES.filter((s) => !vs.has(s)));
  }
  return { t: 'not', x };
}

export function normalizeSegment(segment: Segment, opts: ResolveOptions = {}): CanonicalSegment {
  const ctx = resolveContext(opts);
  return {
    where: segment.where ? node(segment.where, ctx) : TRUE,
    sort: segment.sort ?? null,
    limit: segment.limit ?? null,
  };
}

/** Whether two segments are the same after normalisation. */
export function segmentsEquivalent(a: Segment, b: Segment, opts: ResolveOptions = {}): boolean {
  return key(normalizeSegment(a, opts)) === key(normalizeSegment(b, opts));
}
