/**
 * Property: the evaluator over CRM-neutral records (what every connector reads into, and what the
 * product evaluates a plan's residual conditions on) agrees with the evaluator over HubSpot contacts,
 * for random segments and contacts read through HubSpot's default field map.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HUBSPOT_FIELD_MAP } from '../crm/hubspot/field-map.js';
import { hubspotRecord } from '../crm/hubspot/records.js';
import { sortContacts } from '../crm/hubspot/model/index.js';
import { sortRecords } from '../crm/record.js';
import { compileEvaluator, compileRecordEvaluator } from './evaluate.js';
import { hubSpotSort } from './hubspot-query.js';
import { NOW, TIME_ZONES, contactsArb, datePool, segmentArb } from './testing/arbitraries.js';

const pools = new Map(TIME_ZONES.map((tz) => [tz, datePool(tz)] as const));

describe('record evaluator = HubSpot contact evaluator', () => {
  it.each(TIME_ZONES)('selects the same contacts, in the same order (%s)', (timeZone) => {
    const dates = pools.get(timeZone)!;
    fc.assert(
      fc.property(segmentArb, contactsArb(dates), (segment, contacts) => {
        const opts = { now: NOW, timeZone };
        const byContact = compileEvaluator(segment, opts);
        const byRecord = compileRecordEvaluator(segment.where, opts);
        const records = contacts.map((c) => hubspotRecord(c, HUBSPOT_FIELD_MAP));
        const want = contacts.filter(byContact);
        const got = records.filter(byRecord);
        expect(got.map((r) => r.id)).toEqual(want.map((c) => c.id));
        if (segment.sort) {
          expect(sortRecords([...got], segment.sort).map((r) => r.id)).toEqual(sortContacts([...want], hubSpotSort(segment.sort)).map((c) => c.id));
        }
      }),
      { numRuns: 300, seed: 27 },
    );
  });
});
