import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SandboxContact } from './data.js';
import { generateContacts } from './data.js';
import { HubSpotApiError } from './errors.js';
import { createContactStore, executeSearch } from './search.js';

const T = (iso: string) => Date.parse(iso);

function contact(id: number, p: Partial<SandboxContact>): SandboxContact {
  return {
    id,
    firstname: null,
    lastname: null,
    email: null,
    company: null,
    lifecyclestage: null,
    recent_deal_close_date: null,
    recent_deal_amount: null,
    total_revenue: null,
    city: null,
    state: null,
    country: null,
    createdate: T('2024-01-01T00:00:00Z') + id * 1000,
    lastmodifieddate: T('2024-06-01T00:00:00Z') + id * 1000,
    ...p,
  };
}

// A tiny, hand-made portal: every expectation below can be checked by reading this table.
const FIXTURE: SandboxContact[] = [
  contact(101, { firstname: 'Alice', lastname: 'Smith', email: 'alice.smith@acme.com', company: 'Acme Corporation', lifecyclestage: 'customer', recent_deal_amount: 100, total_revenue: 300, recent_deal_close_date: T('2024-05-01T00:00:00Z'), city: 'San Francisco', state: 'California', country: 'United States' }),
  contact(102, { firstname: 'bob', lastname: 'SMITH', email: 'Bob@Acme.com', company: 'acme corporation', lifecyclestage: 'lead', recent_deal_amount: 150, total_revenue: 150, recent_deal_close_date: T('2024-06-01T00:00:00Z'), city: 'Austin', state: 'Texas', country: 'united states' }),
  contact(103, { firstname: 'Carla', lastname: 'Jones', email: 'carla@globex.co.uk', company: 'Globex Ltd', lifecyclestage: 'opportunity', recent_deal_amount: 200.5, total_revenue: 1200, recent_deal_close_date: T('2023-12-31T23:59:59Z'), city: 'London', country: 'United Kingdom' }),
  contact(104, { firstname: 'Dieter', email: 'dieter@gmail.com', lifecyclestage: 'subscriber', city: 'Berlin', country: 'Germany' }),
  contact(105, {}), // no values at all
  contact(106, { firstname: 'Émile', lastname: 'Zola', email: 'emile@acmecorp.fr', company: 'Acme Corp France', lifecyclestage: 'evangelist', recent_deal_amount: 99.99, total_revenue: 99.99, recent_deal_close_date: T('2024-05-01T00:00:00Z'), country: 'France' }),
];

const store = createContactStore(FIXTURE);

function ids(body: Record<string, unknown>): number[] {
  return executeSearch(store, { limit: 200, ...body }).results.map((r) => Number(r.id));
}

function one(propertyName: string, operator: string, extra: Record<string, unknown> = {}) {
  return { filterGroups: [{ filters: [{ propertyName, operator, ...extra }] }] };
}

function expectValidationError(fn: () => unknown, messagePart?: RegExp) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(HubSpotApiError);
    const e = err as HubSpotApiError;
    expect(e.httpStatus).toBe(400);
    expect(e.body.status).toBe('error');
    expect(e.body.category).toBe('VALIDATION_ERROR');
    expect(e.body.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    if (messagePart) expect(e.body.message).toMatch(messagePart);
    return;
  }
  throw new Error('expected a 400 VALIDATION_ERROR');
}

describe('executeSearch operator semantics (fixture)', () => {
  const may = T('2024-05-01T00:00:00Z');
  const cases: Array<[string, Record<string, unknown>, number[]]> = [
    // EQ / NEQ on strings: case-insensitive; missing never EQ, always NEQ
    ['EQ string folds case', one('lastname', 'EQ', { value: 'smith' }), [101, 102]],
    ['EQ string with upper-case value', one('country', 'EQ', { value: 'UNITED STATES' }), [101, 102]],
    ['EQ on a missing property never matches', one('company', 'EQ', { value: '' }), []],
    ['NEQ string folds case and matches missing values', one('lastname', 'NEQ', { value: 'Smith' }), [103, 104, 105, 106]],
    // enumeration: exact, case-sensitive
    ['EQ enumeration exact', one('lifecyclestage', 'EQ', { value: 'customer' }), [101]],
    ['EQ enumeration is case-sensitive', one('lifecyclestage', 'EQ', { value: 'Customer' }), []],
    ['NEQ enumeration keeps records without a stage', one('lifecyclestage', 'NEQ', { value: 'customer' }), [102, 103, 104, 105, 106]],
    // IN / NOT_IN
    ['IN enumeration', one('lifecyclestage', 'IN', { values: ['lead', 'opportunity'] }), [102, 103]],
    ['IN string needs lowercase values (HubSpot rule)', one('country', 'IN', { values: ['united states', 'germany'] }), [101, 102, 104]],
    ['IN string with non-lowercase values matches nothing', one('country', 'IN', { values: ['United States', 'Germany'] }), []],
    ['NOT_IN matches missing values', one('country', 'NOT_IN', { values: ['united states', 'germany'] }), [103, 105, 106]],
    ['IN number', one('recent_deal_amount', 'IN', { values: ['150', '99.99'] }), [102, 106]],
    // numbers
    ['GT number is numeric, not lexicographic', one('total_revenue', 'GT', { value: '200' }), [101, 103]],
    ['GTE number', one('recent_deal_amount', 'GTE', { value: '150' }), [102, 103]],
    ['LT number (missing never matches)', one('recent_deal_amount', 'LT', { value: '150' }), [101, 106]],
    ['LTE number', one('recent_deal_amount', 'LTE', { value: '150' }), [101, 102, 106]],
    ['EQ number with a decimal', one('recent_deal_amount', 'EQ', { value: '200.50' }), [103]],
    ['BETWEEN bounds are inclusive', one('recent_deal_amount', 'BETWEEN', { value: '100', highValue: '200.5' }), [101, 102, 103]],
    ['BETWEEN with low > high matches nothing', one('recent_deal_amount', 'BETWEEN', { value: '300', highValue: '100' }), []],
    // datetimes as epoch milliseconds (and ISO)
    ['datetime EQ epoch ms', one('recent_deal_close_date', 'EQ', { value: String(may) }), [101, 106]],
    ['datetime GTE epoch ms', one('recent_deal_close_date', 'GTE', { value: String(may) }), [101, 102, 106]],
    ['datetime LT epoch ms', one('recent_deal_close_date', 'LT', { value: String(T('2024-01-01T00:00:00Z')) }), [103]],
    ['datetime BETWEEN inclusive', one('recent_deal_close_date', 'BETWEEN', { value: String(T('2023-12-31T23:59:59Z')), highValue: String(may) }), [101, 103, 106]],
    ['datetime accepts ISO-8601', one('recent_deal_close_date', 'GT', { value: '2024-05-01T00:00:00.000Z' }), [102]],
    ['hs_object_id GT', one('hs_object_id', 'GT', { value: '103' }), [104, 105, 106]],
    // HAS_PROPERTY / NOT_HAS_PROPERTY
    ['HAS_PROPERTY', one('recent_deal_amount', 'HAS_PROPERTY'), [101, 102, 103, 106]],
    ['NOT_HAS_PROPERTY', one('recent_deal_amount', 'NOT_HAS_PROPERTY'), [104, 105]],
    ['NOT_HAS_PROPERTY on a string', one('company', 'NOT_HAS_PROPERTY'), [104, 105]],
    // CONTAINS_TOKEN / NOT_CONTAINS_TOKEN
    ['CONTAINS_TOKEN suffix wildcard on e-mail domain', one('email', 'CONTAINS_TOKEN', { value: '*@acme.com' }), [101, 102]],
    ['CONTAINS_TOKEN wildcard is case-insensitive', one('email', 'CONTAINS_TOKEN', { value: '*@ACME.COM' }), [101, 102]],
    ['CONTAINS_TOKEN word', one('company', 'CONTAINS_TOKEN', { value: 'acme' }), [101, 102, 106]],
    ['CONTAINS_TOKEN domain token', one('email', 'CONTAINS_TOKEN', { value: 'acme.com' }), [101, 102]],
    ['CONTAINS_TOKEN prefix wildcard', one('email', 'CONTAINS_TOKEN', { value: 'acme*' }), [101, 102, 106]],
    ['CONTAINS_TOKEN infix wildcard', one('company', 'CONTAINS_TOKEN', { value: '*lob*' }), [103]],
    ['CONTAINS_TOKEN needs a whole token without wildcard', one('company', 'CONTAINS_TOKEN', { value: 'acm' }), []],
    ['CONTAINS_TOKEN whole value', one('company', 'CONTAINS_TOKEN', { value: 'acme corporation' }), [101, 102]],
    ['CONTAINS_TOKEN keeps accents', one('firstname', 'CONTAINS_TOKEN', { value: 'émile' }), [106]],
    ['NOT_CONTAINS_TOKEN matches missing values', one('email', 'NOT_CONTAINS_TOKEN', { value: '*@acme.com' }), [103, 104, 105, 106]],
    // string ranges compare lower-cased text
    ['string LT compares folded text', one('firstname', 'LT', { value: 'C' }), [101, 102]],
  ];

  it.each(cases)('%s', (_name, body, expected) => {
    expect(ids(body)).toEqual(expected);
  });

  it('ANDs filters inside a group and ORs groups', () => {
    const body = {
      filterGroups: [
        { filters: [{ propertyName: 'lastname', operator: 'EQ', value: 'smith' }, { propertyName: 'lifecyclestage', operator: 'EQ', value: 'lead' }] },
        { filters: [{ propertyName: 'country', operator: 'EQ', value: 'germany' }] },
      ],
    };
    expect(ids(body)).toEqual([102, 104]);
  });

  it('full-text query searches firstname, lastname, email and company (all terms must match)', () => {
    expect(ids({ query: 'smith' })).toEqual([101, 102]);
    expect(ids({ query: 'ACME' })).toEqual([101, 102, 106]);
    expect(ids({ query: 'acme smith' })).toEqual([101, 102]);
    expect(ids({ query: 'globex.co' })).toEqual([103]);
    expect(ids({ query: 'berlin' })).toEqual([]); // city is not a default searchable property
    expect(ids({ query: 'acme', ...one('lifecyclestage', 'EQ', { value: 'evangelist' }) })).toEqual([106]);
  });

  it('sorts by one property; missing values last in both directions; ties by id in the sort direction', () => {
    expect(ids({ sorts: [{ propertyName: 'recent_deal_amount', direction: 'ASCENDING' }] })).toEqual([106, 101, 102, 103, 104, 105]);
    expect(ids({ sorts: [{ propertyName: 'recent_deal_amount', direction: 'DESCENDING' }] })).toEqual([103, 102, 101, 106, 104, 105]);
    expect(ids({ sorts: [{ propertyName: 'recent_deal_close_date', direction: 'DESCENDING' }] })).toEqual([102, 106, 101, 103, 104, 105]);
    expect(ids({ sorts: [{ propertyName: 'lastname', direction: 'ASCENDING' }] })).toEqual([103, 101, 102, 106, 104, 105]);
    expect(ids({ sorts: [{ propertyName: 'hs_object_id', direction: 'DESCENDING' }] })).toEqual([106, 105, 104, 103, 102, 101]);
    expect(ids({ sorts: ['-total_revenue'] })).toEqual([103, 101, 102, 106, 104, 105]);
  });

  it('defaults to creation order (hs_object_id ascending)', () => {
    expect(ids({})).toEqual([101, 102, 103, 104, 105, 106]);
  });

  it('returns HubSpot-shaped results: strings, ISO datetimes, nulls for requested properties without value', () => {
    const res = executeSearch(store, { ...one('hs_object_id', 'EQ', { value: '103' }), properties: ['recent_deal_amount', 'recent_deal_close_date', 'state', 'nope'] });
    expect(res).toEqual({
      total: 1,
      results: [
        {
          id: '103',
          properties: {
            createdate: '2024-01-01T00:01:43.000Z',
            hs_object_id: '103',
            lastmodifieddate: '2024-06-01T00:01:43.000Z',
            recent_deal_amount: '200.5',
            recent_deal_close_date: '2023-12-31T23:59:59.000Z',
            state: null,
          },
          createdAt: '2024-01-01T00:01:43.000Z',
          updatedAt: '2024-06-01T00:01:43.000Z',
          archived: false,
        },
      ],
    });
  });

  it('returns the default property set when `properties` is omitted', () => {
    const res = executeSearch(store, { limit: 1 });
    expect(Object.keys(res.results[0].properties)).toEqual(['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname']);
  });

  it('pages with limit/after and omits paging on the last page', () => {
    const p1 = executeSearch(store, { limit: 4 });
    expect(p1.total).toBe(6);
    expect(p1.results.map((r) => r.id)).toEqual(['101', '102', '103', '104']);
    expect(p1.paging).toEqual({ next: { after: '4' } });
    const p2 = executeSearch(store, { limit: 4, after: p1.paging!.next.after });
    expect(p2.results.map((r) => r.id)).toEqual(['105', '106']);
    expect(p2.paging).toBeUndefined();
    expect(executeSearch(store, {}).results).toHaveLength(6); // default limit 10
  });
});

describe('executeSearch limits and validation (HubSpot 400 VALIDATION_ERROR)', () => {
  const f = { propertyName: 'firstname', operator: 'HAS_PROPERTY' };
  const group = (n: number) => ({ filters: Array.from({ length: n }, () => f) });

  it('accepts the maxima: 5 groups, 6 filters in a group, 18 in total, limit 200', () => {
    expect(() => executeSearch(store, { filterGroups: [group(6), group(6), group(6)], limit: 200 })).not.toThrow();
    expect(() => executeSearch(store, { filterGroups: [group(1), group(1), group(1), group(1), group(1)] })).not.toThrow();
  });
  it('rejects 6 filter groups', () => expectValidationError(() => executeSearch(store, { filterGroups: Array.from({ length: 6 }, () => group(1)) }), /filter groups/i));
  it('rejects 7 filters in a group', () => expectValidationError(() => executeSearch(store, { filterGroups: [group(7)] }), /at most 6 filters/));
  it('rejects 19 filters in total', () => expectValidationError(() => executeSearch(store, { filterGroups: [group(6), group(6), group(6), group(1)] }), /at most 18 filters/));
  it('rejects limit 201', () => expectValidationError(() => executeSearch(store, { limit: 201 }), /at most 200/));
  it('rejects a page beyond 10,000 results', () => {
    expect(() => executeSearch(store, { after: '9800', limit: 200 })).not.toThrow();
    expectValidationError(() => executeSearch(store, { after: '9801', limit: 200 }), /10000/);
    expectValidationError(() => executeSearch(store, { after: '10000', limit: 1 }), /10000/);
  });
  it('rejects a body longer than 3,000 characters', () => {
    const values = Array.from({ length: 500 }, (_, i) => `v${i}`);
    const body = JSON.stringify({ filterGroups: [{ filters: [{ propertyName: 'city', operator: 'IN', values }] }] });
    expect(body.length).toBeGreaterThan(3000);
    expectValidationError(() => executeSearch(store, body), /3000 characters/);
    const okBody = JSON.stringify({ query: 'x'.repeat(2980) });
    expect(okBody.length).toBeLessThanOrEqual(3000);
    expect(() => executeSearch(store, okBody)).not.toThrow();
  });
  it('rejects filters and sorts on unknown properties', () => {
    expectValidationError(() => executeSearch(store, one('favorite_color', 'EQ', { value: 'blue' })), /favorite_color/);
    expectValidationError(() => executeSearch(store, { sorts: [{ propertyName: 'favorite_color', direction: 'ASCENDING' }] }), /favorite_color/);
  });
  it('rejects bad operators, missing values, non-numeric numbers, bad datetimes, non-integer after, two sorts', () => {
    expectValidationError(() => executeSearch(store, one('firstname', 'LIKE', { value: 'a' })));
    expectValidationError(() => executeSearch(store, one('firstname', 'EQ')));
    expectValidationError(() => executeSearch(store, one('firstname', 'IN', { values: [] })));
    expectValidationError(() => executeSearch(store, one('recent_deal_amount', 'GT', { value: 'lots' })));
    expectValidationError(() => executeSearch(store, one('createdate', 'GT', { value: 'yesterday' })));
    expectValidationError(() => executeSearch(store, one('recent_deal_amount', 'BETWEEN', { value: '1' })));
    expectValidationError(() => executeSearch(store, { after: 'abc' }));
    expectValidationError(() => executeSearch(store, { sorts: [{ propertyName: 'firstname' }, { propertyName: 'lastname' }] }));
    expectValidationError(() => executeSearch(store, '{not json'));
  });
});

// ------------------------------------------------------------------------------------------------
// Property-based: the indexed engine agrees with a naive reference on generated data.

const PROPS: Record<string, 'string' | 'enumeration' | 'number' | 'datetime'> = {
  hs_object_id: 'number', firstname: 'string', lastname: 'string', email: 'string', company: 'string',
  lifecyclestage: 'enumeration', recent_deal_close_date: 'datetime', recent_deal_amount: 'number', total_revenue: 'number',
  city: 'string', state: 'string', country: 'string', createdate: 'datetime', lastmodifieddate: 'datetime',
};

function valueOf(c: SandboxContact, p: string): string | number | null {
  if (p === 'hs_object_id') return c.id;
  const v = (c as unknown as Record<string, string | number | null>)[p];
  return v === '' ? null : v;
}

function refTokens(s: string): string[] {
  return [s, ...s.split(/\s+/), ...s.split(/\s+/).flatMap((x) => x.split('@')), ...s.split(/[^\p{L}\p{N}]+/u)].filter(Boolean);
}

interface RefFilter { propertyName: string; operator: string; value?: string; highValue?: string; values?: string[] }

function refMatch(c: SandboxContact, f: RefFilter): boolean {
  const type = PROPS[f.propertyName];
  const raw = valueOf(c, f.propertyName);
  const has = raw !== null && raw !== undefined;
  const neg = (b: boolean) => !b;
  const num = (x: string) => Number(x);
  const norm = (x: string | number): string | number => (type === 'number' || type === 'datetime' ? Number(x) : type === 'enumeration' ? String(x) : String(x).toLowerCase());
  const v = has ? norm(raw!) : null;
  switch (f.operator) {
    case 'HAS_PROPERTY': return has;
    case 'NOT_HAS_PROPERTY': return !has;
    case 'EQ': return has && v === norm(f.value!);
    case 'NEQ': return neg(has && v === norm(f.value!));
    case 'GT': return has && v! > norm(f.value!);
    case 'GTE': return has && v! >= norm(f.value!);
    case 'LT': return has && v! < norm(f.value!);
    case 'LTE': return has && v! <= norm(f.value!);
    case 'BETWEEN': return has && v! >= norm(f.value!) && v! <= norm(f.highValue!);
    case 'IN': return has && f.values!.some((x) => (type === 'string' ? String(raw).toLowerCase() === x : type === 'enumeration' ? raw === x : v === num(x)));
    case 'NOT_IN': return !(has && f.values!.some((x) => (type === 'string' ? String(raw).toLowerCase() === x : type === 'enumeration' ? raw === x : v === num(x))));
    case 'CONTAINS_TOKEN':
    case 'NOT_CONTAINS_TOKEN': {
      const pat = type === 'enumeration' ? f.value! : f.value!.toLowerCase();
      const re = new RegExp(`^${pat.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');
      const m = has && refTokens(type === 'enumeration' ? String(raw) : String(raw).toLowerCase()).some((t) => re.test(t));
      return f.operator === 'CONTAINS_TOKEN' ? m : !m;
    }
  }
  throw new Error(f.operator);
}

describe('executeSearch agrees with a naive reference (fast-check)', () => {
  const data = generateContacts({ count: 1500, seed: 11, now: '2026-06-01T00:00:00Z' });
  const big = createContactStore(data);
  const pick = <T,>(arr: T[]) => fc.constantFrom(...arr);
  const sampleValues = (p: string) => {
    const vals = [...new Set(data.map((c) => valueOf(c, p)).filter((x) => x !== null).map(String))].slice(0, 40);
    return vals.length ? vals : ['x'];
  };

  const filterArb: fc.Arbitrary<RefFilter> = pick(Object.keys(PROPS)).chain((propertyName) => {
    const type = PROPS[propertyName];
    const samples = sampleValues(propertyName);
    const value = fc.oneof(pick(samples), pick(samples).map((s) => s.toUpperCase()));
    const ops = ['EQ', 'NEQ', 'GT', 'GTE', 'LT', 'LTE', 'BETWEEN', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY'];
    if (type === 'string' || type === 'enumeration') ops.push('CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN');
    return pick(ops).chain((operator): fc.Arbitrary<RefFilter> => {
      if (operator === 'HAS_PROPERTY' || operator === 'NOT_HAS_PROPERTY') return fc.constant({ propertyName, operator });
      if (operator === 'IN' || operator === 'NOT_IN') {
        return fc.array(fc.oneof(pick(samples), pick(samples).map((s) => s.toLowerCase())), { minLength: 1, maxLength: 4 }).map((values) => ({ propertyName, operator, values }));
      }
      if (operator === 'BETWEEN') return fc.tuple(pick(samples), pick(samples)).map(([a, b]) => ({ propertyName, operator, value: a, highValue: b }));
      if (operator === 'CONTAINS_TOKEN' || operator === 'NOT_CONTAINS_TOKEN') {
        const token = pick(samples).map((s) => refTokens(type === 'enumeration' ? s : s.toLowerCase())).chain((toks) => pick(toks));
        return fc.tuple(token, fc.constantFrom('exact', 'prefix', 'suffix', 'infix')).map(([t, mode]) => {
          const cut = Math.max(1, Math.floor(t.length / 2));
          const value = mode === 'exact' ? t : mode === 'prefix' ? `${t.slice(0, cut)}*` : mode === 'suffix' ? `*${t.slice(cut - 1)}` : `*${t.slice(1, cut + 1)}*`;
          return { propertyName, operator, value };
        });
      }
      return value.map((v) => ({ propertyName, operator, value: type === 'number' || type === 'datetime' ? String(Number(v)) : v }));
    });
  });

  it('same matches, same default order, same total', () => {
    fc.assert(
      fc.property(fc.array(fc.array(filterArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }), (groups) => {
        const body = { filterGroups: groups.map((filters) => ({ filters })), limit: 200, properties: ['hs_object_id'] };
        const expected = data.filter((c) => groups.some((g) => g.every((f) => refMatch(c, f)))).map((c) => String(c.id));
        const res = executeSearch(big, body);
        expect(res.total).toBe(expected.length);
        expect(res.results.map((r) => r.id)).toEqual(expected.slice(0, 200));
      }),
      { numRuns: 300 },
    );
  });
});
