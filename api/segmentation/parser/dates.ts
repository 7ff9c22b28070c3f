/**
 * Date phrases. Decisions (documented in parser/README.md):
 * - "in the last 30 days", "past 2 weeks", "within the last month", "the past year" -> since now minus N units
 *   (relative; N = 1 when omitted after "the last" / "past").
 * - "last week", "last month", "previous quarter", "last year" (no "the") -> the previous calendar period.
 * - "this week/month/quarter/year", "so far this year", "year to date", "today" -> since the period start.
 * - "yesterday" -> the previous calendar day. "recently" / "recent" -> the last 30 days.
 * - "since March" -> on or after March 1 (the most recent March that has started); "before 2024" -> before
 *   Jan 1, 2024; "after June 1" -> on or after June 2; "in 2025" / "in March" / "on May 5" / "in Q1" -> that
 *   period; "between Jan 1 and Mar 31" / "from Jan to March" -> from the first start to the end of the last.
 * - "more than 90 days ago" / "over a year ago" -> before now minus N; "less than 30 days ago" -> since.
 * - A date without a year is the most recent one that has already started.
 * chrono-node parses day-level dates ("March 15th, 2026", "3/1/2026", "the 3rd of March").
 */
import * as chrono from 'chrono-node';
import type { DateExpr, DateUnit } from '../ast.js';
import type { Token } from './lexer.js';
import { HOLIDAYS } from './holidays.js';
import { MONTHS, PERIOD_NAME_NOUNS, UNITS } from './lexicon.js';

export interface DateItemValue {
  op: 'gte' | 'lt' | 'between';
  value?: DateExpr;
  from?: DateExpr;
  to?: DateExpr;
  /** "since March": the period starts at a point in the past (a lapsed reading when negated: "no order since March") */
  since?: boolean;
  /** "in six to nine months": a window of ages ("haven't shopped in 6-9 months" = last purchase 9 to 6 months ago) */
  ages?: boolean;
  /** "recently": a default period (30 days) that yields to the question's own */
  byDefault?: boolean;
  /** "for more than 6 months": how long something has lasted (a created date older than that; a lapse when negated) */
  duration?: boolean;
  /** "older than 2 years" (no "ago"): the age of a date the words before it name */
  age?: boolean;
  /** "on 01/03/2026": the reading with day and month the other way round (asked about) */
  swapped?: { value: DateItemValue; label: string; read: string };
}

export interface DateContext {
  tokens: readonly Token[];
  texts: readonly string[];
  /** the question text (chrono-node reads the original spelling) */
  source: string;
  /** local calendar date of "now" */
  today: { year: number; month: number; day: number };
}

interface Period {
  start: DateExpr;
  /** exclusive end; equal to start for instants */
  end: DateExpr;
  instant?: boolean;
  len: number;
  /** "01/03/2026": the same digits read day first (or month first), when both readings are dates */
  swapped?: Period;
}

const rel = (amount: number, unit: DateUnit): DateExpr => ({ kind: 'relative', amount, unit, direction: 'past' });
const anchor = (unit: DateUnit, offset: number): DateExpr => ({ kind: 'anchor', unit, offset });
const pad = (n: number) => String(n).padStart(2, '0');
const abs = (y: number, m: number, d: number): DateExpr => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return { kind: 'absolute', date: `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}` };
};

type Prep = 'since' | 'before' | 'through' | 'after' | 'in' | 'from' | 'between' | 'older' | 'newer' | 'none';

const PREPS: Array<[string[], Prep]> = [
  [['prior', 'to'], 'before'], [['earlier', 'than'], 'before'], [['before'], 'before'], [['until'], 'before'], [['till'], 'before'], [['up', 'until'], 'before'],
  [['since'], 'since'], [['as', 'of'], 'since'], [['starting', 'from'], 'since'], [['starting'], 'since'], [['beginning'], 'since'], [['on', 'or', 'after'], 'since'],
  [['on', 'or', 'before'], 'through'], [['up', 'to', 'and', 'including'], 'through'], [['no', 'later', 'than'], 'through'], [['through'], 'through'],
  [['after'], 'after'], [['later', 'than'], 'after'],
  [['between'], 'between'], [['from'], 'from'],
  [['more', 'than'], 'older'], [['over'], 'older'], [['at', 'least'], 'older'], [['longer', 'than'], 'older'], [['older', 'than'], 'older'],
  [['<'], 'newer'], [['<='], 'newer'], [['>'], 'older'], [['>='], 'older'],
  [['less', 'than'], 'newer'], [['under'], 'newer'], [['fewer', 'than'], 'newer'], [['newer', 'than'], 'newer'], [['younger', 'than'], 'newer'],
  [['in'], 'in'], [['within'], 'in'], [['during'], 'in'], [['on'], 'in'], [['throughout'], 'in'], [['for'], 'in'], [['of'], 'in'],
];

const SYMBOL_PREPS: Record<string, Prep> = { '<': 'before', '<=': 'through', '>': 'after', '>=': 'since' };

const SEASONS: Record<string, number> = { spring: 3, summer: 6, fall: 9, autumn: 9, winter: 12 };

const ORDINAL_QUARTERS = ['first', 'second', 'third', 'fourth', '1st', '2nd', '3rd', '4th'];

/** "2025", "of 2025", "of last year", "of this year" after a part of a year: that year and the tokens it spans. */
function yearOf(ctx: DateContext, j: number): { year: number; len: number } | undefined {
  const t = ctx.texts;
  const of = t[j] === 'of' ? 1 : 0;
  const y = yearAt(ctx, j + of);
  if (y) return { year: y, len: of + 1 };
  // "h2 last year", "q4 this year": the part of that year
  if (!of && (t[j] === 'last' || t[j] === 'previous') && t[j + 1] === 'year') return { year: ctx.today.year - 1, len: 2 };
  if (!of && t[j] === 'this' && t[j + 1] === 'year') return { year: ctx.today.year, len: 2 };
  if (!of) return undefined;
  const k = j + 1 + (t[j + 1] === 'the' ? 1 : 0);
  if ((t[k] === 'last' || t[k] === 'previous') && t[k + 1] === 'year') return { year: ctx.today.year - 1, len: k + 2 - j };
  if ((t[k] === 'this' || t[k] === 'current') && t[k + 1] === 'year') return { year: ctx.today.year, len: k + 2 - j };
  return undefined;
}

function matchWords(texts: readonly string[], i: number, words: string[]): boolean {
  return words.every((w, k) => texts[i + k] === w);
}
const words = (texts: readonly string[], i: number, ws: string[]) => matchWords(texts, i, ws);

function count(ctx: DateContext, j: number): { n: number; len: number } | undefined {
  const t = ctx.tokens[j];
  if (!t) return undefined;
  if (t.kind === 'number' && !t.scaled && t.num !== undefined && Number.isInteger(t.num) && t.num > 0 && t.num <= 5000) return { n: t.num, len: 1 };
  // "a couple of months", "the last couple weeks": two
  const couple = ctx.texts[j] === 'couple' ? j : (t.text === 'a' || t.text === 'the') && ctx.texts[j + 1] === 'couple' ? j + 1 : -1;
  if (couple >= 0) return { n: 2, len: couple + 1 - j + (ctx.texts[couple + 1] === 'of' ? 1 : 0) };
  if (t.text === 'a' || t.text === 'an') return { n: 1, len: 1 };
  return undefined;
}

function unitAt(ctx: DateContext, j: number): { unit: DateUnit; len: number } | undefined {
  const m = UNITS.match(ctx.texts, j);
  return m ? { unit: m.value, len: m.len } : undefined;
}

const HOURS = new Set(['hours', 'hour', 'hrs', 'hr', 'h']);

/** "N units" (N may be "a"/"an"), with an optional "+" ("90+ days", "90 days+"). */
function amountOfTime(ctx: DateContext, j: number): { n: number; unit: DateUnit; len: number } | undefined {
  const c = count(ctx, j);
  if (!c) return undefined;
  let k = j + c.len;
  if (ctx.texts[k] === '+') k++;
  // "the last 24 hours", "48 hrs": whole days
  if (HOURS.has(ctx.texts[k]) && c.n % 24 === 0) return { n: c.n / 24, unit: 'day', len: k + 1 - j };
  const u = unitAt(ctx, k);
  if (!u) return undefined;
  k += u.len;
  if (ctx.texts[k] === '+') k++;
  return { n: c.n, unit: u.unit, len: k - j };
}

function inferYear(ctx: DateContext, month: number, day = 1): number {
  const { year, month: tm, day: td } = ctx.today;
  return month < tm || (month === tm && day <= td) ? year : year - 1;
}

let chronoRef: { key: string; date: Date } | undefined;

/** Day-level dates through chrono-node, anchored on the local "today". */
function chronoDay(ctx: DateContext, j: number): Period | undefined {
  const first = ctx.tokens[j];
  if (!first) return undefined;
  const isMonth = MONTHS.match(ctx.texts, j) !== undefined;
  // ("3rd of march"; "1 jan", "15 march 2025": a day number before a month)
  const dayFirst = first.kind === 'number' && (first.ordinal === true || (/^\d{1,2}$/.test(first.raw) && MONTHS.match(ctx.texts, j + 1) !== undefined));
  if (first.kind !== 'date' && !isMonth && !dayFirst && !(first.text === 'the' && ctx.tokens[j + 1]?.ordinal)) return undefined;
  // give chrono the original text from this token on (at most ~6 tokens)
  const last = ctx.tokens[Math.min(ctx.tokens.length - 1, j + 6)];
  const text = ctx.source.slice(first.start, last.end);
  const key = `${ctx.today.year}-${ctx.today.month}-${ctx.today.day}`;
  if (!chronoRef || chronoRef.key !== key) chronoRef = { key, date: new Date(ctx.today.year, ctx.today.month - 1, ctx.today.day, 12) };
  const results = chrono.en.casual.parse(text, chronoRef.date, { forwardDate: false });
  const r = results[0];
  if (!r || r.index !== 0 || !r.start.isCertain('day') || !r.start.isCertain('month')) return undefined;
  const endPos = first.start + r.text.length;
  let len = 0;
  // ("2026-04-01 to 2026-04-30": chrono reads the range; this is its first day, and the caller reads the end)
  const separator = (k: number) => r.end !== undefined && r.end !== null && ['to', '-', 'until', 'till', 'through', 'thru', 'and'].includes(ctx.texts[k]);
  while (ctx.tokens[j + len] && ctx.tokens[j + len].end <= endPos && !(len > 0 && separator(j + len))) len++;
  if (len === 0) return undefined;
  const month = r.start.get('month') as number;
  const day = r.start.get('day') as number;
  const year = r.start.isCertain('year') ? (r.start.get('year') as number) : inferYear(ctx, month, day);
  // ("01/03/2026": the 3rd of January to Americans, the 1st of March to Europeans; chrono reads it month first)
  const digits = SLASH_DATE.exec(first.raw);
  const ambiguous = digits && len === 1 && Number(digits[1]) <= 12 && Number(digits[2]) <= 12 && digits[1] !== digits[2] && Number(digits[1]) === month && Number(digits[2]) === day;
  if (!ambiguous) return { start: abs(year, month, day), end: abs(year, month, day + 1), len };
  // another date of the same question settles the order ("between 01/02/2026 and 28/02/2026" is day first)
  const order = slashDateOrder(ctx);
  if (order === 'day') return { start: abs(year, day, month), end: abs(year, day, month + 1), len };
  const swapped = order === 'month' ? undefined : { start: abs(year, day, month), end: abs(year, day, month + 1), len };
  return { start: abs(year, month, day), end: abs(year, month, day + 1), len, swapped };
}

const SLASH_DATE = /^(\d{1,2})\/(\d{1,2})(?:\/\d{2,4})?$/;

/** The order of day and month the question's own slash dates show: "day" when one starts with a day over 12 ("28/02"). */
function slashDateOrder(ctx: DateContext): 'day' | 'month' | undefined {
  let order: 'day' | 'month' | undefined;
  for (const t of ctx.tokens) {
    const m = t.kind === 'date' ? SLASH_DATE.exec(t.raw) : null;
    if (!m) continue;
    const seen = Number(m[1]) > 12 && Number(m[2]) <= 12 ? 'day' : Number(m[2]) > 12 && Number(m[1]) <= 12 ? 'month' : undefined;
    if (seen && order && seen !== order) return undefined;
    order = seen ?? order;
  }
  return order;
}

function yearAt(ctx: DateContext, j: number): number | undefined {
  const t = ctx.tokens[j];
  if (t?.kind === 'number' && !t.scaled && !t.plus && t.num !== undefined && Number.isInteger(t.num) && t.num >= 1900 && t.num <= 2100 && (/^\d{4}$/.test(t.raw) || t.spokenYear)) return t.num;
  // "march '25", "q1 ’24": a year of two digits after an apostrophe
  if (t?.kind === 'number' && /^\d{2}$/.test(t.raw) && /['’‘]$/.test(ctx.source.slice(0, t.start))) return 2000 + Number(t.raw);
  return undefined;
}

const WHOLE_WORDS = new Set(['full', 'complete', 'completed', 'whole', 'entire', 'closed']);

/** A calendar period or instant starting at token j. */
function datePoint(ctx: DateContext, j: number): Period | undefined {
  const t = ctx.texts;
  // day-level dates (chrono)
  const day = chronoDay(ctx, j);
  if (day) return day;
  // month [year]
  const m = MONTHS.match(t, j);
  if (m && !PERIOD_NAME_NOUNS.has(t[j + m.len] ?? '')) {
    // "may" only as a month when followed by a year or preceded by a date preposition (caller checks)
    let len = m.len;
    if (t[j + len] === ',') len++;
    // "march 2025", "march of 2025", "march last year"
    const y = yearAt(ctx, j + len) !== undefined ? { year: yearAt(ctx, j + len) as number, len: 1 } : yearOf(ctx, j + len);
    const year = y?.year ?? inferYear(ctx, m.value);
    if (y) len += y.len;
    else if (t[j + m.len] === ',') len--;
    return { start: abs(year, m.value, 1), end: abs(year, m.value + 1, 1), len };
  }
  // "15.03.2025": a day, a month and a year as Europeans write them
  const dmy = /^(\d{1,2})\.(\d{1,2})$/.exec(ctx.tokens[j]?.raw ?? '');
  if (dmy && t[j + 1] === '.' && yearAt(ctx, j + 2) !== undefined) {
    const [day, month] = [Number(dmy[1]), Number(dmy[2])];
    if (day >= 1 && day <= 31 && month >= 1 && month <= 12) {
      const year = yearAt(ctx, j + 2) as number;
      return { start: abs(year, month, day), end: abs(year, month, day + 1), len: 3 };
    }
  }
  // "the 01.02.", "since 15.04.": a day and a month as Germans write them, with no year (the most recent that has
  // started); only with the month's two digits and the closing dot, after a word that introduces a date
  const dm = /^(\d{1,2})\.(\d{2})$/.exec(ctx.tokens[j]?.raw ?? '');
  if (dm && t[j + 1] === '.' && ['the', 'since', 'on', 'before', 'after', 'from', 'until', 'till', 'between', 'and', 'to', 'by'].includes(t[j - 1] ?? '')) {
    const [day, month] = [Number(dm[1]), Number(dm[2])];
    if (day >= 1 && day <= 31 && month >= 1 && month <= 12) {
      const year = inferYear(ctx, month, day);
      return { start: abs(year, month, day), end: abs(year, month, day + 1), len: 2 };
    }
  }
  // "03/2025", "3/2025": a month and its year
  const mm = ctx.tokens[j];
  if (mm?.kind === 'number' && /^\d{1,2}$/.test(mm.raw) && mm.num !== undefined && mm.num >= 1 && mm.num <= 12 && t[j + 1] === '/' && yearAt(ctx, j + 2) !== undefined) {
    const year = yearAt(ctx, j + 2) as number;
    return { start: abs(year, mm.num, 1), end: abs(year, mm.num + 1, 1), len: 3 };
  }
  // year; "2024-q3", "2025 h2": a quarter or half of that year
  const y = yearAt(ctx, j);
  if (y) {
    const partAt = t[j + 1] === '-' || t[j + 1] === '/' ? j + 2 : j + 1;
    const part = /^([qh])([1-4])$/.exec(t[partAt] ?? '');
    if (part && (part[1] === 'q' || Number(part[2]) <= 2)) {
      const n = Number(part[2]);
      const [first, months] = part[1] === 'q' ? [(n - 1) * 3 + 1, 3] : [(n - 1) * 6 + 1, 6];
      return { start: abs(y, first, 1), end: abs(y, first + months, 1), len: partAt + 1 - j };
    }
    return { start: abs(y, 1, 1), end: abs(y + 1, 1, 1), len: 1 };
  }
  // H1 / H2 [2025], "the first half (of 2025)"
  const half = /^h([12])$/.exec(t[j] ?? '') ?? (words(t, j, ['first', 'half']) || words(t, j, ['1st', 'half']) ? ['', '1'] : words(t, j, ['second', 'half']) || words(t, j, ['2nd', 'half']) ? ['', '2'] : null);
  if (half) {
    const hn = Number(half[1]);
    const skip = half[0] ? 1 : 2;
    const of = yearOf(ctx, j + skip);
    const year = of?.year ?? inferYear(ctx, hn === 1 ? 1 : 7);
    return { start: abs(year, hn === 1 ? 1 : 7, 1), end: abs(year, hn === 1 ? 7 : 13, 1), len: skip + (of?.len ?? 0) };
  }
  // "the first quarter (of 2025 / of last year)"
  const ordinalQuarter = ORDINAL_QUARTERS.findIndex((w) => t[j] === w && t[j + 1] === 'quarter');
  if (ordinalQuarter >= 0) {
    const qn = (ordinalQuarter % 4) + 1;
    const of = yearOf(ctx, j + 2);
    const year = of?.year ?? inferYear(ctx, (qn - 1) * 3 + 1);
    return { start: abs(year, (qn - 1) * 3 + 1, 1), end: abs(year, qn * 3 + 1, 1), len: 2 + (of?.len ?? 0) };
  }
  // "this time last year": the same calendar month a year ago
  if (words(t, j, ['this', 'time', 'last']) && (t[j + 3] === 'year' || t[j + 3] === 'yr')) {
    const { year, month } = ctx.today;
    return { start: abs(year - 1, month, 1), end: abs(year - 1, month + 1, 1), len: 4 };
  }
  // holidays: "since xmas", "before christmas 2024", "black friday last year"
  // ("st. patrick's day": the abbreviation's dot is not a word)
  // ("last black friday", "this past christmas": the last one that has started)
  if ((t[j] === 'last' || t[j] === 'past') && HOLIDAYS.some((h) => words(t, j + 1, h.words))) {
    const inner = datePoint(ctx, j + 1);
    if (inner) return { ...inner, len: inner.len + 1 };
  }
  if (t[j] === 'this' && t[j + 1] === 'past' && HOLIDAYS.some((h) => words(t, j + 2, h.words))) {
    const inner = datePoint(ctx, j + 2);
    if (inner) return { ...inner, len: inner.len + 2 };
  }
  const holiday = HOLIDAYS.find((h) => words(t, j, h.words) || (h.words[0] === 'st' && t[j] === 'st' && t[j + 1] === '.' && words(t, j + 2, h.words.slice(1))));
  if (holiday && holiday.day(ctx.today.year) && holiday.day(ctx.today.year - 1)) {
    let len = holiday.words.length + (t[j] === 'st' && t[j + 1] === '.' ? 1 : 0);
    if (t[j + len] === 'day' && holiday.words.at(-1) !== 'day') len++;
    const hy = yearAt(ctx, j + len) ?? yearOf(ctx, j + len)?.year ?? (words(t, j + len, ['last', 'year']) ? ctx.today.year - 1 : undefined);
    const hl = yearAt(ctx, j + len) ? 1 : (yearOf(ctx, j + len)?.len ?? (hy !== undefined ? 2 : 0));
    const on = (y: number) => holiday.day(y) as [number, number];
    let year = hy ?? ctx.today.year;
    if (hy === undefined) {
      const [m, d] = on(year);
      if (m > ctx.today.month || (m === ctx.today.month && d > ctx.today.day)) year--;
    }
    const [m, d] = on(year);
    return { start: abs(year, m, d), end: abs(year, m, d + 1), len: len + hl };
  }
  // seasons (northern): spring = March-May, summer = June-August, fall = September-November, winter = December-February
  // ("over the summer last year": the season of that year)
  if (t[j] === 'the' && SEASONS[t[j + 1] ?? ''] !== undefined && !PERIOD_NAME_NOUNS.has(t[j + 2] ?? '')) {
    const inner = datePoint(ctx, j + 1);
    if (inner) return { ...inner, len: inner.len + 1 };
  }
  const season = SEASONS[t[j] ?? ''];
  if (season !== undefined && !PERIOD_NAME_NOUNS.has(t[j + 1] ?? '')) {
    const of = words(t, j + 1, ['last', 'year']) ? { year: ctx.today.year - 1, len: 2 } : words(t, j + 1, ['this', 'year']) ? { year: ctx.today.year, len: 2 } : yearOf(ctx, j + 1);
    if (of) return { start: abs(of.year, season, 1), end: abs(of.year, season + 3, 1), len: 1 + of.len };
  }
  // ("the summer collection", "the spring sale": a name)
  if (season !== undefined && !PERIOD_NAME_NOUNS.has(t[j + 1] ?? '')) {
    const sy = yearAt(ctx, j + 1);
    const year = sy ?? inferYear(ctx, season);
    return { start: abs(year, season, 1), end: abs(year, season + 3, 1), len: sy ? 2 : 1 };
  }
  // Q1 [2025], "the first quarter"
  const q = /^q([1-4])$/.exec(t[j] ?? '');
  if (q) {
    const qn = Number(q[1]);
    const qy = yearOf(ctx, j + 1);
    const year = qy?.year ?? inferYear(ctx, (qn - 1) * 3 + 1);
    return { start: abs(year, (qn - 1) * 3 + 1, 1), end: abs(year, qn * 3 + 1, 1), len: 1 + (qy?.len ?? 0) };
  }
  // the start / beginning / end of (the|this|last) unit, or of a period: "since the start of q2", "by the end of march"
  // (the first instant of that period, or the instant it ends)
  let k = j;
  if (t[k] === 'the') k++;
  const edge = t[k] === 'start' || t[k] === 'beginning' ? 'start' : t[k] === 'end' && t[k + 1] === 'of' ? 'end' : undefined;
  if (edge) {
    const of = k + 1 + (t[k + 1] === 'of' ? 1 : 0);
    let p = of;
    let offset = 0;
    if (t[p] === 'the' || t[p] === 'this') p++;
    else if (t[p] === 'last' || t[p] === 'previous') {
      offset = -1;
      p++;
    }
    const at = offset + (edge === 'end' ? 1 : 0);
    const u = unitAt(ctx, p);
    if (u) return { start: anchor(u.unit, at), end: anchor(u.unit, at), instant: true, len: p + u.len - j };
    const inner = offset === 0 ? datePoint(ctx, of) : undefined;
    const instant = inner && !inner.instant ? (edge === 'start' ? inner.start : inner.end) : undefined;
    if (inner && instant) return { start: instant, end: instant, instant: true, len: of + inner.len - j };
  }
  // "the day before yesterday"
  if (words(t, k, ['day', 'before', 'yesterday'])) return { start: anchor('day', -2), end: anchor('day', -1), len: k + 3 - j };
  // "the week of june 1": the week (from Monday) that holds that day
  if (t[k] === 'week' && t[k + 1] === 'of') {
    const inner = chronoDay(ctx, k + 2);
    if (inner && inner.start.kind === 'absolute' && !inner.swapped) {
      const [y, m, d] = inner.start.date.split('-').map(Number);
      const back = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
      return { start: abs(y, m, d - back), end: abs(y, m, d - back + 7), len: k + 2 + inner.len - j };
    }
  }
  // this / last / previous unit
  k = j;
  if (t[k] === 'the') k++;
  if (['this', 'current', 'last', 'previous', 'prior'].includes(t[k] ?? '')) {
    // "the last full month", "the previous complete quarter": the calendar period before this one
    const whole = t[k] !== 'this' && t[k] !== 'current' && WHOLE_WORDS.has(t[k + 1] ?? '') ? 1 : 0;
    const u = unitAt(ctx, k + 1 + whole);
    if (u) {
      const off = t[k] === 'this' || t[k] === 'current' ? 0 : -1;
      return { start: anchor(u.unit, off), end: anchor(u.unit, off + 1), len: k + 1 + whole + u.len - j };
    }
  }
  if (t[j] === 'today') return { start: anchor('day', 0), end: anchor('day', 1), len: 1 };
  if (t[j] === 'yesterday') return { start: anchor('day', -1), end: anchor('day', 0), len: 1 };
  // N units ago
  const a = amountOfTime(ctx, j);
  if (a && t[j + a.len] === 'ago') return { start: rel(a.n, a.unit), end: rel(a.n, a.unit), instant: true, len: a.len + 1 };
  return undefined;
}

function matchPrep(texts: readonly string[], i: number): { prep: Prep; len: number } {
  // "at christmas", "around black friday": that day
  if ((texts[i] === 'at' || texts[i] === 'around') && HOLIDAYS.some((h) => matchWords(texts, i + 1, h.words))) return { prep: 'in', len: 1 };
  // "over the summer", "over christmas": during, not "more than"
  if (texts[i] === 'over' && (SEASONS[texts[i + (texts[i + 1] === 'the' ? 2 : 1)] ?? ''] !== undefined || HOLIDAYS.some((h) => matchWords(texts, i + 1, h.words) || matchWords(texts, i + 2, h.words)))) return { prep: 'in', len: 1 };
  // "created >= 2025-01-01", "< jan 2025": a comparison with a calendar date bounds it (with a duration, "< 30 days",
  // it is an age: PREPS below)
  // "as of today, which contacts …": at present, which every condition already means (a filler), never "since today"
  if (texts[i] === 'as' && texts[i + 1] === 'of' && ['today', 'now'].includes(texts[i + 2])) return { prep: 'none', len: 0 };
  // "by the end of march": up to that end
  if (texts[i] === 'by' && (matchWords(texts, i + 1, ['the', 'end', 'of']) || matchWords(texts, i + 1, ['end', 'of']))) return { prep: 'before', len: 1 };
  const symbol = SYMBOL_PREPS[texts[i]];
  const next = texts[i + 1] ?? '';
  if (symbol && (/^\d{4}(-\d{2}){0,2}$/.test(next) || MONTHS.match(texts, i + 1) !== undefined || (/^\d{1,2}$/.test(next) && (texts[i + 2] === '/' || MONTHS.match(texts, i + 2) !== undefined)))) return { prep: symbol, len: 1 };
  for (const [words, prep] of PREPS) if (matchWords(texts, i, words)) return { prep, len: words.length };
  return { prep: 'none', len: 0 };
}

export interface DateMatch {
  len: number;
  value: DateItemValue;
}

/** "4 to 13 months", "30 and 90 days", "6-9 months": two ages in one unit. */
function ageRange(ctx: DateContext, j: number): { lo: number; hi: number; unit: DateUnit; len: number } | undefined {
  const a = count(ctx, j);
  if (!a || ctx.tokens[j]?.kind !== 'number') return undefined;
  const sep = ctx.texts[j + a.len];
  if (sep !== 'to' && sep !== '-' && sep !== 'and' && sep !== 'or') return undefined;
  const b = count(ctx, j + a.len + 1);
  if (!b || ctx.tokens[j + a.len + 1]?.kind !== 'number') return undefined;
  const u = unitAt(ctx, j + a.len + 1 + b.len);
  if (!u) return undefined;
  return { lo: Math.min(a.n, b.n), hi: Math.max(a.n, b.n), unit: u.unit, len: a.len + 1 + b.len + u.len };
}

/**
 * "in march or april", "in march, april and may", "in q1 or q2": periods that follow each other are one
 * period (a last purchase in either is one in the range they span).
 */
function followingPeriods(ctx: DateContext, m: DateMatch, i: number): DateMatch {
  if (m.value.op !== 'between' || !m.value.to || m.value.to.kind !== 'absolute') return m;
  const t = ctx.texts;
  let len = m.len;
  let to = m.value.to;
  for (;;) {
    let k = i + len;
    if (t[k] === ',') k++;
    if (t[k] === 'or' || t[k] === 'and') k++;
    if (k === i + len) break;
    const next = datePoint(ctx, k);
    if (!next || next.instant || next.start.kind !== 'absolute' || next.start.date !== to.date || next.end.kind !== 'absolute') break;
    to = next.end;
    len = k + next.len - i;
  }
  return len === m.len ? m : { len, value: { ...m.value, to } };
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Recognises a date phrase starting at token i. */
export function recogniseDate(ctx: DateContext, i: number): DateMatch | undefined {
  const found = recogniseDatePhrase(ctx, i);
  const m = found ? followingPeriods(ctx, found, i) : undefined;
  // "since March", "since yesterday": a lapsed reading when negated ("no order since March")
  if (m && m.value.op === 'gte' && matchPrep(ctx.texts, i).prep === 'since') m.value.since = true;
  return m;
}

function recogniseDatePhrase(ctx: DateContext, i: number): DateMatch | undefined {
  const t = ctx.texts;
  const { prep, len: plen } = matchPrep(t, i);
  let j = i + plen;
  const hadThe = t[j] === 'the';
  if (hadThe) j++;
  const w = t[j];

  // "over the weekend", "last weekend", "this past weekend": the last Saturday and Sunday that have started
  // ("last weekend" on a weekend: the one before)
  const weekendAt = w === 'weekend' ? j : ['this', 'last', 'past', 'previous'].includes(w ?? '') && t[j + 1] === 'weekend' ? j + 1 : w === 'this' && t[j + 1] === 'past' && t[j + 2] === 'weekend' ? j + 2 : -1;
  if (weekendAt >= 0 && (prep === 'none' || prep === 'in' || prep === 'older' || prep === 'since' || prep === 'before')) {
    const { year, month, day } = ctx.today;
    const dow = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
    let back = dow === 6 ? 0 : dow + 1;
    if (w === 'last' && (dow === 6 || dow === 0)) back += 7;
    const period = { start: abs(year, month, day - back), end: abs(year, month, day - back + 2), len: 0 };
    return { len: weekendAt + 1 - i, value: applyPrep(prep === 'older' || prep === 'none' ? 'in' : prep, period) };
  }
  // "the day before yesterday", "the week of june 1": a day or a week, no preposition needed
  if (words(t, j, ['day', 'before', 'yesterday']) || (w === 'week' && t[j + 1] === 'of')) {
    const p = datePoint(ctx, j);
    if (p) return { len: j + p.len - i, value: applyPrep(prep === 'older' || prep === 'none' ? 'in' : prep, p) };
  }
  // "last tuesday", "since monday", "on wednesday", "this past friday": the last such day that has started (today
  // included, "last" and "this past" excluding it); weeks start on Monday, but a weekday is the one most recently seen
  const dayAt = WEEKDAYS.includes(w ?? '') ? j : ['this', 'last', 'past', 'previous'].includes(w ?? '') && WEEKDAYS.includes(t[j + 1] ?? '') ? j + 1 : w === 'this' && t[j + 1] === 'past' && WEEKDAYS.includes(t[j + 2] ?? '') ? j + 2 : -1;
  // (a weekday alone needs its preposition: "need the list by friday" is when the list is due)
  if (dayAt >= 0 && prep !== 'between' && prep !== 'from' && (dayAt > j || prep !== 'none')) {
    const { year, month, day } = ctx.today;
    const dow = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
    let back = (dow - WEEKDAYS.indexOf(t[dayAt]) + 7) % 7;
    if (back === 0 && dayAt > j && w !== 'this') back = 7;
    if (back === 0 && w === 'this' && t[j + 1] === 'past') back = 7;
    const period = { start: abs(year, month, day - back), end: abs(year, month, day - back + 1), len: 0 };
    return { len: dayAt + 1 - i, value: applyPrep(prep === 'older' || prep === 'none' ? 'in' : prep, period) };
  }
  if (words(t, j, ['this', 'time', 'last'])) {
    const p = datePoint(ctx, j);
    if (p) return { len: j + p.len - i, value: applyPrep(prep === 'none' ? 'in' : prep, p) };
  }
  // "last summer" (the last one that has ended), "this spring" (this year's)
  const season = SEASONS[t[j + 1] ?? ''];
  if (season !== undefined && (w === 'last' || w === 'this' || w === 'previous') && !PERIOD_NAME_NOUNS.has(t[j + 2] ?? '')) {
    let year = inferYear(ctx, season);
    const started = abs(year, season, 1);
    const ends = abs(year, season + 3, 1);
    const { year: ty, month: tm, day: td } = ctx.today;
    const today = `${ty}-${String(tm).padStart(2, '0')}-${String(td).padStart(2, '0')}`;
    if (w !== 'this' && started.kind === 'absolute' && ends.kind === 'absolute' && today < ends.date) year--;
    return { len: j + 2 - i, value: applyPrep(prep === 'none' ? 'in' : prep, { start: abs(year, season, 1), end: abs(year, season + 3, 1), len: 0 }) };
  }
  // relative windows and previous calendar periods
  if (w === 'last' || w === 'past' || w === 'previous' || w === 'prior') {
    // "last full week", "the previous complete month": the calendar period before this one
    const wu = WHOLE_WORDS.has(t[j + 1] ?? '') ? unitAt(ctx, j + 2) : undefined;
    if (wu) return { len: j + 2 + wu.len - i, value: applyPrep(prep === 'older' || prep === 'none' ? 'in' : prep, { start: anchor(wu.unit, -1), end: anchor(wu.unit, 0), len: 0 }) };
    const a = amountOfTime(ctx, j + 1);
    if (a) {
      const len = j + 1 + a.len - i;
      if (prep === 'before') return { len, value: { op: 'lt', value: rel(a.n, a.unit) } };
      return { len, value: { op: 'gte', value: rel(a.n, a.unit) } };
    }
    const u = unitAt(ctx, j + 1);
    if (u) {
      const len = j + 1 + u.len - i;
      const relative = w === 'past' || (w === 'last' && hadThe);
      if (relative) return { len, value: prep === 'before' ? { op: 'lt', value: rel(1, u.unit) } : { op: 'gte', value: rel(1, u.unit) } };
      return { len, value: applyPrep(prep, { start: anchor(u.unit, -1), end: anchor(u.unit, 0), len: 0 }) };
    }
  }
  // this / current period; "this past week"
  if (w === 'this' || w === 'current') {
    // "this past quarter": the one that just ended, like "last quarter"
    if (t[j + 1] === 'past') {
      const u = unitAt(ctx, j + 2);
      if (u) return { len: j + 2 + u.len - i, value: applyPrep(prep, { start: anchor(u.unit, -1), end: anchor(u.unit, 0), len: 0 }) };
    }
    const u = unitAt(ctx, j + 1);
    if (u) return { len: j + 1 + u.len - i, value: applyPrep(prep, { start: anchor(u.unit, 0), end: anchor(u.unit, 1), len: 0 }, true) };
  }
  // to-date forms
  const toDate: Record<string, DateUnit> = { ytd: 'year', mtd: 'month', qtd: 'quarter' };
  if (w && toDate[w]) return { len: j + 1 - i, value: { op: 'gte', value: anchor(toDate[w], 0) } };
  const ud = unitAt(ctx, j);
  if (ud && t[j + ud.len] === 'to' && t[j + ud.len + 1] === 'date') return { len: j + ud.len + 2 - i, value: { op: 'gte', value: anchor(ud.unit, 0) } };
  if (w === 'today' && prep !== 'before' && prep !== 'after') return { len: j + 1 - i, value: { op: 'gte', value: anchor('day', 0) } };
  // ("recent purchasers (last 14 days)": a period of its own wins over the 30 days, see assemble's defaults)
  if ((w === 'recently' || w === 'lately' || w === 'recent') && prep !== 'before') return { len: j + 1 - i, value: { op: 'gte', value: rel(30, 'day'), byDefault: true } };

  // "4 to 13 months ago", "between 30 and 90 days ago": a window of ages; "(haven't bought) in 6 to 9 months" too
  const range = ageRange(ctx, j);
  if (range) {
    const window = { op: 'between' as const, from: rel(range.hi, range.unit), to: rel(range.lo, range.unit) };
    if (t[j + range.len] === 'ago') return { len: j + range.len + 1 - i, value: window };
    if (prep === 'in' || prep === 'none') return { len: j + range.len - i, value: { ...window, ages: true } };
  }
  // "between 30 days ago and 10 days ago": a window between two ages
  if (prep === 'between' || prep === 'from') {
    const p1 = datePoint(ctx, j);
    const sep = p1 ? t[j + p1.len] : undefined;
    if (p1?.instant && (sep === 'and' || sep === 'to' || sep === '-' || sep === 'until')) {
      const p2 = datePoint(ctx, j + p1.len + 1);
      if (p2?.instant) return { len: j + p1.len + 1 + p2.len - i, value: { op: 'between', from: p1.start, to: p2.start } };
    }
  }
  // "(made their last purchase) since more than one year": "since" for "for", as non-native speakers say it
  if (prep === 'since' && (words(t, j, ['more', 'than']) || t[j] === 'over')) {
    const k = j + (t[j] === 'over' ? 1 : 2);
    const a = amountOfTime(ctx, k);
    if (a && t[k + a.len] !== 'ago') return { len: k + a.len - i, value: { op: 'lt', value: rel(a.n, a.unit) } };
  }
  // "more than 90 days ago", "over a year ago", "less than 2 weeks ago", "90 days ago"
  const ago = amountOfTime(ctx, j);
  if (ago && t[j + ago.len] === 'ago') {
    let len = j + ago.len + 1 - i;
    // "2 weeks ago or more": at least that long ago; "or less": within
    const after = t[i + len] === 'or' ? t[i + len + 1] : undefined;
    if (after && ['more', 'longer', 'earlier', 'before', 'over'].includes(after)) return { len: len + 2, value: { op: 'lt', value: rel(ago.n, ago.unit) } };
    if (after && ['less', 'fewer', 'later', 'sooner', 'under'].includes(after)) return { len: len + 2, value: { op: 'gte', value: rel(ago.n, ago.unit) } };
    len = j + ago.len + 1 - i;
    if (prep === 'older' || prep === 'before') return { len, value: { op: 'lt', value: rel(ago.n, ago.unit) } };
    return { len, value: { op: 'gte', value: rel(ago.n, ago.unit) } };
  }
  // non-native English: "purchased before 2 months" is 2 months ago or earlier; "(not purchased) since 3 months" is
  // within the last 3 months ("for 3 months")
  if ((prep === 'before' || prep === 'since') && ago && t[j + ago.len] !== 'ago') {
    return { len: j + ago.len - i, value: prep === 'before' ? { op: 'lt', value: rel(ago.n, ago.unit) } : { op: 'gte', value: rel(ago.n, ago.unit) } };
  }
  // "older than 90 days" (no "ago"): before now minus that; "newer than 30 days": since
  if ((prep === 'older' || prep === 'newer') && (t[i] === 'older' || t[i] === 'newer' || t[i] === 'younger' || t[i] === '>' || t[i] === '>=')) {
    const a = amountOfTime(ctx, j);
    // (an age: which date is that old? the field it follows says, alone it is not applied)
    if (a) return { len: j + a.len - i, value: { op: prep === 'older' ? 'lt' : 'gte', value: rel(a.n, a.unit), age: true } };
  }
  // "in 6 months", "in over 6 months", "for 3 months" (a window ending now)
  if (prep === 'in' || prep === 'newer') {
    let k = j;
    if (t[k] === 'over' || (t[k] === 'more' && t[k + 1] === 'than')) k += t[k] === 'over' ? 1 : 2;
    else if (t[k] === 'at' && t[k + 1] === 'least') k += 2;
    const a = amountOfTime(ctx, k);
    if (a && t[k + a.len] !== 'ago') return { len: k + a.len - i, value: { op: 'gte', value: rel(a.n, a.unit), duration: t[i] === 'for' || undefined } };
  }

  // absolute dates and ranges
  if (prep === 'none' || prep === 'older' || prep === 'newer') {
    // bare "yesterday" / "today" handled above; a bare month or year needs a preposition, a quarter or half does
    // not ("q3 purchasers", "h1 signups")
    if (w === 'yesterday') return { len: j + 1 - i, value: { op: 'between', from: anchor('day', -1), to: anchor('day', 0) } };
    // "bought last black friday", "this past christmas": that day, no preposition needed
    const holidayAt = w === 'last' || w === 'past' ? j + 1 : w === 'this' && t[j + 1] === 'past' ? j + 2 : -1;
    if (holidayAt > 0 && prep === 'none' && HOLIDAYS.some((h) => words(t, holidayAt, h.words))) {
      const p = datePoint(ctx, j);
      if (p) return { len: j + p.len - i, value: { op: 'between', from: p.start, to: p.end } };
    }
    // "created mar-may", "jan thru mar 2026": a range of months needs no preposition ("may" is a month here)
    const m1 = MONTHS.match(t, j);
    if (prep === 'none' && m1 && ['-', '–', 'to', 'thru', 'through', 'until', 'till'].includes(t[j + m1.len] ?? '') && MONTHS.match(t, j + m1.len + 1)) {
      const p2 = datePoint(ctx, j + m1.len + 1);
      if (p2 && p2.end.kind === 'absolute') {
        // the first month is the one before the second ("nov-jan": November of the year before)
        const to = p2.end.date;
        const [ty, tm] = [Number(to.slice(0, 4)), Number(to.slice(5, 7))];
        const endYear = tm === 1 ? ty - 1 : ty;
        const endMonth = tm === 1 ? 12 : tm - 1;
        const startYear = m1.value <= endMonth ? endYear : endYear - 1;
        return { len: j + m1.len + 1 + p2.len - i, value: { op: 'between', from: abs(startYear, m1.value, 1), to: p2.end } };
      }
    }
    if (prep === 'none' && /^[qh][1-4]$/.test(w ?? '')) {
      const p = datePoint(ctx, j);
      if (p) return { len: j + p.len - i, value: { op: 'between', from: p.start, to: p.end } };
    }
    // "last order december 2025", "last order: 2025-12": a month with its year is a period of its own
    // (not the end of a range that was not read: "from june 2025 to feb 2024" is asked about)
    if (prep === 'none' && m1 && yearAt(ctx, j + m1.len) !== undefined && !['to', '-', 'until', 'till', 'through', 'thru', 'and'].includes(t[i - 1] ?? '')) {
      const p = datePoint(ctx, j);
      if (p) {
        // "2025-12 or later", "december 2025 and after": from then on
        const later = (t[j + p.len] === 'or' || t[j + p.len] === 'and') && ['later', 'after', 'since', 'newer'].includes(t[j + p.len + 1] ?? '');
        if (later) return { len: j + p.len + 2 - i, value: { op: 'gte', value: p.start } };
        return { len: j + p.len - i, value: { op: 'between', from: p.start, to: p.end } };
      }
    }
    return undefined;
  }
  if (w === 'may' && !yearAt(ctx, j + 1) && ctx.tokens[j + 1]?.kind !== 'number' && prep !== 'since' && prep !== 'in' && prep !== 'before' && prep !== 'after' && prep !== 'from' && prep !== 'between') return undefined;
  const p1 = datePoint(ctx, j);
  if (!p1) return undefined;
  let end = j + p1.len;
  if (prep === 'between' || prep === 'from') {
    const sep = t[end];
    if (sep === 'and' || sep === 'to' || sep === 'until' || sep === 'till' || sep === 'through' || sep === '-' || sep === 'thru') {
      let k = end + 1;
      if (t[k] === 'the') k++;
      const p2 = datePoint(ctx, k);
      if (p2) {
        let from = p1.start;
        // "from jan to mar 2025": a month without its year takes the year of the end (the one before, "nov to jan")
        const bare = MONTHS.match(t, j);
        if (bare && bare.len === p1.len && p2.end.kind === 'absolute') {
          const [ty, tm] = [Number(p2.end.date.slice(0, 4)), Number(p2.end.date.slice(5, 7))];
          const endYear = tm === 1 ? ty - 1 : ty;
          const endMonth = tm === 1 ? 12 : tm - 1;
          from = abs(bare.value <= endMonth ? endYear : endYear - 1, bare.value, 1);
        }
        const ordered = (a: DateExpr, b: DateExpr) => !(a.kind === 'absolute' && b.kind === 'absolute' && a.date >= b.date);
        // "between 3/4/2026 and 5/6/2026": day and month the other way round in both, when that is a range too
        const other = p1.swapped || p2.swapped ? { from: (p1.swapped ?? p1).start, to: (p2.swapped ?? p2).end } : undefined;
        const otherOk = other !== undefined && ordered(other.from, other.to);
        // a range that ends before it starts is never read as written: asked about (or read the other way round)
        if (!ordered(from, p2.end)) return otherOk ? { len: k + p2.len - i, value: { op: 'between', ...other } } : undefined;
        const value: DateItemValue = { op: 'between', from, to: p2.end };
        if (otherOk && from.kind === 'absolute' && other.from.kind === 'absolute' && other.to.kind === 'absolute' && p2.end.kind === 'absolute') {
          const long = (d: string) => new Date(`${d}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
          const last = (d: string) => long(new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10));
          value.swapped = { value: { op: 'between', ...other }, label: `${long(other.from.date)} to ${last(other.to.date)}`, read: `${long(from.date)} to ${last(p2.end.date)}` };
        }
        return { len: k + p2.len - i, value };
      }
    }
    if (prep === 'between') return undefined;
  }
  if (t[end] === 'onwards' || t[end] === 'onward' || words(t, end, ['on', 'wards']) || (t[end] === 'on' && prep === 'from')) {
    end += t[end + 1] === 'wards' ? 2 : 1;
    return { len: end - i, value: { op: 'gte', value: p1.start } };
  }
  // "from last month" (no end): during that period
  const value = applyPrep(prep === 'from' ? 'in' : prep, p1);
  if (p1.swapped && p1.start.kind === 'absolute' && p1.swapped.start.kind === 'absolute') {
    const long = (d: string) => new Date(`${d}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    value.swapped = { value: applyPrep(prep === 'from' ? 'in' : prep, p1.swapped), label: long(p1.swapped.start.date), read: long(p1.start.date) };
  }
  return { len: end - i, value };
}

function applyPrep(prep: Prep, p: Period, thisPeriod = false): DateItemValue {
  switch (prep) {
    case 'before': return { op: 'lt', value: p.start };
    // "on or before Dec 31": up to the end of that day
    case 'through': return { op: 'lt', value: p.end };
    case 'after': return { op: 'gte', value: p.end };
    case 'since': return { op: 'gte', value: p.start };
    default:
      if (p.instant) return { op: 'gte', value: p.start };
      // "this quarter": since the start of the period (there are no future purchases)
      if (thisPeriod) return { op: 'gte', value: p.start };
      return { op: 'between', from: p.start, to: p.end };
  }
}
