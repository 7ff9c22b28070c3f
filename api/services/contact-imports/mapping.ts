// The mapping of a contacts file: which column holds which customer field (guessed from the headers,
// confirmed by the user, remembered for their next upload), what the file's lifecycle values mean
// (the stage vocabulary of api/crm/imported/field-map.ts, plus the user's choices), and how slashed
// dates read. And one row of the file read through it: a typed contact, or the problems found.
import { z } from 'zod';
import { IMPORT_FIELDS, IMPORT_FIELD_KINDS, IMPORT_FIELD_LABELS, guessColumns, normalizeHeader, type ImportField } from '../../crm/imported/columns.js';
import { IMPORTED_FIELD_MAP, STAGE_VOCABULARY } from '../../crm/imported/field-map.js';
import { MAPPABLE_FIELDS, detailedStage, productStage, type CrmFieldDescription, type FieldMap, type MappableField } from '../../crm/field-map.js';
import { LIFECYCLE_VALUES, type LifecycleStage, type LifecycleValue } from '../../crm/hubspot/model/index.js';
import { AppError } from '../../errors.js';
import { cellText, MAX_TEXT, parseAmount, parseDate, type Cell, type DateOrder } from './values.js';
import { ENCODINGS } from './sniff.js';
import { FORMULA_ERROR, FORMULA_WITHOUT_VALUE } from './rows.js';

export const mappingSchema = z.strictObject({
  /** the imported columns by position (0-based) in the header; columns left out are not imported */
  columns: z
    .array(z.strictObject({ index: z.number().int().min(0).max(10_000), field: z.enum(IMPORT_FIELDS) }))
    .max(IMPORT_FIELDS.length),
  /** the file's lifecycle values (as written) → detailed stage, for values the vocabulary does not know or the user changed */
  stages: z.record(z.string().trim().min(1).max(200), z.enum(LIFECYCLE_VALUES as [LifecycleValue, ...LifecycleValue[]])).default({}),
  dateOrder: z.enum(['MDY', 'DMY']).default('MDY'),
  /** read the CSV in another encoding than the one detected */
  encoding: z.enum(ENCODINGS).optional(),
});
export type Mapping = z.infer<typeof mappingSchema>;

/** What an import keeps of its mapping: the header it was confirmed against, and the mapping. */
export const storedMappingSchema = z.strictObject({ headers: z.array(z.string()), mapping: mappingSchema });
export type StoredMapping = z.infer<typeof storedMappingSchema>;

/** What is remembered of a user's last confirmed mapping: the field of each header name, the stages, the date order. */
export const rememberedSchema = z.strictObject({
  headers: z.record(z.string(), z.enum(IMPORT_FIELDS).nullable()),
  stages: z.record(z.string(), z.enum(LIFECYCLE_VALUES as [LifecycleValue, ...LifecycleValue[]])).default({}),
  dateOrder: z.enum(['MDY', 'DMY']).default('MDY'),
});
export type Remembered = z.infer<typeof rememberedSchema>;

/** The mapping to remember from a confirmed one. */
export function rememberOf(headers: readonly string[], mapping: Mapping, previous: Remembered | null): Remembered {
  const byIndex = new Map(mapping.columns.map((c) => [c.index, c.field]));
  const remembered: Remembered['headers'] = { ...(previous?.headers ?? {}) };
  headers.forEach((h, i) => {
    const key = normalizeHeader(h);
    if (key) remembered[key] = byIndex.get(i) ?? null;
  });
  return { headers: remembered, stages: { ...(previous?.stages ?? {}), ...mapping.stages }, dateOrder: mapping.dateOrder };
}

/** The first mapping offered for a file: the user's remembered choices for known header names, else the guess. */
export function initialMapping(headers: readonly string[], remembered: Remembered | null, dateOrder: DateOrder | null): Mapping {
  const guessed = guessColumns(headers);
  const fields = headers.map((h, i) => {
    const key = normalizeHeader(h);
    return remembered && key in remembered.headers ? remembered.headers[key] : guessed[i];
  });
  const seen = new Set<ImportField>();
  const columns: Mapping['columns'] = [];
  fields.forEach((field, index) => {
    if (field && !seen.has(field)) {
      seen.add(field);
      columns.push({ index, field });
    }
  });
  return { columns, stages: { ...(remembered?.stages ?? {}) }, dateOrder: dateOrder ?? remembered?.dateOrder ?? 'MDY' };
}

/** Checks a mapping against the file's header: each field once, columns that exist, a name or an e-mail. */
export function checkMapping(headers: readonly string[], mapping: Mapping): string | null {
  const fields = new Set<ImportField>();
  for (const c of mapping.columns) {
    if (c.index >= headers.length) return `There is no column ${c.index + 1} in this file.`;
    if (fields.has(c.field)) return `${IMPORT_FIELD_LABELS[c.field]} is chosen for two columns. Choose one.`;
    fields.add(c.field);
  }
  const indexes = new Set(mapping.columns.map((c) => c.index));
  if (indexes.size !== mapping.columns.length) return 'A column is chosen for two fields.';
  return missingRequired(fields);
}

/** The required columns: a contact needs an e-mail or a name. */
export function missingRequired(fields: ReadonlySet<ImportField>): string | null {
  if (fields.has('email') || fields.has('firstName') || fields.has('lastName') || fields.has('fullName')) return null;
  return 'The file needs a column with the contacts\' e-mail addresses or names (such as "Email", "First Name", "Last Name" or "Name"). Choose which column holds them, or add one to the file.';
}

export function parseMapping(raw: unknown): Mapping {
  const parsed = mappingSchema.safeParse(raw);
  if (!parsed.success) throw new AppError('BAD_USER_INPUT', `The column mapping is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}`, { field: 'mapping' });
  return parsed.data;
}

/** The field map of an import (customer field → the file's column) and its stages: the connector's `fieldMap`. */
export function importFieldMap(headers: readonly string[], mapping: Mapping): FieldMap {
  const fields = { ...IMPORTED_FIELD_MAP.fields };
  for (const f of MAPPABLE_FIELDS) fields[f] = '';
  for (const c of mapping.columns) {
    if ((MAPPABLE_FIELDS as readonly string[]).includes(c.field)) fields[c.field as MappableField] = headers[c.index] ?? '';
    if (c.field === 'fullName') {
      fields.firstName ||= headers[c.index] ?? '';
      fields.lastName ||= headers[c.index] ?? '';
    }
  }
  const stages: Record<string, LifecycleValue> = { ...STAGE_VOCABULARY };
  for (const [value, stage] of Object.entries(mapping.stages)) stages[value.trim().toLowerCase()] = stage;
  return { fields, stages };
}

/** The imported columns as the connector describes them (the field-map editor's vocabulary). */
export function importFields(headers: readonly string[], mapping: Mapping): CrmFieldDescription[] {
  return mapping.columns.map((c) => ({
    name: headers[c.index] ?? `Column ${c.index + 1}`,
    label: headers[c.index] ?? `Column ${c.index + 1}`,
    kind: IMPORT_FIELD_KINDS[c.field] === 'stage' ? 'stage' : IMPORT_FIELD_KINDS[c.field],
    description: `Imported as ${IMPORT_FIELD_LABELS[c.field]}`,
  }));
}

// ---------------------------------------------------------------------------------------------------
// One row

export const PROBLEM_KINDS = ['bad_date', 'bad_amount', 'duplicate_id', 'missing_required', 'formula', 'too_long'] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];
export const PROBLEM_LABELS: Record<ProblemKind, string> = {
  bad_date: 'Dates that could not be read (imported empty)',
  bad_amount: 'Amounts that are not numbers (imported empty)',
  duplicate_id: 'Rows with an id already used by an earlier row (skipped)',
  missing_required: 'Rows without an id, a name or an e-mail (skipped)',
  formula: 'Formula cells without a saved value, or with an error (imported empty)',
  too_long: `Values longer than ${MAX_TEXT} characters (cut)`,
};

export interface Problem {
  kind: ProblemKind;
  /** the spreadsheet row (the header is row 1) */
  row: number;
  column: string | null;
  value: string | null;
  message: string;
}

/** A contact as stored (imported_contacts), before its id is known to be new. */
export interface ImportRow {
  id: string;
  idNum: number | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  company: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  stageValue: string | null;
  stage: LifecycleValue | null;
  lifecycleStage: LifecycleStage;
  lastPurchaseAt: number | null;
  lastPurchaseAmount: number | null;
  lifetimeValue: number | null;
  createdAt: number | null;
}

export interface RowReader {
  /** the contact of a data row (null: skipped), with the problems found; `row` is the spreadsheet row */
  read(cells: readonly Cell[], row: number): { contact: ImportRow | null; problems: Problem[] };
}

const quote = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** The record id as a number when it is one ("00123" is text: its zeros matter). */
export function idNumber(id: string): number | null {
  if (!/^-?(0|[1-9]\d*)(\.\d+)?$/.test(id)) return null;
  const n = Number(id);
  return Number.isFinite(n) ? n : null;
}

export function rowReader(headers: readonly string[], mapping: Mapping): RowReader {
  const col = new Map<ImportField, number>(mapping.columns.map((c) => [c.field, c.index]));
  const stageMap = importFieldMap(headers, mapping);
  const name = (i: number | undefined) => (i === undefined ? null : headers[i] || `Column ${i + 1}`);
  return {
    read(cells, row) {
      const problems: Problem[] = [];
      const raw = (f: ImportField): Cell => {
        const i = col.get(f);
        if (i === undefined) return null;
        const v = cells[i] ?? null;
        if (v === FORMULA_WITHOUT_VALUE || v === FORMULA_ERROR) {
          problems.push({
            kind: 'formula', row, column: name(i), value: null,
            message: v === FORMULA_ERROR ? `${name(i)}: the formula's result is an error` : `${name(i)}: a formula without a saved result (open the file in Excel and save it again)`,
          });
          return null;
        }
        return v;
      };
      const text = (f: ImportField): string | null => {
        const s = cellText(raw(f));
        if (s !== null && s.length > MAX_TEXT) {
          problems.push({ kind: 'too_long', row, column: name(col.get(f)), value: quote(s), message: `${name(col.get(f))}: cut to ${MAX_TEXT} characters` });
          return s.slice(0, MAX_TEXT);
        }
        return s;
      };
      const amount = (f: ImportField): number | null => {
        const cell = raw(f);
        const r = parseAmount(cell);
        if (r.ok) return r.value;
        problems.push({ kind: 'bad_amount', row, column: name(col.get(f)), value: quote(cellText(cell) ?? ''), message: `${name(col.get(f))}: "${quote(cellText(cell) ?? '')}" is not a number` });
        return null;
      };
      const date = (f: ImportField): number | null => {
        const cell = raw(f);
        const r = parseDate(cell, mapping.dateOrder);
        if (r.ok) return r.value;
        problems.push({ kind: 'bad_date', row, column: name(col.get(f)), value: quote(cellText(cell) ?? ''), message: `${name(col.get(f))}: "${quote(cellText(cell) ?? '')}" is not a date` });
        return null;
      };

      let firstName = text('firstName');
      let lastName = text('lastName');
      const full = text('fullName');
      if (full !== null && firstName === null && lastName === null) {
        const space = full.indexOf(' ');
        firstName = space < 0 ? full : full.slice(0, space);
        lastName = space < 0 ? null : full.slice(space + 1).trim() || null;
      }
      const email = text('email');
      const stageValue = text('lifecycleStage');
      const stage = detailedStage(stageMap, stageValue);
      const idText = text('id');
      const contact: ImportRow = {
        id: idText ?? String(row),
        idNum: null,
        firstName,
        lastName,
        email,
        company: text('company'),
        city: text('city'),
        state: text('state'),
        country: text('country'),
        stageValue,
        stage,
        lifecycleStage: productStage(stage),
        lastPurchaseAt: date('lastPurchaseDate'),
        lastPurchaseAmount: amount('lastPurchaseAmount'),
        lifetimeValue: amount('lifetimeValue'),
        createdAt: date('createdAt'),
      };
      contact.idNum = idNumber(contact.id);
      // A row is a contact when something identifies it: its record id, a name or an e-mail (a CRM's
      // export may hold contacts without a name or e-mail; they are contacts there too).
      if (idText === null && firstName === null && lastName === null && email === null) {
        problems.push({ kind: 'missing_required', row, column: null, value: null, message: `Row ${row} has no id, no name and no e-mail: skipped` });
        return { contact: null, problems };
      }
      return { contact, problems };
    },
  };
}

/** Counts of problems by kind, and the first examples (bounded, however many rows have problems). */
export class ProblemLog {
  readonly counts: Partial<Record<ProblemKind, number>> = {};
  readonly examples: Problem[] = [];
  total = 0;
  constructor(private readonly maxExamples = 100) {}
  add(p: Problem): void {
    this.total++;
    this.counts[p.kind] = (this.counts[p.kind] ?? 0) + 1;
    if (this.examples.length < this.maxExamples) this.examples.push(p);
  }
  toJSON() {
    return { counts: this.counts, examples: this.examples };
  }
}
