/**
 * The values the user's own CRM holds (issue 23, "resolve values against the user's own CRM"): companies,
 * cities, states, countries and e-mail domains, as an optional dictionary for the parser. The parser stays
 * a pure function: the service reads the values once per account (services/crm-vocabulary.ts), builds
 * `CrmVocabulary.from(values)` and passes it in `ParseOptions.vocabulary`; without it the parser reads
 * places from its own lexicon and companies from capitalisation.
 *
 * Matching is on the lexer's normalised tokens, so case and accents never matter ("zurich", "Zürich" and
 * "ZURICH" are one value), and a value found is searched in the CRM's own spelling — every spelling the CRM
 * holds, when it holds several ("Zurich" and "Zürich" → city in [Zurich, Zürich]).
 */
import { editDistance, maxEdits } from './fuzzy.js';
import { KnownCompanies } from './known-companies.js';
import { FREE_MAIL_DOMAINS } from './free-mail.js';
import { normaliseWord, tokenize } from './lexer.js';

export type VocabularyField = 'company' | 'city' | 'state' | 'country' | 'emailDomain';
export type PlaceField = 'city' | 'state' | 'country';

/** The CRM's values per field, most frequent first (as `CrmConnector.listValues` returns them). */
export type VocabularyValues = Partial<Record<VocabularyField, readonly string[]>>;

export interface PlaceMatch {
  /** every place field the words name in this CRM ("Victoria": a city and a state) */
  fields: Array<{ field: PlaceField; values: string[] }>;
  len: number;
}

/** The normalised words of a value, as the lexer makes them (punctuation other than "&" dropped). */
export function valueWords(value: string): string[] {
  return tokenize(value)
    .filter((t) => t.kind !== 'punct' || t.text === '&')
    .map((t) => t.text);
}

/** A value's comparison key: case and accents ignored, punctuation and spacing collapsed. */
export function valueKey(value: string): string {
  return normaliseWord(value).replace(/[^\p{L}\p{N}&]+/gu, ' ').trim();
}

export class CrmVocabulary {
  readonly companies: KnownCompanies;
  /** first word -> places starting with it, longest first */
  private readonly places = new Map<string, Array<{ words: string[]; field: PlaceField; key: string }>>();
  /** field -> value key -> the CRM's spellings */
  private readonly spellings: Record<PlaceField, Map<string, string[]>> = { city: new Map(), state: new Map(), country: new Map() };
  private readonly domains = new Set<string>();
  readonly size: number;

  private constructor(values: VocabularyValues) {
    this.companies = KnownCompanies.from(values.company ?? []);
    let n = this.companies.size;
    for (const field of ['city', 'state', 'country'] as const) {
      for (const raw of values[field] ?? []) {
        const value = raw.trim();
        if (!value || value.length > 120) continue;
        const key = valueKey(value);
        if (!key) continue;
        const list = this.spellings[field].get(key);
        if (list) {
          if (!list.includes(value)) list.push(value);
          continue;
        }
        this.spellings[field].set(key, [value]);
        n++;
        const words = valueWords(value);
        if (words.length === 0) continue;
        const entries = this.places.get(words[0]) ?? [];
        entries.push({ words, field, key });
        this.places.set(words[0], entries);
      }
    }
    for (const list of this.places.values()) list.sort((a, b) => b.words.length - a.words.length);
    for (const d of values.emailDomain ?? []) {
      const domain = d.trim().toLowerCase().replace(/^@/, '');
      if (domain) this.domains.add(domain);
    }
    this.size = n + this.domains.size;
  }

  static from(values: VocabularyValues): CrmVocabulary {
    return new CrmVocabulary(values);
  }

  /** The CRM's spellings of a place value (case and accents ignored), or undefined when it has none. */
  spellingsOf(field: PlaceField, value: string): string[] | undefined {
    return this.spellings[field].get(valueKey(value));
  }

  /** Whether the CRM holds any value for this place field (an empty list means the field is unknown). */
  hasField(field: PlaceField): boolean {
    return this.spellings[field].size > 0;
  }

  /** The longest place of the CRM starting at token `i`, with every field it names. */
  matchPlace(texts: readonly string[], i: number): PlaceMatch | undefined {
    const list = this.places.get(texts[i]);
    if (!list) return undefined;
    let best: PlaceMatch | undefined;
    for (const e of list) {
      if (best && e.words.length < best.len) break;
      if (!e.words.every((w, k) => texts[i + k] === w)) continue;
      best ??= { fields: [], len: e.words.length };
      const values = this.spellings[e.field].get(e.key) ?? [];
      if (!best.fields.some((f) => f.field === e.field)) best.fields.push({ field: e.field, values });
    }
    return best;
  }

  /** Whether an address of the CRM has this domain, or ends with this suffix (".co.uk"). */
  hasDomain(domain: string): boolean {
    const d = domain.toLowerCase();
    if (!d.startsWith('.')) return this.domains.has(d);
    for (const x of this.domains) if (x.endsWith(d)) return true;
    return false;
  }

  /** The CRM's e-mail domains named by their first label ("an acme email" -> acme.com). */
  domainsNamed(label: string): string[] {
    const l = label.toLowerCase();
    return [...this.domains].filter((d) => d.split('.')[0] === l);
  }

  /** The CRM's e-mail domains that are free mail providers ("personal emails"), most frequent first. */
  personalDomains(): string[] {
    return [...this.domains].filter((d) => FREE_MAIL_DOMAINS.has(d));
  }

  hasDomains(): boolean {
    return this.domains.size > 0;
  }

  /** The CRM's values closest to a typed one (typos), best first: places by field, domains, companies. */
  closest(field: VocabularyField, value: string, max = 3): string[] {
    if (field === 'company') return this.companies.closest(value, max);
    const key = field === 'emailDomain' ? value.toLowerCase() : valueKey(value);
    const bound = maxEdits(key.replace(/[^a-z]/g, '').length || key.length);
    const candidates: Array<[string, string]> =
      field === 'emailDomain' ? [...this.domains].map((d) => [d, d]) : [...this.spellings[field].entries()].map(([k, v]) => [k, v[0]]);
    // typos rarely change the first letter: only values starting like the typed one are compared
    return candidates
      .filter(([k]) => k[0] === key[0])
      .map(([k, v]) => [v, editDistance(key, k)] as const)
      .filter(([, d]) => d > 0 && d <= bound)
      .sort((a, b) => a[1] - b[1])
      .slice(0, max)
      .map(([v]) => v);
  }
}
