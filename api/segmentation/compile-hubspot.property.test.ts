/**
 * Property: for random segments and random contacts, the contacts selected by running the compiled
 * HubSpot searches (through an emulation of HubSpot's filter semantics) are exactly the contacts the
 * in-memory evaluator selects. Checked under both missing-property assumptions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileToHubSpot } from './compile-hubspot.js';
import { isSegmentationError } from './errors.js';
import { compileEvaluator } from './evaluate.js';
import { HUBSPOT_LIMITS } from './hubspot.js';
import { HUBSPOT_SEMANTICS, type HubSpotSemantics } from './hubspot-semantics.js';
import { NOW, TIME_ZONES, contactsArb, datePool, segmentArb } from './testing/arbitraries.js';
import { runCompiledQuery } from './testing/hubspot-reference.js';

const pools = new Map(TIME_ZONES.map((tz) => [tz, datePool(tz)] as const));

function check(sem: HubSpotSemantics, numRuns: number) {
  let compiled = 0;
  let tooComplex = 0;
  fc.assert(
    fc.property(
      fc.constantFrom(...TIME_ZONES).chain((tz) => fc.tuple(fc.constant(tz), segmentArb, contactsArb(pools.get(tz) as number[]))),
      ([timeZone, segment, contacts]) => {
        const opts = { now: NOW, timeZone };
        let query;
        try {
          query = compileToHubSpot(segment, { ...opts, semantics: sem, maxSearches: 50 });
        } catch (e) {
          if (isSegmentationError(e) && e.code !== 'INVALID_SEGMENT') {
            tooComplex++;
            return;
          }
          throw e;
        }
        compiled++;
        for (const s of query.searches) {
          expect(s.filterGroups.length).toBeLessThanOrEqual(HUBSPOT_LIMITS.maxGroupsPerSearch);
          expect(s.filterGroups.reduce((n, g) => n + g.filters.length, 0)).toBeLessThanOrEqual(HUBSPOT_LIMITS.maxFiltersPerSearch);
          for (const g of s.filterGroups) expect(g.filters.length).toBeLessThanOrEqual(HUBSPOT_LIMITS.maxFiltersPerGroup);
          expect(JSON.stringify(s).length).toBeLessThanOrEqual(HUBSPOT_LIMITS.maxBodyChars);
        }
        const pred = compileEvaluator(segment, opts);
        const expected = contacts.filter(pred).map((c) => c.id);
        const actual = [...runCompiledQuery(query, contacts, sem)].sort((a, b) => Number(a) - Number(b));
        expect(actual).toEqual(expected);
      },
    ),
    { numRuns, seed: Number(process.env.FC_SEED ?? 20260615) },
  );
  // the generator must mostly produce compilable segments, or the property says little
  expect(compiled).toBeGreaterThan(tooComplex * 4);
}

describe('compiled HubSpot searches select exactly what evaluate.ts selects', () => {
  it('with the assumed semantics (negative operators match missing properties)', () => {
    check(HUBSPOT_SEMANTICS, 400);
  });
  it('with the opposite assumption', () => {
    check({ negativeOperatorsMatchMissing: false }, 300);
  });
});
