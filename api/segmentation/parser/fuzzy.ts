/**
 * Typo correction: a word that is not in the parser's vocabulary is replaced by the closest vocabulary
 * word when it is close enough ("custmers" -> "customers", "Germny" -> "germany"). fuse.js finds the
 * candidates; a Damerau-Levenshtein distance decides, with a bound that grows with the length (3 letters:
 * one missing letter, and only into a keyword; 4-5 letters: 1 edit, and 4-letter words may only miss a
 * letter or swap two; 6-9 letters: 2; 10 or more: 3).
 *
 * Only non-words are corrected: a correctly spelled English word (the ~275,000 words of
 * `an-array-of-english-words`, MIT) is never turned into a value, so "purple unicorn" stays
 * unrecognised instead of becoming "people union", and "like pizza" does not become "live pizza".
 * A capitalised word inside a run of capitalised words ("Germania Foods", "Franse Group") is a name and
 * is not corrected at all (the grammar reads it as a company or a place as written).
 */
import englishWords from 'an-array-of-english-words/index.json' with { type: 'json' };
import Fuse from 'fuse.js';
import type { Token } from './lexer.js';
import { COMPARATORS_BEFORE, EXTRA_KEYWORDS, MENTIONS, MONTHS, NEGATORS, PLACES, STAGES, UNITS, vocabulary } from './lexicon.js';

const KEYWORD_TABLES = [STAGES, MENTIONS, COMPARATORS_BEFORE, UNITS, MONTHS, NEGATORS, { words: new Set(EXTRA_KEYWORDS) }];

const NEVER_CORRECT = new Set([
  'like', 'likes', 'love', 'high', 'low', 'phone', 'phones', 'number', 'numbers', 'score', 'scores', 'engagement', 'good', 'bad',
  'great', 'big', 'small', 'open', 'opened', 'rate', 'rates', 'size', 'team', 'teams', 'plan', 'plans', 'free', 'trial', 'click',
  'clicks', 'visit', 'visits', 'page', 'pages', 'site', 'website', 'web', 'mobile', 'tier', 'industry', 'churn', 'risk', 'blah',
  'pizza', 'tag', 'tags', 'owner', 'owners', 'rep', 'reps', 'manager', 'title', 'job', 'role', 'gender', 'age', 'male', 'female',
  'vip', 'vips', 'loyal', 'happy', 'unhappy', 'ticket', 'tickets', 'support', 'meeting', 'meetings', 'call', 'calls', 'note', 'notes',
  'source', 'campaign', 'campaigns', 'ads', 'social', 'linkedin', 'twitter', 'facebook', 'instagram', 'google', 'newsletter',
  'product', 'products', 'item', 'items', 'cart', 'carts', 'abandoned', 'coupon', 'discount', 'renewal', 'renew', 'contract',
  'contracts', 'subscription', 'subscriptions', 'plan', 'premium', 'basic', 'enterprise', 'smb', 'mid', 'market', 'size', 'data',
  'were', 'them', 'then', 'than', 'they', 'want', 'what', 'when', 'this', 'that', 'here', 'there', 'from', 'with', 'into', 'also',
]);

/** Words that are not part of a name even when capitalised ("Leads In Germany"). */
export const FUNCTION_WORDS = new Set(['in', 'at', 'from', 'of', 'the', 'and', 'or', 'with', 'who', 'that', 'for', 'to', 'by', 'on', 'show', 'me', 'all', 'list', 'find', 'get', 'customers', 'contacts', 'people', 'clients', 'users', 'not', 'no', 'a', 'an']);

interface Index {
  vocab: Set<string>;
  /** words that may replace a capitalised word mid-sentence (place names) */
  proper: Set<string>;
  /** keywords win ties against place names ("leds" -> "leads", not "Leeds") */
  priority: Map<string, number>;
  /** one fuse.js index per first letter (typos rarely change the first letter) */
  byLetter: Map<string, Fuse<string>>;
  /** the words per first letter: short typos are compared with each of them (fuse ranks substrings first) */
  groups: Map<string, string[]>;
}

let index: Index | undefined;
let english: Set<string> | undefined;

/** Whether a lower-case word is a correctly spelled English word (the word list, loaded once). */
export function isEnglishWord(word: string): boolean {
  english ??= new Set(englishWords as string[]);
  return english.has(word);
}

/** Most edits a typo of this length may have. */
export function maxEdits(length: number): number {
  return length <= 5 ? 1 : length <= 9 ? 2 : 3;
}
const cache = new Map<string, string | null>();

function getIndex(): Index {
  if (!index) {
    const vocab = vocabulary();
    const proper = new Set(PLACES.words);
    const priority = new Map<string, number>();
    for (const w of vocab) priority.set(w, proper.has(w) && !KEYWORD_TABLES.some((t) => t.words.has(w)) ? 1 : 0);
    const groups = new Map<string, string[]>();
    for (const w of vocab) {
      if (w.length < 3 || !/^[a-z]+$/.test(w)) continue;
      const list = groups.get(w[0]) ?? [];
      list.push(w);
      groups.set(w[0], list);
    }
    const byLetter = new Map<string, Fuse<string>>();
    for (const [letter, words] of groups) {
      byLetter.set(letter, new Fuse(words, { includeScore: true, threshold: 0.5, ignoreLocation: true, minMatchCharLength: 2 }));
    }
    index = { vocab, proper, priority, byLetter, groups };
  }
  return index;
}

/** Forgets memoised corrections (benchmarks measure cold lookups with it). */
export function clearFuzzyCache(): void {
  cache.clear();
}

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) => [i, ...new Array<number>(n).fill(0)]);
  for (let j = 0; j <= n; j++) d[0][j] = j;
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}

export function isVocabulary(word: string): boolean {
  return getIndex().vocab.has(word);
}

/**
 * The vocabulary word a typo most likely stands for, or undefined. `properOnly`: only place names
 * (for capitalised words in the middle of a sentence, which are usually names, not keywords).
 */
export function correctWord(word: string, properOnly = false): string | undefined {
  if (word.length < 3 || !/^[a-z]+$/.test(word) || NEVER_CORRECT.has(word)) return undefined;
  const idx = getIndex();
  if (idx.vocab.has(word) || isEnglishWord(word)) return undefined;
  const cacheKey = `${properOnly ? 'P' : 'A'}${word}`;
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached ?? undefined;
  const maxDistance = maxEdits(word.length);
  let best: { w: string; d: number; p: number; end: number; score: number } | undefined;
  // a short typo ("ovr") is compared with every word of its letter: fuse.js ranks longer words holding its
  // letters first ("oregon", "order") and may leave the right one out of its first ten
  const candidates = word.length <= 5 ? (idx.groups.get(word[0]) ?? []).map((item) => ({ item, score: 0.5 })) : (idx.byLetter.get(word[0])?.search(word, { limit: 10 }) ?? []);
  for (const r of candidates) {
    const w = r.item;
    if (properOnly && !idx.proper.has(w)) continue;
    // 3 letters: only a missing letter, and only into a keyword ("wek" -> "week"), never into a place
    if (word.length === 3 && (w.length !== 4 || (idx.priority.get(w) ?? 1) !== 0)) continue;
    if (Math.abs(w.length - word.length) > maxDistance) continue;
    // 4 letters: only a missing letter or two swapped letters, or one wrong letter into a keyword that is
    // not a place ("yeer" -> year, never "Lima" -> "Lime" style guesses into places)
    if (
      word.length === 4 &&
      w.length !== 5 &&
      !(w.length === 4 && ([...w].sort().join('') === [...word].sort().join('') || ((idx.priority.get(w) ?? 1) === 0 && !idx.proper.has(w))))
    ) continue;
    const d = editDistance(word, w);
    if (d > maxDistance) continue;
    const p = idx.priority.get(w) ?? 1;
    const score = r.score ?? 1;
    // ties: a keyword before a place, then a word ending like the typo (typos drop or swap inner letters:
    // "creatd" -> "created", not "create"), then fuse.js's score
    const end = w[w.length - 1] === word[word.length - 1] ? 0 : 1;
    const better =
      !best ||
      d < best.d ||
      (d === best.d && (p < best.p || (p === best.p && (end < best.end || (end === best.end && (score < best.score || (score === best.score && w < best.w)))))));
    if (better) best = { w, d, p, end, score };
  }
  // a typo one edit from an English word and further from the vocabulary's is that English word misspelled
  // ("canddiates" is "candidates", never "canadians"): not corrected, so it is asked about
  if (best && best.d >= 2 && englishNeighbour(word)) best = undefined;
  if (cache.size > 5000) cache.clear();
  cache.set(cacheKey, best?.w ?? null);
  return best?.w;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Whether an English word is one edit (a letter dropped, added, changed, or two swapped) from `word`. */
function englishNeighbour(word: string): boolean {
  for (let i = 0; i <= word.length; i++) {
    if (i < word.length && isEnglishWord(word.slice(0, i) + word.slice(i + 1))) return true;
    if (i + 1 < word.length && isEnglishWord(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2))) return true;
    for (const c of LETTERS) {
      if (isEnglishWord(word.slice(0, i) + c + word.slice(i))) return true;
      if (i < word.length && c !== word[i] && isEnglishWord(word.slice(0, i) + c + word.slice(i + 1))) return true;
    }
  }
  return false;
}

let multiWordPlaces: Map<number, string[][]> | undefined;

/**
 * A run of capitalised words that is a typo of a multi-word place ("Untied Kingdom", "New Yrok") is
 * corrected as a whole, even when a word of it is an English word: the phrase is not a word.
 */
function correctPlacePhrases(tokens: Token[], out: Array<{ from: string; to: string; at: number }>, keep?: ReadonlySet<number>): void {
  multiWordPlaces ??= new Map([2, 3].map((n) => [n, PLACES.phrasesOf(n)]));
  const capWord = (t: Token | undefined) => !!t && t.kind === 'word' && t.cap && /^[a-z]+$/.test(t.text);
  for (let i = 0; i < tokens.length; i++) {
    for (const n of [3, 2]) {
      const run = tokens.slice(i, i + n);
      if (run.length < n || !run.every(capWord) || run.some((_, k) => keep?.has(i + k))) continue;
      const texts = run.map((t) => t.text);
      if (PLACES.match(texts, 0)?.len === n) break; // already a place
      const joined = texts.join(' ');
      const bound = Math.min(2, maxEdits(joined.length - n + 1));
      let best: { words: string[]; d: number } | undefined;
      for (const words of multiWordPlaces.get(n) ?? []) {
        if (words[0][0] !== joined[0]) continue;
        const d = editDistance(joined, words.join(' '));
        if (d <= bound && (!best || d < best.d)) best = { words, d };
      }
      if (!best || best.d === 0) continue;
      run.forEach((t, k) => {
        if (t.text === best.words[k]) return;
        out.push({ from: t.raw, to: best.words[k].charAt(0).toUpperCase() + best.words[k].slice(1), at: i + k });
        t.original = t.text;
        t.text = best.words[k];
      });
      i += n - 1;
      break;
    }
  }
}

/** Real words a phone's autocorrect puts in place of the word meant, whatever the context ("costumers"). */
const SLIPS: Record<string, string> = { costumers: 'customers', costumer: 'customer' };
/** "lead sin spain", "customer sat acme": the plural's "s" joined to the preposition after it. */
const SPLIT_PREPOSITIONS: Record<string, string> = { sin: 'in', sat: 'at', sfrom: 'from' };

/**
 * Autocorrect slips: real English words in place of the word meant, so the spelling corrector (non-words only)
 * never sees them. Only where the context leaves one reading: "costumers" is customers; "lead sin spain" is
 * "leads in spain" when the word before "sin" is a noun of the product's whose plural takes the "s"; "form
 * germany" is "from germany" when a place follows.
 */
function correctSlips(tokens: Token[], out: Array<{ from: string; to: string; at: number }>, keep?: ReadonlySet<number>): void {
  const set = (i: number, text: string) => {
    const t = tokens[i];
    out.push({ from: t.raw, to: text, at: i });
    t.original = t.text;
    t.text = text;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'word' || keep?.has(i) || t.original !== undefined) continue;
    const slip = SLIPS[t.text];
    if (slip) set(i, slip);
    const next = tokens[i + 1];
    const prep = next && next.kind === 'word' && !keep?.has(i + 1) ? SPLIT_PREPOSITIONS[next.text] : undefined;
    const plural = `${t.text}s`;
    if (prep && STAGES.words.has(plural) && !STAGES.words.has(next.text)) {
      set(i, plural);
      set(i + 1, prep);
      i++;
      continue;
    }
    if (t.text === 'form' && PLACES.match(tokens.map((x) => x.text), i + 1)) set(i, 'from');
    // "contacts who by over 2,500": dictation's homophone of "buy" between a relative word and an amount
    if (t.text === 'by' && ['who', 'that', 'to', 'not', "didn't", 'didnt', 'never'].includes(tokens[i - 1]?.text ?? '') && (next?.kind === 'number' || next?.kind === 'money' || COMPARATORS_BEFORE.match(tokens.map((x) => x.text), i + 1))) set(i, 'buy');
  }
}

/** Corrects word tokens in place; returns the corrections made. */
export function correctTokens(tokens: Token[], skip?: ReadonlySet<number>, keep?: ReadonlySet<number>): Array<{ from: string; to: string; at: number }> {
  const out: Array<{ from: string; to: string; at: number }> = [];
  if (!skip?.size) correctSlips(tokens, out, keep);
  if (!skip?.size) correctPlacePhrases(tokens, out, keep);
  tokens.forEach((t, i) => {
    if (t.kind !== 'word' || t.original !== undefined || skip?.has(i) || keep?.has(i)) return;
    if (t.upper && t.raw.length <= 4) return; // acronyms
    const midSentenceName = t.cap && i > 0 && !/^[.!?]$/.test(tokens[i - 1].text);
    // a capitalised word next to another capitalised non-keyword is part of a name: never corrected
    const capNeighbour = (j: number) => {
      const n = tokens[j];
      return !!n && n.kind === 'word' && n.cap && !n.upper && !FUNCTION_WORDS.has(n.text) && !PLACES.words.has(n.text) && !STAGES.words.has(n.text);
    };
    if (t.cap && !t.upper && (capNeighbour(i + 1) || (midSentenceName && capNeighbour(i - 1)))) return;
    const fixed = correctWord(t.text, midSentenceName);
    if (fixed) {
      out.push({ from: t.raw, to: t.cap ? fixed.charAt(0).toUpperCase() + fixed.slice(1) : fixed, at: i });
      t.original = t.text;
      t.text = fixed;
    }
  });
  return out;
}
