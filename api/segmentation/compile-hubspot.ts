/**
 * Segment -> HubSpot CRM search requests.
 *
 * 1. Every condition becomes a small formula over "atoms" (EQ, IN, CONTAINS_TOKEN, LT/LTE/GT/GTE,
 *    BETWEEN, HAS_PROPERTY), each of which is false for a contact without the property. Lifecycle
 *    stages are expanded to HubSpot's internal values, regions to `IN` country lists, dates are
 *    resolved against `now` / the time zone.
 * 2.-3. The formula becomes a simplified disjunctive normal form over HubSpot filters, exact for
 *    contacts without a property (filter-algebra.ts).
 * 4. The groups are packed into searches within HubSpot's limits (<= 5 groups, <= 6 filters per group,
 *    <= 18 filters, body <= 3,000 chars). The union of the searches is the segment: the caller runs every
 *    search, merges and de-duplicates by id, sorts (missing values last) and keeps `maxResults`.
 *    Nothing is ever dropped; what cannot be expressed raises a SegmentationError.
 */
import {
  FIELD_PROPERTIES,
  ID_PROPERTY,
  LIFECYCLE_HUBSPOT_VALUES,
  PROPERTY_KINDS,
  SEARCH_LIMITS,
  type HubSpotFilter,
  type PropertyKind,
  type SearchLimits,
} from '../crm/hubspot/model/index.js';
import { MAPPABLE_FIELD_KINDS, MAPPABLE_FIELDS, type FieldMap } from '../crm/field-map.js';
import type { Condition, Segment, SegmentNode, SegmentSort } from './ast.js';
import { LIFECYCLE_STAGES, isAnd, isNot, isOr, segmentSchema, type LifecycleStage } from './ast.js';
import { SegmentationError } from './errors.js';
import { nameSplits } from './evaluate.js';
import { and, atom, FALSE, not, or, toDNF, TRUE, type FilterTerm, type Formula, type Group } from './filter-algebra.js';
import type { CompiledHubSpotQuery, CompiledSearch } from './hubspot-query.js';
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
  /** Properties to return. Default: every property a segment reads. */
  properties?: string[];
  /**
   * The connection's field map (which properties hold the customer fields, which lifecycle values mean
   * which stage). Default: HubSpot's own properties and lifecycle stages (the HubSpot model).
   */
  fieldMap?: FieldMap;
}

/** Where the compiler reads each customer field and lifecycle stage, from the field map. */
interface Vocabulary {
  prop: Record<keyof typeof FIELD_PROPERTIES, string>;
  /** product stage → the HubSpot values that mean it (in the model's order of stages) */
  stageValues: Record<keyof typeof LIFECYCLE_HUBSPOT_VALUES, string[]>;
  /** detailed stage → the HubSpot values that mean it */
  detailedValues: (stage: string) => string[];
  kinds: Record<string, PropertyKind>;
}

const STAGE_ORDER = Object.keys(LIFECYCLE_HUBSPOT_VALUES) as Array<keyof typeof LIFECYCLE_HUBSPOT_VALUES>;

const DEFAULT_VOCABULARY: Vocabulary = {
  prop: FIELD_PROPERTIES,
  stageValues: Object.fromEntries(STAGE_ORDER.map((s) => [s, [...LIFECYCLE_HUBSPOT_VALUES[s]]])) as Vocabulary['stageValues'],
  detailedValues: (stage) => [stage],
  kinds: {},
};

const KIND_OF_FIELD = { text: 'string', number: 'number', date: 'datetime', stage: 'enumeration' } as const;

function vocabularyOf(map: FieldMap | undefined): Vocabulary {
  if (!map) return DEFAULT_VOCABULARY;
  const prop = { ...FIELD_PROPERTIES, ...map.fields, id: ID_PROPERTY } as Vocabulary['prop'];
  const byDetailed = new Map<string, string[]>();
  for (const [value, stage] of Object.entries(map.stages)) byDetailed.set(stage, [...(byDetailed.get(stage) ?? []), value]);
  const stageValues = Object.fromEntries(
    STAGE_ORDER.map((s) => [s, LIFECYCLE_HUBSPOT_VALUES[s].flatMap((detailed) => byDetailed.get(detailed) ?? [])]),
  ) as Vocabulary['stageValues'];
  // Custom properties compare as their customer field's kind (HubSpot's own are known to the model).
  const kinds: Record<string, PropertyKind> = {};
  for (const f of MAPPABLE_FIELDS) if (!(map.fields[f] in PROPERTY_KINDS)) kinds[map.fields[f]] = KIND_OF_FIELD[MAPPABLE_FIELD_KINDS[f]];
  return { prop, stageValues, detailedValues: (stage) => byDetailed.get(stage) ?? [], kinds };
}

/** A segment's sort as a HubSpot sort, through the field map. */
function sortOf(sort: SegmentSort, v: Vocabulary) {
  return { propertyName: v.prop[sort.field], direction: sort.direction === 'asc' ? ('ASCENDING' as const) : ('DESCENDING' as const) };
}

// ---------------------------------------------------------------------------------------------------
// Conditions as formulas

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
  return values.length === 1 ? atom({ kind: 'EQ', prop, value: values[0] }) : atom({ kind: 'IN', prop, values });
}

function lifecycleFormula(stages: Set<LifecycleStage>, v: Vocabulary): Formula {
  if (stages.size === LIFECYCLE_STAGES.length) return TRUE;
  if (stages.size === 0) return FALSE;
  const prop = v.prop.lifecycleStage;
  if (!stages.has('unknown')) return inAtom(prop, STAGE_ORDER.filter((s) => stages.has(s)).flatMap((s) => v.stageValues[s]));
  // "unknown" (missing or any unmapped value) is included: the stage is in the set exactly when the
  // value is not one of the values of the excluded known stages.
  const excluded = STAGE_ORDER.filter((s) => !stages.has(s)).flatMap((s) => v.stageValues[s]);
  return not(inAtom(prop, excluded));
}

function conditionFormula(cond: Condition, ctx: ResolveContext, v: Vocabulary): Formula {
  switch (cond.field) {
    case 'firstName': case 'lastName': case 'email': case 'company': case 'city': case 'state': case 'country': {
      const prop = v.prop[cond.field];
      const field = cond.field;
      const expand = (v: string): string[] =>
        field === 'country' || field === 'state' || field === 'city' ? expandPlaceValue(field, v) : [v];
      switch (cond.op) {
        case 'eq': return inAtom(prop, uniqueCaseInsensitive(expand(cond.value)));
        case 'neq': return not(inAtom(prop, uniqueCaseInsensitive(expand(cond.value))));
        case 'in': return inAtom(prop, uniqueCaseInsensitive(cond.values.flatMap(expand)));
        case 'not_in': return not(inAtom(prop, uniqueCaseInsensitive(cond.values.flatMap(expand))));
        case 'contains': return atom({ kind: 'CT', prop, pattern: `*${cond.value}*` });
        case 'not_contains': return not(atom({ kind: 'CT', prop, pattern: `*${cond.value}*` }));
        case 'is_set': return atom({ kind: 'HAS', prop });
        case 'is_not_set': return not(atom({ kind: 'HAS', prop }));
      }
      break;
    }
    case 'lastPurchaseAmount': case 'lifetimeValue': {
      const prop = v.prop[cond.field];
      switch (cond.op) {
        case 'eq': return atom({ kind: 'EQ', prop, value: cond.value });
        case 'neq': return not(atom({ kind: 'EQ', prop, value: cond.value }));
        case 'lt': case 'lte': case 'gt': case 'gte':
          return atom({ kind: 'CMP', prop, op: cond.op.toUpperCase() as 'LT', value: cond.value });
        case 'between': return atom({ kind: 'BETWEEN', prop, lo: cond.from, hi: cond.to });
        case 'is_set': return atom({ kind: 'HAS', prop });
        case 'is_not_set': return not(atom({ kind: 'HAS', prop }));
      }
      break;
    }
    case 'lastPurchaseDate': case 'createdAt': {
      const prop = v.prop[cond.field];
      switch (cond.op) {
        case 'lt': case 'lte': case 'gt': case 'gte':
          return atom({ kind: 'CMP', prop, op: cond.op.toUpperCase() as 'LT', value: resolveDateExpr(cond.value, ctx) });
        case 'between': {
          // from <= x < to  ==  BETWEEN from .. to - 1 ms (HubSpot's BETWEEN is inclusive)
          const lo = resolveDateExpr(cond.from, ctx);
          const hi = resolveDateExpr(cond.to, ctx) - 1;
          return hi < lo ? FALSE : atom({ kind: 'BETWEEN', prop, lo, hi });
        }
        case 'is_set': return atom({ kind: 'HAS', prop });
        case 'is_not_set': return not(atom({ kind: 'HAS', prop }));
      }
      break;
    }
    case 'lifecycleStage': {
      const listed = new Set<LifecycleStage>('values' in cond ? cond.values : [cond.value]);
      const positive = cond.op === 'eq' || cond.op === 'in';
      return lifecycleFormula(new Set(LIFECYCLE_STAGES.filter((s) => listed.has(s) === positive)), v);
    }
    case 'hubspotStage': {
      const f = inAtom(v.prop.lifecycleStage, ('values' in cond ? [...cond.values] : [cond.value]).flatMap(v.detailedValues));
      return cond.op === 'eq' || cond.op === 'in' ? f : not(f);
    }
    case 'region': {
      const regions = 'values' in cond ? cond.values : [cond.value];
      const f = inAtom(v.prop.country, uniqueCaseInsensitive(regions.flatMap(regionCountryValues)));
      return cond.op === 'eq' || cond.op === 'in' ? f : not(f);
    }
    case 'emailDomain': {
      const domains: string[] = 'values' in cond ? cond.values : [cond.value];
      const f = or(
        ...uniqueCaseInsensitive(domains).map((d) =>
          atom({ kind: 'CT', prop: v.prop.email, pattern: emailDomainPattern(d) }),
        ),
      );
      return cond.op === 'eq' || cond.op === 'in' ? f : not(f);
    }
    case 'name': {
      const first = v.prop.firstName;
      const last = v.prop.lastName;
      if (cond.op === 'contains') {
        return or(atom({ kind: 'CT', prop: first, pattern: `*${cond.value}*` }), atom({ kind: 'CT', prop: last, pattern: `*${cond.value}*` }));
      }
      return or(
        atom({ kind: 'EQ', prop: first, value: cond.value }),
        atom({ kind: 'EQ', prop: last, value: cond.value }),
        ...nameSplits(cond.value).map(([a, b]) => and(atom({ kind: 'EQ', prop: first, value: a }), atom({ kind: 'EQ', prop: last, value: b }))),
      );
    }
    case 'hasPurchased': {
      const has = atom({ kind: 'HAS', prop: v.prop.lastPurchaseDate });
      return cond.value ? has : not(has);
    }
  }
  throw new SegmentationError('INVALID_SEGMENT', `Unsupported condition ${JSON.stringify(cond)}`);
}

/** "acme.com" -> "*@acme.com"; ".edu" -> "*@*.edu" (an address whose domain ends in .edu). */
export function emailDomainPattern(domain: string): string {
  return domain.startsWith('.') ? `*@*${domain}` : `*@${domain}`;
}

function nodeFormula(node: SegmentNode, ctx: ResolveContext, v: Vocabulary): Formula {
  if (isAnd(node)) return and(...node.and.map((n) => nodeFormula(n, ctx, v)));
  if (isOr(node)) return or(...node.or.map((n) => nodeFormula(n, ctx, v)));
  if (isNot(node)) return not(nodeFormula(node.not, ctx, v));
  return conditionFormula(node, ctx, v);
}

// ---------------------------------------------------------------------------------------------------
// Requests within the limits

function toHubSpotFilter(f: FilterTerm, kinds: Record<string, PropertyKind>): HubSpotFilter {
  const out: HubSpotFilter = { propertyName: f.prop, operator: f.op };
  if (f.value !== undefined) out.value = String(f.value);
  // HubSpot: IN / NOT_IN on string properties need lowercase values (other operators fold case).
  const kind = PROPERTY_KINDS[f.prop] ?? kinds[f.prop];
  if (f.values !== undefined) out.values = kind === 'string' ? uniqueCaseInsensitive(f.values).map((v) => v.toLowerCase()) : [...f.values];
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
  const vocabulary = vocabularyOf(opts.fieldMap);
  const base = opts.semantics ?? HUBSPOT_SEMANTICS;
  const sem = Object.keys(vocabulary.kinds).length ? { ...base, propertyKinds: { ...base.propertyKinds, ...vocabulary.kinds } } : base;
  const limits = { ...SEARCH_LIMITS, ...opts.limits };
  const maxSearches = opts.maxSearches ?? 10;
  const properties = [...(opts.properties ?? [...new Set(Object.values(vocabulary.prop))])];
  const pageSize = Math.min(opts.pageSize ?? 100, seg.limit ?? Number.POSITIVE_INFINITY);

  const sort = seg.sort ? sortOf(seg.sort, vocabulary) : undefined;
  const request = (groups: Group[]): CompiledSearch => ({
    filterGroups: groups.map((g) => ({ filters: g.map((f) => toHubSpotFilter(f, vocabulary.kinds)) })),
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

  const dnf = seg.where ? toDNF(nodeFormula(seg.where, ctx, vocabulary), false, sem) : [[]];
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
      const f: FilterTerm = part.length === 1 ? { prop: g[idx].prop, op: 'EQ', value: part[0] } : { prop: g[idx].prop, op: 'IN', values: part };
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
