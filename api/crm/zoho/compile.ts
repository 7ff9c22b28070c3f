/**
 * A segment as COQL: one criteria expression for each of Zoho's person modules (Leads, Contacts), with
 * exactly the segment's semantics (ast.ts) under COQL's (the sandbox's coql/execute.ts):
 *  - text compares are case-insensitive in both; `contains` is `like '%…%'`, an email domain
 *    `like '%@acme.com'` (or `'%.edu'`); place names expand to their spelling variants, regions to their
 *    countries, as for every CRM (regions.ts);
 *  - COQL has no NOT: a negation is pushed down to the comparisons, and each negative comparison says
 *    `or X is null` (a negative condition matches people without the value; COQL's `!=` does not);
 *  - date-times are whole seconds, so instants round to the second on the side that keeps the compare
 *    exact; `between` on dates is from ≤ x < to;
 *  - `in` takes 50 values a list (longer lists are ORed), criteria are bracketed in pairs, and a module's
 *    query holds at most 25 criteria: conjuncts that do not fit stay with the product (the residual);
 *  - a field a module cannot hold (a lookup only Contacts have) is missing there: a positive test is
 *    false, a negative one true; so is a purchase on a Lead (Leads have no deals).
 * Purchases derived from deals (field-map.ts: names starting with `$`) cannot be filtered in a Contacts
 * query: a top-level conjunct that tests one is evaluated by the product on the records the native part
 * returns, after the connector has joined each contact's won deals. Values COQL cannot carry (a `%` in a
 * `like`, a backslash) stay with the product the same way.
 */
import { isAnd, isNot, isOr, type Condition, type Segment, type SegmentNode, type SegmentSort } from '../../segmentation/ast.js';
import { nameSplits } from '../../segmentation/evaluate.js';
import { expandPlaceValue, regionCountryValues } from '../../segmentation/regions.js';
import { resolveContext, resolveDateExpr, type ResolveContext } from '../../segmentation/resolve.js';
import type { CompileContext } from '../connector.js';
import type { FieldMap, MappableField } from '../field-map.js';
import type { SegmentPlan } from '../plan.js';
import { LIFECYCLE_HUBSPOT_VALUES, LIFECYCLE_STAGES, type LifecycleStage } from '../hubspot/model/index.js';
import { fieldIn, isDerived, PERSON_MODULES, type ZohoPersonModule } from './field-map.js';

export const MAX_CRITERIA = 25;
export const MAX_IN_VALUES = 50;

export interface ZohoModuleQuery {
  module: ZohoPersonModule;
  /** COQL criteria (the WHERE clause) */
  where: string;
  /** comparisons in `where` (COQL allows 25) */
  criteria: number;
}

/** The native part of a Zoho plan: one query per module that can match (an absent module matches none). */
export interface ZohoNativeQuery {
  queries: ZohoModuleQuery[];
  /** the segment's order and cap, when the plan has no residual (else the product orders and caps) */
  sort?: SegmentSort;
  limit?: number;
}

// ---------------------------------------------------------------------------------------------------
// Criteria expressions

type Expr =
  | { t: 'const'; v: boolean }
  | { t: 'cmp'; s: string }
  | { t: 'and' | 'or'; parts: Expr[] }
  /** not expressible in this module's COQL */
  | { t: 'residual' };

const TRUE: Expr = { t: 'const', v: true };
const FALSE: Expr = { t: 'const', v: false };
const RESIDUAL: Expr = { t: 'residual' };
const cmp = (s: string): Expr => ({ t: 'cmp', s });

function junction(t: 'and' | 'or', parts: Expr[]): Expr {
  const unit = t === 'and';
  const out: Expr[] = [];
  for (const p of parts) {
    if (p.t === 'residual') return RESIDUAL;
    if (p.t === 'const') {
      if (p.v === unit) continue;
      return p; // false in an AND, true in an OR
    }
    if (p.t === t) out.push(...p.parts);
    else out.push(p);
  }
  if (out.length === 0) return { t: 'const', v: unit };
  return out.length === 1 ? out[0] : { t, parts: out };
}
const and = (...parts: Expr[]) => junction('and', parts);
const or = (...parts: Expr[]) => junction('or', parts);

function countCriteria(e: Expr): number {
  return e.t === 'cmp' ? 1 : e.t === 'and' || e.t === 'or' ? e.parts.reduce((n, p) => n + countCriteria(p), 0) : 0;
}

/** COQL text, bracketed in pairs: `((a and b) and c)`. */
function render(e: Expr): string {
  switch (e.t) {
    case 'cmp':
      return e.s;
    case 'and':
    case 'or':
      return e.parts.map(render).reduce((acc, p) => `(${acc} ${e.t} ${p})`);
    case 'const':
      return e.v ? 'id is not null' : 'id is null';
    case 'residual':
      throw new Error('a residual expression has no COQL');
  }
}

// ---------------------------------------------------------------------------------------------------
// Values and comparisons

/** A quoted COQL string, or null when COQL cannot carry it (a backslash: its escaping is not defined). */
function quote(v: string): string | null {
  return v.includes('\\') ? null : `'${v.replace(/'/g, "''")}'`;
}

/** Zoho's date-time literal (UTC): whole seconds and an explicit offset. */
export function dateTimeLiteral(ms: number): string {
  return `'${new Date(ms).toISOString().slice(0, 19)}+00:00'`;
}

function uniqueCaseInsensitive(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = v.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The field as this module holds it: a COQL name, `missing` (never has a value) or `residual`. */
type Resolved = { kind: 'field'; name: string } | { kind: 'missing' } | { kind: 'residual' };

interface Vocabulary {
  module: ZohoPersonModule;
  map: FieldMap;
  ctx: ResolveContext;
}

function resolve(v: Vocabulary, field: MappableField): Resolved {
  const mapped = v.map.fields[field];
  const name = fieldIn(v.module, mapped);
  if (name === null) return { kind: 'missing' };
  if (isDerived(name)) return v.module === 'Leads' ? { kind: 'missing' } : { kind: 'residual' };
  return { kind: 'field', name };
}

/**
 * A positive test on a field (false without a value), negated exactly when `negated`: then it holds for
 * every record the positive test does not, those without a value included.
 */
function test(r: Resolved, negated: boolean, positive: (name: string) => Expr, complement: (name: string) => Expr): Expr {
  if (r.kind === 'residual') return RESIDUAL;
  if (r.kind === 'missing') return negated ? TRUE : FALSE;
  if (!negated) return positive(r.name);
  const c = complement(r.name);
  return c.t === 'residual' ? c : or(c, cmp(`${r.name} is null`));
}

function inList(r: Resolved, values: string[], negated: boolean): Expr {
  const unique = uniqueCaseInsensitive(values);
  if (unique.length === 0) return negated ? TRUE : FALSE;
  const quoted = unique.map(quote);
  if (quoted.some((q) => q === null)) return r.kind === 'missing' ? (negated ? TRUE : FALSE) : RESIDUAL;
  const chunks: string[][] = [];
  for (let i = 0; i < quoted.length; i += MAX_IN_VALUES) chunks.push(quoted.slice(i, i + MAX_IN_VALUES) as string[]);
  const one = (name: string, chunk: string[], neg: boolean) =>
    cmp(chunk.length === 1 ? `${name} ${neg ? '!=' : '='} ${chunk[0]}` : `${name} ${neg ? 'not in' : 'in'} (${chunk.join(', ')})`);
  return test(
    r,
    negated,
    (name) => or(...chunks.map((c) => one(name, c, false))),
    (name) => and(...chunks.map((c) => one(name, c, true))),
  );
}

function like(r: Resolved, pattern: string, negated: boolean): Expr {
  const q = quote(pattern);
  if (q === null || pattern.slice(1, -1).includes('%')) return r.kind === 'missing' ? (negated ? TRUE : FALSE) : RESIDUAL;
  return test(r, negated, (name) => cmp(`${name} like ${q}`), (name) => cmp(`${name} not like ${q}`));
}

const has = (r: Resolved, negated: boolean) => test(r, negated, (name) => cmp(`${name} is not null`), () => FALSE);

const FLIP = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' } as const;
type Op = keyof typeof FLIP;

function compare(r: Resolved, op: Op, literal: string, negated: boolean): Expr {
  return test(r, negated, (name) => cmp(`${name} ${op} ${literal}`), (name) => cmp(`${name} ${FLIP[op]} ${literal}`));
}

/** An instant compared with a date-time held to the second, rounded so the compare stays exact. */
function compareInstant(r: Resolved, op: Op, ms: number, negated: boolean): Expr {
  const s = op === '>=' || op === '<' ? Math.ceil(ms / 1000) * 1000 : Math.floor(ms / 1000) * 1000;
  return compare(r, op, dateTimeLiteral(s), negated);
}

// ---------------------------------------------------------------------------------------------------
// Conditions

const STAGE_ORDER = Object.keys(LIFECYCLE_HUBSPOT_VALUES) as Array<keyof typeof LIFECYCLE_HUBSPOT_VALUES>;

function stageValues(map: FieldMap, stages: Iterable<string>): string[] {
  const wanted = new Set(stages);
  return Object.entries(map.stages).filter(([, s]) => wanted.has(s)).map(([value]) => value);
}

function lifecycle(v: Vocabulary, stages: Set<LifecycleStage>, negated: boolean): Expr {
  const r = resolve(v, 'lifecycleStage');
  if (stages.size === LIFECYCLE_STAGES.length) return negated ? FALSE : TRUE;
  const valuesOf = (keep: (s: (typeof STAGE_ORDER)[number]) => boolean) =>
    stageValues(v.map, STAGE_ORDER.filter(keep).flatMap((s) => LIFECYCLE_HUBSPOT_VALUES[s]));
  // "unknown" (no value, or a value no stage claims) is in the set exactly when the value is none of the
  // excluded known stages' values.
  if (!stages.has('unknown')) return inList(r, valuesOf((s) => stages.has(s)), negated);
  return inList(r, valuesOf((s) => !stages.has(s)), !negated);
}

function condition(c: Condition, v: Vocabulary, negated: boolean): Expr {
  const ctx = v.ctx;
  switch (c.field) {
    case 'firstName': case 'lastName': case 'email': case 'company': case 'city': case 'state': case 'country': {
      const r = resolve(v, c.field);
      const field = c.field;
      const expand = (x: string) => (field === 'country' || field === 'state' || field === 'city' ? expandPlaceValue(field, x) : [x]);
      switch (c.op) {
        case 'eq': return inList(r, expand(c.value), negated);
        case 'neq': return inList(r, expand(c.value), !negated);
        case 'in': return inList(r, c.values.flatMap(expand), negated);
        case 'not_in': return inList(r, c.values.flatMap(expand), !negated);
        case 'contains': return like(r, `%${c.value}%`, negated);
        case 'not_contains': return like(r, `%${c.value}%`, !negated);
        case 'is_set': return has(r, negated);
        case 'is_not_set': return has(r, !negated);
      }
      break;
    }
    case 'lastPurchaseAmount': case 'lifetimeValue': {
      const r = resolve(v, c.field);
      switch (c.op) {
        case 'eq': return test(r, negated, (n) => cmp(`${n} = ${c.value}`), (n) => cmp(`${n} != ${c.value}`));
        case 'neq': return test(r, !negated, (n) => cmp(`${n} = ${c.value}`), (n) => cmp(`${n} != ${c.value}`));
        case 'lt': return compare(r, '<', String(c.value), negated);
        case 'lte': return compare(r, '<=', String(c.value), negated);
        case 'gt': return compare(r, '>', String(c.value), negated);
        case 'gte': return compare(r, '>=', String(c.value), negated);
        case 'between':
          return test(r, negated, (n) => cmp(`${n} between ${c.from} and ${c.to}`), (n) => cmp(`${n} not between ${c.from} and ${c.to}`));
        case 'is_set': return has(r, negated);
        case 'is_not_set': return has(r, !negated);
      }
      break;
    }
    case 'lastPurchaseDate': case 'createdAt': {
      const r = resolve(v, c.field);
      const ops = { lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;
      switch (c.op) {
        case 'lt': case 'lte': case 'gt': case 'gte':
          return compareInstant(r, ops[c.op], resolveDateExpr(c.value, ctx), negated);
        case 'between': {
          const from = resolveDateExpr(c.from, ctx);
          const to = resolveDateExpr(c.to, ctx);
          if (to <= from) return negated ? TRUE : FALSE;
          if (r.kind !== 'field') return test(r, negated, () => FALSE, () => FALSE);
          const inside = and(compareInstant(r, '>=', from, false), compareInstant(r, '<', to, false));
          return negated ? or(compareInstant(r, '<', from, false), compareInstant(r, '>=', to, false), cmp(`${r.name} is null`)) : inside;
        }
        case 'is_set': return has(r, negated);
        case 'is_not_set': return has(r, !negated);
      }
      break;
    }
    case 'lifecycleStage': {
      const listed = new Set<LifecycleStage>('values' in c ? c.values : [c.value]);
      const positive = c.op === 'eq' || c.op === 'in';
      return lifecycle(v, new Set(LIFECYCLE_STAGES.filter((s) => listed.has(s) === positive)), negated);
    }
    case 'hubspotStage': {
      const detailed = 'values' in c ? [...c.values] : [c.value];
      return inList(resolve(v, 'lifecycleStage'), stageValues(v.map, detailed), (c.op === 'eq' || c.op === 'in') === negated);
    }
    case 'region': {
      const regions = 'values' in c ? c.values : [c.value];
      return inList(resolve(v, 'country'), regions.flatMap(regionCountryValues), (c.op === 'eq' || c.op === 'in') === negated);
    }
    case 'emailDomain': {
      const domains: string[] = uniqueCaseInsensitive('values' in c ? c.values : [c.value]);
      const r = resolve(v, 'email');
      const positive = c.op === 'eq' || c.op === 'in';
      const patterns = domains.map((d) => (d.startsWith('.') ? `%${d}` : `%@${d}`));
      const neg = positive === negated;
      const parts = patterns.map((p) => like(r, p, neg));
      return neg ? and(...parts) : or(...parts);
    }
    case 'name': {
      const first = resolve(v, 'firstName');
      const last = resolve(v, 'lastName');
      if (c.op === 'contains') {
        const p = `%${c.value}%`;
        return negated ? and(like(first, p, true), like(last, p, true)) : or(like(first, p, false), like(last, p, false));
      }
      const eq = (r: Resolved, x: string, neg: boolean) => inList(r, [x], neg);
      const splits = nameSplits(c.value);
      if (!negated) return or(eq(first, c.value, false), eq(last, c.value, false), ...splits.map(([a, b]) => and(eq(first, a, false), eq(last, b, false))));
      return and(eq(first, c.value, true), eq(last, c.value, true), ...splits.map(([a, b]) => or(eq(first, a, true), eq(last, b, true))));
    }
    case 'hasPurchased':
      return has(resolve(v, 'lastPurchaseDate'), c.value === negated);
  }
  throw new Error(`Unsupported condition ${JSON.stringify(c)}`);
}

function node(n: SegmentNode, v: Vocabulary, negated: boolean): Expr {
  if (isAnd(n)) return (negated ? or : and)(...n.and.map((x) => node(x, v, negated)));
  if (isOr(n)) return (negated ? and : or)(...n.or.map((x) => node(x, v, negated)));
  if (isNot(n)) return node(n.not, v, !negated);
  return condition(n, v, negated);
}

// ---------------------------------------------------------------------------------------------------
// Plans

/**
 * Compiles a segment into a Zoho plan. Per module, the top-level conjuncts COQL can express go to its
 * query (smallest first, within 25 criteria); any conjunct left out of a module that can match goes to
 * the residual, which the product evaluates on every record read (so a module's query may hold a
 * conjunct that is also residual: it only narrows what is read).
 */
export function compileZohoPlan(segment: Segment, ctx: CompileContext, map: FieldMap): SegmentPlan<ZohoNativeQuery> {
  const resolveCtx = resolveContext({ now: ctx.now, timeZone: ctx.timeZone });
  const conjuncts: SegmentNode[] = segment.where ? (isAnd(segment.where) ? segment.where.and : [segment.where]) : [];
  const residual = new Set<number>();
  const queries: ZohoModuleQuery[] = [];
  for (const module of PERSON_MODULES) {
    const v: Vocabulary = { module, map, ctx: resolveCtx };
    const compiled = conjuncts.map((n, i) => ({ i, expr: node(n, v, false) }));
    if (compiled.some((c) => c.expr.t === 'const' && !c.expr.v)) continue; // this module matches none
    const native = compiled.filter((c) => c.expr.t !== 'residual' && !(c.expr.t === 'const')).map((c) => ({ ...c, n: countCriteria(c.expr) }));
    native.sort((a, b) => a.n - b.n || a.i - b.i);
    const kept: typeof native = [];
    let budget = MAX_CRITERIA;
    for (const c of native) {
      if (c.n <= budget) {
        kept.push(c);
        budget -= c.n;
      }
    }
    const keptIds = new Set(kept.map((c) => c.i));
    for (const c of compiled) if (c.expr.t !== 'const' && !keptIds.has(c.i)) residual.add(c.i);
    kept.sort((a, b) => a.i - b.i);
    const where = and(...kept.map((c) => c.expr));
    queries.push({ module, where: render(where), criteria: countCriteria(where) });
  }
  const native: ZohoNativeQuery = { queries };
  if (residual.size === 0) {
    if (segment.sort) native.sort = segment.sort;
    if (segment.limit !== undefined) native.limit = segment.limit;
    return { crmType: 'zoho', native };
  }
  const rest = conjuncts.filter((_, i) => residual.has(i));
  return {
    crmType: 'zoho',
    native,
    residual: rest.length === 1 ? rest[0] : { and: rest },
    ...(segment.sort ? { sort: segment.sort } : {}),
    ...(segment.limit !== undefined ? { limit: segment.limit } : {}),
  };
}
