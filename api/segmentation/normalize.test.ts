import { describe, expect, it } from 'vitest';
import type { HubSpotContact } from '../crm/hubspot/model/index.js';
import { generateContacts } from '../crm/hubspot-sandbox/data.js';
import type { Segment } from './ast.js';
import { selectContacts } from './evaluate.js';
import { segmentsEquivalent } from './normalize.js';

const opts = { now: '2026-06-15T12:00:00Z', timeZone: 'UTC' };
const contacts: HubSpotContact[] = generateContacts({ count: 2000, seed: 7, now: opts.now }).map((c) => {
  const properties: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(c)) properties[k] = v === null || v === undefined ? null : String(v);
  return { id: String(c.id), properties };
});
const ids = (s: Segment) => selectContacts(s, contacts, opts).map((c) => c.id).sort();

describe('normalizeSegment', () => {
  // pairs that mean the same, and the contacts they select agree
  const same: Array<[string, Segment, Segment]> = [
    [
      'negations ANDed are one negated OR (De Morgan)',
      { version: 1, where: { and: [{ field: 'company', op: 'not_contains', value: 'Acme' }, { field: 'company', op: 'not_contains', value: 'Silvermark' }] } },
      { version: 1, where: { not: { or: [{ field: 'company', op: 'contains', value: 'Acme' }, { field: 'company', op: 'contains', value: 'Silvermark' }] } } },
    ],
    [
      'neq ANDed on one field is not_in',
      { version: 1, where: { and: [{ field: 'country', op: 'neq', value: 'France' }, { field: 'country', op: 'neq', value: 'Spain' }, { field: 'lifetimeValue', op: 'gt', value: 1000 }] } },
      { version: 1, where: { and: [{ field: 'lifetimeValue', op: 'gt', value: 1000 }, { field: 'country', op: 'not_in', values: ['Spain', 'France'] }] } },
    ],
  ];
  it.each(same)('%s', (_name, a, b) => {
    expect(segmentsEquivalent(a, b, opts)).toBe(true);
    expect(ids(a)).toEqual(ids(b));
  });

  it('keeps a negation of an AND apart from an AND of negations', () => {
    const a: Segment = { version: 1, where: { not: { and: [{ field: 'country', op: 'eq', value: 'France' }, { field: 'lifecycleStage', op: 'eq', value: 'customer' }] } } };
    const b: Segment = { version: 1, where: { and: [{ field: 'country', op: 'neq', value: 'France' }, { field: 'lifecycleStage', op: 'neq', value: 'customer' }] } };
    expect(segmentsEquivalent(a, b, opts)).toBe(false);
    expect(ids(a)).not.toEqual(ids(b));
  });
});
