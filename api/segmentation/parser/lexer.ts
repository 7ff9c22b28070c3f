/** Tokenizer for segment questions: words, numbers and money, domains, e-mail addresses, dates, quotes. */
import nlp from 'compromise';
import { MIXED_IN_WORDS } from './mixed-in-words.js';

export type TokenKind = 'word' | 'number' | 'money' | 'domain' | 'email' | 'quoted' | 'punct' | 'date';

export interface Token {
  /** Original text of the token. */
  raw: string;
  /** Normalised text: lower-case, accents removed, typo-corrected by the fuzzy pass. */
  text: string;
  kind: TokenKind;
  start: number;
  end: number;
  /** Value of number / money tokens. */
  num?: number;
  /** The number had a scale suffix (5k, 1.5M, 2 million). */
  scaled?: boolean;
  /** The number was written with a trailing "+" (5000+, 90+). */
  plus?: boolean;
  /** The number is an ordinal (1st, 3rd). */
  ordinal?: boolean;
  /** The number is a year said in words ("twenty twenty five"). */
  spokenYear?: boolean;
  /** All letters upper-case in the original (e.g. "CA"). */
  upper: boolean;
  /** First letter upper-case in the original. */
  cap: boolean;
  /** The normalised text before typo correction, when it was corrected. */
  original?: string;
}

export function normaliseWord(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[’‘`]/g, "'")
    .toLowerCase();
}

const SCALES: Record<string, number> = {
  k: 1e3, thousand: 1e3, mil: 1e3, grand: 1e3, lakh: 1e5, lakhs: 1e5, lac: 1e5, crore: 1e7, crores: 1e7, m: 1e6, mm: 1e6, mn: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9,
};

/** Typos of short function words, too short for the fuzzy pass to correct safely. */
const SHORT_TYPOS: Record<string, string> = { teh: 'the', hte: 'the', adn: 'and', nad: 'and', wiht: 'with', wtih: 'with', taht: 'that', thta: 'that', thier: 'their', whcih: 'which' };

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
  thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const NUMBER_WORD = `(?:${Object.keys(NUMBER_WORDS).join('|')}|thousand|million|dozen)`;
/**
 * A number said in words over several of them ("twenty five hundred", "two hundred and fifty", "a dozen", "one
 * thousand five hundred"); "and" only after a hundred or a thousand ("one and two" are two numbers).
 */
const NUMBER_PHRASE = new RegExp(`(?:a\\s+)?${NUMBER_WORD}(?:(?:[\\s-]+|(?<=hundred|thousand)\\s+and\\s+)${NUMBER_WORD})*(?![\\p{L}])`, 'iuy');

/** The value of a number phrase of two words or more, read by compromise's number parser. */
function numberPhrase(input: string, start: number): { text: string; num: number } | undefined {
  NUMBER_PHRASE.lastIndex = start;
  const m = NUMBER_PHRASE.exec(input);
  if (!m || !/[\s-]/.test(m[0].trim())) return undefined;
  // ("two weeks", "one month": a single number word is read by the tokenizer as before)
  const found = nlp(m[0]).numbers().json() as Array<{ text: string; number?: { num?: number } | number }>;
  if (found.length !== 1) return undefined;
  const value = typeof found[0].number === 'number' ? found[0].number : found[0].number?.num;
  return value !== undefined && Number.isFinite(value) ? { text: m[0], num: value } : undefined;
}

const TLDS =
  'com|org|net|io|co|ai|edu|gov|de|uk|fr|es|it|nl|ca|au|jp|us|info|biz|app|dev|tech|me|ch|at|be|se|no|dk|fi|pl|br|mx|in|sg|nz|ie|cn|ru|pt|cz|hu|gr|ro|tr|za|ae|il|kr|tw|hk|eu|shop|store|xyz|cloud|health';

// Order matters: the first alternative that matches at a position wins.
const PATTERNS: Array<[TokenKind | 'skip' | 'abbr' | 'wslash' | 'unitnum' | 'quarter' | 'at' | 'lastn' | 'yearquarter' | 'yearmonth', RegExp]> = [
  ['skip', /\s+/y],
  // a hyphen inside a word joins two words ("sign-ups", "high-value", "e-mail", "non-customers")
  // (not between two months: "jan-mar" is a range)
  ['skip', /(?<=\p{L})(?<!(?<![\p{L}])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\p{L}*)-(?=\p{L})|(?<=\p{L})-(?!(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\p{L}*(?![\p{L}]))(?=\p{L})/iuy],
  // "@ Acme" (a space after it): "at"
  ['at', /@(?=\s)/y],
  ['quoted', /"([^"]+)"|“([^”]+)”|(?<![\p{L}\d])'([^']+)'(?![\p{L}\d])/uy],
  ['email', /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/iy],
  ['domain', /@[a-z0-9-]+(?:\.[a-z0-9-]+)+/iy],
  ['abbr', /(?:u\.s\.a\.?|u\.s\.|u\.k\.|d\.c\.)(?![\p{L}])/iuy],
  ['wslash', /w\/o(?![\p{L}\d])|w\/(?![\p{L}\d])|b\/c(?![\p{L}\d])/iuy],
  // reporting shorthand: "L30D", "l6m", "L12M" = the last 30 days, 6 months, 12 months
  ['lastn', /l(\d{1,3})([dwmqy])(?![\p{L}\d])/iuy],
  // "2025-Q3", "2025 Q3", "2026-H1": a quarter or half with its year before it
  ['yearquarter', /(\d{4})[-\s]?(q[1-4]|h[12])(?![\p{L}\d])/iuy],
  // "2025-12", "2026-05": a month of a year (never a day: that is "2026-05-01")
  ['yearmonth', /(\d{4})-(0[1-9]|1[0-2])(?![\d-])/y],
  ['date', /\d{4}-\d{2}-\d{2}(?!\d)|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?(?![\d/])/y],
  ['money', /[$€£]\s?(\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?(?![\d.,])|\d[\d,]*(?:\.\d+)?)(?:\s?(k|mm|mn|m|bn|b)(?![\p{L}\d])|\s(thousand|grand|million|billion|lakhs?|lac|crores?|mil)(?![\p{L}]))?(\+)?/iuy],
  ['money', /(?:usd|eur|gbp)\s?(\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?(?![\d.,])|\d[\d,]*(?:\.\d+)?)(?:\s?(k|mm|mn|m|bn|b)(?![\p{L}\d])|\s(thousand|grand|million|billion|lakhs?|lac|crores?|mil)(?![\p{L}]))?(\+)?/iuy],
  // "10 000 €", "2 500,50 EUR": thousands grouped by spaces, when a currency says it is an amount
  ['number', /(\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:,\d{1,2})?)(?=\s?(?:[€$£]|(?:eur|euros?|usd|dollars?|chf|gbp|pln|sek|nok|dkk|czk|huf|zl|zł)(?![\p{L}])))/iuy],
  ['number', /(?<=(?<![\p{L}])(?:eur|usd|chf|gbp|pln|sek|nok|dkk|czk|huf)\s?)(\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:,\d{1,2})?)(?![\d])/iuy],
  ['unitnum', /(\d+)(d|days?|wks?|w|mos?|yrs?|y|qtrs?)(?![\p{L}\d])/iuy],
  ['number', /(\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?(?![\d.,])|\d[\d,]*(?:\.\d+)?)(?:\s?(k|mm|mn|m|bn|b)(?![\p{L}\d])|\s(thousand|grand|million|billion|lakhs?|lac|crores?|mil)(?![\p{L}]))?(\+)?/iuy],
  ['domain', new RegExp(`(?:[a-z0-9-]+\\.)+(?:${TLDS})(?:\\.[a-z]{2})?(?![\\p{L}\\d.-])`, 'iuy')],
  // a suffix (".edu", ".de"), also of two labels (".co.uk", ".com.au": one domain, never a domain and a country)
  ['domain', new RegExp(`(?<![\\p{L}\\d])\\.(?:${TLDS})(?:\\.[a-z]{2})?(?![\\p{L}\\d])`, 'iuy')],
  ['quarter', /(?:q[1-4]|h[12])(?![\p{L}\d])/iuy],
  ['word', /[\p{L}][\p{L}\p{M}]*(?:['’][\p{L}]+)*/uy],
  ['punct', /->|→|>=|<=|=>|=<|!=|≠|≥|≤|[,;:!?()&/=<>+\-–—.%~≈|]/y],
];

const UNIT_SUFFIX: Record<string, string> = {
  d: 'days', day: 'days', days: 'days', w: 'weeks', wk: 'weeks', wks: 'weeks', mo: 'months', mos: 'months',
  y: 'years', yr: 'years', yrs: 'years', qtr: 'quarters', qtrs: 'quarters',
};

function parseAmount(digits: string, scale?: string): { num: number; scaled: boolean } {
  // "5.000" / "1.500,50": European grouping (a dot before exactly three digits, a comma before the cents)
  // "10 000" / "2 500,50": spaces group thousands like dots do
  if (/[ \u00a0\u202f]/.test(digits)) digits = digits.replace(/[ \u00a0\u202f]/g, '.');
  // "1,5k" / "2,75m": a comma before one or two final digits is a decimal comma (thousands are grouped in threes)
  let s = /^\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?$/.test(digits) || /^\d+,\d{1,2}$/.test(digits) ? digits.replace(/\./g, '').replace(',', '.') : digits.replace(/,/g, '');
  if (s.endsWith('.')) s = s.slice(0, -1);
  const base = Number(s);
  const mult = scale ? SCALES[scale.toLowerCase()] ?? 1 : 1;
  return { num: Math.round(base * mult * 100) / 100, scaled: mult !== 1 };
}

function make(raw: string, text: string, kind: TokenKind, start: number, extra: Partial<Token> = {}): Token {
  const letters = raw.replace(/[^\p{L}]/gu, '');
  return {
    raw,
    text,
    kind,
    start,
    end: start + raw.length,
    upper: letters.length > 0 && letters === letters.toUpperCase() && letters !== letters.toLowerCase(),
    cap: /^\p{Lu}/u.test(raw),
    ...extra,
  };
}

/**
 * The words of an identifier: camelCase ("lastPurchaseDate") or snake_case ("last_purchase_date", the word
 * regex stops at the underscore). Undefined for a plain word ("McDonald" and "iPhone" are names, not fields:
 * only a lower-case start followed by capitalised parts, or words joined by underscores).
 */
function identifierParts(raw: string, input: string, start: number): { parts: Array<{ raw: string; offset: number }>; end: number } | undefined {
  let end = start + raw.length;
  let snake = false;
  for (;;) {
    const more = /^_[\p{L}][\p{L}\p{M}]*/u.exec(input.slice(end));
    if (!more) break;
    end += more[0].length;
    snake = true;
  }
  // ("eBay", "iPhone": one lower-case letter before a capital is a brand's spelling)
  const camel = /^\p{Ll}{2,}(?:\p{Lu}\p{Ll}+)+$/u.test(raw);
  if (!snake && !camel) return undefined;
  const parts = [...input.slice(start, end).matchAll(/\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})/gu)].map((m) => ({ raw: m[0], offset: m.index ?? 0 }));
  return parts.length >= 2 ? { parts, end: end - start } : undefined;
}

const YEAR_UNITS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9 };
const YEAR_TEENS: Record<string, number> = { ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19 };
const SPOKEN_YEAR = /^twenty[\s-]+(?:(ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)|(twenty|thirty)(?:[\s-]+(one|two|three|four|five|six|seven|eight|nine))?)(?![\p{L}])/iu;

/** "twenty twenty five" → 2025, "twenty nineteen" → 2019, "twenty thirty" → 2030 (2010 to 2039, as a year is said). */
function spokenYear(text: string): { year: number; length: number } | undefined {
  const m = SPOKEN_YEAR.exec(text);
  if (!m) return undefined;
  const teen = m[1] ? YEAR_TEENS[m[1].toLowerCase()] : undefined;
  const tens = m[2] ? (m[2].toLowerCase() === 'twenty' ? 20 : 30) + (m[3] ? YEAR_UNITS[m[3].toLowerCase()] : 0) : 0;
  return { year: 2000 + (teen ?? tens), length: m[0].length };
}

/** Top-level domains said after "dot" ("dot edu", "dot co dot uk" is not read). */
const SPOKEN_TLDS = new Set(['com', 'edu', 'org', 'net', 'gov', 'io', 'de', 'fr', 'uk', 'ca', 'au', 'es', 'it', 'nl', 'jp', 'me', 'co']);
/** Words before "dot com" that are not a domain's name ("a dot edu", "with dot com"). */
const SPOKEN_DOMAIN_STOPS = new Set(['a', 'an', 'the', 'with', 'on', 'at', 'in', 'any', 'their', 'our', 'using', 'use', 'have', 'has', 'from', 'and', 'or', 'by', 'to', 'of', 'for', 'email', 'emails']);

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  outer: while (pos < input.length) {
    for (const [kind, re] of PATTERNS) {
      re.lastIndex = pos;
      const m = re.exec(input);
      if (!m || m[0].length === 0) continue;
      const raw = m[0];
      const start = pos;
      pos += raw.length;
      switch (kind) {
        case 'skip':
          break;
        case 'quoted': {
          const inner = (m[1] ?? m[2] ?? m[3] ?? '').trim().replace(/\s+/g, ' ');
          // filter syntax quotes its literals: "created_at >= '2026-04-01'", "ltv > '5000'" are a date and a number
          // (the token is the literal inside the quotes, where a date reader looks for it)
          const at = start + raw.indexOf(inner);
          if (/^\d{4}-\d{2}-\d{2}$/.test(inner)) tokens.push(make(inner, inner, 'date', at));
          else if (/^\d+(?:\.\d+)?$/.test(inner)) tokens.push(make(inner, inner, 'number', at, { num: Number(inner) }));
          else tokens.push(make(raw, inner, 'quoted', start));
          break;
        }
        case 'email':
        case 'domain':
          tokens.push(make(raw, raw.toLowerCase().replace(/^@/, ''), kind, start));
          break;
        case 'quarter':
          tokens.push(make(raw, raw.toLowerCase(), 'word', start));
          break;
        case 'at':
          tokens.push(make(raw, 'at', 'word', start));
          break;
        case 'abbr': {
          const t = raw.toLowerCase().replace(/\./g, '');
          tokens.push(make(raw, t, 'word', start));
          break;
        }
        case 'wslash': // "w/" = with, "w/o" = without, "b/c" = because
          tokens.push(make(raw, raw.length === 2 ? 'with' : /^b/i.test(raw) ? 'because' : 'without', 'word', start));
          break;
        case 'date':
          tokens.push(make(raw, raw, 'date', start));
          break;
        case 'money': {
          const { num, scaled } = parseAmount(m[1], m[2] ?? m[3]);
          let r = raw;
          let plus = Boolean(m[4]);
          if (r.endsWith(',') || r.endsWith('.')) {
            r = r.slice(0, -1);
            pos -= 1;
            plus = false;
          }
          tokens.push(make(r, r.toLowerCase(), 'money', start, { num, scaled, plus }));
          break;
        }
        case 'number': {
          let digits = m[1];
          let r = raw;
          if (!m[2] && !m[3] && !m[4] && (digits.endsWith(',') || digits.endsWith('.'))) {
            digits = digits.slice(0, -1);
            r = digits;
            pos = start + r.length;
          }
          const { num, scaled } = parseAmount(digits, m[2] ?? m[3]);
          const extra: Partial<Token> = { num, scaled, plus: Boolean(m[4]) };
          // ordinal suffix: 1st, 2nd, 3rd, 15th
          const ord = /^(st|nd|rd|th)(?![\p{L}])/iu.exec(input.slice(pos));
          if (ord && !scaled && !m[4]) {
            r += ord[0];
            pos += ord[0].length;
            extra.ordinal = true;
          }
          tokens.push(make(r, String(num), 'number', start, extra));
          break;
        }
        case 'lastn': {
          const units: Record<string, string> = { d: 'days', w: 'weeks', m: 'months', q: 'quarters', y: 'years' };
          tokens.push(make(raw, 'last', 'word', start), make(m[1], m[1], 'number', start + 1, { num: Number(m[1]) }), make(m[2], units[m[2].toLowerCase()], 'word', start + 1 + m[1].length));
          break;
        }
        case 'yearquarter': {
          // read as "q3 2025", the order the date reader knows
          const q = m[2];
          tokens.push(make(q, q.toLowerCase(), 'word', start + raw.length - q.length), make(m[1], m[1], 'number', start, { num: Number(m[1]) }));
          break;
        }
        case 'yearmonth': {
          // read as "december 2025"
          const month = MONTH_NAMES[Number(m[2]) - 1];
          tokens.push(make(m[2], month, 'word', start + 5), make(m[1], m[1], 'number', start, { num: Number(m[1]) }));
          break;
        }
        case 'unitnum': {
          const n = m[1];
          tokens.push(make(n, n, 'number', start, { num: Number(n) }));
          const unitRaw = raw.slice(n.length);
          tokens.push(make(unitRaw, UNIT_SUFFIX[unitRaw.toLowerCase()] ?? normaliseWord(unitRaw), 'word', start + n.length));
          break;
        }
        case 'word': {
          // field names typed as identifiers ("lastPurchaseDate", "lifecycleStage", "created_at"): their words
          const ident = identifierParts(raw, input, start);
          if (ident) {
            for (const part of ident.parts) tokens.push(make(part.raw, normaliseWord(part.raw), 'word', start + part.offset));
            pos = start + ident.end;
            break;
          }
          // "twenty twenty five", "twenty nineteen": a year as it is said (dictation writes it down so)
          const year = spokenYear(input.slice(start));
          if (year) {
            pos = start + year.length;
            tokens.push(make(input.slice(start, pos), String(year.year), 'number', start, { num: year.year, spokenYear: true }));
            break;
          }
          // "twenty five hundred", "two hundred and fifty": one number
          const phrase = numberPhrase(input, start);
          if (phrase) {
            pos = start + phrase.text.length;
            tokens.push(make(phrase.text, String(phrase.num), 'number', start, { num: phrase.num, scaled: /thousand|million/i.test(phrase.text) }));
            break;
          }
          // "w ltv over 5k": a lone lower-case w is "with"; "teh", "adn": short words typed in a hurry
          const plain = normaliseWord(raw);
          // ("30 y/o" is years old, never "and")
          const mixedIn = plain === 'y' && input[pos] === '/' ? undefined : (MIXED_IN_WORDS[plain] ?? MIXED_IN_WORDS[raw.toLowerCase()]);
          const text = raw === 'w' ? 'with' : (SHORT_TYPOS[plain] ?? mixedIn ?? plain);
          // "a grand", "a thousand dollars": one of them
          const n = NUMBER_WORDS[text] ?? (text === 'a' && /^\s+(grand|thousand|million)(?![\p{L}])/iu.test(input.slice(pos)) ? 1 : undefined);
          // "two grand", "five thousand": a number word with a scale is an amount
          const scale = n !== undefined ? /^\s+(grand|thousand|million|billion|k)(?![\p{L}])/iu.exec(input.slice(pos)) : null;
          if (n !== undefined && scale) {
            pos += scale[0].length;
            const { num } = parseAmount(String(n), scale[1]);
            tokens.push(make(input.slice(start, pos), String(num), 'number', start, { num, scaled: true }));
          } else if (text === 'fortnight' || text === 'fortnights') {
            // "the past fortnight": two weeks
            tokens.push(make(raw, '2', 'number', start, { num: 2 }), make(raw, 'weeks', 'word', start));
          } else if (n !== undefined) tokens.push(make(raw, String(n), 'number', start, { num: n }));
          else tokens.push(make(raw, text, 'word', start));
          break;
        }
        case 'punct': {
          const map: Record<string, string> = { '≥': '>=', '≤': '<=', '=>': '>=', '=<': '<=', '≠': '!=', '–': '-', '—': '-' };
          // "-> nurture track", "→ webinar invite": an arrow says where the list goes
          if (raw === '->' || raw === '→') {
            tokens.push(make(raw, 'to', 'word', start));
            break;
          }
          tokens.push(make(raw, map[raw] ?? raw, 'punct', start));
          break;
        }
      }
      continue outer;
    }
    // unknown character: skip it
    pos += 1;
  }
  // "a dot edu address", "gmail dot com": a domain as it is said (dictation writes "dot" out)
  for (let i = tokens.length - 2; i >= 0; i--) {
    // (the raw word: "com" is also Portuguese for "with")
    if (!tokens[i + 1]) continue;
    const tld = tokens[i + 1].raw.toLowerCase();
    if (tokens[i].text !== 'dot' || tokens[i + 1].kind !== 'word' || !SPOKEN_TLDS.has(tld)) continue;
    const prev = tokens[i - 1];
    const named = prev?.kind === 'word' && /^[a-z0-9-]{2,}$/.test(prev.text) && !SPOKEN_DOMAIN_STOPS.has(prev.text);
    const first = named ? i - 1 : i;
    const text = named ? `${prev.text}.${tld}` : `.${tld}`;
    tokens.splice(first, i + 2 - first, make(input.slice(tokens[first].start, tokens[i + 1].end), text, 'domain', tokens[first].start));
    i = first;
  }
  // A question typed in capitals says nothing with its case: no word is a name or a code by its case alone
  const words = tokens.filter((t) => t.kind === 'word' && /\p{L}{2}/u.test(t.raw));
  if (words.length >= 2 && words.every((t) => t.upper)) {
    for (const t of tokens) {
      t.upper = false;
      t.cap = false;
    }
  }
  return tokens;
}
