// Customer CSV, the same for the web download and the CLI export (spec §9: values containing commas,
// quotes or newlines are quoted, quotes doubled). Text cells starting with =, +, -, @ (or a tab or
// carriage return) get a leading apostrophe so that a spreadsheet shows them instead of running them.
import { stringify } from 'csv-stringify/sync';

export const CUSTOMER_COLUMNS = [
  'id',
  'firstName',
  'lastName',
  'email',
  'company',
  'lifecycleStage',
  'lastPurchaseDate',
  'lastPurchaseAmount',
  'lifetimeValue',
  'city',
  'state',
  'country',
] as const;

export type CsvCustomer = { [K in (typeof CUSTOMER_COLUMNS)[number]]?: string | number | null };

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as written: numbers as they are, text neutralised when a spreadsheet would run it. */
export function csvCell(value: string | number | null | undefined): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * UTF-8's byte-order mark. Excel opens a CSV file as UTF-8 only when it starts with one (without it,
 * "Zoë Müller" shows as "ZoÃ« MÃ¼ller" in the legacy code page); other spreadsheets and csv libraries
 * skip it. Files get it: every web download, and the CLI's exports to a file. What the CLI writes to
 * stdout, a pipe or a device does not (a program reading it would see three stray bytes).
 */
export const CSV_BOM = '\uFEFF';

/** The header line (with its newline), after the byte-order mark when the CSV is a file. */
export const csvHeader = (opts: { bom?: boolean } = {}): string => (opts.bom ? CSV_BOM : '') + stringify([[...CUSTOMER_COLUMNS]], { record_delimiter: '\n' });

/** Rows (each ending with a newline), without the header: for streaming page by page. */
export function csvRows(customers: readonly CsvCustomer[]): string {
  return stringify(
    customers.map((c) => CUSTOMER_COLUMNS.map((k) => csvCell(c[k]))),
    { record_delimiter: '\n' },
  );
}

export const customersToCsv = (customers: readonly CsvCustomer[], opts: { bom?: boolean } = {}): string => csvHeader(opts) + csvRows(customers);
