/**
 * Typo correction: a word that is not in the parser's vocabulary is replaced by the closest vocabulary
 * word when it is close enough ("custmers" -> "customers", "Germny" -> "germany"). fuse.js finds the
 * candidates; a Damerau-Levenshtein distance decides (1 edit for 4-5 letter words, 2 for longer ones;
 * 4-letter words may only be missing a letter). Common English words that are not vocabulary are never
 * corrected, so "like pizza" stays unrecognised instead of becoming "live pizza".
 */
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

interface Index {
  vocab: Set<string>;
  /** words that may replace a capitalised word mid-sentence (place names) */
  proper: Set<string>;
  /** keywords win ties against place names ("leds" -> "leads", not "Leeds") */
  priority: Map<string, number>;
  /** one fuse.js index per first letter (typos rarely change the first letter) */
  byLetter: Map<string, Fuse<string>>;
}

let index: Index | undefined;
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
    index = { vocab, proper, priority, byLetter };
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
  if (word.length < 4 || !/^[a-z]+$/.test(word) || NEVER_CORRECT.has(word)) return undefined;
  const idx = getIndex();
  if (idx.vocab.has(word)) return undefined;
  const cacheKey = `${properOnly ? 'P' : 'A'}${word}`;
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached ?? undefined;
  const maxDistance = word.length <= 5 ? 1 : 2;
  let best: { w: string; d: number; p: number; score: number } | undefined;
  for (const r of idx.byLetter.get(word[0])?.search(word, { limit: 10 }) ?? []) {
    const w = r.item;
    if (properOnly && !idx.proper.has(w)) continue;
    if (Math.abs(w.length - word.length) > maxDistance) continue;
    // 4 letters: only a missing letter or two swapped letters
    if (word.length === 4 && w.length !== 5 && !(w.length === 4 && [...w].sort().join('') === [...word].sort().join(''))) continue;
    const d = editDistance(word, w);
    if (d > maxDistance) continue;
    const p = idx.priority.get(w) ?? 1;
    const score = r.score ?? 1;
    if (!best || d < best.d || (d === best.d && (p < best.p || (p === best.p && (score < best.score || (score === best.score && w < best.w)))))) {
      best = { w, d, p, score };
    }
  }
  if (cache.size > 5000) cache.clear();
  cache.set(cacheKey, best?.w ?? null);
  return best?.w;
}

/** Corrects word tokens in place; returns the corrections made. */
export function correctTokens(tokens: Token[]): Array<{ from: string; to: string }> {
  const out: Array<{ from: string; to: string }> = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'word') return;
    if (t.upper && t.raw.length <= 4) return; // acronyms
    const midSentenceName = t.cap && i > 0 && !/^[.!?]$/.test(tokens[i - 1].text);
    const fixed = correctWord(t.text, midSentenceName);
    if (fixed) {
      out.push({ from: t.raw, to: t.cap ? fixed.charAt(0).toUpperCase() + fixed.slice(1) : fixed });
      t.original = t.text;
      t.text = fixed;
    }
  });
  return out;
}
