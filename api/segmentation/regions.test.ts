import { describe, expect, it } from 'vitest';
import { COUNTRIES, COUNTRY_GROUPS, COUNTRY_VARIANTS, REGIONS, REGION_COUNTRIES, expandPlaceValue } from './regions.js';

describe('regions', () => {
  it('puts every country in exactly one region', () => {
    const seen = new Map<string, string>();
    for (const r of REGIONS) {
      for (const c of REGION_COUNTRIES[r]) {
        expect(seen.get(c), `${c} is in ${seen.get(c)} and ${r}`).toBeUndefined();
        seen.set(c, r);
      }
    }
    expect(seen.size).toBe(COUNTRIES.length);
  });

  it('only uses known countries in groups and variants', () => {
    for (const list of Object.values(COUNTRY_GROUPS)) for (const c of list) expect(COUNTRIES).toContain(c);
    for (const c of Object.keys(COUNTRY_VARIANTS)) expect(COUNTRIES).toContain(c);
  });

  it('expands place values to their spelling variants', () => {
    expect(expandPlaceValue('country', 'usa')).toContain('United States');
    expect(expandPlaceValue('state', 'TX')).toEqual(['Texas', 'TX']);
    expect(expandPlaceValue('city', 'Springfield')).toEqual(['Springfield']);
  });
});
