// The preview of an uploaded file under a mapping (the guessed one first): its columns with sample
// values and the field each goes to, its first rows as the customers they become, the problems found
// (bad dates, non-numeric amounts, duplicate ids, rows without a name or e-mail, formula cells) over the
// first PREVIEW_SCAN_ROWS rows, the lifecycle values it uses and what they mean, and whether it can be
// imported as it is mapped.
import type { ContactImport } from '@prisma/client';
import { IMPORT_FIELDS, type ImportField } from '../../crm/imported/columns.js';
import { STAGE_VOCABULARY } from '../../crm/imported/field-map.js';
import { toCustomer, type Customer } from '../../crm/record.js';
import type { LifecycleValue } from '../../crm/hubspot/model/index.js';
import { AppError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import { checkMapping, importFieldMap, initialMapping, ProblemLog, rememberedSchema, rowReader, type Mapping, type Problem } from './mapping.js';
import { DELIMITERS, fileRows, type FileRef } from './rows.js';
import { ENCODING_LABELS, type Encoding } from './sniff.js';
import { cellText, dateOrderEvidence, type Cell, type DateOrder } from './values.js';

/** Rows read for a preview's problems (the import checks every row). */
export const PREVIEW_SCAN_ROWS = 10_000;
/** Rows shown. */
export const PREVIEW_ROWS = 10;
/** Distinct lifecycle values listed. */
export const PREVIEW_STAGE_VALUES = 50;

export interface PreviewColumn {
  index: number;
  header: string;
  field: ImportField | null;
  samples: string[];
}

export interface PreviewRow {
  row: number;
  customer: Customer | null;
  problems: Problem[];
}

export interface StageValue {
  value: string;
  count: number;
  /** what it means under the mapping (null: no stage, shown as unknown) */
  stage: LifecycleValue | null;
  /** the product's vocabulary knew it (else the user chose, or it is unknown) */
  known: boolean;
}

export interface ImportPreview {
  contactImport: ContactImport;
  encodingLabel: string | null;
  delimiterLabel: string | null;
  headers: string[];
  columns: PreviewColumn[];
  mapping: Mapping;
  rows: PreviewRow[];
  problems: { counts: Partial<Record<string, number>>; examples: Problem[]; total: number };
  /** data rows read for this preview, and whether that was the whole file */
  scannedRows: number;
  complete: boolean;
  stageValues: StageValue[];
  /** slashed dates read day-first or month-first, and whether the file itself says which */
  dateOrder: DateOrder;
  dateOrderDetected: boolean;
  /** why the file cannot be imported as mapped (a missing required column, a field chosen twice), or null */
  blocker: string | null;
}

export function fileRef(imp: ContactImport, mapping?: Pick<Mapping, 'encoding'>): FileRef {
  return {
    id: imp.id,
    format: imp.format as FileRef['format'],
    encoding: (mapping?.encoding ?? imp.encoding) as Encoding | null,
    delimiter: imp.delimiter,
  };
}

/** Header names (empty ones named by position). */
export const headerNames = (cells: readonly Cell[]) => cells.map((c, i) => cellText(c) ?? `Column ${i + 1}`);

/** The header and the rows after it, streamed. */
export async function openFile(deps: ServiceDeps, file: FileRef, onBytes?: (n: number) => void) {
  const rows = fileRows(deps, file, onBytes);
  const first = await rows.next();
  if (first.done) throw new AppError('BAD_USER_INPUT', 'The file has no rows.', { title: 'Empty file', field: 'file' });
  return { headers: headerNames(first.value), rows };
}

export async function buildPreview(deps: ServiceDeps, imp: ContactImport, requested: Mapping | null): Promise<ImportPreview> {
  const { headers, rows } = await openFile(deps, fileRef(imp, requested ?? undefined));
  const rememberedRow = await deps.prisma.contactImportMapping.findUnique({ where: { userId: imp.userId } });
  const remembered = rememberedRow ? (rememberedSchema.safeParse(rememberedRow.mapping).data ?? null) : null;

  // First pass over the scanned rows' raw cells: samples, dates' order, lifecycle values.
  const scanned: Cell[][] = [];
  let complete = true;
  // a file that breaks after its first rows (an unclosed quote) is shown up to there, with why it cannot be imported
  let readError: string | null = null;
  try {
    for await (const cells of rows) {
      if (scanned.length >= PREVIEW_SCAN_ROWS) {
        complete = false;
        break;
      }
      scanned.push(cells);
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    readError = err.message;
    complete = false;
  }
  await rows.return(undefined);

  const guess = initialMapping(headers, remembered, null);
  const mapping: Mapping = requested ?? guess;
  let dateOrderDetected = false;
  if (!requested) {
    const dateColumns = mapping.columns.filter((c) => c.field === 'lastPurchaseDate' || c.field === 'createdAt').map((c) => c.index);
    const evidence = dateOrderEvidence(scanned.flatMap((r) => dateColumns.map((i) => cellText(r[i] ?? null) ?? '')));
    if (evidence.dmy || evidence.mdy) {
      mapping.dateOrder = evidence.dmy >= evidence.mdy ? 'DMY' : 'MDY';
      dateOrderDetected = true;
    }
  }
  const blocker = readError ?? checkMapping(headers, mapping);
  const fieldOf = new Map(mapping.columns.map((c) => [c.index, c.field]));
  const columns: PreviewColumn[] = headers.map((header, index) => ({
    index,
    header,
    field: fieldOf.get(index) ?? null,
    samples: samplesOf(scanned, index),
  }));

  const log = new ProblemLog(50);
  const shown: PreviewRow[] = [];
  const stageCounts = new Map<string, { value: string; count: number }>();
  const stageIndex = mapping.columns.find((c) => c.field === 'lifecycleStage')?.index;
  if (!checkMapping(headers, mapping)) {
    const reader = rowReader(headers, mapping);
    const idIndex = mapping.columns.find((c) => c.field === 'id')?.index;
    const seenIds = new Set<string>();
    scanned.forEach((cells, i) => {
      const row = i + 2;
      const { contact, problems } = reader.read(cells, row);
      if (contact && idIndex !== undefined) {
        if (seenIds.has(contact.id)) problems.push({ kind: 'duplicate_id', row, column: headers[idIndex], value: contact.id, message: `Id ${contact.id} is used by an earlier row: skipped` });
        seenIds.add(contact.id);
      }
      problems.forEach((p) => log.add(p));
      if (shown.length < PREVIEW_ROWS) {
        const ok = contact && !problems.some((p) => p.kind === 'duplicate_id');
        shown.push({ row, customer: ok ? toCustomer({ ...contact, stage: contact.stage }) : null, problems });
      }
    });
  }
  if (stageIndex !== undefined) {
    for (const cells of scanned) {
      const v = cellText(cells[stageIndex] ?? null);
      if (v === null) continue;
      const k = v.toLowerCase();
      const e = stageCounts.get(k) ?? { value: v, count: 0 };
      e.count++;
      stageCounts.set(k, e);
    }
  }
  const stageMap = importFieldMap(headers, mapping).stages;
  const stageValues = [...stageCounts.entries()]
    .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .slice(0, PREVIEW_STAGE_VALUES)
    .map(([k, e]) => ({ value: e.value, count: e.count, stage: stageMap[k.trim()] ?? null, known: k.trim() in STAGE_VOCABULARY }));

  return {
    contactImport: imp,
    encodingLabel: imp.format === 'csv' ? ENCODING_LABELS[(mapping.encoding ?? imp.encoding ?? 'utf-8') as Encoding] : null,
    delimiterLabel: imp.delimiter ? DELIMITERS[imp.delimiter] ?? imp.delimiter : null,
    headers,
    columns,
    mapping,
    rows: shown,
    problems: { ...log.toJSON(), total: log.total },
    scannedRows: scanned.length,
    complete,
    stageValues,
    dateOrder: mapping.dateOrder,
    dateOrderDetected,
    blocker,
  };
}

function samplesOf(rows: readonly Cell[][], index: number): string[] {
  const out: string[] = [];
  for (const r of rows) {
    const v = cellText(r[index] ?? null);
    if (v !== null && !out.includes(v)) out.push(v.length > 40 ? `${v.slice(0, 37)}...` : v);
    if (out.length >= 3) break;
  }
  return out;
}

export { IMPORT_FIELDS };
