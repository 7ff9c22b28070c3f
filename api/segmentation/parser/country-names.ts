/**
 * Country names from ICU (Intl.DisplayNames), so no hand-kept table can drift: the ISO code of each of the
 * product's countries, and what Europeans type for a country in their own languages ("Polska", "España",
 * "Deutschland", "Schweiz", "Niemcy", "Allemagne"): its name in the country's own language (ICU's likely
 * language of the region) and, for European countries, in German, French, Spanish, Italian, Portuguese, Dutch
 * and Polish, and for every country in Spanish and Portuguese ("Estados Unidos", "Japón"). A name that is also an
 * English word ("Island", "Chine", "Grenade"), or two words or more outside Spanish and Portuguese, is left out; the
 * lexicon also skips one that already names another place ("Granada", "Salvador" are cities).
 */
import englishWords from 'an-array-of-english-words/index.json' with { type: 'json' };
import { COUNTRIES, COUNTRY_VARIANTS, regionOfCountry } from '../regions.js';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').replace(/[’']/g, "'").toLowerCase();

function countryCodes(): Map<string, string> {
  const byName = new Map<string, string>();
  for (const c of COUNTRIES) byName.set(fold(c), c);
  for (const [c, variants] of Object.entries(COUNTRY_VARIANTS)) for (const v of variants) byName.set(fold(v), c);
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const out = new Map<string, string>();
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      let name: string | undefined;
      try {
        name = names.of(code);
      } catch {
        continue;
      }
      const country = name ? byName.get(fold(name)) : undefined;
      if (country) out.set(code.toLowerCase(), country);
    }
  }
  // codes people use that ICU names otherwise
  out.set('uk', 'United Kingdom');
  return out;
}

/** lower-case ISO code -> the product's country name */
export const COUNTRY_CODES: ReadonlyMap<string, string> = countryCodes();

const LANGUAGES = ['de', 'fr', 'es', 'it', 'pt', 'nl', 'pl'];
const IBERIAN = ['es', 'pt'];

/**
 * [name as typed, the product's country, whether a typo may be corrected to it] for the countries' names in European
 * languages and their own. Only a name a European or the country's own people type is a typo's target: the Spanish and
 * Portuguese names of the rest of the world are read as typed ("lugano" is no typo of "Líbano").
 */
export function foreignCountryNames(): Array<[string, string, boolean]> {
  const english = new Set(englishWords as string[]);
  const out: Array<[string, string, boolean]> = [];
  const displays = new Map<string, Intl.DisplayNames>();
  const display = (lang: string) => displays.get(lang) ?? displays.set(lang, new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' })).get(lang)!;
  for (const [code, country] of COUNTRY_CODES) {
    if (code === 'uk') continue;
    const region = code.toUpperCase();
    const own = new Intl.Locale(`und-${region}`).maximize().language;
    // (other languages' names for Europe's countries, and Spanish and Portuguese ones for every country, as Latin
    // Americans write them: "Estados Unidos", "Alemanha"; the lexicon skips one that names another place, "Granada")
    for (const lang of new Set([own, ...(regionOfCountry(country) === 'Europe' ? LANGUAGES : IBERIAN)])) {
      const name = display(lang).of(region);
      if (!name || fold(name) === fold(country)) continue;
      // (a name of several words only in Spanish and Portuguese, whose words are not English: "Reino Unido")
      if (/\s/.test(name) && (!IBERIAN.includes(lang) || name.split(/\s+/).every((w) => english.has(fold(w))))) continue;
      if (english.has(fold(name))) continue;
      out.push([name, country, lang === own || regionOfCountry(country) === 'Europe']);
    }
  }
  return out;
}
