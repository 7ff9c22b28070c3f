/**
 * Property: for random segments and random contacts, the contacts selected by running the compiled
 * HubSpot searches are exactly the contacts the in-memory evaluator selects. The searches are run
 * (1) through the HubSpot sandbox's own search engine (api/crm/hubspot-sandbox/search.ts), and
 * (2) through a small reference emulation (testing/hubspot-reference.ts) under both missing-property
 * assumptions, so the compiler stays exact if the assumption in hubspot-semantics.ts changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContactStore, executeSearch } from '../crm/hubspot-sandbox/search.js';
import type { SandboxContact } from '../crm/hubspot-sandbox/data.js';
import { SEARCH_LIMITS, parseInstant, type HubSpotContact } from '../crm/hubspot/model/index.js';
import { compileToHubSpot } from './compile-hubspot.js';
import { isSegmentationError } from './errors.js';
import { compileEvaluator } from './evaluate.js';
import type { CompiledHubSpotQuery } from './hubspot-query.js';
import { HUBSPOT_SEMANTICS, type HubSpotSemantics } from './hubspot-semantics.js';
import { NOW, TIME_ZONES, contactsArb, datePool, segmentArb } from './testing/arbitraries.js';
import { runCompiledQuery } from './testing/hubspot-reference.js';

/** The sandbox stores typed columns: numbers and datetimes as numbers, missing as null. */
function toSandboxContact(c: HubSpotContact): SandboxContact {
  const p = c.properties;
  const str = (k: string) => (p[k] === undefined || p[k] === '' ? null : (p[k] as string | null));
  const num = (k: string) => (str(k) === null ? null : Number(p[k]));
  const time = (k: string) => (str(k) === null ? null : parseInstant(p[k]));
  return {
    id: Number(c.id),
    firstname: str('firstname'),
    lastname: str('lastname'),
    email: str('email'),
    company: str('company'),
    lifecyclestage: str('lifecyclestage'),
    recent_deal_close_date: time('recent_deal_close_date'),
    recent_deal_amount: num('recent_deal_amount'),
    total_revenue: num('total_revenue'),
    city: str('city'),
    state: str('state'),
    country: str('country'),
    createdate: time('createdate') as number,
    lastmodifieddate: 0,
  };
}

function runInSandbox(query: CompiledHubSpotQuery, contacts: HubSpotContact[]): string[] {
  const store = createContactStore(contacts.map(toSandboxContact));
  const ids = new Set<string>();
  for (const search of query.searches) {
    let after = '0';
    for (;;) {
      const page = executeSearch(store, { ...search, after, limit: 200 });
      for (const r of page.results) ids.add(r.id);
      if (!page.paging?.next?.after) break;
      after = page.paging.next.after;
    }
  }
  return [...ids].sort((a, b) => Number(a) - Number(b));
}

const pools = new Map(TIME_ZONES.map((tz) => [tz, datePool(tz)] as const));

function check(sem: HubSpotSemantics, numRuns: number, sandbox: boolean) {
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
          expect(s.filterGroups.length).toBeLessThanOrEqual(SEARCH_LIMITS.maxFilterGroups);
          expect(s.filterGroups.reduce((n, g) => n + g.filters.length, 0)).toBeLessThanOrEqual(SEARCH_LIMITS.maxFiltersTotal);
          for (const g of s.filterGroups) expect(g.filters.length).toBeLessThanOrEqual(SEARCH_LIMITS.maxFiltersPerGroup);
          expect(JSON.stringify(s).length).toBeLessThanOrEqual(SEARCH_LIMITS.maxBodyChars);
        }
        const pred = compileEvaluator(segment, opts);
        const expected = contacts.filter(pred).map((c) => c.id);
        const actual = [...runCompiledQuery(query, contacts, sem)].sort((a, b) => Number(a) - Number(b));
        expect(actual).toEqual(expected);
        if (sandbox) expect(runInSandbox(query, contacts)).toEqual(expected);
      },
    ),
    { numRuns, seed: Number(process.env.FC_SEED ?? 20260615) },
  );
  // the generator must mostly produce compilable segments, or the property says little
  expect(compiled).toBeGreaterThan(tooComplex * 4);
}

describe('compiled HubSpot searches select exactly what evaluate.ts selects', () => {
  it('run by the HubSpot sandbox and by the reference emulation (assumed semantics)', () => {
    check(HUBSPOT_SEMANTICS, 400, true);
  });
  it('run by the reference emulation with the opposite missing-property assumption', () => {
    check({ negativeOperatorsMatchMissing: false }, 300, false);
  });
});
