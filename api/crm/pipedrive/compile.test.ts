import { describe, expect, it } from 'vitest';
import type { Segment, SegmentNode } from '../../segmentation/ast.js';
import { compilePipedrivePlan } from './compile.js';
import { PIPEDRIVE_FIELD_MAP } from './field-map.js';

const ctx = { now: new Date('2026-06-15T12:00:00Z'), timeZone: 'UTC' };
const plan = (where?: SegmentNode, extra: Partial<Segment> = {}, map = PIPEDRIVE_FIELD_MAP) => compilePipedrivePlan({ version: 1, ...(where ? { where } : {}), ...extra }, ctx, map);

describe('segments as Pipedrive filter lines', () => {
  it('puts single-line conditions in the AND group and a multi-valued one in the OR group', () => {
    const p = plan({ and: [{ field: 'country', op: 'eq', value: 'Germany' }, { field: 'lifecycleStage', op: 'eq', value: 'customer' }] }, { sort: { field: 'lifetimeValue', direction: 'desc' }, limit: 5 });
    expect(p.residual).toBeUndefined();
    expect(p.native.filter.and).toEqual([{ ref: 'postal_address.country', op: '=', value: 'germany' }]);
    expect(p.native.filter.or).toEqual([
      { ref: 'label_ids', op: '=', value: 'customer', option: true },
      { ref: 'label_ids', op: '=', value: 'evangelist', option: true },
    ]);
    expect(p.native.check).toEqual({ and: [{ field: 'country', op: 'eq', value: 'Germany' }, { field: 'lifecycleStage', op: 'eq', value: 'customer' }] });
    expect(p.native).toMatchObject({ sort: { field: 'lifetimeValue', direction: 'desc' }, limit: 5 });
  });

  it('expands place spellings into the OR group; every native condition is also checked on the persons read', () => {
    const p = plan({ field: 'country', op: 'in', values: ['United States', 'Canada'] });
    expect(p.native.filter.and).toEqual([]);
    expect(p.native.filter.or.map((l) => l.value)).toEqual(expect.arrayContaining(['united states', 'usa', 'canada']));
    expect(p.native.check).toEqual({ field: 'country', op: 'in', values: ['United States', 'Canada'] });
    expect(plan().native.check).toBeUndefined();
  });

  it('has one OR group: the shortest multi-line OR conjunct takes it, the others are the residual', () => {
    const longer: SegmentNode = { field: 'country', op: 'in', values: ['France', 'Spain', 'Italy'] };
    const shorter: SegmentNode = { or: [{ field: 'firstName', op: 'eq', value: 'Ann' }, { field: 'lastName', op: 'eq', value: 'Lee' }] };
    const p = plan({ and: [longer, shorter] }, { sort: { field: 'createdAt', direction: 'asc' } });
    expect(p.native.filter.or).toEqual([{ ref: 'first_name', op: '=', value: 'ann' }, { ref: 'last_name', op: '=', value: 'lee' }]);
    expect(p.residual).toEqual(longer);
    expect(p.native.check).toEqual(shorter);
    // with a residual the product orders and caps
    expect(p.sort).toEqual({ field: 'createdAt', direction: 'asc' });
    expect(p.native.sort).toBeUndefined();
    expect(p.compiledAt).toBe(ctx.now.toISOString());
  });

  it('pushes NOT down: a negated equality becomes "is not, or is empty"; what has no complement is the residual', () => {
    expect(plan({ not: { field: 'company', op: 'eq', value: 'Acme Corporation' } }).native.filter.or).toEqual([
      { ref: 'org.name', op: '!=', value: 'acme corporation' },
      { ref: 'org.name', op: 'IS NULL' },
    ]);
    expect(plan({ not: { field: 'country', op: 'in', values: ['France', 'Spain'] } }).residual).toBeDefined();
    expect(plan({ not: { field: 'lifetimeValue', op: 'gt', value: 10 } }).residual).toEqual({ not: { field: 'lifetimeValue', op: 'gt', value: 10 } });
    const demorgan = plan({ not: { or: [{ field: 'email', op: 'is_set' }, { field: 'city', op: 'is_set' }] } });
    expect(demorgan.native.filter.and).toEqual([{ ref: 'email', op: 'IS NULL' }, { ref: 'postal_address.locality', op: 'IS NULL' }]);
    expect(demorgan.residual).toBeUndefined();
  });

  it('narrows purchase conditions to people with won deals and checks the amounts and dates on their deals', () => {
    const p = plan({ and: [{ field: 'lifetimeValue', op: 'gt', value: 5000 }, { field: 'lastPurchaseDate', op: 'gte', value: { kind: 'relative', amount: 30, unit: 'day', direction: 'past' } }] });
    expect(p.native.filter.and).toEqual([{ ref: 'won_deals_count', op: '>', value: '0' }]);
    expect(p.native.check).toEqual({ and: [{ field: 'lifetimeValue', op: 'gt', value: 5000 }, { field: 'lastPurchaseDate', op: 'gte', value: { kind: 'relative', amount: 30, unit: 'day', direction: 'past' } }] });
    const never = plan({ field: 'hasPurchased', op: 'eq', value: false });
    expect(never.native.filter.and).toEqual([{ ref: 'won_deals_count', op: '=', value: '0' }]);
    expect(plan({ field: 'lifetimeValue', op: 'neq', value: 1 }).residual).toBeDefined();
  });

  it('compiles a mapped custom number field exactly, and dates as days resolved when the plan runs', () => {
    const map = { ...PIPEDRIVE_FIELD_MAP, fields: { ...PIPEDRIVE_FIELD_MAP.fields, lifetimeValue: 'a'.repeat(40) } };
    const p = plan({ field: 'lifetimeValue', op: 'between', from: 100, to: 200 }, {}, map);
    expect(p.native.filter.and).toEqual([{ ref: 'a'.repeat(40), op: '>=', value: '100' }, { ref: 'a'.repeat(40), op: '<=', value: '200' }]);
    const d = plan({ field: 'createdAt', op: 'between', from: { kind: 'absolute', date: '2026-01-01' }, to: { kind: 'absolute', date: '2026-02-01' } });
    expect(d.native.filter.and).toEqual([
      { ref: 'add_time', op: '>=', instant: Date.parse('2026-01-01T00:00:00Z') },
      { ref: 'add_time', op: '<=', instant: Date.parse('2026-02-01T00:00:00Z') },
    ]);
    expect(d.native.check).toBeDefined();
  });

  it('knows a stage no label means matches nobody, and leaves "unknown" to the product', () => {
    const map = { ...PIPEDRIVE_FIELD_MAP, stages: { customer: 'customer' as const } };
    expect(plan({ field: 'hubspotStage', op: 'eq', value: 'marketingqualifiedlead' }, {}, map).native.never).toBe(true);
    expect(plan({ or: [{ field: 'hubspotStage', op: 'eq', value: 'other' }, { field: 'country', op: 'eq', value: 'Peru' }] }, {}, map).native.never).toBeUndefined();
    expect(plan({ field: 'lifecycleStage', op: 'eq', value: 'unknown' }).residual).toEqual({ field: 'lifecycleStage', op: 'eq', value: 'unknown' });
  });

  it('finds e-mail domains with "contains", and names through their first and last name', () => {
    const p = plan({ field: 'emailDomain', op: 'in', values: ['acme.com', '.edu'] });
    expect(p.native.filter.or).toEqual([{ ref: 'email', op: "LIKE '%$%'", value: '@acme.com' }, { ref: 'email', op: "LIKE '%$%'", value: '.edu' }]);
    expect(p.native.check).toBeDefined();
    const n = plan({ field: 'name', op: 'eq', value: 'Mary Ann Lee' });
    expect(n.native.filter.or).toEqual([
      { ref: 'first_name', op: '=', value: 'mary ann lee' },
      { ref: 'first_name', op: '=', value: 'mary' },
      { ref: 'first_name', op: '=', value: 'mary ann' },
      { ref: 'last_name', op: '=', value: 'mary ann lee' },
    ]);
    expect(plan({ field: 'region', op: 'eq', value: 'North America' }).native.filter.or.length).toBeGreaterThan(4);
    expect(plan({ field: 'region', op: 'eq', value: 'Europe' }).residual).toEqual({ field: 'region', op: 'eq', value: 'Europe' });
  });

  it('never writes more than 16 lines: approximations give theirs up first, then exact conditions are checked instead', () => {
    const conds: SegmentNode[] = Array.from({ length: 17 }, (_, i) => ({ field: 'email', op: 'contains', value: `x${i}` }));
    const p = plan({ and: [...conds, { field: 'city', op: 'contains', value: 'a' }] });
    expect(p.native.filter.and.length + p.native.filter.or.length).toBeLessThanOrEqual(16);
    expect(p.residual).toBeUndefined();
    expect(p.native.filter.and).toContainEqual({ ref: 'postal_address.locality', op: "LIKE '%$%'", value: 'a' });
  });
});
