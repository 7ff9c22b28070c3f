/**
 * SOQL date literals (TODAY, LAST_N_DAYS:n, THIS_QUARTER, ...) as ranges of calendar days in the
 * running user's time zone and locale (the locale decides the first day of the week; fiscal literals
 * follow the org's fiscal year start month). A literal is a half-open range [from, to): `=` means
 * inside it, `<` before `from`, `<=` before `to`, `>` at or after `to`, `>=` at or after `from`.
 * Ranges follow Salesforce's "Date Formats and Date Literals" reference, e.g. LAST_N_DAYS:n includes
 * today and the n days before it; LAST_N_MONTHS:n is the n whole months before the current one.
 */
import { localParts, zonedTimeToEpoch } from '../../../segmentation/resolve.js';

export interface DateContext {
  nowMs: number;
  /** IANA time zone of the running user (TimeZoneSidKey) */
  timeZone: string;
  /** first day of the week: 0 = Sunday ... 6 = Saturday */
  weekStart: number;
  /** 1-12 */
  fiscalYearStartMonth: number;
}

/** A calendar day. */
export type Ymd = [number, number, number];

export const ymdString = ([y, m, d]: Ymd) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

export function parseYmd(s: string): Ymd {
  const [y, m, d] = s.split('-').map(Number);
  return [y, m, d];
}

function addDays([y, m, d]: Ymd, n: number): Ymd {
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()];
}

/** First day of the month `n` months after the month of `ymd`. */
function addMonthsToFirst([y, m]: Ymd, n: number): Ymd {
  const total = y * 12 + (m - 1) + n;
  return [Math.floor(total / 12), (total % 12 + 12) % 12 + 1, 1];
}

/** The local day of the instant. */
export function localDay(ms: number, timeZone: string): Ymd {
  const p = localParts(ms, timeZone);
  return [p.year, p.month, p.day];
}

/** The instant at which a local day starts in the time zone. */
export function dayStart([y, m, d]: Ymd, timeZone: string): number {
  return zonedTimeToEpoch(y, m, d, 0, 0, 0, 0, timeZone);
}

export interface DayRange {
  from: Ymd;
  to: Ymd;
}

const N_LITERALS = new Set([
  'NEXT_N_DAYS', 'LAST_N_DAYS', 'N_DAYS_AGO', 'NEXT_N_WEEKS', 'LAST_N_WEEKS', 'N_WEEKS_AGO', 'NEXT_N_MONTHS', 'LAST_N_MONTHS',
  'N_MONTHS_AGO', 'NEXT_N_QUARTERS', 'LAST_N_QUARTERS', 'N_QUARTERS_AGO', 'NEXT_N_YEARS', 'LAST_N_YEARS', 'N_YEARS_AGO',
  'NEXT_N_FISCAL_QUARTERS', 'LAST_N_FISCAL_QUARTERS', 'N_FISCAL_QUARTERS_AGO', 'NEXT_N_FISCAL_YEARS', 'LAST_N_FISCAL_YEARS', 'N_FISCAL_YEARS_AGO',
]);

export const isDateNLiteral = (name: string) => N_LITERALS.has(name);

/**
 * The range of a date literal; `n` for the `..._N_...:n` forms. Returns null for an unknown literal.
 */
export function dateLiteralRange(literal: string, n: number | null, ctx: DateContext): DayRange | null {
  const name = literal.toUpperCase();
  const today = localDay(ctx.nowMs, ctx.timeZone);
  const weekday = new Date(Date.UTC(today[0], today[1] - 1, today[2])).getUTCDay();
  const week = addDays(today, -((weekday - ctx.weekStart + 7) % 7));
  const month: Ymd = [today[0], today[1], 1];
  const quarter = addMonthsToFirst([today[0], 1, 1], Math.floor((today[1] - 1) / 3) * 3);
  const year: Ymd = [today[0], 1, 1];
  // Fiscal periods start at the org's fiscal year start month.
  const fs = ctx.fiscalYearStartMonth;
  const monthsIntoFy = (today[1] - fs + 12) % 12;
  const fiscalYear = addMonthsToFirst(month, -monthsIntoFy);
  const fiscalQuarter = addMonthsToFirst(fiscalYear, Math.floor(monthsIntoFy / 3) * 3);

  const days = (from: Ymd, count: number): DayRange => ({ from, to: addDays(from, count) });
  const months = (from: Ymd, count: number): DayRange => ({ from, to: addMonthsToFirst(from, count) });
  const k = n ?? 0;

  switch (name) {
    case 'YESTERDAY': return days(addDays(today, -1), 1);
    case 'TODAY': return days(today, 1);
    case 'TOMORROW': return days(addDays(today, 1), 1);
    case 'LAST_WEEK': return days(addDays(week, -7), 7);
    case 'THIS_WEEK': return days(week, 7);
    case 'NEXT_WEEK': return days(addDays(week, 7), 7);
    case 'LAST_MONTH': return months(addMonthsToFirst(month, -1), 1);
    case 'THIS_MONTH': return months(month, 1);
    case 'NEXT_MONTH': return months(addMonthsToFirst(month, 1), 1);
    case 'LAST_90_DAYS': return { from: addDays(today, -90), to: addDays(today, 1) };
    case 'NEXT_90_DAYS': return days(addDays(today, 1), 90);
    case 'THIS_QUARTER': return months(quarter, 3);
    case 'LAST_QUARTER': return months(addMonthsToFirst(quarter, -3), 3);
    case 'NEXT_QUARTER': return months(addMonthsToFirst(quarter, 3), 3);
    case 'THIS_YEAR': return months(year, 12);
    case 'LAST_YEAR': return months(addMonthsToFirst(year, -12), 12);
    case 'NEXT_YEAR': return months(addMonthsToFirst(year, 12), 12);
    case 'THIS_FISCAL_QUARTER': return months(fiscalQuarter, 3);
    case 'LAST_FISCAL_QUARTER': return months(addMonthsToFirst(fiscalQuarter, -3), 3);
    case 'NEXT_FISCAL_QUARTER': return months(addMonthsToFirst(fiscalQuarter, 3), 3);
    case 'THIS_FISCAL_YEAR': return months(fiscalYear, 12);
    case 'LAST_FISCAL_YEAR': return months(addMonthsToFirst(fiscalYear, -12), 12);
    case 'NEXT_FISCAL_YEAR': return months(addMonthsToFirst(fiscalYear, 12), 12);
    case 'LAST_N_DAYS': return { from: addDays(today, -k), to: addDays(today, 1) };
    case 'NEXT_N_DAYS': return days(addDays(today, 1), k);
    case 'N_DAYS_AGO': return days(addDays(today, -k), 1);
    case 'LAST_N_WEEKS': return { from: addDays(week, -7 * k), to: week };
    case 'NEXT_N_WEEKS': return days(addDays(week, 7), 7 * k);
    case 'N_WEEKS_AGO': return days(addDays(week, -7 * k), 7);
    case 'LAST_N_MONTHS': return { from: addMonthsToFirst(month, -k), to: month };
    case 'NEXT_N_MONTHS': return months(addMonthsToFirst(month, 1), k);
    case 'N_MONTHS_AGO': return months(addMonthsToFirst(month, -k), 1);
    case 'LAST_N_QUARTERS': return { from: addMonthsToFirst(quarter, -3 * k), to: quarter };
    case 'NEXT_N_QUARTERS': return months(addMonthsToFirst(quarter, 3), 3 * k);
    case 'N_QUARTERS_AGO': return months(addMonthsToFirst(quarter, -3 * k), 3);
    case 'LAST_N_YEARS': return { from: addMonthsToFirst(year, -12 * k), to: year };
    case 'NEXT_N_YEARS': return months(addMonthsToFirst(year, 12), 12 * k);
    case 'N_YEARS_AGO': return months(addMonthsToFirst(year, -12 * k), 12);
    case 'LAST_N_FISCAL_QUARTERS': return { from: addMonthsToFirst(fiscalQuarter, -3 * k), to: fiscalQuarter };
    case 'NEXT_N_FISCAL_QUARTERS': return months(addMonthsToFirst(fiscalQuarter, 3), 3 * k);
    case 'N_FISCAL_QUARTERS_AGO': return months(addMonthsToFirst(fiscalQuarter, -3 * k), 3);
    case 'LAST_N_FISCAL_YEARS': return { from: addMonthsToFirst(fiscalYear, -12 * k), to: fiscalYear };
    case 'NEXT_N_FISCAL_YEARS': return months(addMonthsToFirst(fiscalYear, 12), 12 * k);
    case 'N_FISCAL_YEARS_AGO': return months(addMonthsToFirst(fiscalYear, -12 * k), 12);
    default: return null;
  }
}

/** First day of the week for a Salesforce locale (en_US → Sunday, en_GB → Monday, ...). */
export function weekStartOf(locale: string): number {
  try {
    const loc = new Intl.Locale(locale.split('_').join('-')) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const info = loc.getWeekInfo?.() ?? loc.weekInfo;
    if (info) return info.firstDay % 7;
  } catch {
    // fall through to the table
  }
  const region = locale.split('_')[1] ?? '';
  return ['US', 'CA', 'JP', 'KR', 'TW', 'HK', 'IL', 'MX', 'BR', 'PH', 'IN', 'ZA'].includes(region) ? 0 : 1;
}
