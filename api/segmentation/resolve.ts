/**
 * Resolution of symbolic dates against an injected `now` and IANA time zone.
 *
 * - absolute "2024-03-01"                  -> 2024-03-01 00:00 local time
 * - relative { 30, day, past }             -> now minus 30 calendar days (same local wall-clock time)
 * - anchor { quarter, 0 } / { month, -1 }  -> local start of this quarter / of last month
 * - now                                    -> now
 * Weeks start on Monday. Month arithmetic clamps the day (Mar 31 minus 1 month = Feb 28/29).
 * Local times that do not exist (DST gaps) move forward by the length of the gap (Temporal's "compatible").
 */
import type { DateExpr, DateUnit } from './ast.js';
import { SegmentationError } from './errors.js';

export interface ResolveOptions {
  /** The reference instant ("now"). Default: the current time. */
  now?: Date | number | string;
  /** IANA time zone such as "Europe/Berlin". Default: "UTC". */
  timeZone?: string;
}

export interface ResolveContext {
  nowMs: number;
  timeZone: string;
}

export function resolveContext(opts: ResolveOptions = {}): ResolveContext {
  const nowMs = opts.now === undefined ? Date.now() : new Date(opts.now).getTime();
  if (!Number.isFinite(nowMs)) throw new SegmentationError('INVALID_OPTIONS', `"now" is not a valid date: ${String(opts.now)}`);
  const timeZone = opts.timeZone ?? 'UTC';
  formatter(timeZone); // validates
  return { nowMs, timeZone };
}

// ---------------------------------------------------------------------------------------------------
// Time-zone arithmetic on top of Intl

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        weekday: 'short',
      });
    } catch {
      throw new SegmentationError('INVALID_TIME_ZONE', `Unknown time zone "${timeZone}". Use an IANA name such as "Europe/Berlin".`);
    }
    formatters.set(timeZone, f);
  }
  return f;
}

export interface LocalParts {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** 0 = Monday ... 6 = Sunday */
  weekday: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

export function localParts(ms: number, timeZone: string): LocalParts {
  if (timeZone === 'UTC') {
    const d = new Date(ms);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      millisecond: d.getUTCMilliseconds(),
      weekday: (d.getUTCDay() + 6) % 7,
    };
  }
  const out: Partial<LocalParts> = {};
  for (const p of formatter(timeZone).formatToParts(ms)) {
    switch (p.type) {
      case 'year': out.year = Number(p.value); break;
      case 'month': out.month = Number(p.value); break;
      case 'day': out.day = Number(p.value); break;
      case 'hour': out.hour = Number(p.value); break;
      case 'minute': out.minute = Number(p.value); break;
      case 'second': out.second = Number(p.value); break;
      case 'weekday': out.weekday = WEEKDAYS[p.value]; break;
    }
  }
  out.millisecond = ((ms % 1000) + 1000) % 1000;
  return out as LocalParts;
}

/** Offset (local minus UTC) in ms at a given instant. */
function offsetAt(ms: number, timeZone: string): number {
  const p = localParts(Math.floor(ms / 1000) * 1000, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant at which the local wall clock in `timeZone` shows the given time. */
export function zonedTimeToEpoch(
  year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millisecond = 0, timeZone = 'UTC',
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  if (timeZone === 'UTC') return wall;
  const o1 = offsetAt(wall, timeZone);
  const t1 = wall - o1;
  const o2 = offsetAt(t1, timeZone);
  if (o1 === o2) return t1;
  const t2 = wall - o2;
  if (offsetAt(t2, timeZone) === o2) return t2;
  // The wall time does not exist (DST gap): move it forward by the gap, like Temporal's "compatible".
  return Math.max(t1, t2);
}

function addDays(y: number, m: number, d: number, n: number): [number, number, number] {
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()];
}

function addMonths(y: number, m: number, d: number, n: number): [number, number, number] {
  const total = y * 12 + (m - 1) + n;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return [ny, nm, Math.min(d, last)];
}

function shift(y: number, m: number, d: number, unit: DateUnit, n: number): [number, number, number] {
  switch (unit) {
    case 'day': return addDays(y, m, d, n);
    case 'week': return addDays(y, m, d, 7 * n);
    case 'month': return addMonths(y, m, d, n);
    case 'quarter': return addMonths(y, m, d, 3 * n);
    case 'year': return addMonths(y, m, d, 12 * n);
  }
}

/** Local calendar date (y, m, d) of the start of the period of `unit` containing the given local date. */
export function periodStart(p: Pick<LocalParts, 'year' | 'month' | 'day' | 'weekday'>, unit: DateUnit): [number, number, number] {
  switch (unit) {
    case 'day': return [p.year, p.month, p.day];
    case 'week': return addDays(p.year, p.month, p.day, -p.weekday);
    case 'month': return [p.year, p.month, 1];
    case 'quarter': return [p.year, Math.floor((p.month - 1) / 3) * 3 + 1, 1];
    case 'year': return [p.year, 1, 1];
  }
}

export function resolveDateExpr(expr: DateExpr, ctx: ResolveContext): number {
  const { nowMs, timeZone } = ctx;
  switch (expr.kind) {
    case 'now':
      return nowMs;
    case 'absolute': {
      const [y, m, d] = expr.date.split('-').map(Number);
      return zonedTimeToEpoch(y, m, d, 0, 0, 0, 0, timeZone);
    }
    case 'relative': {
      const p = localParts(nowMs, timeZone);
      const n = expr.direction === 'past' ? -expr.amount : expr.amount;
      const [y, m, d] = shift(p.year, p.month, p.day, expr.unit, n);
      return zonedTimeToEpoch(y, m, d, p.hour, p.minute, p.second, p.millisecond, timeZone);
    }
    case 'anchor': {
      const p = localParts(nowMs, timeZone);
      const [sy, sm, sd] = periodStart(p, expr.unit);
      const [y, m, d] = shift(sy, sm, sd, expr.unit, expr.offset);
      return zonedTimeToEpoch(y, m, d, 0, 0, 0, 0, timeZone);
    }
  }
}

/** "YYYY-MM-DD" of the local calendar day containing `ms`. */
export function localDateString(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

const MONTH_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Jan 5, 2025" for the local day containing `ms`. */
export function formatLocalDate(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  return `${MONTH_SHORT[p.month - 1]} ${p.day}, ${p.year}`;
}
