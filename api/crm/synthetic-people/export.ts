/**
 * The synthetic people as a CRM's contacts export (CSV, RFC 4180, CRLF), the way HubSpot's "Export
 * contacts" writes its columns: "Record ID", "First Name", ..., "Lifecycle Stage" as labels
 * ("Marketing Qualified Lead"), "Country/Region". Instants are ISO 8601 in UTC with milliseconds (as
 * API-based exports write them), so an imported file holds exactly what the sandbox serves.
 * Used by the import tests and benchmark, and by `npm run sandbox:csv` to try the import by hand.
 */
import { LIFECYCLE_OPTIONS } from '../hubspot/model/index.js';
import type { SyntheticPerson } from './generate.js';

export const EXPORT_HEADERS = [
  'Record ID', 'First Name', 'Last Name', 'Email', 'Company Name', 'Lifecycle Stage', 'Recent Deal Close Date',
  'Recent Deal Amount', 'Total Revenue', 'City', 'State/Region', 'Country/Region', 'Create Date',
] as const;

const LABEL = new Map<string, string>(LIFECYCLE_OPTIONS.map((o) => [o.value, o.label]));

/** One CSV field: quoted when it holds a delimiter, a quote or a line break. */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function exportRow(p: SyntheticPerson): string {
  return [
    p.id, p.firstName, p.lastName, p.email, p.company, p.stage === null ? null : (LABEL.get(p.stage) ?? p.stage), iso(p.lastPurchaseAt),
    p.lastPurchaseAmount, p.lifetimeValue, p.city, p.state, p.country, iso(p.createdAt),
  ].map(csvField).join(',');
}

/** The export's lines (header first), each ending in CRLF. */
export function* contactsExportLines(people: Iterable<SyntheticPerson>): Generator<string> {
  yield `${EXPORT_HEADERS.map(csvField).join(',')}\r\n`;
  for (const p of people) yield `${exportRow(p)}\r\n`;
}

/** The whole export as one string (small sets: tests). */
export function contactsExportCsv(people: Iterable<SyntheticPerson>): string {
  return [...contactsExportLines(people)].join('');
}
