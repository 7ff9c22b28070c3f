// Reading one cell of a contacts file as the customer field its column holds: text, an amount, an
// instant. A cell is what the file gave: text from a CSV; from an Excel sheet a string, number, boolean
// or Date (a formula cell arrives as its cached result, see xlsx.ts). Nothing is ever evaluated: a CSV
// cell starting with "=", "+", "-" or "@" is text (or a signed number in an amount column).

export type Cell = string | number | boolean | Date | null;

/** Longest text kept from one cell (longer values are cut, and reported). */
export const MAX_TEXT = 500;

/** The cell as text, trimmed; null when empty. */
export function cellText(cell: Cell): string | null {
  if (cell === null) return null;
  if (cell instanceof Date) return Number.isFinite(cell.getTime()) ? cell.toISOString() : null;
  const s = String(cell).trim();
  return s === '' ? null : s;
}

export type Parsed<T> = { ok: true; value: T | null } | { ok: false; reason: string };

const CURRENCY = /^(?:[A-Z]{3}|[$€£¥₹₩₽₺₪₫฿₦₱]|R\$|CHF|kr)\s*|\s*(?:[A-Z]{3}|[$€£¥₹₩₽₺₪₫฿₦₱]|CHF|kr)$/u;

/**
 * An amount: "1234.5", "$1,234.50", "1.234,50 €", "EUR 99", "(250.00)" (negative), "-75", "1 234,5".
 * The decimal separator is the last "." or "," when both appear. With one kind only, digits grouped by
 * three after a first group of 1–3 digits not starting with 0 are thousands ("1,234", "2.400",
 * "12,345,678": money rarely has three decimals), anything else is a decimal separator ("1,5", "0.125").
 */
export function parseAmount(cell: Cell): Parsed<number> {
  if (cell === null) return { ok: true, value: null };
  if (typeof cell === 'number') return Number.isFinite(cell) ? { ok: true, value: cell } : { ok: false, reason: 'not a number' };
  if (typeof cell === 'boolean' || cell instanceof Date) return { ok: false, reason: 'not an amount' };
  let s = cell.trim();
  if (s === '') return { ok: true, value: null };
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  for (let i = 0; i < 2; i++) s = s.replace(CURRENCY, '').trim();
  if (/^[-−]/.test(s)) {
    negative = !negative;
    s = s.slice(1).trim();
  } else if (s.startsWith('+')) s = s.slice(1).trim();
  for (let i = 0; i < 2; i++) s = s.replace(CURRENCY, '').trim();
  s = s.replace(/[\s\u00a0\u202f']/g, '');
  if (!/^[\d.,]+$/.test(s) || !/\d/.test(s)) return { ok: false, reason: 'not a number' };
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let normalized: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const thousands = decimal === '.' ? ',' : '.';
    normalized = s.split(thousands).join('').replace(decimal, '.');
  } else {
    const sep = lastComma >= 0 ? ',' : '.';
    const grouped = new RegExp(`^[1-9]\\d{0,2}(\\${sep}\\d{3})+$`);
    normalized = grouped.test(s) ? s.split(sep).join('') : s.split(sep).length <= 2 ? s.replace(sep, '.') : '';
  }
  if (!/^\d*\.?\d+$|^\d+\.$/.test(normalized)) return { ok: false, reason: 'not a number' };
  const n = Number(normalized);
  if (!Number.isFinite(n)) return { ok: false, reason: 'not a number' };
  return { ok: true, value: negative ? -n : n };
}

/** How a date written with slashes or dots reads: month first (US) or day first. */
export type DateOrder = 'MDY' | 'DMY';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const monthOf = (word: string): number | null => {
  const i = MONTHS.indexOf(word.slice(0, 3).toLowerCase());
  return i < 0 || (word.length > 3 && !/^[a-z]+\.?$/i.test(word)) ? null : i + 1;
};

/** Stored instants are years 1000–9999 (the connector's bounds rely on it). */
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

function instant(y: number, m: number, d: number, h = 0, mi = 0, s = 0, ms = 0, offsetMinutes = 0): number | null {
  if (y < MIN_YEAR || y > MAX_YEAR || m < 1 || m > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return null;
  const t = Date.UTC(y, m - 1, d, h, mi, s, ms);
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null; // 31 April
  return t - offsetMinutes * 60_000;
}

/** "13:45", "1:45 PM", "13:45:30.123", "T13:45:30Z", "13:45+02:00" → [h, m, s, ms, offset minutes] */
function parseTime(rest: string): [number, number, number, number, number] | null {
  const t = rest.trim().replace(/^t/i, '');
  if (t === '') return [0, 0, 0, 0, 0];
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(am|pm|a\.m\.|p\.m\.)?\s*(z|utc|gmt|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (!m) return null;
  let h = Number(m[1]);
  const ampm = m[5]?.toLowerCase().replace(/\./g, '');
  if (ampm) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (ampm === 'pm' ? 12 : 0);
  }
  const ms = m[4] ? Math.round(Number(`0.${m[4]}`) * 1000) : 0;
  let offset = 0;
  const z = m[6]?.toLowerCase();
  if (z && z !== 'z' && z !== 'utc' && z !== 'gmt') {
    const sign = z.startsWith('-') ? -1 : 1;
    const digits = z.slice(1).replace(':', '');
    offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  return [h, Number(m[2]), Number(m[3] ?? 0), ms, offset];
}

/** An Excel serial day number (1900 date system) as epoch ms. */
const excelSerial = (n: number) => Math.round((n - 25569) * 86_400_000);

/**
 * An instant: ISO 8601 ("2024-03-05", "2024-03-05T14:22:31.123Z", "2024-03-05 14:22"), slashes, dots
 * or dashes in `order` ("03/05/2024", "5.3.2024", "05-03-24"), month names ("Mar 5, 2024",
 * "5 March 2024", "05-Mar-2024"), each with an optional time; an Excel date or serial day number.
 * Without a time zone the time is UTC (the product shows purchase dates as UTC calendar days, so the
 * file's day is the day shown).
 */
export function parseDate(cell: Cell, order: DateOrder): Parsed<number> {
  if (cell === null) return { ok: true, value: null };
  if (cell instanceof Date) return validMs(cell.getTime());
  if (typeof cell === 'number') return cell >= 1 && cell < 2_958_466 ? validMs(excelSerial(cell)) : { ok: false, reason: 'not a date' };
  if (typeof cell === 'boolean') return { ok: false, reason: 'not a date' };
  const s = cell.trim();
  if (s === '') return { ok: true, value: null };
  const ms = parseDateText(s, order);
  return ms === null ? { ok: false, reason: 'not a date' } : { ok: true, value: ms };
}

function validMs(ms: number): Parsed<number> {
  if (!Number.isFinite(ms)) return { ok: false, reason: 'not a date' };
  const y = new Date(ms).getUTCFullYear();
  return y < MIN_YEAR || y > MAX_YEAR ? { ok: false, reason: 'not a date' } : { ok: true, value: ms };
}

/** A year as written: two digits are 1970–2069. */
const year = (text: string) => (text.length === 2 ? Number(text) + (Number(text) < 70 ? 2000 : 1900) : Number(text));

function withTime(y: number, m: number, d: number, rest: string): number | null {
  const t = parseTime(rest);
  return t ? instant(y, m, d, ...t) : null;
}

function parseDateText(s: string, order: DateOrder): number | null {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(.*)$/.exec(s);
  if (m) return withTime(+m[1], +m[2], +m[3], m[4]);
  m = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})(.*)$/.exec(s);
  if (m) return withTime(+m[1], +m[2], +m[3], m[4]);
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?!\d),?(.*)$/.exec(s);
  if (m) {
    const [a, b] = [+m[1], +m[2]];
    const [month, day] = order === 'MDY' ? [a, b] : [b, a];
    return withTime(year(m[3]), month, day, m[4]);
  }
  // 5 March 2024, 05-Mar-2024, 5 Mar 24
  m = /^(\d{1,2})[\s-]+([a-z]+\.?)[\s-,]+(\d{4}|\d{2})(?!\d)(.*)$/i.exec(s);
  if (m && monthOf(m[2])) return withTime(year(m[3]), monthOf(m[2])!, +m[1], m[4]);
  // Mar 5, 2024; March 5 2024; optionally a weekday first ("Tue, Mar 5, 2024")
  m = /^(?:[a-z]+,?\s+)?([a-z]+\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(.*)$/i.exec(s);
  if (m && monthOf(m[1])) return withTime(+m[3], monthOf(m[1])!, +m[2], m[4]);
  if (/^\d{12,13}$/.test(s)) return validOrNull(Number(s)); // epoch milliseconds (API-style exports)
  return null;
}

function validOrNull(ms: number): number | null {
  const r = validMs(ms);
  return r.ok ? r.value : null;
}

/**
 * Which order the slashed dates of a column are written in: a first part above 12 only reads
 * day-first, a second part above 12 only month-first. Counted over the values seen; null when nothing
 * decides (then the user's choice, or month first, holds).
 */
export function dateOrderEvidence(values: Iterable<string>): { dmy: number; mdy: number } {
  let dmy = 0;
  let mdy = 0;
  for (const v of values) {
    const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?!\d)/.exec(v.trim());
    if (!m) continue;
    if (+m[1] > 12 && +m[2] <= 12) dmy++;
    else if (+m[2] > 12 && +m[1] <= 12) mdy++;
  }
  return { dmy, mdy };
}
