// Completion of the word being typed in a question (issue 25, suggestions while typing): the terms are the
// question's fields and stages and the user's own CRM values (countries, cities, companies, ...). Pure
// functions, no DOM: the web's question box shows what `completeAt` finds and applies `acceptCompletion`.
// Case and accents never matter ("zur" finds "Zürich"); a value of several words is completed from any
// number of its first words ("new yo" → "New York").

export type TermKind = 'stage' | 'region' | 'field' | 'country' | 'state' | 'city' | 'company';

export interface Term {
  label: string;
  kind: TermKind;
}

export interface Suggestion extends Term {
  /** the typed text it replaces: [from, to) of the question */
  from: number;
  to: number;
}

/** Lower case without accents: the comparison form of a word. */
export const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

/** Words too common in questions to be completed on their own ("in" is not the start of "India"). */
const STOPWORDS = new Set(
  'a an and are at be been by for from had has have in is it last me my named no not of on or over than that the their them this to under was were who whose with without'.split(' '),
);

/** Order of kinds when two terms match equally well: the question's own words first, then places, then companies. */
const KIND_RANK: Record<TermKind, number> = { stage: 0, region: 1, field: 2, country: 3, state: 4, city: 5, company: 6 };

const WORD_CHAR = /[\p{L}\p{N}&'.-]/u;
/** At most this many words before the caret are read as the start of one value. */
const MAX_WORDS = 3;
const MIN_CHARS = 2;

/**
 * The words ending at the caret, as candidate fragments: the last word alone, the last two, the last three
 * (each with where it starts). None when the caret is not at the end of a word being typed.
 */
export function fragmentsAt(text: string, caret: number): Array<{ from: number; text: string; words: number }> {
  if (caret <= 0 || caret > text.length) return [];
  if (!WORD_CHAR.test(text[caret - 1])) return [];
  if (caret < text.length && WORD_CHAR.test(text[caret])) return [];
  const out: Array<{ from: number; text: string; words: number }> = [];
  let i = caret;
  for (let n = 1; n <= MAX_WORDS; n++) {
    while (i > 0 && WORD_CHAR.test(text[i - 1])) i--;
    out.push({ from: i, text: text.slice(i, caret), words: n });
    // the previous word, across the spaces before this one (not across a line break or punctuation)
    let j = i;
    while (j > 0 && text[j - 1] === ' ') j--;
    if (j === i || j === 0 || !WORD_CHAR.test(text[j - 1])) break;
    i = j;
  }
  return out;
}

interface Scored extends Suggestion {
  score: [number, number, number, number, number];
}

/**
 * Suggestions for the word at the caret, best first, at most `max`. A term matches when its label starts
 * with the typed fragment (ranked first) or one of its later words does ("york" → "New York"); fragments of
 * more words rank before shorter ones, then the term's kind, then its place in `terms` (the CRM's values
 * come most frequent first). A term already typed in full is not suggested.
 */
export function completeAt(text: string, caret: number, terms: readonly Term[], max = 8): Suggestion[] {
  const fragments = fragmentsAt(text, caret)
    .map((f) => ({ ...f, key: fold(f.text).replace(/\s+/g, ' ') }))
    .filter((f) => f.key.length >= MIN_CHARS && !(f.words === 1 && STOPWORDS.has(f.key)));
  if (fragments.length === 0) return [];
  const best = new Map<string, Scored>();
  terms.forEach((term, index) => {
    const label = fold(term.label).replace(/\s+/g, ' ');
    for (const f of fragments) {
      if (label === f.key) continue;
      let quality: number;
      if (label.startsWith(f.key)) quality = 0;
      else if (f.words === 1 && label.includes(` ${f.key}`)) quality = 1;
      else continue;
      const s: Scored = { ...term, from: f.from, to: caret, score: [-f.words, quality, KIND_RANK[term.kind], index, term.label.length] };
      const prev = best.get(label);
      if (!prev || compare(s.score, prev.score) < 0) best.set(label, s);
    }
  });
  return [...best.values()]
    .sort((a, b) => compare(a.score, b.score))
    .slice(0, max)
    .map(({ label, kind, from, to }) => ({ label, kind, from, to }));
}

/**
 * Whether the word at the caret already is a whole term ("leads", "Germany"): Tab then moves on instead of
 * taking the first suggestion (which would turn the stage "leads" into the company "Leadership Inc").
 */
export function endsWithTerm(text: string, caret: number, terms: readonly Term[]): boolean {
  const keys = new Set(fragmentsAt(text, caret).map((f) => fold(f.text).replace(/\s+/g, ' ')));
  return terms.some((t) => keys.has(fold(t.label).replace(/\s+/g, ' ')));
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The question with the suggestion in place of the typed fragment, and where the caret goes (after a space). */
export function acceptCompletion(text: string, s: Suggestion): { text: string; caret: number } {
  const after = text.slice(s.to);
  const space = after.startsWith(' ') ? '' : ' ';
  const next = text.slice(0, s.from) + s.label + space + after;
  return { text: next, caret: s.from + s.label.length + 1 };
}

/** The plural a question uses for a stage ("lead" → "leads", "opportunity" → "opportunities"). */
export const stagePlural = (stage: string): string => (/[^aeiou]y$/.test(stage) ? `${stage.slice(0, -1)}ies` : `${stage}s`);

export interface VocabularyLists {
  companies: readonly string[];
  cities: readonly string[];
  states: readonly string[];
  countries: readonly string[];
}

/** The field catalogue's entries the terms are made of (`segmentFields` of the GraphQL API). */
export interface FieldEntry {
  field: string;
  label: string;
  kind: string;
  options?: readonly string[] | null;
}

/**
 * The terms of the question box: stages (plural, as questions name them) and regions from the field
 * catalogue, the catalogue's field names, and the user's CRM values.
 */
export function buildTerms(fields: readonly FieldEntry[], vocabulary: VocabularyLists | null): Term[] {
  const terms: Term[] = [];
  for (const f of fields) {
    if (f.field === 'lifecycleStage') for (const o of f.options ?? []) if (o !== 'unknown') terms.push({ label: stagePlural(o), kind: 'stage' });
    if (f.kind === 'region') for (const o of f.options ?? []) terms.push({ label: o, kind: 'region' });
  }
  // field names as a question writes them; the stage fields are named by their values instead
  for (const f of fields) if (f.kind !== 'stage' && f.kind !== 'region') terms.push({ label: f.label.toLowerCase(), kind: 'field' });
  if (vocabulary) {
    for (const label of vocabulary.countries) terms.push({ label, kind: 'country' });
    for (const label of vocabulary.states) terms.push({ label, kind: 'state' });
    for (const label of vocabulary.cities) terms.push({ label, kind: 'city' });
    for (const label of vocabulary.companies) terms.push({ label, kind: 'company' });
  }
  return terms;
}
