/**
 * Boolean algebra over HubSpot filters, every rule exact under HubSpot's missing-property semantics
 * (hubspot-semantics.ts):
 *  - a formula is built from atoms, each false for a contact without the property;
 *  - NOT is pushed down to the atoms (De Morgan); a negated atom becomes filters that stay exact for
 *    contacts without the property: NOT(GT x) = LTE x OR NOT_HAS_PROPERTY, NOT(EQ x) = NEQ x (OR
 *    NOT_HAS_PROPERTY when negative operators do not match missing properties);
 *  - the result is a disjunctive normal form (groups ORed, filters ANDed, as HubSpot's filterGroups);
 *    each group is simplified (bounds merged, contradictions dropped, IN lists intersected), groups
 *    that contain another are absorbed, and groups that differ only in one EQ/IN merge into one IN.
 */
import { PROPERTY_KINDS, type FilterOperator, type PropertyKind } from '../crm/hubspot/model/index.js';
import { SegmentationError } from './errors.js';
import type { HubSpotSemantics } from './hubspot-semantics.js';

/** Guard against exponential expansion while building the normal form. */
const MAX_INTERMEDIATE_GROUPS = 4096;

// ---------------------------------------------------------------------------------------------------
// Formula over atoms

/** A test that is false for a contact without the property (CT = CONTAINS_TOKEN, CMP = LT/LTE/GT/GTE). */
export type Atom =
  | { kind: 'EQ'; prop: string; value: string | number }
  | { kind: 'IN'; prop: string; values: string[] }
  | { kind: 'CT'; prop: string; pattern: string }
  | { kind: 'CMP'; prop: string; op: 'LT' | 'LTE' | 'GT' | 'GTE'; value: number }
  | { kind: 'BETWEEN'; prop: string; lo: number; hi: number }
  | { kind: 'HAS'; prop: string };

export type Formula =
  | { kind: 'atom'; atom: Atom }
  | { kind: 'not'; operand: Formula }
  | { kind: 'and'; operands: Formula[] }
  | { kind: 'or'; operands: Formula[] }
  | { kind: 'const'; value: boolean };

export const TRUE: Formula = { kind: 'const', value: true };
export const FALSE: Formula = { kind: 'const', value: false };
export const atom = (a: Atom): Formula => ({ kind: 'atom', atom: a });
export const not = (operand: Formula): Formula => ({ kind: 'not', operand });
export const and = (...operands: Formula[]): Formula => ({ kind: 'and', operands });
export const or = (...operands: Formula[]): Formula => ({ kind: 'or', operands });

// ---------------------------------------------------------------------------------------------------
// Filters, groups, disjunctive normal form

/** One HubSpot filter before it is written: numbers stay numbers until the request is written. */
export interface FilterTerm {
  prop: string;
  op: FilterOperator;
  value?: string | number;
  values?: string[];
  high?: number;
}

/** Filters ANDed: one HubSpot filter group. */
export type Group = FilterTerm[];
/** Groups ORed: the segment as HubSpot filter groups. */
export type DNF = Group[];

const POSITIVE_OPS = new Set<FilterOperator>(['EQ', 'IN', 'CONTAINS_TOKEN', 'LT', 'LTE', 'GT', 'GTE', 'BETWEEN', 'HAS_PROPERTY']);
const NEGATIVE_OPS = new Set<FilterOperator>(['NEQ', 'NOT_IN', 'NOT_CONTAINS_TOKEN']);

/** How a property compares: HubSpot's own properties by the model, a connection's custom ones as its field map says. */
function kindOf(prop: string, sem: HubSpotSemantics): PropertyKind | undefined {
  return PROPERTY_KINDS[prop] ?? sem.propertyKinds?.[prop];
}

function filterKey(f: FilterTerm, sem: HubSpotSemantics): string {
  const values = f.values ? (kindOf(f.prop, sem) === 'enumeration' ? f.values : f.values.map((v) => v.toLowerCase())) : undefined;
  const value = typeof f.value === 'string' && kindOf(f.prop, sem) !== 'enumeration' ? f.value.toLowerCase() : f.value;
  return JSON.stringify([f.prop, f.op, value, values ? [...values].sort() : undefined, f.high]);
}

function groupKey(g: Group, sem: HubSpotSemantics): string {
  return g.map((f) => filterKey(f, sem)).sort().join('&');
}

/** DNF of a formula; `negated` pushes a NOT down (De Morgan). */
export function toDNF(f: Formula, negated: boolean, sem: HubSpotSemantics): DNF {
  switch (f.kind) {
    case 'const':
      return f.value !== negated ? [[]] : [];
    case 'not':
      return toDNF(f.operand, !negated, sem);
    case 'and':
    case 'or': {
      const conj = (f.kind === 'and') !== negated;
      const parts = f.operands.map((x) => toDNF(x, negated, sem));
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

function positiveAtom(a: Atom): FilterTerm {
  switch (a.kind) {
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
  const missing: FilterTerm = { prop: a.prop, op: 'NOT_HAS_PROPERTY' };
  // NEQ / NOT_IN / NOT_CONTAINS_TOKEN: add "or missing" unless HubSpot already matches missing properties.
  const orMissing = (f: FilterTerm): DNF => (sem.negativeOperatorsMatchMissing ? [[f]] : [[f], [missing]]);
  switch (a.kind) {
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
  const byProp = new Map<string, FilterTerm[]>();
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

function simplifyProperty(prop: string, input: FilterTerm[], sem: HubSpotSemantics): FilterTerm[] | null {
  // de-duplicate
  const seen = new Set<string>();
  let filters = input.filter((f) => {
    const k = filterKey(f, sem);
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

  const kind = kindOf(prop, sem) ?? 'string';
  const out: FilterTerm[] = [];
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
    const k = groupKey(s, sem);
    if (seen.has(k)) continue;
    seen.add(k);
    groups.push(s);
  }
  groups = absorb(groups, sem);
  return mergeInLists(groups, sem);
}

/** Drops a conjunction that contains all the filters of another one (A OR (A AND B) = A). */
function absorb(groups: DNF, sem: HubSpotSemantics): DNF {
  if (groups.length < 2 || groups.length > 400) return groups;
  const keys = groups.map((g) => new Set(g.map((f) => filterKey(f, sem))));
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
        if ((f.op !== 'EQ' && f.op !== 'IN') || kindOf(f.prop, sem) === 'number' || kindOf(f.prop, sem) === 'datetime') return;
        const rest = groupKey(g.filter((_, j) => j !== fi), sem);
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
      const exact = kindOf(base[first.fi].prop, sem) === 'enumeration';
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
