/**
 * The CRM's own company values, as an optional dictionary for the parser (issue 15, "names are names"):
 * after from / at / works at / employees of / company is, a phrase that is one of the CRM's companies is
 * read as that company (its extent and its spelling as stored in the CRM) instead of being guessed from
 * capitalisation, and its words are never spelling-corrected. The parser stays a pure function: the
 * service that has a CRM connection builds the dictionary once (`KnownCompanies.from(names)`) and passes it
 * in `ParseOptions.knownCompanies`; without it the parser guesses as before.
 *
 * Matching is on the lexer's normalised tokens (case and accents ignored), longest match first; a name is
 * also known without its legal suffixes ("Goyette Capital LLC" ~ "Goyette Capital"). A single word that is
 * an English word or a place ("Apex", "Jordan") is not taken from the dictionary on its own: it needs the
 * rest of its name, so "people from Jordan" stays the country.
 */
import { editDistance, isEnglishWord, maxEdits } from './fuzzy.js';
import { normaliseWord, tokenize } from './lexer.js';

const valueKey = (value: string) => normaliseWord(value).replace(/[^\p{L}\p{N}&]+/gu, ' ').trim();
import { LEGAL_SUFFIXES, PLACES } from './lexicon.js';

/** At most this many names are kept (the most frequent first, as the caller orders them). */
export const MAX_KNOWN_COMPANIES = 20_000;

interface Entry {
  words: string[];
  /** the value's comparison key (case and accents ignored) */
  key: string;
  /** the CRM's spelling without legal suffixes: the value of the condition (`company contains value`) */
  value: string;
}

const isSuffix = (w: string) => LEGAL_SUFFIXES.has(w.replace(/\.$/, ''));

export class KnownCompanies {
  private readonly byFirst = new Map<string, Entry[]>();
  readonly size: number;

  private constructor(names: Iterable<string>) {
    let n = 0;
    const seen = new Set<string>();
    for (const name of names) {
      if (n >= MAX_KNOWN_COMPANIES) break;
      const trimmed = name.trim();
      if (!trimmed || trimmed.length > 200) continue;
      const tokens = tokenize(trimmed).filter((t) => t.kind !== 'punct' || t.text === '&');
      const words = tokens.map((t) => t.text);
      // the name without trailing legal suffixes ("Goyette Capital LLC" -> "Goyette Capital", "B.V." -> "")
      let end = words.length;
      // ("S. de R.L.", "S.A. de C.V.": the "de" of a legal form goes with it)
      while (end > 1 && (isSuffix(words[end - 1]) || /^[a-z]$/.test(words[end - 1]) || (words[end - 1] === 'de' && end < words.length && /^[a-z]$/.test(words[end - 2] ?? '')))) end--;
      if (end === 0) continue;
      const value = trimmed.slice(tokens[0].start, tokens[end - 1].end).replace(/[\s.,]+$/, '');
      if (!value || value.includes('*')) continue;
      n++;
      for (const variant of end < words.length ? [words, words.slice(0, end)] : [words]) {
        const key = variant.join(' ');
        if (seen.has(key)) continue;
        seen.add(key);
        const list = this.byFirst.get(variant[0]) ?? [];
        list.push({ words: variant, value, key: valueKey(value) });
        this.byFirst.set(variant[0], list);
      }
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
    this.size = n;
  }

  /** Whether a company of the CRM contains this text (case and accents ignored), as "company contains" tests it. */
  containing(text: string): boolean {
    const key = valueKey(text);
    if (!key) return false;
    for (const list of this.byFirst.values()) for (const e of list) if (e.key.includes(key)) return true;
    return false;
  }

  /**
   * The CRM's own spelling of a part of one of its names typed without its accents or case ("wikstrom lindstrom"
   * -> "Wikström Lindström"), whole words only; undefined when no name holds those words.
   */
  spelling(text: string): string | undefined {
    const typed = tokenize(text).filter((t) => t.kind !== 'punct').map((t) => t.text);
    if (typed.length === 0) return undefined;
    for (const list of this.byFirst.values()) {
      for (const e of list) {
        if (!e.words.includes(typed[0])) continue;
        const tokens = tokenize(e.value).filter((t) => t.kind !== 'punct');
        for (let i = 0; i + typed.length <= tokens.length; i++) {
          if (typed.every((w, k) => tokens[i + k].text === w)) return e.value.slice(tokens[i].start, tokens[i + typed.length - 1].end);
        }
      }
    }
    return undefined;
  }

  /** The CRM's names closest to a typed one (a typo of it), best first. */
  closest(text: string, max = 3): string[] {
    const key = valueKey(text);
    const bound = maxEdits(key.length);
    const scored = new Map<string, number>();
    // typos rarely change the first letter: only names starting like the typed one are compared
    for (const [first, list] of this.byFirst) {
      if (first[0] !== key[0]) continue;
      for (const e of list) {
        const d = editDistance(key, e.words.join(' '));
        if (d <= bound && (scored.get(e.value) ?? Infinity) > d) scored.set(e.value, d);
      }
    }
    return [...scored.entries()].sort((a, b) => a[1] - b[1]).slice(0, max).map(([v]) => v);
  }

  static from(names: Iterable<string>): KnownCompanies {
    return new KnownCompanies(names);
  }

  /**
   * The longest known company starting at token `i` of the question (punctuation other than "&" is
   * skipped inside the name), with the number of tokens it spans.
   */
  match(texts: readonly string[], i: number, opts: { singleWord?: (word: string) => boolean } = {}): { value: string; len: number } | undefined {
    return this.matchFrom(texts, i, opts) ?? this.matchSplit(texts, i);
  }

  /**
   * "harbor bridge motors": the first word of a name of two words or more typed as two words ("Harborbridge
   * Motors GmbH"); the rest of the name must follow, so two common words alone are never a company.
   */
  private matchSplit(texts: readonly string[], i: number): { value: string; len: number } | undefined {
    const [a, b] = [texts[i], texts[i + 1]];
    if (!a || !b || a.length < 3 || b.length < 3 || !/^\p{L}+$/u.test(a + b)) return undefined;
    const list = this.byFirst.get(a + b);
    if (!list) return undefined;
    const joined = [a + b, ...texts.slice(i + 2)];
    for (const e of list) {
      if (e.words.length < 2) continue;
      const m = this.matchFrom(joined, 0, {}, [e]);
      if (m) return { value: m.value, len: m.len + 1 };
    }
    return undefined;
  }

  private matchFrom(texts: readonly string[], i: number, opts: { singleWord?: (word: string) => boolean } = {}, only?: readonly Entry[]): { value: string; len: number } | undefined {
    const list = only ?? this.byFirst.get(texts[i]);
    if (!list) return undefined;
    for (const e of list) {
      let k = i;
      let ok = true;
      for (const w of e.words) {
        if (texts[k] === '.' && texts[k + 1] === w) k++; // "Sp. z o.o."
        if (texts[k] !== w) {
          ok = false;
          break;
        }
        k++;
      }
      if (!ok) continue;
      // one word that is also an English word or a place is not enough on its own
      // (a caller may allow it where a name is expected: "acme leads", a company before a noun)
      if (e.words.length === 1 && (isEnglishWord(e.words[0]) || PLACES.words.has(e.words[0])) && !opts.singleWord?.(e.words[0])) continue;
      // legal suffixes typed after the name belong to it ("LLC", "Co., Ltd.", "B.V.", "S. de R.L.")
      for (;;) {
        let j = k;
        while (texts[j] === '.' || texts[j] === ',') j++;
        if (isSuffix(texts[j] ?? '')) k = j + 1;
        else if (/^[a-z]$/.test(texts[j] ?? '') && texts[j + 1] === '.') k = j + 2;
        else if (texts[j] === 'de' && /^[a-z]$/.test(texts[j - 2] ?? '') && /^[a-z]$/.test(texts[j + 1] ?? '') && texts[j + 2] === '.') k = j + 1;
        else break;
      }
      if (texts[k] === '.' && (isSuffix(texts[k - 1]) || /^[a-z]$/.test(texts[k - 1] ?? ''))) k++;
      return { value: e.value, len: k - i };
    }
    return undefined;
  }
}
