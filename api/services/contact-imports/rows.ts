// An uploaded file read back as rows of cells, streamed: its bytes come from contact_import_chunks one
// piece at a time (any API process or worker can read them), a CSV through the decoder of its encoding
// and csv-parse, a workbook through exceljs's streaming reader (the first sheet with data).
import { Readable } from 'node:stream';
import { parse as parseCsv, type Parser } from 'csv-parse';
import ExcelJS from 'exceljs';
import { AppError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import { bulkQuery } from './store.js';
import { notSpreadsheet, type Encoding, type FileFormat } from './sniff.js';
import type { Cell } from './values.js';

export interface FileRef {
  id: string;
  format: FileFormat;
  encoding: Encoding | null;
  delimiter: string | null;
}

/** The stored bytes of an upload, in order; `onBytes` counts them as they are handed on. */
export async function* storedBytes(deps: ServiceDeps, importId: string, onBytes?: (n: number) => void): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const bytes = await storedChunk(deps, importId, seq);
    if (!bytes) return;
    onBytes?.(bytes.length);
    yield bytes;
  }
}

/** Bytes read per statement (hex text below V8's large-object size: it dies young, see decode()). */
const READ_PIECE = 48 * 1024;

/**
 * One stored piece of a file, read in slices (a 1 MB bytea comes back as 2 MB of hex text otherwise,
 * which V8 keeps until a full collection). Prisma's raw queries decode bytea slowly: base64 there.
 */
async function storedChunk(deps: ServiceDeps, importId: string, seq: number): Promise<Buffer | null> {
  if (!deps.bulk) {
    const [chunk] = await bulkQuery<{ data: string }>(deps, `SELECT encode(data, 'base64') AS data FROM contact_import_chunks WHERE import_id = $1::uuid AND seq = $2`, [importId, seq]);
    return chunk ? Buffer.from(chunk.data, 'base64') : null;
  }
  const parts: Buffer[] = [];
  for (let from = 1; ; from += READ_PIECE) {
    const r = await deps.bulk.query<{ part: Buffer; size: number }>(
      'SELECT substring(data FROM $3 FOR $4) AS part, length(data) AS size FROM contact_import_chunks WHERE import_id = $1::uuid AND seq = $2',
      [importId, seq, from, READ_PIECE],
    );
    const row = r.rows[0];
    if (!row) return null;
    parts.push(row.part);
    if (from + READ_PIECE > row.size) return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }
}

/** Decoded text is handed on in pieces below V8's large-object size, so it dies young. */
const TEXT_PIECE = 32 * 1024;

/** Text of the bytes in `encoding` (a leading byte-order mark is dropped). */
async function* decode(bytes: AsyncIterable<Uint8Array>, encoding: Encoding): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  for await (const b of bytes) {
    for (let at = 0; at < b.length; at += TEXT_PIECE) {
      const s = decoder.decode(b.subarray(at, at + TEXT_PIECE), { stream: true });
      if (s) yield s;
    }
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** The delimiters a CSV may use, and how the preview names them. */
export const DELIMITERS: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'vertical bar' };

/**
 * The delimiter of a CSV from its first lines: the candidate that splits the header into the most
 * columns while most of the following lines split into as many (quotes respected).
 */
export function sniffDelimiter(sample: string): string {
  const lines = sample.split(/\r\n|\n|\r/).filter((l) => l.trim() !== '').slice(0, 30);
  if (sample.length >= 65_536 && lines.length > 1) lines.pop(); // the last line of a cut sample may be partial
  const fields = (line: string, d: string) => {
    let n = 1;
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (ch === d && !quoted) n++;
    }
    return n;
  };
  let best = ',';
  let bestScore = 0;
  for (const d of Object.keys(DELIMITERS)) {
    if (!lines.length) break;
    const header = fields(lines[0], d);
    if (header < 2) continue;
    const agreeing = lines.slice(1).filter((l) => fields(l, d) === header).length;
    const score = header * (lines.length === 1 ? 1 : agreeing / (lines.length - 1));
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** The first characters of a CSV (for sniffing its delimiter). */
export async function csvSample(deps: ServiceDeps, file: FileRef, chars = 65_536): Promise<string> {
  let text = '';
  for await (const s of decode(storedBytes(deps, file.id), file.encoding ?? 'utf-8')) {
    text += s;
    if (text.length >= chars) break;
  }
  return text.slice(0, chars);
}

function csvError(err: unknown): AppError {
  const e = err as { code?: string; lines?: number; message?: string };
  const where = e.lines ? ` (near line ${e.lines})` : '';
  if (e.code === 'CSV_QUOTE_NOT_CLOSED') {
    return new AppError('BAD_USER_INPUT', `The file ends inside a quoted value${where}: a quote (") was opened and never closed.`, { title: 'Broken CSV', field: 'file' });
  }
  return new AppError('BAD_USER_INPUT', `The file could not be read as CSV${where}: ${e.message ?? 'invalid CSV'}`, { title: 'Broken CSV', field: 'file' });
}

async function* csvRows(bytes: AsyncIterable<Uint8Array>, file: FileRef): AsyncGenerator<Cell[]> {
  const parser: Parser = parseCsv({
    delimiter: file.delimiter ?? ',',
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    // one value may be long (notes), never unbounded
    max_record_size: 1_000_000,
  });
  const source = Readable.from(decode(bytes, file.encoding ?? 'utf-8'));
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (err) {
    throw err instanceof AppError ? err : csvError(err);
  } finally {
    source.destroy();
    parser.destroy();
  }
}

/** A workbook cell's value as the file holds it: a formula's cached result, rich text as its text. */
export function workbookCell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) return o.result === undefined ? FORMULA_WITHOUT_VALUE : workbookCell(o.result);
    if (Array.isArray(o.richText)) return (o.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('error' in o) return FORMULA_ERROR;
    if ('text' in o) return workbookCell(o.text);
    if ('result' in o) return workbookCell(o.result);
  }
  return String(v);
}

/** Markers for cells whose value the workbook does not hold (reported as problems, imported empty). */
export const FORMULA_WITHOUT_VALUE = '\u0000formula-without-value';
export const FORMULA_ERROR = '\u0000formula-error';

async function* xlsxRows(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Cell[]> {
  const input = Readable.from(bytes);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache', // to know which numbers are dates
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      sawSheet = true;
      let any = false;
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as unknown[];
        const cells: Cell[] = [];
        for (let c = 1; c < values.length; c++) cells.push(workbookCell(values[c]));
        if (cells.every((x) => x === null || (typeof x === 'string' && x.trim() === ''))) continue;
        // a gap of empty rows in the sheet is skipped like a CSV's empty lines
        any = true;
        yield cells;
      }
      if (any) return; // the first sheet with data
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('BAD_USER_INPUT', 'This file is a ZIP archive but not an Excel workbook that can be read (.xlsx). Save it from Excel as .xlsx or CSV and upload it again.', {
      title: 'Not a spreadsheet',
      field: 'file',
    });
  } finally {
    input.destroy();
  }
  if (!sawSheet) throw notSpreadsheet('a ZIP archive without a worksheet');
}

/** Every row of the stored file (the header first), as cells. */
export function fileRows(deps: ServiceDeps, file: FileRef, onBytes?: (n: number) => void): AsyncGenerator<Cell[]> {
  const bytes = storedBytes(deps, file.id, onBytes);
  return file.format === 'xlsx' ? xlsxRows(bytes) : csvRows(bytes, file);
}
