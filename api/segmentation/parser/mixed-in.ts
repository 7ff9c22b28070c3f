/**
 * Spanish and Portuguese words read in context ("clientes de perú", "leads o subscribers", "que no compran hace 6
 * meses", "el mes pasado", "mas de 5 mil"): words that are also English words, codes or parts of names, so the lexer
 * leaves them as typed (mixed-in-words.ts has the ones with a single reading). They are read only outside a place's
 * or a company's name ("Rio de Janeiro", "Los Angeles", "Brightpath S. de R.L."), and the ones that are common in
 * English questions too ("la", "con", "sin") only when the question has other Spanish or Portuguese in it.
 */
import type { KnownCompanies } from './known-companies.js';
import { PLACES } from './lexicon.js';
import { normaliseWord, type Token } from './lexer.js';
import { MIXED_IN_MONTHS, MIXED_IN_WORDS } from './mixed-in-words.js';

/** Words that show the question is (partly) Spanish or Portuguese besides the lexer's ones (not "sin": "lead sin spain"). */
const MARKERS = new Set(['con', 'hace', 'mas', 'menos', 'mais', 'del', 'hasta', 'antes', 'los', 'las', 'pais', 'por']);
const ARTICLES = new Set(['el', 'la', 'los', 'las', 'o', 'a', 'os', 'as']);
const OF_WORDS = new Set(['de', 'del', 'da', 'das', 'dos']);
const UNIT_WORDS = new Set(['month', 'year', 'week', 'quarter', 'day']);
const NEGATIONS = new Set(['no', 'nao', 'never', 'not', 'without', 'inactive']);
/** "mas de 6 meses", "menos que 500": a comparison whose "de" / "que" is "than". */
const COMPARISONS: Record<string, string[]> = { mas: ['more', 'than'], mais: ['more', 'than'], menos: ['less', 'than'] };

/** Words that are English words too (or "SEM"), read as Spanish or Portuguese only among other such words. */
const CONTEXT_WORDS: Record<string, string> = { con: 'with', sin: 'without', sem: 'without', hasta: 'until', antes: 'before', mayo: 'may', pais: 'country', por: 'for' };

const word = (from: Token, text: string): Token => ({ ...from, text, kind: 'word', original: undefined });

/** Token positions inside a place or a company of two words or more. */
function namePositions(tokens: Token[], known: KnownCompanies | undefined): Set<number> {
  const texts = tokens.map((t) => t.text);
  const raw = tokens.map((t) => normaliseWord(t.raw));
  const out = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const len = Math.max(PLACES.match(raw, i)?.len ?? 0, known?.match(raw, i)?.len ?? 0, known?.match(texts, i)?.len ?? 0);
    if (len >= 2) for (let k = i; k < i + len; k++) out.add(k);
  }
  // "S. de R.L.", "S.A. de C.V.": a legal form between initials
  tokens.forEach((t, k) => {
    if (normaliseWord(t.raw) === 'de' && tokens[k - 1]?.text === '.' && /^\p{Lu}$/u.test(tokens[k + 1]?.raw ?? '')) out.add(k);
  });
  return out;
}

export function readMixedIn(tokens: Token[], known?: KnownCompanies): Token[] {
  const raw = tokens.map((t) => normaliseWord(t.raw));
  const lexed = raw.some((w, k) => (MIXED_IN_WORDS[w] !== undefined || MIXED_IN_MONTHS[w] !== undefined) && tokens[k].kind === 'word' && w !== 'y');
  const spanish = lexed || raw.some((w) => MARKERS.has(w));
  const names = namePositions(tokens, known);
  const isWord = (k: number) => tokens[k]?.kind === 'word' || tokens[k]?.kind === 'number' || tokens[k]?.kind === 'money';
  const placeAt = (k: number) => PLACES.match(raw, k) !== undefined;
  const out: Token[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    const w = raw[k];
    if (t.kind !== 'word' || names.has(k) || t.upper) {
      out.push(t);
      continue;
    }
    // "desde enero", "em março": the month
    if (MIXED_IN_MONTHS[w]) {
      out.push(word(t, MIXED_IN_MONTHS[w]));
      continue;
    }
    const prev = out[out.length - 1]?.text;
    // "mas de 5 mil", "mayor a 5.000", "acima de 10 mil": a comparison, its "de" / "a" / "que" left out
    const cmp = COMPARISONS[w];
    if (cmp && spanish && ['de', 'que'].includes(raw[k + 1] ?? '')) {
      out.push(...cmp.map((x) => word(t, x)));
      k++;
      continue;
    }
    // ("mayor a 5.000", "acima de 10 mil": the lexer read "mayor", "acima" as "over")
    if ((prev === 'over' || prev === 'under') && ['de', 'a', 'que'].includes(w) && isWord(k + 1) && spanish) continue;
    // "clientes de perú", "compradores del año pasado": "of", or nothing before a period ("del año pasado")
    if (OF_WORDS.has(w) && (spanish || (w === 'de' && placeAt(k + 1))) && isWord(k + 1)) {
      if (w !== 'de' || k > 0) out.push(word(t, 'of'));
      continue;
    }
    // "el mes pasado", "o ano passado": last month (the lexer read "pasado" as "last")
    if (UNIT_WORDS.has(MIXED_IN_WORDS[raw[k + 1] ?? ''] ?? tokens[k + 1]?.text ?? '') && ['pasado', 'pasada', 'passado', 'passada'].includes(raw[k + 2] ?? '') && (ARTICLES.has(w) || OF_WORDS.has(w))) continue;
    if (UNIT_WORDS.has(t.text) && ['pasado', 'pasada', 'passado', 'passada'].includes(raw[k + 1] ?? '')) {
      out.push(word(tokens[k + 1], 'last'), t);
      k++;
      continue;
    }
    // articles ("los ultimos 60 dias", "la semana pasada") and "se" ("se registraron"): nothing
    if (spanish && (['el', 'la', 'los', 'las', 'se'].includes(w) || (['o', 'a', 'os', 'as'].includes(w) && UNIT_WORDS.has(tokens[k + 1]?.text ?? ''))) && isWord(k + 1) && !(w === 'la' && prev === 'in')) continue;
    // "leads o subscribers", "são paulo e rio": "or", "and" between two words
    if ((w === 'o' || w === 'ou') && isWord(k - 1) && isWord(k + 1) && out.length > 0) {
      out.push(word(t, 'or'));
      continue;
    }
    if (w === 'e' && spanish && isWord(k - 1) && isWord(k + 1) && out.length > 0) {
      out.push(word(t, 'and'));
      continue;
    }
    // "que no compran hace 6 meses" (not for 6 months), "compraron hace 3 meses" (3 months ago)
    if ((w === 'hace' || w === 'ha') && spanish) {
      const negated = out.some((x) => NEGATIONS.has(x.text));
      if (negated) {
        out.push(word(t, 'for'));
        continue;
      }
      // the amount and its unit, then "ago"
      let end = k + 1;
      while (end < tokens.length && end <= k + 4 && !UNIT_WORDS.has((tokens[end].text ?? '').replace(/s$/, ''))) end++;
      if (end < tokens.length && UNIT_WORDS.has(tokens[end].text.replace(/s$/, ''))) {
        const rest = readMixedIn(tokens.slice(k + 1, end + 1), known);
        out.push(...rest, word(t, 'ago'));
        k = end;
        continue;
      }
    }
    if (spanish && CONTEXT_WORDS[w]) {
      out.push(word(t, CONTEXT_WORDS[w]));
      continue;
    }
    out.push(t);
  }
  return out;
}
