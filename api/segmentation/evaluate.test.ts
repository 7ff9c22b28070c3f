import { describe, expect, it } from 'vitest';
import type { Segment, SegmentNode } from './ast.js';
import { evaluateSegment, selectContacts } from './evaluate.js';
import type { HubSpotContact } from '../crm/hubspot/model/index.js';

const opts = { now: '2026-06-15T12:00:00Z', timeZone: 'UTC' };
const contact = (id: string, properties: Record<string, string | null | undefined>): HubSpotContact => ({ id, properties });
const matches = (where: SegmentNode, c: HubSpotContact) => evaluateSegment({ version: 1, where }, c, opts);

describe('evaluateSegment', () => {
  it('positive conditions never match a missing or empty property; negations do', () => {
    const none = contact('1', { country: null, total_revenue: '' });
    expect(matches({ field: 'country', op: 'eq', value: 'Germany' }, none)).toBe(false);
    expect(matches({ field: 'country', op: 'neq', value: 'Germany' }, none)).toBe(true);
    expect(matches({ field: 'lifetimeValue', op: 'gt', value: 5 }, none)).toBe(false);
    expect(matches({ not: { field: 'lifetimeValue', op: 'gt', value: 5 } }, none)).toBe(true);
    expect(matches({ field: 'lifetimeValue', op: 'is_not_set' }, none)).toBe(true);
  });

  it('compares text case-insensitively and matches spelling variants of places', () => {
    expect(matches({ field: 'country', op: 'eq', value: 'United States' }, contact('1', { country: 'usa' }))).toBe(true);
    expect(matches({ field: 'state', op: 'eq', value: 'California' }, contact('1', { state: 'CA' }))).toBe(true);
    expect(matches({ field: 'company', op: 'contains', value: 'acme' }, contact('1', { company: 'The ACME Group' }))).toBe(true);
    expect(matches({ field: 'region', op: 'eq', value: 'Europe' }, contact('1', { country: 'united kingdom' }))).toBe(true);
    expect(matches({ field: 'region', op: 'eq', value: 'Latin America' }, contact('1', { country: 'Mexico' }))).toBe(true);
  });

  it('maps HubSpot lifecycle values, read trimmed and lower-cased', () => {
    const stage = (v: string | null) => contact('1', { lifecyclestage: v });
    expect(matches({ field: 'lifecycleStage', op: 'eq', value: 'lead' }, stage('salesqualifiedlead'))).toBe(true);
    expect(matches({ field: 'lifecycleStage', op: 'eq', value: 'customer' }, stage('evangelist'))).toBe(true);
    expect(matches({ field: 'lifecycleStage', op: 'eq', value: 'unknown' }, stage('other'))).toBe(true);
    expect(matches({ field: 'lifecycleStage', op: 'eq', value: 'unknown' }, stage(null))).toBe(true);
    expect(matches({ field: 'lifecycleStage', op: 'eq', value: 'customer' }, stage(' Customer '))).toBe(true);
    expect(matches({ field: 'lifecycleStage', op: 'eq', value: 'unknown' }, stage('Custom er'))).toBe(true);
  });

  it('matches e-mail domains, names, purchases and dates', () => {
    expect(matches({ field: 'emailDomain', op: 'eq', value: 'acme.com' }, contact('1', { email: 'Ann@ACME.com' }))).toBe(true);
    expect(matches({ field: 'emailDomain', op: 'eq', value: 'acme.com' }, contact('1', { email: 'ann@notacme.com' }))).toBe(false);
    expect(matches({ field: 'emailDomain', op: 'eq', value: '.edu' }, contact('1', { email: 'x@mit.edu' }))).toBe(true);
    expect(matches({ field: 'emailDomain', op: 'eq', value: '.edu' }, contact('1', { email: 'foo.edu@gmail.com' }))).toBe(false);
    expect(matches({ field: 'name', op: 'eq', value: 'Mary Ann Lee' }, contact('1', { firstname: 'Mary Ann', lastname: 'Lee' }))).toBe(true);
    expect(matches({ field: 'name', op: 'eq', value: 'Lee' }, contact('1', { firstname: 'Ann', lastname: 'lee' }))).toBe(true);
    expect(matches({ field: 'hasPurchased', op: 'eq', value: false }, contact('1', {}))).toBe(true);
    const recent = contact('1', { recent_deal_close_date: '2026-06-01T00:00:00.000Z' });
    const recentMs = contact('2', { recent_deal_close_date: String(Date.parse('2026-06-01T00:00:00Z')) });
    const within30: SegmentNode = { field: 'lastPurchaseDate', op: 'gte', value: { kind: 'relative', amount: 30, unit: 'day', direction: 'past' } };
    expect(matches(within30, recent)).toBe(true);
    expect(matches(within30, recentMs)).toBe(true);
    const may: SegmentNode = { field: 'lastPurchaseDate', op: 'between', from: { kind: 'absolute', date: '2026-05-01' }, to: { kind: 'absolute', date: '2026-06-01' } };
    expect(matches(may, recent)).toBe(false); // the end is exclusive
  });
});

describe('selectContacts', () => {
  it('filters, sorts with missing values last and limits', () => {
    const cs = [
      contact('1', { total_revenue: '100' }),
      contact('2', { total_revenue: null }),
      contact('3', { total_revenue: '900' }),
      contact('4', { total_revenue: '500' }),
    ];
    const s: Segment = { version: 1, sort: { field: 'lifetimeValue', direction: 'desc' }, limit: 3 };
    expect(selectContacts(s, cs, opts).map((c) => c.id)).toEqual(['3', '4', '1']);
    expect(selectContacts({ ...s, sort: { field: 'lifetimeValue', direction: 'asc' }, limit: undefined }, cs, opts).map((c) => c.id)).toEqual(['1', '4', '3', '2']);
  });
});
