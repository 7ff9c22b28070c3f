import { describe, expect, it } from 'vitest';
import type { Condition, Segment, SegmentNode } from './ast.js';
import { compileToHubSpot } from './compile-hubspot.js';
import { SegmentationError } from './errors.js';
import { compileEvaluator } from './evaluate.js';
import { SEARCH_LIMITS, type HubSpotContact, type HubSpotFilter } from '../crm/hubspot/model/index.js';
import type { CompiledHubSpotQuery } from './hubspot-query.js';
import { regionCountryValues } from './regions.js';
import { runCompiledQuery } from './testing/hubspot-reference.js';

const NOW = Date.UTC(2026, 5, 15, 12);
const opts = { now: NOW, timeZone: 'UTC' };
const seg = (where?: SegmentNode, extra: Partial<Segment> = {}): Segment => ({ version: 1, ...(where ? { where } : {}), ...extra });
const eq = (field: string, value: unknown) => ({ field, op: 'eq', value }) as Condition;
const c = (field: string, op: string, value?: unknown) =>
  (value === undefined ? { field, op } : Array.isArray(value) ? { field, op, values: value } : { field, op, value }) as Condition;

function filters(q: CompiledHubSpotQuery): HubSpotFilter[][] {
  return q.searches.flatMap((s) => s.filterGroups.map((g) => g.filters));
}

function expectWithinLimits(q: CompiledHubSpotQuery) {
  for (const s of q.searches) {
    expect(s.filterGroups.length).toBeLessThanOrEqual(SEARCH_LIMITS.maxFilterGroups);
    expect(s.filterGroups.reduce((n, g) => n + g.filters.length, 0)).toBeLessThanOrEqual(SEARCH_LIMITS.maxFiltersTotal);
    for (const g of s.filterGroups) expect(g.filters.length).toBeLessThanOrEqual(SEARCH_LIMITS.maxFiltersPerGroup);
    expect(JSON.stringify(s).length).toBeLessThanOrEqual(SEARCH_LIMITS.maxBodyChars);
  }
}

/** Contacts covering present, missing and boundary values of every property the tests use. */
function contacts(): HubSpotContact[] {
  const out: HubSpotContact[] = [];
  const countries = ['Germany', 'France', 'Spain', 'Italy', 'Japan', 'Canada', 'Brazil', 'United States', 'USA', null, ''];
  const stages = ['lead', 'salesqualifiedlead', 'customer', 'evangelist', 'subscriber', 'opportunity', 'other', null];
  const ltv = ['0', '4999', '5000', '5001', '20000', null];
  let id = 1;
  for (const country of countries) {
    for (const lifecyclestage of stages) {
      for (const total_revenue of ltv) {
        out.push({
          id: String(id++),
          properties: {
            country,
            lifecyclestage,
            total_revenue,
            recent_deal_close_date: id % 3 === 0 ? null : String(NOW - (id % 50) * 86_400_000),
            email: id % 4 === 0 ? `a${id}@acme.com` : id % 4 === 1 ? `b${id}@gmail.com` : null,
            city: id % 5 === 0 ? 'Berlin' : null,
          },
        });
      }
    }
  }
  return out;
}

function expectExact(segment: Segment, q = compileToHubSpot(segment, opts)) {
  const cs = contacts();
  const expected = cs.filter(compileEvaluator(segment, opts)).map((x) => x.id);
  expect([...runCompiledQuery(q, cs)].sort((a, b) => Number(a) - Number(b))).toEqual(expected);
}

describe('compileToHubSpot: shapes', () => {
  it('compiles the spec example into one search with one AND group', () => {
    const s = seg({
      and: [
        eq('region', 'Europe'),
        c('lastPurchaseDate', 'gte', { kind: 'relative', amount: 30, unit: 'day', direction: 'past' }),
        c('lifetimeValue', 'gt', 5000),
      ],
    });
    const q = compileToHubSpot(s, opts);
    expect(q.searches).toHaveLength(1);
    const [group] = filters(q);
    expect(group).toHaveLength(3);
    expect(group[0]).toMatchObject({ propertyName: 'country', operator: 'IN' });
    expect(group[0].values).toEqual(regionCountryValues('Europe').map((v) => v.toLowerCase()));
    expect(group[1]).toEqual({ propertyName: 'recent_deal_close_date', operator: 'GTE', value: String(NOW - 30 * 86_400_000) });
    expect(group[2]).toEqual({ propertyName: 'total_revenue', operator: 'GT', value: '5000' });
    expect(q.searches[0]).toMatchObject({ limit: 100, after: '0' });
    expect(q.searches[0].properties).toContain('hs_object_id');
    expectExact(s, q);
  });

  it('expands lifecycle stages to HubSpot internal values', () => {
    expect(filters(compileToHubSpot(seg(eq('lifecycleStage', 'lead')), opts))).toEqual([
      [{ propertyName: 'lifecyclestage', operator: 'IN', values: ['lead', 'marketingqualifiedlead', 'salesqualifiedlead'] }],
    ]);
    expect(filters(compileToHubSpot(seg(eq('lifecycleStage', 'customer')), opts))).toEqual([
      [{ propertyName: 'lifecyclestage', operator: 'IN', values: ['customer', 'evangelist'] }],
    ]);
    // unknown = missing or any value that is not a known stage
    const unknown = filters(compileToHubSpot(seg(eq('lifecycleStage', 'unknown')), opts));
    expect(unknown).toHaveLength(1);
    expect(unknown[0][0].operator).toBe('NOT_IN');
    expect(unknown[0][0].values).toHaveLength(7);
    // without the negative-operators-match-missing assumption, missing needs its own group
    const strict = filters(compileToHubSpot(seg(eq('lifecycleStage', 'unknown')), { ...opts, semantics: { negativeOperatorsMatchMissing: false } }));
    expect(strict.map((g) => g.map((f) => f.operator))).toEqual([['NOT_IN'], ['NOT_HAS_PROPERTY']]);
    // NOT(lead) is the other four stages, including unknown
    const notLead = filters(compileToHubSpot(seg({ not: eq('lifecycleStage', 'lead') }), opts));
    expect(notLead).toEqual([[{ propertyName: 'lifecyclestage', operator: 'NOT_IN', values: ['lead', 'marketingqualifiedlead', 'salesqualifiedlead'] }]]);
    expectExact(seg(eq('lifecycleStage', 'unknown')));
    expectExact(seg({ not: c('lifecycleStage', 'in', ['lead', 'customer']) }));
  });

  it('keeps NOT exact for contacts without the property', () => {
    // NOT(GT) = LTE OR NOT_HAS_PROPERTY
    const q = compileToHubSpot(seg({ not: c('lifetimeValue', 'gt', 5000) }), opts);
    expect(filters(q)).toEqual([
      [{ propertyName: 'total_revenue', operator: 'LTE', value: '5000' }],
      [{ propertyName: 'total_revenue', operator: 'NOT_HAS_PROPERTY' }],
    ]);
    // NOT(IN) = NOT_IN, which matches missing values under the assumed semantics
    expect(filters(compileToHubSpot(seg({ not: eq('region', 'Asia-Pacific') }), opts))[0][0].operator).toBe('NOT_IN');
    expectExact(seg({ not: c('lifetimeValue', 'gt', 5000) }));
    expectExact(seg({ not: { field: 'lifetimeValue', op: 'between', from: 1000, to: 5000 } }));
  });

  it('pushes NOT through AND and OR (De Morgan)', () => {
    const s = seg({ not: { and: [eq('country', 'Germany'), { or: [c('lifetimeValue', 'gt', 5000), eq('lifecycleStage', 'customer')] }] } });
    const q = compileToHubSpot(s, opts);
    expectWithinLimits(q);
    expectExact(s, q);
    // NOT(Germany AND (ltv>5000 OR customer)) = country != Germany OR (ltv <= 5000 or missing) AND not customer
    const ops = filters(q).map((g) => g.map((f) => `${f.propertyName}:${f.operator}`).sort().join('&'));
    expect(ops).toContain('country:NEQ');
  });

  it('turns ORed equalities on one property into one IN', () => {
    const s = seg({ or: [eq('country', 'Germany'), eq('country', 'France'), eq('country', 'Spain')] });
    expect(filters(compileToHubSpot(s, opts))).toEqual([[{ propertyName: 'country', operator: 'IN', values: ['germany', 'france', 'spain'] }]]);
  });

  it('matches spelling variants of countries and states', () => {
    const q = compileToHubSpot(seg(eq('country', 'United States')), opts);
    expect(filters(q)[0][0].values).toEqual(['united states', 'usa', 'us', 'u.s.', 'u.s.a.', 'united states of america']);
    expect(filters(compileToHubSpot(seg(eq('state', 'California')), opts))[0][0].values).toEqual(['california', 'ca']);
  });

  it('compiles e-mail domains, names and purchases', () => {
    expect(filters(compileToHubSpot(seg(eq('emailDomain', 'acme.com')), opts))).toEqual([[{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@acme.com' }]]);
    expect(filters(compileToHubSpot(seg(eq('emailDomain', '.edu')), opts))[0][0].value).toBe('*@*.edu');
    expect(filters(compileToHubSpot(seg(eq('hasPurchased', false)), opts))).toEqual([[{ propertyName: 'recent_deal_close_date', operator: 'NOT_HAS_PROPERTY' }]]);
    const name = filters(compileToHubSpot(seg(eq('name', 'Mary Ann')), opts));
    expect(name).toHaveLength(3); // first = value, last = value, first "Mary" and last "Ann"
    expectExact(seg({ not: c('emailDomain', 'in', ['acme.com', 'gmail.com']) }));
  });

  it('resolves date ranges as from <= date < to with an inclusive BETWEEN', () => {
    const q = compileToHubSpot(seg({ field: 'lastPurchaseDate', op: 'between', from: { kind: 'anchor', unit: 'month', offset: -1 }, to: { kind: 'anchor', unit: 'month', offset: 0 } }), opts);
    expect(filters(q)).toEqual([[{ propertyName: 'recent_deal_close_date', operator: 'BETWEEN', value: String(Date.UTC(2026, 4, 1)), highValue: String(Date.UTC(2026, 5, 1) - 1) }]]);
  });

  it('carries sort and limit', () => {
    const q = compileToHubSpot(seg(eq('country', 'Germany'), { sort: { field: 'lifetimeValue', direction: 'desc' }, limit: 20 }), opts);
    expect(q.sort).toEqual({ propertyName: 'total_revenue', direction: 'DESCENDING' });
    expect(q.maxResults).toBe(20);
    expect(q.searches[0].sorts).toEqual([{ propertyName: 'total_revenue', direction: 'DESCENDING' }]);
    expect(q.searches[0].limit).toBe(20);
  });

  it('handles "everyone" and "no one"', () => {
    expect(compileToHubSpot(seg(), opts).searches).toEqual([expect.objectContaining({ filterGroups: [] })]);
    expect(compileToHubSpot(seg({ or: [] }), opts).searches).toEqual([]);
    expect(compileToHubSpot(seg({ and: [eq('country', 'Germany'), { not: eq('country', 'Germany') }] }), opts).searches).toEqual([]);
    expect(compileToHubSpot(seg(c('lifecycleStage', 'in', ['subscriber', 'lead', 'opportunity', 'customer', 'unknown'])), opts).searches[0].filterGroups).toEqual([]);
  });
});

describe('compileToHubSpot: limits and splitting', () => {
  it('splits 7 ORed alternatives x 3 other conditions into several searches whose union is the segment', () => {
    // seven alternatives on different properties cannot be merged into one IN
    const alternatives: SegmentNode[] = [
      eq('country', 'Germany'), c('company', 'contains', 'Acme'), eq('city', 'Berlin'), eq('emailDomain', 'acme.com'),
      c('lifetimeValue', 'gte', 20000), eq('lifecycleStage', 'subscriber'), c('lastPurchaseAmount', 'gt', 100),
    ];
    const s = seg({
      and: [
        { or: alternatives },
        c('lastPurchaseDate', 'gte', { kind: 'relative', amount: 60, unit: 'day', direction: 'past' }),
        { not: eq('lifecycleStage', 'opportunity') },
        c('lifetimeValue', 'is_set'),
      ],
    });
    const q = compileToHubSpot(s, opts);
    expect(q.searches.length).toBeGreaterThan(1);
    expectWithinLimits(q);
    expectExact(s, q);
  });

  it('merges 7 ORed countries into one IN when the rest is shared', () => {
    const countries = ['Germany', 'France', 'Spain', 'Italy', 'Japan', 'Canada', 'Brazil'];
    const s = seg({ and: [{ or: countries.map((x) => eq('country', x)) }, c('lifetimeValue', 'gt', 5000), eq('lifecycleStage', 'customer'), eq('emailDomain', 'acme.com')] });
    const q = compileToHubSpot(s, opts);
    expect(q.searches).toHaveLength(1);
    expect(filters(q)).toHaveLength(1);
    expectExact(s, q);
  });

  it('handles deep nesting', () => {
    let node: SegmentNode = eq('country', 'Germany');
    for (let i = 0; i < 12; i++) {
      node = i % 3 === 0 ? { not: node } : i % 3 === 1 ? { and: [node, c('lifetimeValue', 'gt', i * 1000)] } : { or: [node, eq('lifecycleStage', 'lead')] };
    }
    const s = seg(node);
    const q = compileToHubSpot(s, { ...opts, maxSearches: 50 });
    expectWithinLimits(q);
    expectExact(s, q);
  });

  it('splits a group whose IN list is too long for one request body', () => {
    const s = seg({ and: [c('region', 'in', ['Europe', 'Asia-Pacific', 'Middle East & Africa', 'Latin America']), c('lifetimeValue', 'gt', 1)] });
    const q = compileToHubSpot(s, opts);
    expect(filters(q).length).toBeGreaterThan(1);
    expectWithinLimits(q);
    expectExact(s, q);
  });

  it('refuses a conjunction of more than 6 conditions with a typed, readable error', () => {
    const s = seg({
      and: [
        c('lifetimeValue', 'gt', 1), c('lastPurchaseAmount', 'gt', 1), eq('country', 'Germany'), eq('city', 'Berlin'),
        eq('emailDomain', 'acme.com'), c('company', 'contains', 'Acme'), c('firstName', 'is_set'),
      ],
    });
    let err: unknown;
    try {
      compileToHubSpot(s, opts);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SegmentationError);
    expect((err as SegmentationError).code).toBe('TOO_MANY_FILTERS_IN_GROUP');
    expect((err as SegmentationError).message).toMatch(/at most 6/);
  });

  it('refuses segments that need too many searches or explode combinatorially', () => {
    const many = (field: string, values: string[]) => ({ or: values.map((v) => c(field, 'contains', v)) });
    const s = seg({ and: [many('company', ['a', 'b', 'c', 'd']), many('email', ['e', 'f', 'g', 'h']), many('city', ['i', 'j', 'k', 'l'])] });
    expect(() => compileToHubSpot(s, opts)).toThrow(expect.objectContaining({ code: 'TOO_MANY_SEARCHES' }));
    expect(compileToHubSpot(s, { ...opts, maxSearches: 100 }).searches.length).toBeGreaterThan(10);
    const huge = seg({ and: Array.from({ length: 8 }, (_, i) => many('company', [`${i}a`, `${i}b`, `${i}c`, `${i}d`])) });
    expect(() => compileToHubSpot(huge, opts)).toThrow(expect.objectContaining({ code: 'SEGMENT_TOO_COMPLEX' }));
  });

  it('rejects invalid segments and time zones', () => {
    expect(() => compileToHubSpot({ version: 2 } as unknown as Segment, opts)).toThrow(expect.objectContaining({ code: 'INVALID_SEGMENT' }));
    expect(() => compileToHubSpot(seg(), { ...opts, timeZone: 'Mars/Base' })).toThrow(expect.objectContaining({ code: 'INVALID_TIME_ZONE' }));
  });
});
