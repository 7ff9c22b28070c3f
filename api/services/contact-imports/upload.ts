// Receiving a contacts file: its bytes are streamed into contact_import_chunks (about 1 MB a row) as
// they arrive, never held whole, while the sniffer decides what the file is. An upload that is cut
// short, too large or not a spreadsheet leaves nothing behind.
import type { ContactImport, User } from '@prisma/client';
import { AppError } from '../../errors.js';
import { formatBytes, payloadTooLarge } from '../../http/body-limit.js';
import type { ServiceDeps } from '../deps.js';
import { csvSample, sniffDelimiter } from './rows.js';
import { FileSniffer } from './sniff.js';
import { bulkQuery } from './store.js';

/** The largest contacts file accepted (also the upload route's body limit, api/http/body-limit.ts). */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
/** Uploads kept waiting for their mapping per user (the oldest beyond go). */
export const MAX_WAITING_UPLOADS = 3;
/** Bytes per stored piece of an upload. */
export const CHUNK_BYTES = 1024 * 1024;

/** A file name as shown: its last path segment, without control characters, at most 200 characters. */
export function cleanFileName(raw: unknown): string {
  const name = [...((typeof raw === 'string' ? raw : '').split(/[/\\]/).pop() ?? '')].filter((ch) => ch.charCodeAt(0) > 0x1f && ch !== '\u007f').join('').trim();
  return (name || 'contacts.csv').slice(0, 200);
}

/**
 * Stores an uploaded file for the user (their previous upload that was never imported is dropped) and
 * returns its import record (status "uploaded"), or throws with what is wrong with the file.
 */
export async function receiveUpload(
  deps: ServiceDeps,
  user: Pick<User, 'id'>,
  input: { fileName: unknown; body: AsyncIterable<Uint8Array> | null; maxBytes?: number },
): Promise<ContactImport> {
  const maxBytes = input.maxBytes ?? MAX_UPLOAD_BYTES;
  if (!input.body) throw new AppError('BAD_USER_INPUT', 'Send the file as the request body.', { field: 'file' });
  const imp = await deps.prisma.contactImport.create({
    data: { userId: user.id, fileName: cleanFileName(input.fileName), format: 'csv', status: 'uploading' },
  });
  const sniffer = new FileSniffer();
  let seq = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (!pendingBytes) return;
    const data = Buffer.concat(pending, pendingBytes); // (a copy: the pieces may be views of reused buffers)
    pending = [];
    pendingBytes = 0;
    // (raw SQL, node-postgres when there: Prisma takes several times longer for a 1 MB bytea, and keeps memory)
    await bulkQuery(deps, 'INSERT INTO contact_import_chunks (import_id, seq, data) VALUES ($1::uuid, $2, $3)', [imp.id, seq++, data]);
  };
  try {
    for await (const part of input.body) {
      const chunk = part instanceof Uint8Array ? part : new Uint8Array(part as ArrayBuffer);
      if (sniffer.bytes + chunk.length > maxBytes) throw payloadTooLarge(maxBytes, 'The file');
      sniffer.push(chunk);
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= CHUNK_BYTES) await flush();
    }
    await flush();
    const { format, encoding } = sniffer.decide();
    const ref = { id: imp.id, format, encoding, delimiter: null };
    const delimiter = format === 'csv' ? sniffDelimiter(await csvSample(deps, ref)) : null;
    const stored = await deps.prisma.contactImport.update({
      where: { id: imp.id },
      data: { status: 'uploaded', format, encoding, delimiter, byteSize: sniffer.bytes },
    });
    // a few uploads may wait for their mapping (two tabs, a retry); beyond that the oldest go
    const waiting = await deps.prisma.contactImport.findMany({
      where: { userId: user.id, status: { in: ['uploaded', 'failed'] } },
      orderBy: { createdAt: 'desc' },
      select: { id: true },
      skip: MAX_WAITING_UPLOADS,
    });
    if (waiting.length) await deps.prisma.contactImport.deleteMany({ where: { id: { in: waiting.map((w) => w.id) } } });
    deps.logger.info({ userId: user.id, importId: imp.id, format, encoding, bytes: sniffer.bytes }, 'contacts file uploaded');
    return stored;
  } catch (err) {
    await deps.prisma.contactImport.delete({ where: { id: imp.id } }).catch(() => {});
    throw err;
  }
}

export const uploadLimitText = () => formatBytes(MAX_UPLOAD_BYTES);
