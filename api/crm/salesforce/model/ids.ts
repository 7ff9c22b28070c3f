/**
 * Salesforce record ids: 15 characters (case-sensitive: 3-character key prefix of the object, then
 * the record number) or 18 (the same plus a 3-character suffix that encodes which of the 15 are upper
 * case, so that an 18-character id survives case-insensitive handling). The API returns 18-character
 * ids and accepts either form in filters.
 */

const SUFFIX_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function isUpper(ch: string): boolean {
  return ch >= 'A' && ch <= 'Z';
}

function isIdChar(ch: string): boolean {
  return (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
}

/** The 3-character case-safe suffix of a 15-character id. */
export function idSuffix(id15: string): string {
  let out = '';
  for (let chunk = 0; chunk < 3; chunk++) {
    let flags = 0;
    for (let i = 0; i < 5; i++) if (isUpper(id15[chunk * 5 + i])) flags |= 1 << i;
    out += SUFFIX_ALPHABET[flags];
  }
  return out;
}

/**
 * The canonical 18-character form of a 15- or 18-character id (an 18-character id in any case is
 * restored from its suffix), or null when the text is not an id.
 */
export function canonicalId(text: string): string | null {
  if (text.length !== 15 && text.length !== 18) return null;
  for (const ch of text) if (!isIdChar(ch)) return null;
  if (text.length === 15) return text + idSuffix(text);
  const suffix = text.slice(15).toUpperCase();
  let id15 = '';
  for (let chunk = 0; chunk < 3; chunk++) {
    const flags = SUFFIX_ALPHABET.indexOf(suffix[chunk]);
    if (flags < 0) return null;
    for (let i = 0; i < 5; i++) {
      const ch = text[chunk * 5 + i];
      id15 += flags & (1 << i) ? ch.toUpperCase() : ch.toLowerCase();
    }
  }
  return id15 + suffix;
}

/**
 * A deterministic 18-character id: key prefix + pod + record number in base 62 (fixed width, so that
 * ids of one object sort like their numbers).
 */
export function makeId(keyPrefix: string, n: number, pod = 'Hx'): string {
  if (keyPrefix.length !== 3) throw new Error(`key prefix must have 3 characters: ${keyPrefix}`);
  if (!Number.isInteger(n) || n < 0) throw new Error(`invalid record number ${n}`);
  let digits = '';
  let x = n;
  do {
    digits = BASE62[x % 62] + digits;
    x = Math.floor(x / 62);
  } while (x > 0);
  if (digits.length > 9) throw new Error(`record number too large: ${n}`);
  const id15 = `${keyPrefix}${pod}0${digits.padStart(9, '0')}`;
  return id15 + idSuffix(id15);
}

/** Standard key prefixes of the objects the product reads. */
export const KEY_PREFIXES = {
  Account: '001',
  Contact: '003',
  User: '005',
  Opportunity: '006',
  Organization: '00D',
  OpportunityContactRole: '00K',
  Lead: '00Q',
  /** query locators (cursors) */
  QueryLocator: '01g',
} as const;
