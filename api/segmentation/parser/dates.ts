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
import { MONTHS, UNITS } from './lexicon.js';

export interface DateItemValue {
  op: 'gte' | 'lt' | 'between';
  value?: DateExpr;
  from?: DateExpr;
  to?: DateExpr;
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
}

const rel = (amount: number, unit: DateUnit): DateExpr => ({ kind: 'relative', amount, unit, direction: 'past' });
const anchor = (unit: DateUnit, offset: number): DateExpr => ({ kind: 'anchor', unit, offset });
const pad = (n: number) => String(n).padStart(2, '0');
const abs = (y: number, m: number, d: number): DateExpr => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return { kind: 'absolute', date: `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}` };
};

type Prep = 'since' | 'before' | 'after' | 'in' | 'from' | 'between' | 'older' | 'newer' | 'none';

const PREPS: Array<[string[], Prep]> = [
  [['prior', 'to'], 'before'], [['earlier', 'than'], 'before'], [['before'], 'before'], [['until'], 'before'], [['till'], 'before'], [['up', 'until'], 'before'],
  [['since'], 'since'], [['as', 'of'], 'since'], [['starting', 'from'], 'since'], [['starting'], 'since'], [['beginning'], 'since'], [['on', 'or', 'after'], 'since'],
  [['after'], 'after'], [['later', 'than'], 'after'],
  [['between'], 'between'], [['from'], 'from'],
  [['more', 'than'], 'older'], [['over'], 'older'], [['at', 'least'], 'older'], [['longer', 'than'], 'older'], [['older', 'than'], 'older'],
  [['less', 'than'], 'newer'], [['under'], 'newer'], [['fewer', 'than'], 'newer'],
  [['in'], 'in'], [['within'], 'in'], [['during'], 'in'], [['on'], 'in'], [['throughout'], 'in'], [['for'], 'in'], [['of'], 'in'],
];

function matchWords(texts: readonly string[], i: number, words: string[]): boolean {
  return words.every((w, k) => texts[i + k] === w);
}
const words = (texts: readonly string[], i: number, ws: string[]) => matchWords(texts, i, ws);

function count(ctx: DateContext, j: number): { n: number; len: number } | undefined {
  const t = ctx.tokens[j];
  if (!t) return undefined;
  if (t.kind === 'number' && !t.scaled && t.num !== undefined && Number.isInteger(t.num) && t.num > 0 && t.num <= 5000) return { n: t.num, len: 1 };
  if (t.text === 'a' || t.text === 'an') return { n: 1, len: 1 };
  if (t.text === 'couple' || (t.text === 'a' && ctx.texts[j + 1] === 'couple')) return undefined;
  return undefined;
}

function unitAt(ctx: DateContext, j: number): { unit: DateUnit; len: number } | undefined {
  const m = UNITS.match(ctx.texts, j);
  return m ? { unit: m.value, len: m.len } : undefined;
}

/** "N units" (N may be "a"/"an"), with an optional "+" ("90+ days", "90 days+"). */
function amountOfTime(ctx: DateContext, j: number): { n: number; unit: DateUnit; len: number } | undefined {
  const c = count(ctx, j);
  if (!c) return undefined;
  let k = j + c.len;
  if (ctx.texts[k] === '+') k++;
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
  const dayFirst = first.kind === 'number' && first.ordinal === true;
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
  while (ctx.tokens[j + len] && ctx.tokens[j + len].end <= endPos) len++;
  if (len === 0) return undefined;
  const month = r.start.get('month') as number;
  const day = r.start.get('day') as number;
  const year = r.start.isCertain('year') ? (r.start.get('year') as number) : inferYear(ctx, month, day);
  return { start: abs(year, month, day), end: abs(year, month, day + 1), len };
}

function yearAt(ctx: DateContext, j: number): number | undefined {
  const t = ctx.tokens[j];
  if (t?.kind === 'number' && !t.scaled && !t.plus && t.num !== undefined && Number.isInteger(t.num) && t.num >= 1900 && t.num <= 2100 && /^\d{4}$/.test(t.raw)) return t.num;
  return undefined;
}

/** A calendar period or instant starting at token j. */
function datePoint(ctx: DateContext, j: number): Period | undefined {
  const t = ctx.texts;
  // day-level dates (chrono)
  const day = chronoDay(ctx, j);
  if (day) return day;
  // month [year]
  const m = MONTHS.match(t, j);
  if (m) {
    // "may" only as a month when followed by a year or preceded by a date preposition (caller checks)
    let len = m.len;
    if (t[j + len] === ',') len++;
    const y = yearAt(ctx, j + len);
    const year = y ?? inferYear(ctx, m.value);
    if (y) len++;
    else if (t[j + m.len] === ',') len--;
    return { start: abs(year, m.value, 1), end: abs(year, m.value + 1, 1), len };
  }
  // year
  const y = yearAt(ctx, j);
  if (y) return { start: abs(y, 1, 1), end: abs(y + 1, 1, 1), len: 1 };
  // Q1 [2025], "the first quarter"
  const q = /^q([1-4])$/.exec(t[j] ?? '');
  if (q) {
    const qn = Number(q[1]);
    const qy = yearAt(ctx, j + 1);
    const year = qy ?? inferYear(ctx, (qn - 1) * 3 + 1);
    return { start: abs(year, (qn - 1) * 3 + 1, 1), end: abs(year, qn * 3 + 1, 1), len: qy ? 2 : 1 };
  }
  // the start / beginning of (the|this) unit
  let k = j;
  if (t[k] === 'the') k++;
  if (t[k] === 'start' || t[k] === 'beginning') {
    let p = k + 1;
    if (t[p] === 'of') p++;
    let offset = 0;
    if (t[p] === 'the' || t[p] === 'this') p++;
    else if (t[p] === 'last' || t[p] === 'previous') {
      offset = -1;
      p++;
    }
    const u = unitAt(ctx, p);
    if (u) return { start: anchor(u.unit, offset), end: anchor(u.unit, offset), instant: true, len: p + u.len - j };
  }
  // this / last / previous unit
  k = j;
  if (t[k] === 'the') k++;
  if (['this', 'current', 'last', 'previous', 'prior'].includes(t[k] ?? '')) {
    const u = unitAt(ctx, k + 1);
    if (u) {
      const off = t[k] === 'this' || t[k] === 'current' ? 0 : -1;
      return { start: anchor(u.unit, off), end: anchor(u.unit, off + 1), len: k + 1 + u.len - j };
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
  for (const [words, prep] of PREPS) if (matchWords(texts, i, words)) return { prep, len: words.length };
  return { prep: 'none', len: 0 };
}

export interface DateMatch {
  len: number;
  value: DateItemValue;
}

/** Recognises a date phrase starting at token i. */
export function recogniseDate(ctx: DateContext, i: number): DateMatch | undefined {
  const t = ctx.texts;
  const { prep, len: plen } = matchPrep(t, i);
  let j = i + plen;
  const hadThe = t[j] === 'the';
  if (hadThe) j++;
  const w = t[j];

  // relative windows and previous calendar periods
  if (w === 'last' || w === 'past' || w === 'previous' || w === 'prior') {
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
    if (t[j + 1] === 'past') {
      const u = unitAt(ctx, j + 2);
      if (u) return { len: j + 2 + u.len - i, value: { op: 'gte', value: rel(1, u.unit) } };
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
  if ((w === 'recently' || w === 'lately' || w === 'recent') && prep !== 'before') return { len: j + 1 - i, value: { op: 'gte', value: rel(30, 'day') } };

  // "more than 90 days ago", "over a year ago", "less than 2 weeks ago", "90 days ago"
  const ago = amountOfTime(ctx, j);
  if (ago && t[j + ago.len] === 'ago') {
    const len = j + ago.len + 1 - i;
    if (prep === 'older' || prep === 'before') return { len, value: { op: 'lt', value: rel(ago.n, ago.unit) } };
    return { len, value: { op: 'gte', value: rel(ago.n, ago.unit) } };
  }
  // "in 6 months", "in over 6 months", "for 3 months" (a window ending now)
  if (prep === 'in' || prep === 'newer') {
    let k = j;
    if (t[k] === 'over' || (t[k] === 'more' && t[k + 1] === 'than')) k += t[k] === 'over' ? 1 : 2;
    const a = amountOfTime(ctx, k);
    if (a && t[k + a.len] !== 'ago') return { len: k + a.len - i, value: { op: 'gte', value: rel(a.n, a.unit) } };
  }

  // absolute dates and ranges
  if (prep === 'none' || prep === 'older' || prep === 'newer') {
    // bare "yesterday" / "today" handled above; a bare month or year needs a preposition
    if (w === 'yesterday') return { len: j + 1 - i, value: { op: 'between', from: anchor('day', -1), to: anchor('day', 0) } };
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
      if (p2) return { len: k + p2.len - i, value: { op: 'between', from: p1.start, to: p2.end } };
    }
    if (prep === 'between') return undefined;
  }
  if (t[end] === 'onwards' || t[end] === 'onward' || words(t, end, ['on', 'wards']) || (t[end] === 'on' && prep === 'from')) {
    end += t[end + 1] === 'wards' ? 2 : 1;
    return { len: end - i, value: { op: 'gte', value: p1.start } };
  }
  // "from last month" (no end): during that period
  return { len: end - i, value: applyPrep(prep === 'from' ? 'in' : prep, p1) };
}

function applyPrep(prep: Prep, p: Period, thisPeriod = false): DateItemValue {
  switch (prep) {
    case 'before': return { op: 'lt', value: p.start };
    case 'after': return { op: 'gte', value: p.end };
    case 'since': return { op: 'gte', value: p.start };
    default:
      if (p.instant) return { op: 'gte', value: p.start };
      // "this quarter": since the start of the period (there are no future purchases)
      if (thisPeriod) return { op: 'gte', value: p.start };
      return { op: 'between', from: p.start, to: p.end };
  }
}
