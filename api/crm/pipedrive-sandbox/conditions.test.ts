import { describe, expect, it } from 'vitest';
import type { FilterCondition, FilterConditions, FilterType } from '../pipedrive/model/index.js';
import type { SyntheticPerson } from '../synthetic-people/index.js';
import { dateRange, FilterDefinitionError, localDate, validateConditions } from './conditions.js';
import { generateCompany } from './data.js';
import { CompanyStore } from './store.js';

const T = (iso: string) => Date.parse(iso);

function person(id: number, p: Partial<SyntheticPerson>): SyntheticPerson {
  return {
    id, firstName: null, lastName: null, email: null, company: null, companyDomain: null, stage: null, purchases: [],
    lastPurchaseAt: null, lastPurchaseAmount: null, lifetimeValue: null, city: null, state: null, country: null,
    createdAt: T('2025-01-01T00:00:00Z'), updatedAt: T('2025-01-02T00:00:00Z'), ...p,
  };
}

const people: SyntheticPerson[] = [
  person(1, { firstName: 'Anna', lastName: 'Berg', email: 'anna@acme.com', company: 'Acme Corporation', stage: 'customer', country: 'Germany', city: 'Berlin', createdAt: T('2026-03-31T22:30:00Z'),
    purchases: [{ closedAt: T('2026-01-10T10:00:00Z'), amount: 100 }, { closedAt: T('2026-04-02T10:00:00Z'), amount: 250.5 }], lastPurchaseAt: T('2026-04-02T10:00:00Z'), lastPurchaseAmount: 250.5, lifetimeValue: 350.5 }),
  person(2, { firstName: 'Bob', lastName: 'Stone', email: 'bob@example.org', company: 'Acme Corporation', stage: 'lead', country: 'United States', state: 'Texas', city: 'Austin', createdAt: T('2026-04-01T02:00:00Z') }),
  person(3, { firstName: 'Chloé', email: null, stage: null, country: null, createdAt: T('2024-06-15T12:00:00Z') }),
  person(4, { firstName: 'Dan', lastName: 'Ng', email: 'dan@acme.com.au', company: 'Koala Pty', stage: 'opportunity', country: 'Australia', city: 'Sydney', createdAt: T('2026-05-20T00:00:00Z'),
    purchases: [{ closedAt: T('2026-05-25T10:00:00Z'), amount: 5000 }], lastPurchaseAt: T('2026-05-25T10:00:00Z'), lastPurchaseAmount: 5000, lifetimeValue: 5000 }),
];

function storeIn(timeZone = 'UTC', now = T('2026-06-10T12:00:00Z')) {
  return new CompanyStore(generateCompany({ people, seed: 1 }), timeZone, () => now);
}

const line = (field_id: number, operator: FilterCondition['operator'], value: string | null = null, extra_value: string | null = null, object: FilterCondition['object'] = 'person'): FilterCondition => ({ object, field_id: String(field_id), operator, value, extra_value });
const def = (and: FilterCondition[], or: FilterCondition[] = []): FilterConditions => ({ glue: 'and', conditions: [{ glue: 'and', conditions: and }, { glue: 'or', conditions: or }] });

function ids(and: FilterCondition[], or: FilterCondition[] = [], opts: { type?: FilterType; store?: CompanyStore } = {}): number[] {
  const store = opts.store ?? storeIn();
  const type = opts.type ?? 'people';
  const f = store.createFilter({ name: 't', type, conditions: validateConditions(def(and, or), type, store.fields), userId: 1 });
  return store.applyFilter(f).map((r) => r.id);
}

describe('filter definitions: validation', () => {
  const { fields } = storeIn();
  const bad = (conditions: unknown, type: FilterType = 'people') => () => validateConditions(conditions, type, fields);

  it('accepts the documented shape (also as a JSON string) and normalises field ids and values to strings', () => {
    const v = validateConditions(JSON.stringify({ glue: 'and', conditions: [{ glue: 'and', conditions: [{ object: 'person', field_id: 9013, operator: '>', value: 0 }] }] }), 'people', fields);
    expect(v).toEqual(def([line(9013, '>', '0')]));
  });

  it.each([
    ['not an object', 'nope'],
    ['top-level or', { glue: 'or', conditions: [] }],
    ['three groups', { glue: 'and', conditions: [{ glue: 'and', conditions: [] }, { glue: 'or', conditions: [] }, { glue: 'or', conditions: [] }] }],
    ['two and groups', { glue: 'and', conditions: [{ glue: 'and', conditions: [] }, { glue: 'and', conditions: [] }] }],
    ['unknown field', def([line(123, '=', 'x')])],
    ['operator of another type', def([line(9013, "LIKE '%$%'", '1')])],
    ['missing value', def([line(9002, '=', null)])],
    ['bad date', def([line(9010, '>', '01/02/2026')])],
    ['unknown option', def([line(9009, '=', '999')])],
    ['unknown address component', def([line(9012, '=', 'x', 'planet')])],
    ['deal condition in a people filter', def([line(12005, '=', 'won', null, 'deal')])],
  ])('rejects %s', (_name, conditions) => {
    expect(bad(conditions)).toThrow(FilterDefinitionError);
  });

  it('allows at most 16 condition lines', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => line(9002, "LIKE '%$%'", `a${i}`));
    expect(() => validateConditions(def(lines(10), lines(6)), 'people', fields)).not.toThrow();
    expect(bad(def(lines(10), lines(7)))).toThrow('A filter can have at most 16 conditions, got 17.');
  });
});

describe('filter definitions: evaluation', () => {
  it('compares text ignoring case; contains and starts with; negations skip blank values', () => {
    expect(ids([line(9003, '=', 'anna')])).toEqual([1]);
    expect(ids([line(9005, "LIKE '%$%'", '@ACME.COM')])).toEqual([1, 4]);
    expect(ids([line(9004, "LIKE '$%'", 'st')])).toEqual([2]);
    expect(ids([line(9004, '!=', 'berg')])).toEqual([2, 4]);
    expect(ids([line(9005, "NOT LIKE '%$%'", 'acme')])).toEqual([2]);
    expect(ids([line(9005, 'IS NULL')])).toEqual([3]);
  });

  it('reads address components from extra_value (the full address without one)', () => {
    expect(ids([line(9012, '=', 'germany', 'country')])).toEqual([1]);
    expect(ids([line(9012, '=', 'Texas', 'admin_area_level_1')])).toEqual([2]);
    expect(ids([line(9012, "LIKE '%$%'", 'austin, texas')])).toEqual([2]);
    expect(ids([line(9012, 'IS NULL', null, 'country')])).toEqual([3]);
    expect(ids([line(9012, '!=', 'Germany', 'country')])).toEqual([2, 4]);
  });

  it('combines the and group with the or group', () => {
    expect(ids([line(9005, "LIKE '%$%'", 'acme')], [line(9012, '=', 'Germany', 'country'), line(9012, '=', 'Australia', 'country')])).toEqual([1, 4]);
    expect(ids([line(9003, 'IS NOT NULL')], [line(9003, '=', 'bob'), line(9003, '=', 'dan')])).toEqual([2, 4]);
    expect(ids([], [])).toEqual([1, 2, 3, 4]);
  });

  it('tests the organization of a person, and labels as a set', () => {
    expect(ids([line(4002, '=', 'acme corporation', null, 'organization')])).toEqual([1, 2]);
    expect(ids([line(4002, 'IS NULL', null, null, 'organization')])).toEqual([3]);
    expect(ids([line(9009, '=', '106')])).toEqual([1]);
    expect(ids([line(9009, '!=', '106')])).toEqual([2, 4]);
    expect(ids([line(9009, 'IS NULL')])).toEqual([3]);
  });

  it('counts won deals and reads monetary and option custom fields', () => {
    expect(ids([line(9013, '>', '0')])).toEqual([1, 4]);
    expect(ids([line(9013, '=', '2')])).toEqual([1]);
    expect(ids([line(9040, '>=', '350.5')])).toEqual([1, 4]);
    expect(ids([line(9040, '<', '1000')])).toEqual([1]);
    expect(ids([line(9041, '=', '206')])).toEqual([1]);
  });

  it('compares dates as calendar days in the company time zone', () => {
    // Person 1 was created 2026-03-31 22:30 UTC = 2026-04-01 00:30 in Berlin; person 2 at 02:00 UTC.
    expect(ids([line(9010, '=', '2026-04-01')])).toEqual([2]);
    expect(ids([line(9010, '=', '2026-04-01')], [], { store: storeIn('Europe/Berlin') })).toEqual([1, 2]);
    expect(ids([line(9010, '>=', '2026-04-01')])).toEqual([2, 4]);
    expect(ids([line(9010, '<', '2026-04-01')])).toEqual([1, 3]);
    expect(ids([line(9010, '<=', '2026-03-31')], [], { store: storeIn('America/New_York') })).toEqual([1, 2, 3]);
  });

  it('resolves relative dates against the clock (weeks start on Monday)', () => {
    const ctx = { timeZone: 'UTC', now: T('2026-06-10T12:00:00Z') }; // a Wednesday
    expect(dateRange('today', ctx)).toEqual(['2026-06-10', '2026-06-10']);
    expect(dateRange('yesterday', ctx)).toEqual(['2026-06-09', '2026-06-09']);
    expect(dateRange('this_week', ctx)).toEqual(['2026-06-08', '2026-06-14']);
    expect(dateRange('last_week', ctx)).toEqual(['2026-06-01', '2026-06-07']);
    expect(dateRange('last_month', ctx)).toEqual(['2026-05-01', '2026-05-31']);
    expect(dateRange('this_quarter', ctx)).toEqual(['2026-04-01', '2026-06-30']);
    expect(dateRange('last_quarter', { timeZone: 'UTC', now: T('2026-02-01T00:00:00Z') })).toEqual(['2025-10-01', '2025-12-31']);
    expect(dateRange('next_year', ctx)).toEqual(['2027-01-01', '2027-12-31']);
    expect(dateRange('2026-01-05', ctx)).toEqual(['2026-01-05', '2026-01-05']);
    expect(ids([line(9010, '=', 'last_month')])).toEqual([4]);
    expect(ids([line(9010, '<', 'this_year')])).toEqual([3]);
    expect(localDate('Asia/Kolkata')(T('2026-06-09T18:29:00Z'))).toBe('2026-06-09');
    expect(localDate('Asia/Kolkata')(T('2026-06-09T18:30:00Z'))).toBe('2026-06-10');
  });

  it('filters deals by their own fields and by their person', () => {
    const won = ids([line(12005, '=', 'won', null, 'deal')], [], { type: 'deals' });
    const store = storeIn();
    expect(won.map((id) => store.deals.find((d) => d.id === id)!.person_id)).toEqual([1, 1, 4]);
    const berlin = ids([line(12005, '=', 'won', null, 'deal'), line(9012, '=', 'Berlin', 'locality', 'person')], [], { type: 'deals' });
    expect(berlin.map((id) => store.deals.find((d) => d.id === id)!.value)).toEqual([100, 250.5]);
    expect(ids([line(12003, '>', '1000', null, 'deal'), line(12005, '=', 'won', null, 'deal')], [], { type: 'deals' }).length).toBe(1);
    expect(ids([line(12013, '>=', '2026-04-01', null, 'deal')], [], { type: 'deals' }).length).toBe(2);
  });
});
