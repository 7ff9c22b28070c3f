/**
 * A segment → Salesforce's plan: one condition tree per object (unconverted Leads, Contacts) over the
 * objects' own fields, with the exact semantics of the product's record evaluator
 * (segmentation/evaluate.ts) on the records the connector reads (records.ts).
 *
 * - Text conditions compare case-insensitively (SOQL's `=`, `IN` and `LIKE` do); contains is
 *   `LIKE '%…%'`; a field Salesforce fills with "[not provided]" counts as empty.
 * - A field an object does not have is empty on it: positive conditions are false there, negations
 *   true; an object whose tree is false is never queried.
 * - Purchases are won opportunities: "bought since t" is a semi-join on OpportunityContactRole
 *   (`Id IN (SELECT ContactId … WHERE Opportunity.IsWon = true AND Opportunity.CloseDate >= …)`), "last
 *   bought before t" is that semi-join and an anti-join; a CloseDate is a day, read as midnight UTC.
 * - Lifetime value is a sum, which a semi-join cannot hold: a two-step condition, whose contact ids an
 *   aggregate query (GROUP BY ContactId HAVING SUM(Opportunity.Amount) …) finds first (`steps`).
 * - Semi-joins where SOQL forbids them (under OR / NOT, more than two) become two-step id sets too.
 * - The amount of the last purchase is read with the contact and compared by the product (the plan's
 *   residual), after a semi-join that keeps only contacts with a won deal of a fitting amount.
 */
import type { Condition, Segment, SegmentNode } from '../../segmentation/ast.js';
import { isAnd, isNot, isOr, LIFECYCLE_STAGES, type LifecycleStage } from '../../segmentation/ast.js';
import { nameSplits } from '../../segmentation/evaluate.js';
import { expandPlaceValue, regionCountryValues } from '../../segmentation/regions.js';
import { resolveContext, resolveDateExpr, type ResolveContext } from '../../segmentation/resolve.js';
import type { CompileContext } from '../connector.js';
import type { FieldMap, MappableField } from '../field-map.js';
import { LIFECYCLE_HUBSPOT_VALUES } from '../hubspot/model/index.js';
import type { SegmentPlan } from '../plan.js';
import { sideOf, type SfObject, type Side } from './field-map.js';
import { likeLiteral } from './model/soql-text.js';
import { NOT_PROVIDED } from './model/org.js';

export type NumOp = '=' | '<' | '<=' | '>' | '>=';

/** A number condition on a sum or an amount: one comparison, or an inclusive range. */
export type AmountCond = { op: NumOp; value: number } | { between: [number, number] };

/** An instant bound: `>=` (at or after) or `<` (before). Date fields compare their day's midnight UTC. */
export interface TimeBound {
  op: '>=' | '<';
  ms: number;
}

/** The condition tree of one object's WHERE, before rendering (render.ts). */
export type Ir =
  | { t: 'true' }
  | { t: 'false' }
  | { t: 'and'; items: Ir[] }
  | { t: 'or'; items: Ir[] }
  | { t: 'not'; item: Ir }
  /** text / picklist equal to one of the values (case-insensitive) */
  | { t: 'in'; path: string; values: string[] }
  /** LIKE with a pattern (wildcards of the value already escaped) */
  | { t: 'like'; path: string; pattern: string }
  /** the field is empty */
  | { t: 'null'; path: string }
  | { t: 'num'; path: string; op: NumOp; value: number }
  | { t: 'time'; path: string; type: 'datetime' | 'date' | 'unknown-date'; bound: TimeBound }
  /** the contact has a won opportunity (with a CloseDate / Amount like this) */
  | { t: 'won'; closeDate?: TimeBound; amount?: AmountCond; amountSet?: boolean }
  /** the contact is in the id set step `step` computes (two-step conditions) */
  | { t: 'ids'; step: number };

/** What a two-step condition's first query computes: a set of contact ids. */
export type IdStep =
  /** contacts whose won opportunities' Amounts sum to a value that satisfies `cond` */
  | { kind: 'ltv'; cond: AmountCond }
  /** contacts with a won opportunity like this (a semi-join SOQL does not allow where it stands) */
  | { kind: 'won'; closeDate?: TimeBound; amount?: AmountCond; amountSet?: boolean };

export interface SalesforceQuery {
  v: 1;
  /** null: no record of the object can match (it is not queried) */
  objects: Record<SfObject, Ir | null>;
  steps: IdStep[];
  sort?: Segment['sort'];
  limit?: number;
  /** the native segment's conditions and the instant / zone they were resolved with (exact filtering when a step is too big to inline) */
  where?: SegmentNode;
  at: { now: string; timeZone: string };
}

// ---------------------------------------------------------------------------------------------------
// IR constructors with constant folding

export const TRUE: Ir = { t: 'true' };
export const FALSE: Ir = { t: 'false' };

export function and(...items: Ir[]): Ir {
  const out: Ir[] = [];
  for (const i of items) {
    if (i.t === 'false') return FALSE;
    if (i.t === 'true') continue;
    if (i.t === 'and') out.push(...i.items);
    else out.push(i);
  }
  return out.length === 0 ? TRUE : out.length === 1 ? out[0] : { t: 'and', items: out };
}

export function or(...items: Ir[]): Ir {
  const out: Ir[] = [];
  for (const i of items) {
    if (i.t === 'true') return TRUE;
    if (i.t === 'false') continue;
    if (i.t === 'or') out.push(...i.items);
    else out.push(i);
  }
  return out.length === 0 ? FALSE : out.length === 1 ? out[0] : { t: 'or', items: out };
}

export function not(i: Ir): Ir {
  if (i.t === 'true') return FALSE;
  if (i.t === 'false') return TRUE;
  if (i.t === 'not') return i.item;
  return { t: 'not', item: i };
}

/** Negation normal form: NOT only on leaves (De Morgan). */
export function nnf(i: Ir, negated = false): Ir {
  switch (i.t) {
    case 'not': return nnf(i.item, !negated);
    case 'and': return negated ? or(...i.items.map((x) => nnf(x, true))) : and(...i.items.map((x) => nnf(x)));
    case 'or': return negated ? and(...i.items.map((x) => nnf(x, true))) : or(...i.items.map((x) => nnf(x)));
    case 'true': return negated ? FALSE : TRUE;
    case 'false': return negated ? TRUE : FALSE;
    default: return negated ? { t: 'not', item: i } : i;
  }
}

// ---------------------------------------------------------------------------------------------------
// Conditions

const lowerUnique = (values: string[]) => {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values) {
    const k = v.toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      out.push(v);
    }
  }
  return out;
};

const STAGE_ORDER = Object.keys(LIFECYCLE_HUBSPOT_VALUES) as Array<keyof typeof LIFECYCLE_HUBSPOT_VALUES>;

interface ObjectVocabulary {
  object: SfObject;
  side: (f: MappableField) => Side;
  /** product stage → the CRM values that mean it; detailed stage → values */
  stageValues: Record<keyof typeof LIFECYCLE_HUBSPOT_VALUES, string[]>;
  detailedValues: (stage: string) => string[];
}

function vocabulary(map: FieldMap, object: SfObject): ObjectVocabulary {
  const byDetailed = new Map<string, string[]>();
  for (const [value, stage] of Object.entries(map.stages)) byDetailed.set(stage, [...(byDetailed.get(stage) ?? []), value]);
  const stageValues = Object.fromEntries(
    STAGE_ORDER.map((s) => [s, LIFECYCLE_HUBSPOT_VALUES[s].flatMap((d) => byDetailed.get(d) ?? [])]),
  ) as ObjectVocabulary['stageValues'];
  return { object, side: (f) => sideOf(map, f, object), stageValues, detailedValues: (s) => byDetailed.get(s) ?? [] };
}

/** The tree of one object, and what it asks of the other phases. */
interface Compiler {
  steps: IdStep[];
  step(s: IdStep): number;
}

/** Is the value present (not null, not "[not provided]" where Salesforce writes it)? */
function isSet(side: Side & { kind: 'field' }): Ir {
  const present = not({ t: 'null', path: side.path });
  return side.notProvided ? and(present, not({ t: 'in', path: side.path, values: [NOT_PROVIDED] })) : present;
}

function textIn(side: Side, values: string[]): Ir {
  if (side.kind !== 'field') return FALSE;
  // "[not provided]" is no value: it never equals a value asked for.
  const vs = lowerUnique(values).filter((v) => !(side.notProvided && v.toLowerCase() === NOT_PROVIDED));
  return vs.length === 0 ? FALSE : { t: 'in', path: side.path, values: vs };
}

function textLike(side: Side, pattern: string, couldMatchNotProvided: boolean): Ir {
  if (side.kind !== 'field') return FALSE;
  const like: Ir = { t: 'like', path: side.path, pattern };
  return side.notProvided && couldMatchNotProvided ? and(like, not({ t: 'in', path: side.path, values: [NOT_PROVIDED] })) : like;
}

/** "acme.com" → ends in "@acme.com"; ".edu" → "@…" then ends in ".edu" (the evaluator's rule). */
function emailDomainLike(side: Side, domain: string): Ir {
  const d = domain.toLowerCase();
  return textLike(side, d.startsWith('.') ? `%@%${likeLiteral(d)}` : `%@${likeLiteral(d)}`, false);
}

function numberCond(side: Side, cond: AmountCond, c: Compiler): Ir {
  if (side.kind === 'none') return FALSE;
  if (side.kind === 'derived') {
    if (side.what === 'totalAmount') return { t: 'ids', step: c.step({ kind: 'ltv', cond }) };
    throw new Error('the last amount is compared by the product (residual)');
  }
  if ('between' in cond) return and({ t: 'num', path: side.path, op: '>=', value: cond.between[0] }, { t: 'num', path: side.path, op: '<=', value: cond.between[1] });
  return { t: 'num', path: side.path, op: cond.op, value: cond.value };
}

function numberPresent(side: Side): Ir {
  if (side.kind === 'none') return FALSE;
  if (side.kind === 'field') return not({ t: 'null', path: side.path });
  return { t: 'won', amountSet: true }; // a sum or a last amount exists when a won deal has an Amount
}

/** `x >= a` / `x < b` on instants for a date or datetime field, or on the last won CloseDate. */
function timeCond(side: Side, bounds: TimeBound[]): Ir {
  if (side.kind === 'none') return FALSE;
  if (side.kind === 'field') {
    const type = side.type === 'datetime' || side.type === 'date' ? side.type : 'unknown-date';
    return and(...bounds.map((bound) => ({ t: 'time', path: side.path, type, bound }) as Ir));
  }
  // The last purchase is at or after a ⇔ some won deal is; before b ⇔ it has one and none at or after b.
  const parts: Ir[] = [];
  const lower = bounds.find((b) => b.op === '>=');
  const upper = bounds.find((b) => b.op === '<');
  parts.push(lower ? { t: 'won', closeDate: lower } : { t: 'won' });
  if (upper) parts.push(not({ t: 'won', closeDate: { op: '>=', ms: upper.ms } }));
  return and(...parts);
}

function timePresent(side: Side): Ir {
  if (side.kind === 'none') return FALSE;
  if (side.kind === 'field') return not({ t: 'null', path: side.path });
  return { t: 'won' };
}

function conditionIr(cond: Condition, ctx: ResolveContext, v: ObjectVocabulary, c: Compiler): Ir {
  switch (cond.field) {
    case 'firstName': case 'lastName': case 'email': case 'company': case 'city': case 'state': case 'country': {
      const side = v.side(cond.field);
      const f = cond.field;
      const expand = (x: string) => (f === 'country' || f === 'state' || f === 'city' ? expandPlaceValue(f, x) : [x]);
      switch (cond.op) {
        case 'eq': return textIn(side, expand(cond.value));
        case 'neq': return not(textIn(side, expand(cond.value)));
        case 'in': return textIn(side, cond.values.flatMap(expand));
        case 'not_in': return not(textIn(side, cond.values.flatMap(expand)));
        case 'contains': case 'not_contains': {
          const p = textLike(side, `%${likeLiteral(cond.value)}%`, NOT_PROVIDED.includes(cond.value.toLowerCase()));
          return cond.op === 'contains' ? p : not(p);
        }
        case 'is_set': return side.kind === 'field' ? isSet(side) : FALSE;
        case 'is_not_set': return side.kind === 'field' ? not(isSet(side)) : TRUE;
      }
      break;
    }
    case 'lastPurchaseAmount': case 'lifetimeValue': {
      const side = v.side(cond.field);
      // (compileSalesforce leaves conditions on a derived last amount to the product: never here)
      if (side.kind === 'derived' && side.what === 'lastAmount') throw new Error('the last amount is compared by the product');
      switch (cond.op) {
        case 'is_set': return numberPresent(side);
        case 'is_not_set': return not(numberPresent(side));
        case 'between': return numberCond(side, { between: [cond.from, cond.to] }, c);
        case 'neq': return not(numberCond(side, { op: '=', value: cond.value }, c));
        default: return numberCond(side, { op: ({ eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const)[cond.op], value: cond.value }, c);
      }
    }
    case 'lastPurchaseDate': case 'createdAt': {
      const side = v.side(cond.field);
      switch (cond.op) {
        case 'is_set': return timePresent(side);
        case 'is_not_set': return not(timePresent(side));
        case 'between': {
          const from = resolveDateExpr(cond.from, ctx);
          const to = resolveDateExpr(cond.to, ctx);
          return to <= from ? FALSE : timeCond(side, [{ op: '>=', ms: from }, { op: '<', ms: to }]);
        }
        default: {
          const t = resolveDateExpr(cond.value, ctx);
          // Instants are milliseconds: x > t ⇔ x >= t + 1, x <= t ⇔ x < t + 1.
          const bound: TimeBound = cond.op === 'gte' ? { op: '>=', ms: t } : cond.op === 'gt' ? { op: '>=', ms: t + 1 } : cond.op === 'lt' ? { op: '<', ms: t } : { op: '<', ms: t + 1 };
          return timeCond(side, [bound]);
        }
      }
    }
    case 'hasPurchased': {
      const p = timePresent(v.side('lastPurchaseDate'));
      return cond.value ? p : not(p);
    }
    case 'lifecycleStage': {
      const listed = new Set<LifecycleStage>('values' in cond ? cond.values : [cond.value]);
      const positive = cond.op === 'eq' || cond.op === 'in';
      const stages = new Set(LIFECYCLE_STAGES.filter((s) => listed.has(s) === positive));
      if (stages.size === LIFECYCLE_STAGES.length) return TRUE;
      const side = v.side('lifecycleStage');
      if (side.kind !== 'field') return stages.has('unknown') ? TRUE : FALSE; // no stage field: every record is unknown
      if (!stages.has('unknown')) return textIn(side, STAGE_ORDER.filter((s) => stages.has(s)).flatMap((s) => v.stageValues[s]));
      // "unknown" (no value, or one the stage map does not know) is included: the stage is in the set
      // exactly when the value is not one of the excluded known stages' values.
      return not(textIn(side, STAGE_ORDER.filter((s) => !stages.has(s)).flatMap((s) => v.stageValues[s])));
    }
    case 'hubspotStage': {
      const side = v.side('lifecycleStage');
      const p = side.kind === 'field' ? textIn(side, ('values' in cond ? [...cond.values] : [cond.value]).flatMap(v.detailedValues)) : FALSE;
      return cond.op === 'eq' || cond.op === 'in' ? p : not(p);
    }
    case 'region': {
      const regions = 'values' in cond ? cond.values : [cond.value];
      const p = textIn(v.side('country'), regions.flatMap(regionCountryValues));
      return cond.op === 'eq' || cond.op === 'in' ? p : not(p);
    }
    case 'emailDomain': {
      const domains: string[] = 'values' in cond ? cond.values : [cond.value];
      const p = or(...lowerUnique(domains).map((d) => emailDomainLike(v.side('email'), d)));
      return cond.op === 'eq' || cond.op === 'in' ? p : not(p);
    }
    case 'name': {
      const first = v.side('firstName');
      const last = v.side('lastName');
      if (cond.op === 'contains') {
        const pattern = `%${likeLiteral(cond.value)}%`;
        const np = NOT_PROVIDED.includes(cond.value.toLowerCase());
        return or(textLike(first, pattern, np), textLike(last, pattern, np));
      }
      return or(
        textIn(first, [cond.value]),
        textIn(last, [cond.value]),
        ...nameSplits(cond.value).map(([a, b]) => and(textIn(first, [a]), textIn(last, [b]))),
      );
    }
  }
  throw new Error(`unsupported condition ${JSON.stringify(cond)}`);
}

function nodeIr(node: SegmentNode, ctx: ResolveContext, v: ObjectVocabulary, c: Compiler): Ir {
  if (isAnd(node)) return and(...node.and.map((n) => nodeIr(n, ctx, v, c)));
  if (isOr(node)) return or(...node.or.map((n) => nodeIr(n, ctx, v, c)));
  if (isNot(node)) return not(nodeIr(node.not, ctx, v, c));
  return conditionIr(node, ctx, v, c);
}

// ---------------------------------------------------------------------------------------------------
// Semi-joins where SOQL allows them

/** SOQL allows at most two semi-/anti-joins per WHERE, and none under OR (or NOT: NNF leaves only). */
export const MAX_SEMI_JOINS = 2;

/**
 * Keeps a won-deal condition as a semi-join (or, negated, an anti-join) where SOQL allows one: on the
 * path of ANDs from the root, at most two of them. The others become id-set steps.
 */
function placeSemiJoins(ir: Ir, c: Compiler): Ir {
  let kept = 0;
  const walk = (node: Ir, underOr: boolean): Ir => {
    switch (node.t) {
      case 'and': return and(...node.items.map((i) => walk(i, underOr)));
      case 'or': return or(...node.items.map((i) => walk(i, true)));
      case 'not': {
        if (node.item.t !== 'won') return node;
        if (!underOr && kept < MAX_SEMI_JOINS) {
          kept++;
          return node;
        }
        return not(toStep(node.item));
      }
      case 'won':
        if (!underOr && kept < MAX_SEMI_JOINS) {
          kept++;
          return node;
        }
        return toStep(node);
      default: return node;
    }
  };
  const toStep = (w: Ir & { t: 'won' }): Ir => ({ t: 'ids', step: c.step({ kind: 'won', closeDate: w.closeDate, amount: w.amount, amountSet: w.amountSet }) });
  return walk(ir, false);
}

// ---------------------------------------------------------------------------------------------------

function stepKey(s: IdStep): string {
  return JSON.stringify(s);
}

/** A residual condition's native narrowing: a won deal of a fitting amount (only ever a superset). */
function narrowing(cond: Condition): Ir | null {
  if (cond.field !== 'lastPurchaseAmount') return null;
  switch (cond.op) {
    case 'eq': return { t: 'won', amount: { op: '=', value: cond.value } };
    case 'lt': return { t: 'won', amount: { op: '<', value: cond.value } };
    case 'lte': return { t: 'won', amount: { op: '<=', value: cond.value } };
    case 'gt': return { t: 'won', amount: { op: '>', value: cond.value } };
    case 'gte': return { t: 'won', amount: { op: '>=', value: cond.value } };
    case 'between': return { t: 'won', amount: { between: [cond.from, cond.to] } };
    case 'is_set': return { t: 'won', amountSet: true };
    default: return null;
  }
}

/** Does the node use the last purchase's amount while it is derived from won opportunities? */
function needsResidual(node: SegmentNode, map: FieldMap): boolean {
  if (isAnd(node)) return node.and.some((n) => needsResidual(n, map));
  if (isOr(node)) return node.or.some((n) => needsResidual(n, map));
  if (isNot(node)) return needsResidual(node.not, map);
  if (node.field !== 'lastPurchaseAmount') return false;
  const side = sideOf(map, 'lastPurchaseAmount', 'Contact');
  return side.kind === 'derived';
}

/**
 * Compiles a segment. Conditions on the last purchase's amount (derived from won opportunities) are
 * the product's to evaluate (the plan's residual); a top-level one also narrows the contacts read.
 */
export function compileSalesforce(segment: Segment, ctx: CompileContext, map: FieldMap): SegmentPlan<SalesforceQuery> {
  const rctx = resolveContext({ now: ctx.now, timeZone: ctx.timeZone });
  const where = segment.where;
  const conjuncts = where ? (isAnd(where) ? where.and : [where]) : [];
  const nativeParts = conjuncts.filter((n) => !needsResidual(n, map));
  const residualParts = conjuncts.filter((n) => needsResidual(n, map));
  const nativeWhere: SegmentNode | undefined = nativeParts.length === 0 ? undefined : nativeParts.length === 1 ? nativeParts[0] : { and: nativeParts };

  const steps: IdStep[] = [];
  const index = new Map<string, number>();
  const compiler: Compiler = {
    steps,
    step(s) {
      const k = stepKey(s);
      let i = index.get(k);
      if (i === undefined) {
        i = steps.length;
        steps.push(s);
        index.set(k, i);
      }
      return i;
    },
  };
  const objects = {} as Record<SfObject, Ir | null>;
  for (const object of ['Contact', 'Lead'] as const) {
    const v = vocabulary(map, object);
    let ir = nativeWhere ? nodeIr(nativeWhere, rctx, v, compiler) : TRUE;
    // Narrow by the residual's won-deal conditions (positive, top level): reads fewer contacts, exactly
    // the same answer once the product has compared the amounts.
    for (const r of residualParts) {
      if (isAnd(r) || isOr(r) || isNot(r)) continue;
      const n = narrowing(r);
      if (!n) continue;
      ir = and(ir, sideOf(map, 'lastPurchaseAmount', object).kind === 'derived' ? n : FALSE);
    }
    ir = nnf(ir);
    if (object === 'Contact') ir = placeSemiJoins(ir, compiler);
    objects[object] = ir.t === 'false' ? null : ir;
  }

  const residual: SegmentNode | undefined = residualParts.length === 0 ? undefined : residualParts.length === 1 ? residualParts[0] : { and: residualParts };
  const native: SalesforceQuery = {
    v: 1,
    objects,
    steps,
    ...(residual ? {} : { ...(segment.sort ? { sort: segment.sort } : {}), ...(segment.limit !== undefined ? { limit: segment.limit } : {}) }),
    ...(nativeWhere ? { where: nativeWhere } : {}),
    at: { now: ctx.now.toISOString(), timeZone: ctx.timeZone },
  };
  if (!residual) return { crmType: 'salesforce', native };
  return {
    crmType: 'salesforce',
    native,
    residual,
    ...(segment.sort ? { sort: segment.sort } : {}),
    ...(segment.limit !== undefined ? { limit: segment.limit } : {}),
    compiledAt: ctx.now.toISOString(),
  };
}
