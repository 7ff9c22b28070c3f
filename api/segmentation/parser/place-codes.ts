/**
 * Two-letter place codes as busy people type them: ISO 3166 country codes ("de contacts", "de/at/ch") and
 * US state codes ("tx customers", "opps ca tx ny"). Country codes come from ICU's region names
 * (country-names.ts), matched to the product's country list, so no hand-kept table can drift.
 */
import { COUNTRY_CODES } from './country-names.js';
import { STATE_CODES } from './lexicon.js';

export { COUNTRY_CODES };

export type CodeReading = { field: 'country' | 'state'; value: string };

/** The readings of a two-letter code: a country, a US state, or both ("de": Germany or Delaware). */
export function codeReadings(code: string): CodeReading[] {
  const out: CodeReading[] = [];
  const country = COUNTRY_CODES.get(code);
  if (country) out.push({ field: 'country', value: country });
  const state = STATE_CODES.get(code);
  if (state) out.push({ field: 'state', value: state });
  return out;
}
