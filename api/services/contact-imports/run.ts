// Importing an uploaded file: every row is read through the confirmed mapping and written in batches
// under the import's id, where no question sees it; then one transaction makes it the user's contacts
// (store.ts activateImport). A failure at any point removes what was written and changes nothing else.
// Progress is kept on the import row (a client that missed events reads it) and pushed as events.
import type { ContactImport } from '@prisma/client';
import { asAppError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import { forgetCrmVocabulary } from '../crm-vocabulary.js';
import { ProblemLog, rememberOf, rememberedSchema, rowReader, storedMappingSchema, type ImportRow, type Problem } from './mapping.js';
import { fileRef, openFile } from './preview.js';
import { activateImport, bulkQuery, deleteImports, insertContacts } from './store.js';

/**
 * Contacts per INSERT statement (23 array parameters, whatever the batch size). Small enough that a
 * batch's rows die young in V8 (2,000-row batches lived long enough to be promoted, and the importing
 * process's peak memory grew by 60 MB), large enough that round trips do not count.
 */
export const BATCH_ROWS = 500;
/** Imports at least this large vacuum and analyze the contacts table when done. */
const VACUUM_AFTER_ROWS = 10_000;
/** How often progress is written and pushed while an import runs. */
const PROGRESS_EVERY_MS = 500;
/** A running import whose row has not moved for this long was interrupted (its process stopped). */
export const STALE_IMPORT_MS = 2 * 60_000;


export function publishImport(deps: ServiceDeps, imp: ContactImport, done = false): void {
  deps.events.pubsub.publish('contactImportProgress', imp.userId, {
    importId: imp.id,
    status: imp.status,
    rowCount: imp.rowCount,
    importedCount: imp.importedCount,
    skippedCount: imp.skippedCount,
    problemCount: imp.problemCount,
    bytesRead: imp.bytesRead,
    byteSize: imp.byteSize,
    error: imp.error,
    done,
  });
}

export interface RunOptions {
  /** the job worker's lock keeper (called with each progress write) */
  touch?: () => Promise<unknown>;
  signal?: AbortSignal;
}

/** The worker running an import is stopping (SIGTERM): the import is left to the next one. */
export class ImportStopped extends Error {
  override name = 'ImportStopped';
}

/** Runs an import that was started (status "importing"); anything else is left alone. */
export async function runImport(deps: ServiceDeps, importId: string, opts: RunOptions = {}): Promise<ContactImport | null> {
  const imp = await deps.prisma.contactImport.findUnique({ where: { id: importId } });
  if (!imp || imp.status !== 'importing') return imp;
  const stored = storedMappingSchema.parse(imp.mapping);
  // a run taken over after an interruption starts again from the first row
  await deps.prisma.importedContact.deleteMany({ where: { importId } });

  const log = new ProblemLog(100);
  const counts = { rowCount: 0, importedCount: 0, skippedCount: 0, bytesRead: 0 };
  let lastProgress = 0;
  const progress = async (force = false) => {
    if (!force && Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = Date.now();
    const row = await deps.prisma.contactImport.update({
      where: { id: importId },
      data: { ...counts, problemCount: log.total, problems: log.toJSON() as object },
    });
    publishImport(deps, row);
    await opts.touch?.();
  };

  try {
    const { headers, rows } = await openFile(deps, fileRef(imp, stored.mapping), (n) => (counts.bytesRead += n));
    if (headers.join('\u0000') !== stored.headers.join('\u0000')) throw new Error('The file changed since it was mapped');
    const reader = rowReader(headers, stored.mapping);
    const idColumn = stored.mapping.columns.find((c) => c.field === 'id');
    let batch: { contact: ImportRow; row: number }[] = [];
    const inBatch = new Set<string>();
    const duplicate = (contact: ImportRow, row: number): Problem => ({
      kind: 'duplicate_id', row, column: idColumn ? headers[idColumn.index] : null, value: contact.id, message: `Id ${contact.id} is used by an earlier row: skipped`,
    });
    const flush = async () => {
      const written = await insertContacts(deps, importId, batch.map((b) => b.contact));
      for (const b of batch) {
        if (written.has(b.contact.id)) counts.importedCount++;
        else {
          counts.skippedCount++;
          log.add(duplicate(b.contact, b.row));
        }
      }
      batch = [];
      inBatch.clear();
      await progress();
    };
    for await (const cells of rows) {
      if (opts.signal?.aborted) throw new ImportStopped();
      counts.rowCount++;
      const row = counts.rowCount + 1; // the header is row 1
      const { contact, problems } = reader.read(cells, row);
      problems.forEach((p) => log.add(p));
      if (!contact) {
        counts.skippedCount++;
        continue;
      }
      if (inBatch.has(contact.id)) {
        counts.skippedCount++;
        log.add(duplicate(contact, row));
        continue;
      }
      inBatch.add(contact.id);
      batch.push({ contact, row });
      if (batch.length >= BATCH_ROWS) await flush();
    }
    await flush();
    if (counts.importedCount === 0) {
      throw Object.assign(new Error('No row of the file could be imported: no row has an id, a name or an e-mail.'), { userFacing: true });
    }
    await progress(true);
    const current = await deps.prisma.contactImport.findUniqueOrThrow({ where: { id: importId } });
    if (current.status !== 'importing') throw new Error('The import was cancelled');
    const previous = await deps.prisma.contactImportMapping.findUnique({ where: { userId: imp.userId } });
    const remember = rememberOf(stored.headers, stored.mapping, previous ? (rememberedSchema.safeParse(previous.mapping).data ?? null) : null);
    const superseded = await activateImport(deps, current, remember);
    // the file is imported: its bytes go, and so does the import before the previous one
    await deps.prisma.contactImportChunk.deleteMany({ where: { importId } });
    await deleteImports(deps, superseded);
    const done = await deps.prisma.contactImport.findUniqueOrThrow({ where: { id: importId } });
    deps.logger.info({ userId: imp.userId, importId, rows: counts.rowCount, imported: counts.importedCount, skipped: counts.skippedCount, problems: log.total }, 'contacts imported');
    publishImport(deps, done, true);
    // the parser's companies, places and domains are this file's now (other API processes: within the cache's hour)
    forgetCrmVocabulary(imp.userId);
    // After many new rows, what autovacuum would do later: statistics for the planner, and the new
    // pages marked all-visible, so counts are index-only scans (VACUUM skips pages already marked:
    // the cost is the new rows').
    if (counts.importedCount >= VACUUM_AFTER_ROWS) await bulkQuery(deps, 'VACUUM (ANALYZE) imported_contacts', []).catch(() => undefined);
    return done;
  } catch (err) {
    // a worker stopping hands the import on (the job is queued again): nothing is marked failed
    if (err instanceof ImportStopped) return deps.prisma.contactImport.findUnique({ where: { id: importId } });
    const known = asAppError(err);
    const message = known?.message ?? ((err as { userFacing?: boolean }).userFacing ? (err as Error).message : 'The import failed. Nothing was changed; please try again.');
    if (!known && !(err as { userFacing?: boolean }).userFacing) deps.logger.error({ err, importId }, 'contacts import failed');
    return fail(deps, importId, message, counts, log);
  }
}

async function fail(deps: ServiceDeps, importId: string, error: string, counts: object, log: ProblemLog): Promise<ContactImport | null> {
  try {
    await deps.prisma.importedContact.deleteMany({ where: { importId } });
    await deps.prisma.contactImportChunk.deleteMany({ where: { importId } });
    const row = await deps.prisma.contactImport.update({
      where: { id: importId },
      data: { status: 'failed', error, ...counts, problemCount: log.total, problems: log.toJSON() as object, completedAt: deps.now() },
    });
    publishImport(deps, row, true);
    return row;
  } catch (err) {
    // (deleted meanwhile, or the database is gone: a stale "importing" row reads as interrupted)
    deps.logger.warn({ err, importId }, 'could not record a failed contacts import');
    return null;
  }
}
