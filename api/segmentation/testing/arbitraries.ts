/** fast-check generators of segments and contacts over small, overlapping value pools. */
import fc from 'fast-check';
import type { HubSpotContact } from '../../crm/hubspot/model/index.js';
import type { Condition, DateExpr, Segment, SegmentNode } from '../ast.js';
import { DATE_UNITS, LIFECYCLE_STAGES, LIFECYCLE_VALUES, SORT_FIELDS } from '../ast.js';
import { REGIONS } from '../regions.js';
import { resolveContext, resolveDateExpr } from '../resolve.js';

export const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);
export const TIME_ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham'];

const names = ['Ann', 'ann', 'Bob', 'Mary Ann', 'Lee', 'Ann Lee', 'Smith'];
const companies = ['Acme', 'Acme Corp', 'acme inc', 'Globex', 'The Acme Group', 'Initech'];
const companyNeedles = ['acme', 'Corp', 'glob', 'x'];
const emails = ['ann@acme.com', 'BOB@ACME.COM', 'x@gmail.com', 'y@mit.edu', 'z@acme.com.au', 'acme.com@evil.io', 'sales@globex.de'];
const domains = ['acme.com', 'gmail.com', '.edu', 'globex.de', 'acme.com.au'];
const lifecycleValues = ['subscriber', 'lead', 'marketingqualifiedlead', 'salesqualifiedlead', 'opportunity', 'customer', 'evangelist', 'other', 'Customer'];
const countries = ['Germany', 'germany', 'United States', 'USA', 'France', 'Canada', 'Mexico', 'Japan', 'Narnia', 'UK', 'United Kingdom', 'Turkey'];
const states = ['California', 'CA', 'ca', 'Texas', 'Ontario', 'Bavaria'];
const cities = ['London', 'Paris', 'New York', 'NYC', 'Berlin'];
const amounts = [0, 100, 499.5, 500, 1000, 2000, 5000, 5000.01];

export const dateExprArb: fc.Arbitrary<DateExpr> = fc.oneof(
  fc.record({ kind: fc.constant('absolute' as const), date: fc.constantFrom('2024-01-01', '2025-03-01', '2026-03-29', '2026-06-15', '2026-10-25') }),
  fc.record({
    kind: fc.constant('relative' as const),
    amount: fc.integer({ min: 0, max: 18 }),
    unit: fc.constantFrom(...DATE_UNITS),
    direction: fc.constantFrom('past' as const, 'future' as const),
  }),
  fc.record({ kind: fc.constant('anchor' as const), unit: fc.constantFrom(...DATE_UNITS), offset: fc.integer({ min: -3, max: 1 }) }),
  fc.constant({ kind: 'now' as const }),
);

/** Instants near the boundaries the date expressions can produce, plus random ones. */
export function datePool(timeZone: string): number[] {
  const ctx = resolveContext({ now: NOW, timeZone });
  const out = new Set<number>();
  const exprs: DateExpr[] = [
    { kind: 'now' },
    { kind: 'absolute', date: '2025-03-01' },
    { kind: 'absolute', date: '2026-06-15' },
    ...DATE_UNITS.flatMap((unit) => [-1, 0, 1].map((offset) => ({ kind: 'anchor' as const, unit, offset }))),
    ...DATE_UNITS.map((unit) => ({ kind: 'relative' as const, amount: 1, unit, direction: 'past' as const })),
  ];
  for (const e of exprs) {
    const t = resolveDateExpr(e, ctx);
    out.add(t - 1).add(t).add(t + 1);
  }
  return [...out];
}

function stringCondition(): fc.Arbitrary<Condition> {
  const field = fc.constantFrom('firstName' as const, 'lastName' as const, 'email' as const, 'company' as const, 'city' as const, 'state' as const, 'country' as const);
  const pool = (f: string) =>
    f === 'country' ? countries : f === 'state' ? states : f === 'city' ? cities : f === 'company' ? companies : f === 'email' ? emails : names;
  return field.chain((f) =>
    fc.oneof(
      fc.record({ field: fc.constant(f), op: fc.constantFrom('eq' as const, 'neq' as const), value: fc.constantFrom(...pool(f)) }),
      fc.record({ field: fc.constant(f), op: fc.constantFrom('in' as const, 'not_in' as const), values: fc.uniqueArray(fc.constantFrom(...pool(f)), { minLength: 1, maxLength: 3 }) }),
      fc.record({ field: fc.constant(f), op: fc.constantFrom('contains' as const, 'not_contains' as const), value: fc.constantFrom(...companyNeedles, 'ann', 'many') }),
      fc.record({ field: fc.constant(f), op: fc.constantFrom('is_set' as const, 'is_not_set' as const) }),
    ),
  ) as fc.Arbitrary<Condition>;
}

export const conditionArb: fc.Arbitrary<Condition> = fc.oneof(
  stringCondition(),
  fc.record({ field: fc.constantFrom('lifetimeValue' as const, 'lastPurchaseAmount' as const), op: fc.constantFrom('eq' as const, 'neq' as const, 'lt' as const, 'lte' as const, 'gt' as const, 'gte' as const), value: fc.constantFrom(...amounts) }),
  fc
    .record({ field: fc.constantFrom('lifetimeValue' as const, 'lastPurchaseAmount' as const), a: fc.constantFrom(...amounts), b: fc.constantFrom(...amounts) })
    .map(({ field, a, b }) => ({ field, op: 'between' as const, from: Math.min(a, b), to: Math.max(a, b) })),
  fc.record({ field: fc.constantFrom('lifetimeValue' as const, 'lastPurchaseAmount' as const, 'lastPurchaseDate' as const, 'createdAt' as const), op: fc.constantFrom('is_set' as const, 'is_not_set' as const) }),
  fc.record({ field: fc.constantFrom('lastPurchaseDate' as const, 'createdAt' as const), op: fc.constantFrom('lt' as const, 'lte' as const, 'gt' as const, 'gte' as const), value: dateExprArb }),
  fc.record({ field: fc.constantFrom('lastPurchaseDate' as const, 'createdAt' as const), op: fc.constant('between' as const), from: dateExprArb, to: dateExprArb }),
  fc.record({ field: fc.constant('lifecycleStage' as const), op: fc.constantFrom('eq' as const, 'neq' as const), value: fc.constantFrom(...LIFECYCLE_STAGES) }),
  fc.record({ field: fc.constant('lifecycleStage' as const), op: fc.constantFrom('in' as const, 'not_in' as const), values: fc.uniqueArray(fc.constantFrom(...LIFECYCLE_STAGES), { minLength: 1, maxLength: 4 }) }),
  fc.record({ field: fc.constant('hubspotStage' as const), op: fc.constantFrom('eq' as const, 'neq' as const), value: fc.constantFrom(...LIFECYCLE_VALUES) }),
  fc.record({ field: fc.constant('hubspotStage' as const), op: fc.constantFrom('in' as const, 'not_in' as const), values: fc.uniqueArray(fc.constantFrom(...LIFECYCLE_VALUES), { minLength: 1, maxLength: 3 }) }),
  fc.record({ field: fc.constant('region' as const), op: fc.constantFrom('eq' as const, 'neq' as const), value: fc.constantFrom(...REGIONS) }),
  fc.record({ field: fc.constant('region' as const), op: fc.constantFrom('in' as const, 'not_in' as const), values: fc.uniqueArray(fc.constantFrom(...REGIONS), { minLength: 1, maxLength: 2 }) }),
  fc.record({ field: fc.constant('emailDomain' as const), op: fc.constantFrom('eq' as const, 'neq' as const), value: fc.constantFrom(...domains) }),
  fc.record({ field: fc.constant('emailDomain' as const), op: fc.constantFrom('in' as const, 'not_in' as const), values: fc.uniqueArray(fc.constantFrom(...domains), { minLength: 1, maxLength: 3 }) }),
  fc.record({ field: fc.constant('name' as const), op: fc.constant('eq' as const), value: fc.constantFrom(...names) }),
  fc.record({ field: fc.constant('name' as const), op: fc.constant('contains' as const), value: fc.constantFrom('ann', 'Lee', 'o') }),
  fc.record({ field: fc.constant('hasPurchased' as const), op: fc.constant('eq' as const), value: fc.boolean() }),
) as fc.Arbitrary<Condition>;

export const nodeArb: fc.Arbitrary<SegmentNode> = fc.letrec<{ node: SegmentNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'medium', withCrossShrink: true },
    { weight: 3, arbitrary: conditionArb },
    { weight: 2, arbitrary: fc.array(tie('node'), { minLength: 0, maxLength: 3 }).map((xs) => ({ and: xs })) },
    { weight: 2, arbitrary: fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((xs) => ({ or: xs })) },
    { weight: 1, arbitrary: tie('node').map((x) => ({ not: x })) },
  ),
})).node;

export const segmentArb: fc.Arbitrary<Segment> = fc.record(
  {
    version: fc.constant(1 as const),
    where: fc.oneof(
      nodeArb,
      fc.array(nodeArb, { minLength: 2, maxLength: 4 }).map((xs) => ({ and: xs })),
      fc.array(nodeArb, { minLength: 2, maxLength: 3 }).map((xs) => ({ or: xs })),
    ),
    sort: fc.record({ field: fc.constantFrom(...SORT_FIELDS), direction: fc.constantFrom('asc' as const, 'desc' as const) }),
    limit: fc.integer({ min: 1, max: 50 }),
  },
  { requiredKeys: ['version'] },
);

const maybe = (arb: fc.Arbitrary<string>) => fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constantFrom<string | null | undefined>(undefined, null, '') });

export function contactArb(dates: number[]): fc.Arbitrary<Omit<HubSpotContact, 'id'>> {
  const date = fc.oneof(
    fc.constantFrom(...dates),
    fc.integer({ min: NOW - 3 * 365 * 86_400_000, max: NOW + 200 * 86_400_000 }),
  ).chain((ms) => fc.constantFrom(String(ms), new Date(ms).toISOString()));
  return fc.record({
    properties: fc.record({
      firstname: maybe(fc.constantFrom(...names)),
      lastname: maybe(fc.constantFrom(...names)),
      email: maybe(fc.constantFrom(...emails)),
      company: maybe(fc.constantFrom(...companies)),
      lifecyclestage: maybe(fc.constantFrom(...lifecycleValues)),
      country: maybe(fc.constantFrom(...countries)),
      state: maybe(fc.constantFrom(...states)),
      city: maybe(fc.constantFrom(...cities)),
      total_revenue: maybe(fc.constantFrom(...amounts).map(String)),
      recent_deal_amount: maybe(fc.constantFrom(...amounts).map(String)),
      recent_deal_close_date: maybe(date),
      createdate: maybe(date),
    }),
  });
}

export function contactsArb(dates: number[]): fc.Arbitrary<HubSpotContact[]> {
  return fc.array(contactArb(dates), { minLength: 10, maxLength: 40 }).map((cs) => cs.map((c, i) => ({ id: String(i + 1), ...c })));
}
