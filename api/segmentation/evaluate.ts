/**
 * In-memory evaluation of a segment, with exactly the semantics of the compiled CRM queries (see ast.ts
 * for the rules; the property-based test checks the equivalence with HubSpot's searches). Two kinds of
 * record are read: HubSpot-style contacts (the tests, the HubSpot reference) and the CRM-neutral
 * `CrmRecord` every connector reads into (the product evaluates a plan's residual conditions on them).
 */
import {
  FIELD_PROPERTIES, isMissingValue, lifecycleOption, parseInstant, productLifecycleStage, sortContacts, type HubSpotContact,
  type LifecycleStage,
} from '../crm/hubspot/model/index.js';
import type { CrmRecord } from '../crm/record.js';
import type { Condition, DateField, NumberField, Segment, SegmentNode, StringField } from './ast.js';
import { isAnd, isNot, isOr } from './ast.js';
import { hubSpotSort } from './hubspot-query.js';
import { expandPlaceValue, regionCountryValues } from './regions.js';
import { resolveContext, resolveDateExpr, type ResolveContext, type ResolveOptions } from './resolve.js';

export type EvaluateOptions = ResolveOptions;
export type ContactPredicate = (contact: HubSpotContact) => boolean;
export type RecordPredicate = (record: CrmRecord) => boolean;

const lower = (s: string) => s.toLowerCase();

/** How the evaluator reads a field of a record of kind C (undefined: the record has no value). */
interface Reader<C> {
  text(c: C, field: StringField): string | undefined;
  /** NaN when present but unreadable (no comparison holds; is_set does) */
  number(c: C, field: NumberField): number | undefined;
  /** undefined when missing or unreadable */
  instant(c: C, field: DateField): number | undefined;
  /** whether the field has a value at all (is_set, hasPurchased) */
  present(c: C, field: NumberField | DateField): boolean;
  stage(c: C): LifecycleStage;
  /** the detailed stage (hubspotStage vocabulary) */
  option(c: C): string | undefined;
}

function prop(contact: HubSpotContact, name: string): string | undefined {
  const v = contact.properties[name];
  return isMissingValue(v) ? undefined : v;
}

const HUBSPOT_READER: Reader<HubSpotContact> = {
  text: (c, f) => prop(c, FIELD_PROPERTIES[f]),
  number: (c, f) => {
    const v = prop(c, FIELD_PROPERTIES[f]);
    return v === undefined ? undefined : Number(v);
  },
  instant: (c, f) => {
    const v = prop(c, FIELD_PROPERTIES[f]);
    return v === undefined ? undefined : (parseInstant(v) ?? undefined);
  },
  present: (c, f) => prop(c, FIELD_PROPERTIES[f]) !== undefined,
  stage: (c) => productLifecycleStage(prop(c, FIELD_PROPERTIES.lifecycleStage)),
  option: (c) => lifecycleOption(prop(c, FIELD_PROPERTIES.lifecycleStage)),
};

const RECORD_READER: Reader<CrmRecord> = {
  text: (r, f) => {
    const v = r[f];
    return v === null || v === '' ? undefined : v;
  },
  number: (r, f) => r[f] ?? undefined,
  instant: (r, f) => (f === 'lastPurchaseDate' ? r.lastPurchaseAt : r.createdAt) ?? undefined,
  present: (r, f) => (f === 'lastPurchaseDate' ? r.lastPurchaseAt : f === 'createdAt' ? r.createdAt : r[f]) !== null,
  stage: (r) => r.lifecycleStage,
  option: (r) => r.stage ?? undefined,
};

function compileNode<C>(node: SegmentNode, ctx: ResolveContext, rd: Reader<C>): (c: C) => boolean {
  if (isAnd(node)) {
    const parts = node.and.map((n) => compileNode(n, ctx, rd));
    return (c) => parts.every((p) => p(c));
  }
  if (isOr(node)) {
    const parts = node.or.map((n) => compileNode(n, ctx, rd));
    return (c) => parts.some((p) => p(c));
  }
  if (isNot(node)) {
    const inner = compileNode(node.not, ctx, rd);
    return (c) => !inner(c);
  }
  return compileCondition(node, ctx, rd);
}

function negate<C>(p: (c: C) => boolean): (c: C) => boolean {
  return (c) => !p(c);
}

function compileCondition<C>(cond: Condition, ctx: ResolveContext, rd: Reader<C>): (c: C) => boolean {
  type P = (c: C) => boolean;
  switch (cond.field) {
    case 'firstName': case 'lastName': case 'email': case 'company': case 'city': case 'state': case 'country': {
      const field = cond.field;
      const expand = (v: string): string[] =>
        cond.field === 'country' || cond.field === 'state' || cond.field === 'city' ? expandPlaceValue(cond.field, v) : [v];
      switch (cond.op) {
        case 'eq': case 'neq': case 'in': case 'not_in': {
          const raw = 'values' in cond ? cond.values : [cond.value];
          const set = new Set(raw.flatMap(expand).map(lower));
          const p: P = (c) => {
            const v = rd.text(c, field);
            return v !== undefined && set.has(lower(v));
          };
          return cond.op === 'eq' || cond.op === 'in' ? p : negate(p);
        }
        case 'contains': case 'not_contains': {
          const needle = lower(cond.value);
          const p: P = (c) => {
            const v = rd.text(c, field);
            return v !== undefined && lower(v).includes(needle);
          };
          return cond.op === 'contains' ? p : negate(p);
        }
        case 'is_set': case 'is_not_set': {
          const p: P = (c) => rd.text(c, field) !== undefined;
          return cond.op === 'is_set' ? p : negate(p);
        }
      }
      break;
    }
    case 'lastPurchaseAmount': case 'lifetimeValue': {
      const field = cond.field;
      const num = (c: C): number | undefined => rd.number(c, field);
      switch (cond.op) {
        case 'is_set': case 'is_not_set': {
          const p: P = (c) => rd.present(c, field);
          return cond.op === 'is_set' ? p : negate(p);
        }
        case 'between': {
          const { from, to } = cond;
          return (c) => {
            const x = num(c);
            return x !== undefined && x >= from && x <= to;
          };
        }
        case 'neq':
          return negate(compileCondition({ ...cond, op: 'eq' }, ctx, rd));
        default: {
          const cmp = comparator(cond.op, cond.value);
          return (c) => {
            const x = num(c);
            return x !== undefined && cmp(x);
          };
        }
      }
    }
    case 'lastPurchaseDate': case 'createdAt': {
      const field = cond.field;
      const ms = (c: C): number | undefined => rd.instant(c, field);
      switch (cond.op) {
        case 'is_set': case 'is_not_set': {
          const p: P = (c) => rd.present(c, field);
          return cond.op === 'is_set' ? p : negate(p);
        }
        case 'between': {
          const from = resolveDateExpr(cond.from, ctx);
          const to = resolveDateExpr(cond.to, ctx);
          return (c) => {
            const x = ms(c);
            return x !== undefined && x >= from && x < to;
          };
        }
        default: {
          const cmp = comparator(cond.op, resolveDateExpr(cond.value, ctx));
          return (c) => {
            const x = ms(c);
            return x !== undefined && cmp(x);
          };
        }
      }
    }
    case 'lifecycleStage': {
      const values: string[] = 'values' in cond ? cond.values : [cond.value];
      const set = new Set<string>(values);
      const positive = cond.op === 'eq' || cond.op === 'in';
      return (c) => set.has(rd.stage(c)) === positive;
    }
    case 'hubspotStage': {
      const set = new Set<string>('values' in cond ? cond.values : [cond.value]);
      const positive = cond.op === 'eq' || cond.op === 'in';
      return (c) => {
        const option = rd.option(c);
        return (option !== undefined && set.has(option)) === positive;
      };
    }
    case 'region': {
      const regions = 'values' in cond ? cond.values : [cond.value];
      const set = new Set(regions.flatMap(regionCountryValues).map(lower));
      const positive = cond.op === 'eq' || cond.op === 'in';
      return (c) => {
        const v = rd.text(c, 'country');
        return (v !== undefined && set.has(lower(v))) === positive;
      };
    }
    case 'emailDomain': {
      const domains: string[] = 'values' in cond ? cond.values : [cond.value];
      const positive = cond.op === 'eq' || cond.op === 'in';
      const matchers = domains.map((d) => emailDomainMatcher(d));
      return (c) => {
        const v = rd.text(c, 'email');
        const hit = v !== undefined && matchers.some((m) => m(lower(v)));
        return hit === positive;
      };
    }
    case 'name': {
      const value = lower(cond.value);
      if (cond.op === 'contains') {
        return (c) => {
          const f = rd.text(c, 'firstName');
          const l = rd.text(c, 'lastName');
          return (f !== undefined && lower(f).includes(value)) || (l !== undefined && lower(l).includes(value));
        };
      }
      const splits = nameSplits(cond.value).map(([a, b]) => [lower(a), lower(b)] as const);
      return (c) => {
        const f = rd.text(c, 'firstName');
        const l = rd.text(c, 'lastName');
        const fl = f === undefined ? undefined : lower(f);
        const ll = l === undefined ? undefined : lower(l);
        if (fl === value || ll === value) return true;
        return splits.some(([a, b]) => fl === a && ll === b);
      };
    }
    case 'hasPurchased': {
      const want = cond.value;
      return (c) => rd.present(c, 'lastPurchaseDate') === want;
    }
  }
  throw new Error(`unreachable: ${JSON.stringify(cond)}`);
}

/** "acme.com": the address ends in "@acme.com"; ".edu": the part after an "@" ends in ".edu". */
function emailDomainMatcher(domain: string): (email: string) => boolean {
  const d = lower(domain);
  if (!d.startsWith('.')) return (e) => e.endsWith(`@${d}`);
  return (e) => e.endsWith(d) && e.slice(0, e.length - d.length).includes('@');
}

function comparator(op: 'eq' | 'lt' | 'lte' | 'gt' | 'gte', v: number): (x: number) => boolean {
  switch (op) {
    case 'eq': return (x) => x === v;
    case 'lt': return (x) => x < v;
    case 'lte': return (x) => x <= v;
    case 'gt': return (x) => x > v;
    case 'gte': return (x) => x >= v;
  }
}

/** Ways to split a full name into (first, last) at a single space: "Mary Ann Lee" -> [Mary, Ann Lee], [Mary Ann, Lee]. */
export function nameSplits(value: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === ' ') {
      const a = value.slice(0, i);
      const b = value.slice(i + 1);
      if (a && b) out.push([a, b]);
    }
  }
  return out;
}

/** Compiles the segment's filter into a predicate (dates resolved once). Sort and limit are ignored. */
export function compileEvaluator(segment: Segment, opts: EvaluateOptions = {}): ContactPredicate {
  if (!segment.where) return () => true;
  return compileNode(segment.where, resolveContext(opts), HUBSPOT_READER);
}

/** The same predicate over CRM-neutral records (a plan's residual conditions, imported contacts). */
export function compileRecordEvaluator(where: SegmentNode | undefined, opts: EvaluateOptions = {}): RecordPredicate {
  if (!where) return () => true;
  return compileNode(where, resolveContext(opts), RECORD_READER);
}

/** Whether one contact belongs to the segment (sort and limit are ignored). */
export function evaluateSegment(segment: Segment, contact: HubSpotContact, opts: EvaluateOptions = {}): boolean {
  return compileEvaluator(segment, opts)(contact);
}

/**
 * Filters, sorts (HubSpot's result order) and limits a list of contacts: the complete meaning of a
 * segment, and what a caller should do after merging the results of several HubSpot searches.
 */
export function selectContacts<C extends HubSpotContact>(segment: Segment, contacts: readonly C[], opts: EvaluateOptions = {}): C[] {
  const out = contacts.filter(compileEvaluator(segment, opts));
  if (segment.sort) sortContacts(out, hubSpotSort(segment.sort));
  return segment.limit !== undefined ? out.slice(0, segment.limit) : out;
}
