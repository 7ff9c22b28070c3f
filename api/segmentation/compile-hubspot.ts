/**
 * Segment -> HubSpot CRM search requests.
 *
 * 1. Every condition becomes a small formula over "atoms" (EQ, IN, CONTAINS_TOKEN, LT/LTE/GT/GTE,
 *    BETWEEN, HAS_PROPERTY), each of which is false for a contact without the property. Lifecycle
 *    stages are expanded to HubSpot's internal values, regions to `IN` country lists, dates are
 *    resolved against `now` / the time zone.
 * 2. NOT is pushed down to the atoms (De Morgan). A negated atom becomes HubSpot filters that keep the
 *    meaning exact for contacts without the property: NOT(GT x) = LTE x OR NOT_HAS_PROPERTY;
 *    NOT(EQ x) = NEQ x (OR NOT_HAS_PROPERTY when negative operators do not match missing properties,
 *    see hubspot-semantics.ts).
 * 3. The formula is expanded to disjunctive normal form; each conjunction is simplified (bounds merged,
 *    contradictions dropped, IN lists intersected) and conjunctions that differ only in one EQ/IN on the
 *    same property are merged into one IN.
 * 4. The groups are packed into searches within HubSpot's limits (<= 5 groups, <= 6 filters per group,
 *    <= 18 filters, body <= 3,000 chars). The union of the searches is the segment: the caller runs every
 *    search, merges and de-duplicates by id, sorts (missing values last) and keeps `maxResults`.
 *    Nothing is ever dropped; what cannot be expressed raises a SegmentationError.
 */
import {
  FIELD_PROPERTIES,
  LIFECYCLE_HUBSPOT_VALUES,
  PROPERTY_KINDS,
  SEARCH_LIMITS,
  SEGMENT_PROPERTIES,
  type FilterOperator,
  type HubSpotFilter,
  type SearchLimits,
} from '../crm/hubspot/model/index.js';
import type { Condition, Segment, SegmentNode } from './ast.js';
import { LIFECYCLE_STAGES, isAnd, isNot, isOr, segmentSchema, type LifecycleStage } from './ast.js';
import { SegmentationError } from './errors.js';
import { nameSplits } from './evaluate.js';
import { hubSpotSort, type CompiledHubSpotQuery, type CompiledSearch } from './hubspot-query.js';
import { HUBSPOT_SEMANTICS, type HubSpotSemantics } from './hubspot-semantics.js';
import { expandPlaceValue, regionCountryValues } from './regions.js';
import { resolveContext, resolveDateExpr, type ResolveContext, type ResolveOptions } from './resolve.js';

export interface CompileOptions extends ResolveOptions {
  /** Missing-property behaviour of HubSpot; default HUBSPOT_SEMANTICS. */
  semantics?: HubSpotSemantics;
  /** HubSpot's limits by default; lower ones for tests. */
  limits?: Partial<Pick<SearchLimits, 'maxFilterGroups' | 'maxFiltersPerGroup' | 'maxFiltersTotal' | 'maxBodyChars'>>;
  /** Refuse segments that need more searches than this (each is at least one API call). Default 10. */
  maxSearches?: number;
  /** Page size (`limit`) of each request. Default 100, or `segment.limit` when smaller. */
  pageSize?: number;
  /** Properties to return. Default: every property a Customer needs. */
  properties?: string[];
}

/** Guard against exponential expansion while building the normal form. */
const MAX_INTERMEDIATE_GROUPS = 4096;

// ---------------------------------------------------------------------------------------------------
// Formula over atoms

type Atom =
  | { a: 'EQ'; prop: string; value: string | number }
  | { a: 'IN'; prop: string; values: string[] }
  | { a: 'CT'; prop: string; pattern: string }
  | { a: 'CMP'; prop: string; op: 'LT' | 'LTE' | 'GT' | 'GTE'; value: number }
  | { a: 'BETWEEN'; prop: string; lo: number; hi: number }
  | { a: 'HAS'; prop: string };

type Formula =
  | { k: 'atom'; atom: Atom }
  | { k: 'not'; x: Formula }
  | { k: 'and'; xs: Formula[] }
  | { k: 'or'; xs: Formula[] }
  | { k: 'const'; v: boolean };

const TRUE: Formula = { k: 'const', v: true };
const FALSE: Formula = { k: 'const', v: false };
const atom = (a: Atom): Formula => ({ k: 'atom', atom: a });
const not = (x: Formula): Formula => ({ k: 'not', x });
const and = (...xs: Formula[]): Formula => ({ k: 'and', xs });
const or = (...xs: Formula[]): Formula => ({ k: 'or', xs });

function uniqueCaseInsensitive(values: string[]): string[] {
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
}

function inAtom(prop: string, values: string[]): Formula {
  if (values.length === 0) return FALSE;
  return values.length === 1 ? atom({ a: 'EQ', prop, value: values[0] }) : atom({ a: 'IN', prop, values });
}

function lifecycleFormula(stages: Set<LifecycleStage>): Formula {
  if (stages.size === LIFECYCLE_STAGES.length) return TRUE;
  if (stages.size === 0) return FALSE;
  const prop = FIELD_PROPERTIES.lifecycleStage;
  const known = (Object.keys(LIFECYCLE_HUBSPOT_VALUES) as Array<keyof typeof LIFECYCLE_HUBSPOT_VALUES>);
  if (!stages.has('unknown')) return inAtom(prop, known.filter((s) => stages.has(s)).flatMap((s) => LIFECYCLE_HUBSPOT_VALUES[s]));
  // "unknown" (missing or any unmapped value) is included: the stage is in the set exactly when the
  // value is not one of the values of the excluded known stages.
  const excluded = known.filter((s) => !stages.has(s)).flatMap((s) => LIFECYCLE_HUBSPOT_VALUES[s]);
  return not(inAtom(prop, excluded));
}

function conditionFormula(cond: Condition, ctx: ResolveContext): Formula {
  switch (cond.field) {
    case 'firstName': case 'lastName': case 'email': case 'company': case 'city': case 'state': case 'country': {
      const prop = FIELD_PROPERTIES[cond.field];
      const field = cond.field;
      const expand = (v: string): string[] =>
        field === 'country' || field === 'state' || field === 'city' ? expandPlaceValue(field, v) : [v];
      switch (cond.op) {
        case 'eq': return inAtom(prop, uniqueCaseInsensitive(expand(cond.value)));
        case 'neq': return not(inAtom(prop, uniqueCaseInsensitive(expand(cond.value))));
        case 'in': return inAtom(prop, uniqueCaseInsensitive(cond.values.flatMap(expand)));
        case 'not_in': return not(inAtom(prop, uniqueCaseInsensitive(cond.values.flatMap(expand))));
        case 'contains': return atom({ a: 'CT', prop, pattern: `*${cond.value}*` });
        case 'not_contains': return not(atom({ a: 'CT', prop, pattern: `*${cond.value}*` }));
        case 'is_set': return atom({ a: 'HAS', prop });
        case 'is_not_set': return not(atom({ a: 'HAS', prop }));
      }
      break;
    }
    case 'lastPurchaseAmount': case 'lifetimeValue': {
      const prop = FIELD_PROPERTIES[cond.field];
      switch (cond.op) {
        case 'eq': return atom({ a: 'EQ', prop, value: cond.value });
        case 'neq': return not(atom({ a: 'EQ', prop, value: cond.value }));
        case 'lt': case 'lte': case 'gt': case 'gte':
          return atom({ a: 'CMP', prop, op: cond.op.toUpperCase() as 'LT', value: cond.value });
        case 'between': return atom({ a: 'BETWEEN', prop, lo: cond.from, hi: cond.to });
        case 'is_set': return atom({ a: 'HAS', prop });
        case 'is_not_set': return not(atom({ a: 'HAS', prop }));
      }
      break;
    }
    case 'lastPurchaseDate': case 'createdAt': {
      const prop = FIELD_PROPERTIES[cond.field];
      switch (cond.op) {
        case 'lt': case 'lte': case 'gt': case 'gte':
          return atom({ a: 'CMP', prop, op: cond.op.toUpperCase() as 'LT', value: resolveDateExpr(cond.value, ctx) });
        case 'between': {
          // from <= x < to  ==  BETWEEN from .. to - 1 ms (HubSpot's BETWEEN is inclusive)
          const lo = resolveDateExpr(cond.from, ctx);
          const hi = resolveDateExpr(cond.to, ctx) - 1;
          return hi < lo ? FALSE : atom({ a: 'BETWEEN', prop, lo, hi });
        }
        case 'is_set': return atom({ a: 'HAS', prop });
        case 'is_not_set': return not(atom({ a: 'HAS', prop }));
      }
      break;
    }
    case 'lifecycleStage': {
      const listed = new Set<LifecycleStage>('values' in cond ? cond.values : [cond.value]);
      const positive = cond.op === 'eq' || cond.op === 'in';
      return lifecycleFormula(new Set(LIFECYCLE_STAGES.filter((s) => listed.has(s) === positive)));
    }
    case 'region': {
      const regions = 'values' in cond ? cond.values : [cond.value];
      const f = inAtom(FIELD_PROPERTIES.country, uniqueCaseInsensitive(regions.flatMap(regionCountryValues)));
      return cond.op === 'eq' || cond.op === 'in' ? f : not(f);
    }
    case 'emailDomain': {
      const domains: string[] = 'values' in cond ? cond.values : [cond.value];
      const f = or(
        ...uniqueCaseInsensitive(domains).map((d) =>
          atom({ a: 'CT', prop: FIELD_PROPERTIES.email, pattern: emailDomainPattern(d) }),
        ),
      );
      return cond.op === 'eq' || cond.op === 'in' ? f : not(f);
    }
    case 'name': {
      const first = FIELD_PROPERTIES.firstName;
      const last = FIELD_PROPERTIES.lastName;
      if (cond.op === 'contains') {
        return or(atom({ a: 'CT', prop: first, pattern: `*${cond.value}*` }), atom({ a: 'CT', prop: last, pattern: `*${cond.value}*` }));
      }
      return or(
        atom({ a: 'EQ', prop: first, value: cond.value }),
        atom({ a: 'EQ', prop: last, value: cond.value }),
        ...nameSplits(cond.value).map(([a, b]) => and(atom({ a: 'EQ', prop: first, value: a }), atom({ a: 'EQ', prop: last, value: b }))),
      );
    }
    case 'hasPurchased': {
      const has = atom({ a: 'HAS', prop: FIELD_PROPERTIES.lastPurchaseDate });
      return cond.value ? has : not(has);
    }
  }
  throw new SegmentationError('INVALID_SEGMENT', `Unsupported condition ${JSON.stringify(cond)}`);
}

/** "acme.com" -> "*@acme.com"; ".edu" -> "*@*.edu" (an address whose domain ends in .edu). */
export function emailDomainPattern(domain: string): string {
  return domain.startsWith('.') ? `*@*${domain}` : `*@${domain}`;
}

function nodeFormula(node: SegmentNode, ctx: ResolveContext): Formula {
  if (isAnd(node)) return and(...node.and.map((n) => nodeFormula(n, ctx)));
  if (isOr(node)) return or(...node.or.map((n) => nodeFormula(n, ctx)));
  if (isNot(node)) return not(nodeFormula(node.not, ctx));
  return conditionFormula(node, ctx);
}

// ---------------------------------------------------------------------------------------------------
// Filters, groups, disjunctive normal form

/** Internal filter: numbers stay numbers until the request is written. */
interface F {
  prop: string;
  op: FilterOperator;
  value?: string | number;
  values?: string[];
  high?: number;
}
type Group = F[];
type DNF = Group[];

const POSITIVE_OPS = new Set<FilterOperator>(['EQ', 'IN', 'CONTAINS_TOKEN', 'LT', 'LTE', 'GT', 'GTE', 'BETWEEN', 'HAS_PROPERTY']);
const NEGATIVE_OPS = new Set<FilterOperator>(['NEQ', 'NOT_IN', 'NOT_CONTAINS_TOKEN']);

function filterKey(f: F): string {
  const values = f.values ? (PROPERTY_KINDS[f.prop] === 'enumeration' ? f.values : f.values.map((v) => v.toLowerCase())) : undefined;
  const value = typeof f.value === 'string' && PROPERTY_KINDS[f.prop] !== 'enumeration' ? f.value.toLowerCase() : f.value;
  return JSON.stringify([f.prop, f.op, value, values ? [...values].sort() : undefined, f.high]);
}

function groupKey(g: Group): string {
  return g.map(filterKey).sort().join('&');
}

/** DNF of a formula; `negated` pushes a NOT down (De Morgan). */
function toDNF(f: Formula, negated: boolean, sem: HubSpotSemantics): DNF {
  switch (f.k) {
    case 'const':
      return f.v !== negated ? [[]] : [];
    case 'not':
      return toDNF(f.x, !negated, sem);
    case 'and':
    case 'or': {
      const conj = (f.k === 'and') !== negated;
      const parts = f.xs.map((x) => toDNF(x, negated, sem));
      if (!conj) return simplifyDNF(parts.flat(), sem);
      let acc: DNF = [[]];
      for (const p of parts) {
        if (acc.length * p.length > MAX_INTERMEDIATE_GROUPS) {
          throw new SegmentationError(
            'SEGMENT_TOO_COMPLEX',
            'This segment combines too many alternatives (ORs inside ANDs) to be turned into HubSpot searches. Simplify the question or split it into several.',
          );
        }
        const next: DNF = [];
        for (const g of acc) for (const h of p) next.push([...g, ...h]);
        acc = simplifyDNF(next, sem);
        if (acc.length === 0) return [];
      }
      return acc;
    }
    case 'atom':
      return negated ? negatedAtom(f.atom, sem) : [[positiveAtom(f.atom)]];
  }
}

function positiveAtom(a: Atom): F {
  switch (a.a) {
    case 'EQ': return { prop: a.prop, op: 'EQ', value: a.value };
    case 'IN': return { prop: a.prop, op: 'IN', values: a.values };
    case 'CT': return { prop: a.prop, op: 'CONTAINS_TOKEN', value: a.pattern };
    case 'CMP': return { prop: a.prop, op: a.op, value: a.value };
    case 'BETWEEN': return { prop: a.prop, op: 'BETWEEN', value: a.lo, high: a.hi };
    case 'HAS': return { prop: a.prop, op: 'HAS_PROPERTY' };
  }
}

/** NOT(atom) with exact missing-property semantics. */
function negatedAtom(a: Atom, sem: HubSpotSemantics): DNF {
  const missing: F = { prop: a.prop, op: 'NOT_HAS_PROPERTY' };
  // NEQ / NOT_IN / NOT_CONTAINS_TOKEN: add "or missing" unless HubSpot already matches missing properties.
  const orMissing = (f: F): DNF => (sem.negativeOperatorsMatchMissing ? [[f]] : [[f], [missing]]);
  switch (a.a) {
    case 'EQ': return orMissing({ prop: a.prop, op: 'NEQ', value: a.value });
    case 'IN': return orMissing({ prop: a.prop, op: 'NOT_IN', values: a.values });
    case 'CT': return orMissing({ prop: a.prop, op: 'NOT_CONTAINS_TOKEN', value: a.pattern });
    case 'CMP': {
      const inverse = { LT: 'GTE', LTE: 'GT', GT: 'LTE', GTE: 'LT' } as const;
      return [[{ prop: a.prop, op: inverse[a.op], value: a.value }], [missing]];
    }
    case 'BETWEEN':
      return [[{ prop: a.prop, op: 'LT', value: a.lo }], [{ prop: a.prop, op: 'GT', value: a.hi }], [missing]];
    case 'HAS':
      return [[missing]];
  }
}

// ---------------------------------------------------------------------------------------------------
// Simplification (every rule is exact under HubSpot's semantics)

interface Bound {
  v: number;
  strict: boolean;
}

/** Simplifies one conjunction; null when it can never match. */
function simplifyGroup(group: Group, sem: HubSpotSemantics): Group | null {
  const byProp = new Map<string, F[]>();
  for (const f of group) {
    const list = byProp.get(f.prop);
    if (list) list.push(f);
    else byProp.set(f.prop, [f]);
  }
  const out: Group = [];
  for (const [prop, filters] of byProp) {
    const simplified = simplifyProperty(prop, filters, sem);
    if (simplified === null) return null;
    out.push(...simplified);
  }
  return out;
}

function requiresPresence(op: FilterOperator, sem: HubSpotSemantics): boolean {
  return POSITIVE_OPS.has(op) || (NEGATIVE_OPS.has(op) && !sem.negativeOperatorsMatchMissing);
}

function simplifyProperty(prop: string, input: F[], sem: HubSpotSemantics): F[] | null {
  // de-duplicate
  const seen = new Set<string>();
  let filters = input.filter((f) => {
    const k = filterKey(f);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const mustBeMissing = filters.some((f) => f.op === 'NOT_HAS_PROPERTY');
  const mustBePresent = filters.some((f) => requiresPresence(f.op, sem));
  if (mustBeMissing && mustBePresent) return null;
  if (mustBeMissing) return [{ prop, op: 'NOT_HAS_PROPERTY' }]; // remaining negatives match missing values
  // HAS_PROPERTY is implied by any other filter that needs the property
  if (filters.some((f) => f.op !== 'HAS_PROPERTY' && requiresPresence(f.op, sem))) {
    filters = filters.filter((f) => f.op !== 'HAS_PROPERTY');
  }

  const kind = PROPERTY_KINDS[prop] ?? 'string';
  const out: F[] = [];
  if (kind === 'number' || kind === 'datetime') {
    const integral = kind === 'datetime';
    let lower: Bound | undefined;
    let upper: Bound | undefined;
    const tighterLower = (b: Bound) => {
      if (integral && b.strict) b = { v: b.v + 1, strict: false };
      if (!lower || b.v > lower.v || (b.v === lower.v && b.strict)) lower = b;
    };
    const tighterUpper = (b: Bound) => {
      if (integral && b.strict) b = { v: b.v - 1, strict: false };
      if (!upper || b.v < upper.v || (b.v === upper.v && b.strict)) upper = b;
    };
    for (const f of filters) {
      const v = f.value as number;
      switch (f.op) {
        case 'GT': tighterLower({ v, strict: true }); break;
        case 'GTE': tighterLower({ v, strict: false }); break;
        case 'LT': tighterUpper({ v, strict: true }); break;
        case 'LTE': tighterUpper({ v, strict: false }); break;
        case 'BETWEEN':
          tighterLower({ v, strict: false });
          tighterUpper({ v: f.high as number, strict: false });
          break;
        default: out.push(f);
      }
    }
    const lo = lower as Bound | undefined;
    const hi = upper as Bound | undefined;
    if (lo && hi) {
      if (lo.v > hi.v || (lo.v === hi.v && (lo.strict || hi.strict))) return null;
      if (!lo.strict && !hi.strict) out.unshift({ prop, op: 'BETWEEN', value: lo.v, high: hi.v });
      else out.unshift({ prop, op: lo.strict ? 'GT' : 'GTE', value: lo.v }, { prop, op: hi.strict ? 'LT' : 'LTE', value: hi.v });
    } else if (lo) out.unshift({ prop, op: lo.strict ? 'GT' : 'GTE', value: lo.v });
    else if (hi) out.unshift({ prop, op: hi.strict ? 'LT' : 'LTE', value: hi.v });
    return out;
  }

  // text and enumeration: intersect the positive value sets, subtract the excluded values
  const exact = kind === 'enumeration';
  const norm = (s: string) => (exact ? s : s.toLowerCase());
  let allowed: Map<string, string> | undefined;
  const excluded = new Map<string, string>();
  for (const f of filters) {
    if (f.op === 'EQ' || f.op === 'IN') {
      const vals = f.op === 'EQ' ? [String(f.value)] : (f.values as string[]);
      const m = new Map(vals.map((v) => [norm(v), v] as const));
      if (!allowed) allowed = m;
      else for (const k of [...allowed.keys()]) if (!m.has(k)) allowed.delete(k);
    } else if (f.op === 'NEQ' || f.op === 'NOT_IN') {
      const vals = f.op === 'NEQ' ? [String(f.value)] : (f.values as string[]);
      for (const v of vals) if (!excluded.has(norm(v))) excluded.set(norm(v), v);
    } else out.push(f);
  }
  if (allowed) {
    for (const k of excluded.keys()) allowed.delete(k);
    if (allowed.size === 0) return null;
    const vals = [...allowed.values()];
    out.unshift(vals.length === 1 ? { prop, op: 'EQ', value: vals[0] } : { prop, op: 'IN', values: vals });
  } else if (excluded.size > 0) {
    const vals = [...excluded.values()];
    out.unshift(vals.length === 1 ? { prop, op: 'NEQ', value: vals[0] } : { prop, op: 'NOT_IN', values: vals });
  }
  return out;
}

function simplifyDNF(dnf: DNF, sem: HubSpotSemantics): DNF {
  let groups: DNF = [];
  const seen = new Set<string>();
  for (const g of dnf) {
    const s = simplifyGroup(g, sem);
    if (!s) continue;
    if (s.length === 0) return [[]]; // one alternative is always true
    const k = groupKey(s);
    if (seen.has(k)) continue;
    seen.add(k);
    groups.push(s);
  }
  groups = absorb(groups);
  return mergeInLists(groups, sem);
}

/** Drops a conjunction that contains all the filters of another one (A OR (A AND B) = A). */
function absorb(groups: DNF): DNF {
  if (groups.length < 2 || groups.length > 400) return groups;
  const keys = groups.map((g) => new Set(g.map(filterKey)));
  const order = groups.map((_, i) => i).sort((a, b) => keys[a].size - keys[b].size);
  const kept: number[] = [];
  for (const i of order) {
    const ki = keys[i];
    if (!kept.some((j) => [...keys[j]].every((k) => ki.has(k)))) kept.push(i);
  }
  kept.sort((a, b) => a - b);
  return kept.map((i) => groups[i]);
}

/** (X AND p IN A) OR (X AND p IN B)  ->  X AND p IN (A u B), for text and enumeration properties. */
function mergeInLists(groups: DNF, sem: HubSpotSemantics): DNF {
  let changed = true;
  while (changed && groups.length > 1) {
    changed = false;
    const buckets = new Map<string, Array<{ gi: number; fi: number }>>();
    groups.forEach((g, gi) => {
      g.forEach((f, fi) => {
        if ((f.op !== 'EQ' && f.op !== 'IN') || PROPERTY_KINDS[f.prop] === 'number' || PROPERTY_KINDS[f.prop] === 'datetime') return;
        const rest = groupKey(g.filter((_, j) => j !== fi));
        const key = `${f.prop}|${rest}`;
        const b = buckets.get(key);
        if (b) b.push({ gi, fi });
        else buckets.set(key, [{ gi, fi }]);
      });
    });
    for (const bucket of buckets.values()) {
      const gis = new Set(bucket.map((b) => b.gi));
      if (gis.size < 2) continue;
      const first = bucket[0];
      const base = groups[first.gi];
      const exact = PROPERTY_KINDS[base[first.fi].prop] === 'enumeration';
      const values: string[] = [];
      const seen = new Set<string>();
      for (const { gi, fi } of bucket) {
        const f = groups[gi][fi];
        for (const v of f.op === 'EQ' ? [String(f.value)] : (f.values as string[])) {
          const k = exact ? v : v.toLowerCase();
          if (!seen.has(k)) {
            seen.add(k);
            values.push(v);
          }
        }
      }
      const merged = base.map((f, j) => (j === first.fi ? { prop: f.prop, op: 'IN' as const, values } : f));
      const next = groups.filter((_, gi) => !gis.has(gi));
      const s = simplifyGroup(merged, sem);
      if (s) next.splice(Math.min(...gis), 0, s);
      groups = next;
      changed = true;
      break;
    }
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------------
// Requests within the limits

function toHubSpotFilter(f: F): HubSpotFilter {
  const out: HubSpotFilter = { propertyName: f.prop, operator: f.op };
  if (f.value !== undefined) out.value = String(f.value);
  // HubSpot: IN / NOT_IN on string properties need lowercase values (other operators fold case).
  if (f.values !== undefined) out.values = PROPERTY_KINDS[f.prop] === 'string' ? uniqueCaseInsensitive(f.values).map((v) => v.toLowerCase()) : [...f.values];
  if (f.high !== undefined) out.highValue = String(f.high);
  return out;
}

function describeGroup(g: Group): string {
  return g.map((f) => `${f.prop} ${f.op}`).join(', ');
}

/** Compiles a segment to HubSpot search requests whose union is exactly the segment. */
export function compileToHubSpot(segment: Segment, opts: CompileOptions = {}): CompiledHubSpotQuery {
  const parsed = segmentSchema.safeParse(segment);
  if (!parsed.success) {
    throw new SegmentationError('INVALID_SEGMENT', `The segment definition is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const seg = parsed.data;
  const ctx = resolveContext(opts);
  const sem = opts.semantics ?? HUBSPOT_SEMANTICS;
  const limits = { ...SEARCH_LIMITS, ...opts.limits };
  const maxSearches = opts.maxSearches ?? 10;
  const properties = [...(opts.properties ?? SEGMENT_PROPERTIES)];
  const pageSize = Math.min(opts.pageSize ?? 100, seg.limit ?? Number.POSITIVE_INFINITY);

  const sort = seg.sort ? hubSpotSort(seg.sort) : undefined;
  const request = (groups: Group[]): CompiledSearch => ({
    filterGroups: groups.map((g) => ({ filters: g.map(toHubSpotFilter) })),
    ...(sort ? { sorts: [sort] } : {}),
    limit: pageSize,
    after: '0',
    properties,
  });
  const bodySize = (groups: Group[]) => JSON.stringify(request(groups)).length;
  const result = (searches: CompiledSearch[]): CompiledHubSpotQuery => ({
    searches,
    ...(sort ? { sort } : {}),
    ...(seg.limit !== undefined ? { maxResults: seg.limit } : {}),
  });

  const dnf = seg.where ? toDNF(nodeFormula(seg.where, ctx), false, sem) : [[]];
  if (dnf.length === 0) return result([]); // can never match: nothing to ask HubSpot
  if (dnf.some((g) => g.length === 0)) return result([request([])]); // everyone

  // Every conjunction must fit in one filter group and one request body.
  const groups: Group[] = [];
  const pending = [...dnf];
  while (pending.length > 0) {
    const g = pending.shift() as Group;
    if (g.length > limits.maxFiltersPerGroup) {
      throw new SegmentationError(
        'TOO_MANY_FILTERS_IN_GROUP',
        `This segment needs ${g.length} conditions to hold at the same time, but HubSpot allows at most ${limits.maxFiltersPerGroup} in one filter group (${describeGroup(g)}). Remove a condition or split the question.`,
        { filters: g.length },
      );
    }
    if (bodySize([g]) <= limits.maxBodyChars) {
      groups.push(g);
      continue;
    }
    // Too large: split the longest IN list over two groups (p IN (A u B) = p IN A OR p IN B).
    let idx = -1;
    g.forEach((f, i) => {
      if (f.op === 'IN' && (f.values?.length ?? 0) > 1 && (idx < 0 || (f.values?.length ?? 0) > (g[idx].values?.length ?? 0))) idx = i;
    });
    if (idx < 0) {
      throw new SegmentationError(
        'REQUEST_TOO_LARGE',
        `A part of this segment does not fit in HubSpot's ${limits.maxBodyChars}-character request limit (${describeGroup(g)}). Use fewer values in the excluded lists.`,
      );
    }
    const vals = g[idx].values as string[];
    const half = Math.ceil(vals.length / 2);
    for (const part of [vals.slice(0, half), vals.slice(half)]) {
      const f: F = part.length === 1 ? { prop: g[idx].prop, op: 'EQ', value: part[0] } : { prop: g[idx].prop, op: 'IN', values: part };
      pending.unshift(g.map((x, i) => (i === idx ? f : x)));
    }
  }

  // Pack the groups into as few searches as the limits allow (first fit, order kept).
  const packed: Group[][] = [];
  for (const g of groups) {
    const target = packed.find((s) => {
      const candidate = [...s, g];
      return (
        candidate.length <= limits.maxFilterGroups &&
        candidate.reduce((n, x) => n + x.length, 0) <= limits.maxFiltersTotal &&
        bodySize(candidate) <= limits.maxBodyChars
      );
    });
    if (target) target.push(g);
    else packed.push([g]);
  }
  if (packed.length > maxSearches) {
    throw new SegmentationError(
      'TOO_MANY_SEARCHES',
      `This segment would need ${packed.length} separate HubSpot searches (at most ${maxSearches} are allowed). Simplify the question or split it into several.`,
      { searches: packed.length },
    );
  }
  return result(packed.map(request));
}
