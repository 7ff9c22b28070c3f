// What an uploaded file is, decided from its bytes as they stream in (nothing is buffered): an Excel
// workbook (a ZIP), a text file in some encoding, or not a spreadsheet at all. The whole file is seen
// before the decision, so "valid UTF-8" means every byte of it.
import { AppError } from '../../errors.js';

export type FileFormat = 'csv' | 'xlsx';
/** The encodings a CSV is read in (TextDecoder labels). */
export const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'windows-1250', 'iso-8859-15'] as const;
export type Encoding = (typeof ENCODINGS)[number];
export const ENCODING_LABELS: Record<Encoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 (little-endian)',
  'utf-16be': 'UTF-16 (big-endian)',
  'windows-1252': 'Windows-1252 (Western European)',
  'windows-1250': 'Windows-1250 (Central European)',
  'iso-8859-15': 'ISO-8859-15 (Latin-9)',
};

const HEAD_BYTES = 4096;

const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/** Files that are certainly not contacts spreadsheets, by their first bytes. */
const NOT_SPREADSHEETS: Array<{ sig: number[]; what: string }> = [
  { sig: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { sig: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { sig: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { sig: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { sig: [0x1f, 0x8b], what: 'a gzip archive' },
  { sig: [0x52, 0x61, 0x72, 0x21], what: 'a RAR archive' },
  { sig: [0x37, 0x7a, 0xbc, 0xaf], what: 'a 7-Zip archive' },
  { sig: [0x7f, 0x45, 0x4c, 0x46], what: 'a program' },
  { sig: [0x4d, 0x5a], what: 'a program' },
];

export const notSpreadsheet = (what: string) =>
  new AppError('BAD_USER_INPUT', `This file is ${what}, not a spreadsheet. Upload your contacts as a CSV file or an Excel workbook (.xlsx).`, {
    title: 'Not a spreadsheet',
    field: 'file',
  });

/** Watches the bytes of an upload and decides, at the end, how to read it. */
export class FileSniffer {
  private head = new Uint8Array(HEAD_BYTES);
  private headLength = 0;
  /** UTF-8 validation state: continuation bytes still expected, and the allowed range of the next one */
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;
  private utf8Valid = true;
  private firstInvalidUtf8 = -1;
  private size = 0;
  /** NUL bytes at even and odd offsets (UTF-16 text has one of the two for every ASCII character) */
  private nulEven = 0;
  private nulOdd = 0;
  /** control characters other than tab, CR, LF, FF (text files have almost none) */
  private controls = 0;

  push(chunk: Uint8Array): void {
    if (this.headLength < HEAD_BYTES) {
      const n = Math.min(HEAD_BYTES - this.headLength, chunk.length);
      this.head.set(chunk.subarray(0, n), this.headLength);
      this.headLength += n;
    }
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b < 0x20) {
        if (b === 0) {
          if ((this.size + i) % 2 === 0) this.nulEven++;
          else this.nulOdd++;
        } else if (b !== 9 && b !== 10 && b !== 13 && b !== 12) this.controls++;
      }
      if (this.utf8Valid && !this.utf8Byte(b)) {
        this.utf8Valid = false;
        this.firstInvalidUtf8 = this.size + i;
      }
    }
    this.size += chunk.length;
  }

  /** One byte through a UTF-8 validator (Unicode's table of well-formed sequences: no overlongs, surrogates or values past U+10FFFF). */
  private utf8Byte(b: number): boolean {
    if (this.need > 0) {
      if (b < this.lo || b > this.hi) return false;
      this.lo = 0x80;
      this.hi = 0xbf;
      this.need--;
      return true;
    }
    if (b < 0x80) return true;
    if (b >= 0xc2 && b <= 0xdf) this.need = 1;
    else if (b === 0xe0) [this.need, this.lo] = [2, 0xa0];
    else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) this.need = 2;
    else if (b === 0xed) [this.need, this.hi] = [2, 0x9f];
    else if (b === 0xf0) [this.need, this.lo] = [3, 0x90];
    else if (b >= 0xf1 && b <= 0xf3) this.need = 3;
    else if (b === 0xf4) [this.need, this.hi] = [3, 0x8f];
    else return false;
    return true;
  }

  get bytes(): number {
    return this.size;
  }

  /** The format and encoding, or an AppError saying what the file is instead. */
  decide(): { format: FileFormat; encoding: Encoding | null } {
    if (this.utf8Valid && this.need > 0) {
      this.utf8Valid = false; // the file ends inside a character
      this.firstInvalidUtf8 = this.size - 1;
    }
    const head = this.head.subarray(0, this.headLength);
    if (this.size === 0) throw new AppError('BAD_USER_INPUT', 'The file is empty.', { title: 'Empty file', field: 'file' });
    if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { format: 'xlsx', encoding: null };
    if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
      throw new AppError('BAD_USER_INPUT', 'This is an Excel 97–2003 workbook (.xls). Open it in Excel and save it as .xlsx or CSV, then upload that file.', {
        title: 'Old Excel format',
        field: 'file',
      });
    }
    const known = NOT_SPREADSHEETS.find((s) => startsWith(head, s.sig));
    if (known) throw notSpreadsheet(known.what);
    if (startsWith(head, [0xef, 0xbb, 0xbf])) {
      if (!this.utf8Valid) {
        throw new AppError(
          'BAD_USER_INPUT',
          `The file says it is UTF-8 (it starts with a UTF-8 byte-order mark) but byte ${this.firstInvalidUtf8 + 1} is not UTF-8. Export it again as "CSV UTF-8".`,
          { title: 'Wrong encoding', field: 'file' },
        );
      }
      return { format: 'csv', encoding: 'utf-8' };
    }
    if (startsWith(head, [0xff, 0xfe])) return { format: 'csv', encoding: 'utf-16le' };
    if (startsWith(head, [0xfe, 0xff])) return { format: 'csv', encoding: 'utf-16be' };
    const half = this.size / 2;
    // UTF-16 without a byte-order mark: ASCII text leaves a NUL in every other byte
    if (this.nulOdd > half * 0.3 && this.nulEven < this.nulOdd / 10) return { format: 'csv', encoding: 'utf-16le' };
    if (this.nulEven > half * 0.3 && this.nulOdd < this.nulEven / 10) return { format: 'csv', encoding: 'utf-16be' };
    if (this.nulEven + this.nulOdd > 0 || this.controls > Math.max(8, this.size / 1000)) throw notSpreadsheet('binary data');
    return { format: 'csv', encoding: this.utf8Valid ? 'utf-8' : 'windows-1252' };
  }
}
