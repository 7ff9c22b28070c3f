// Display rules of spec §2 ("Customer table display") and §3, shared by the web app and the CLI.
export interface NamedContact {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

/** Full name; else the part of the email before "@"; else "Unknown". */
export function displayName(c: NamedContact): string {
  const full = [c.firstName, c.lastName].filter((p) => p && p.trim()).join(' ').trim();
  if (full) return full;
  const local = c.email?.split('@')[0]?.trim();
  return local || 'Unknown';
}

/** First letters of first and last name, or "?". */
export function initials(c: NamedContact): string {
  const f = c.firstName?.trim()?.[0] ?? '';
  const l = c.lastName?.trim()?.[0] ?? '';
  return (f + l).toUpperCase() || '?';
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0, minimumFractionDigits: 0 });

/** USD without decimals; "-" when empty. */
export const formatMoney = (n: number | null | undefined): string => (n === null || n === undefined ? '-' : usd.format(n));

const dateFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** "Jan 5, 2025" (the CRM's dates are calendar days), or "-". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '-';
  const t = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(t) ? '-' : dateFmt.format(new Date(t));
}

const rtf = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "3 days ago", "in 2 months", "just now". */
export function relativeTime(value: string | null | undefined, now = Date.now()): string {
  if (!value) return '';
  const t = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(t)) return '';
  const diff = t - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return rtf.format(Math.round(diff / ms), unit);
  }
  return 'just now';
}

/** "5 minutes" style duration for "Generated {time} ago". */
export function ago(value: string, now = Date.now()): string {
  return relativeTime(value, now).replace(/ ago$/, '');
}

export const formatCount = (n: number) => n.toLocaleString('en-US');

/** Spec §2: "Generated {time} ago", "Generated just now", or "Generated never". */
export function generatedAgo(value: string | null | undefined, now = Date.now()): string {
  if (!value) return 'Generated never';
  const time = ago(value, now);
  return time === 'just now' ? 'Generated just now' : `Generated ${time} ago`;
}
