// Contacts from a file (issue 27): upload (upload.ts), preview under a mapping (preview.ts), import
// (run.ts, in the jobs worker or this process), undo of the last import, and the file connection's
// connector (connection.ts). Every operation is the owner's only.
import { Prisma, type ContactImport, type User } from '@prisma/client';
import { AppError, notFound } from '../../errors.js';
import { forgetCrmVocabulary } from '../crm-vocabulary.js';
import { findOwned } from '../owned.js';
import type { ServiceDeps } from '../deps.js';
import { checkMapping, parseMapping, type StoredMapping } from './mapping.js';
import { buildPreview, fileRef, openFile, type ImportPreview } from './preview.js';
import { publishImport, runImport, STALE_IMPORT_MS } from './run.js';
import { activeImportOf, deleteImports, undoImport } from './store.js';

export { receiveUpload, MAX_UPLOAD_BYTES } from './upload.js';
export { runImport } from './run.js';
export type { ImportPreview } from './preview.js';

/** The job that runs an import on the workers (jobs/contact-imports.ts). */
export const IMPORT_CONTACTS_JOB = 'import-contacts';

/** An import that says "importing" but has not moved for a while was interrupted (its process stopped). */
export function isInterrupted(deps: ServiceDeps, imp: ContactImport): boolean {
  return imp.status === 'importing' && deps.now().getTime() - imp.updatedAt.getTime() > STALE_IMPORT_MS;
}

export const INTERRUPTED_MESSAGE = 'The import stopped before it finished (the server restarted). Nothing was changed: start it again.';

/** The user's import, as it stands (an interrupted run reads as failed, and may be started again). */
export async function getImport(deps: ServiceDeps, user: Pick<User, 'id'>, id: string): Promise<ContactImport> {
  const imp = await findOwned((where) => deps.prisma.contactImport.findFirst({ where }), id, user, 'Import');
  if (['superseded', 'undone', 'uploading'].includes(imp.status)) throw notFound('Import not found');
  return isInterrupted(deps, imp) ? { ...imp, status: 'failed', error: INTERRUPTED_MESSAGE } : imp;
}

/** The preview of an uploaded file under `mapping` (the guessed or remembered one when absent). */
export async function previewImport(deps: ServiceDeps, user: Pick<User, 'id'>, id: string, mapping?: unknown): Promise<ImportPreview> {
  const imp = await getImport(deps, user, id);
  if (imp.status !== 'uploaded' && !(imp.status === 'failed' && (await hasFile(deps, imp.id)))) {
    throw new AppError('BAD_USER_INPUT', 'This file was already imported. Upload it again to import it again.', { field: 'importId' });
  }
  return buildPreview(deps, imp, mapping === undefined || mapping === null ? null : parseMapping(mapping));
}

async function hasFile(deps: ServiceDeps, importId: string): Promise<boolean> {
  return (await deps.prisma.contactImportChunk.count({ where: { importId }, take: 1 })) > 0;
}

/**
 * Starts importing an uploaded file with the confirmed mapping: the work runs on the jobs workers when
 * the API has separate ones, else in this process; either way the answer comes at once, and progress
 * follows as `contactImportProgress` events (and on the import itself).
 */
export async function startImport(deps: ServiceDeps, user: Pick<User, 'id'>, id: string, rawMapping: unknown): Promise<ContactImport> {
  const imp = await getImport(deps, user, id);
  const restartable = imp.status === 'failed' && imp.error === INTERRUPTED_MESSAGE;
  if (imp.status !== 'uploaded' && !restartable) {
    throw new AppError('BAD_USER_INPUT', imp.status === 'importing' ? 'This file is being imported.' : 'This file was already imported. Upload it again to import it again.', { field: 'importId' });
  }
  const mapping = parseMapping(rawMapping);
  const { headers, rows } = await openFile(deps, fileRef(imp, mapping));
  await rows.return(undefined);
  const blocker = checkMapping(headers, mapping);
  if (blocker) throw new AppError('BAD_USER_INPUT', blocker, { title: 'Missing column', field: 'mapping' });
  const stored: StoredMapping = { headers, mapping };
  let started: ContactImport;
  try {
    started = await deps.prisma.contactImport.update({
      where: { id: imp.id },
      data: {
        status: 'importing', mapping: stored as object, startedAt: deps.now(), error: null, completedAt: null,
        rowCount: 0, importedCount: 0, skippedCount: 0, problemCount: 0, problems: Prisma.DbNull, bytesRead: 0,
      },
    });
  } catch (err) {
    // the partial unique index: one import running per user
    if ((err as { code?: string }).code === 'P2002') throw new AppError('CONFLICT', 'Another file is being imported. Wait until it is done.');
    throw err;
  }
  publishImport(deps, started);
  if (deps.jobs) await deps.jobs.enqueue(IMPORT_CONTACTS_JOB, { importId: imp.id });
  else {
    void runImport(deps, imp.id).catch((err) => deps.logger.error({ err, importId: imp.id }, 'contacts import crashed'));
  }
  return started;
}

/** Drops an uploaded file that was not imported (or whose import failed). */
export async function discardImport(deps: ServiceDeps, user: Pick<User, 'id'>, id: string): Promise<void> {
  const imp = await getImport(deps, user, id);
  if (imp.status !== 'uploaded' && imp.status !== 'failed') {
    throw new AppError('BAD_USER_INPUT', imp.status === 'importing' ? 'This file is being imported.' : 'Imported contacts are removed by undoing the import or disconnecting.');
  }
  await deleteImports(deps, [imp.id]);
}

/** Undoes the user's last import: the contacts before it come back (or, after a first import, the file connection ends). */
export async function undoLastImport(deps: ServiceDeps, user: Pick<User, 'id'>): Promise<ContactImport | null> {
  const undone = await undoImport(deps, user.id);
  if (!undone) throw new AppError('BAD_USER_INPUT', 'There is no import to undo.');
  await deleteImports(deps, [undone]);
  forgetCrmVocabulary(user.id);
  deps.logger.info({ userId: user.id, importId: undone }, 'contacts import undone');
  return activeImportOf(deps.prisma, user.id);
}

/** The user's imports that matter now: the active one, the one undo would restore, and one waiting or running. */
export async function importsOf(deps: ServiceDeps, userId: string): Promise<{ active: ContactImport | null; previous: ContactImport | null; pending: ContactImport | null }> {
  const rows = await deps.prisma.contactImport.findMany({
    where: { userId, status: { in: ['active', 'previous', 'uploaded', 'importing', 'failed'] } },
    orderBy: { createdAt: 'desc' },
  });
  const pending = rows.find((r) => ['uploaded', 'importing', 'failed'].includes(r.status)) ?? null;
  return {
    active: rows.find((r) => r.status === 'active') ?? null,
    previous: rows.find((r) => r.status === 'previous') ?? null,
    pending: pending && isInterrupted(deps, pending) ? { ...pending, status: 'failed', error: INTERRUPTED_MESSAGE } : pending,
  };
}

/** Uploads never imported (or failed) are kept this long for their preview, then removed by daily maintenance. */
export const UPLOAD_KEEP_MS = 24 * 60 * 60_000;

/**
 * Daily maintenance: uploaded files never imported (or whose import failed) after a day, and imports a
 * crash left superseded or undone (normally deleted at once). Returns how many imports were removed.
 */
export async function purgeStaleImports(deps: ServiceDeps): Promise<number> {
  const now = deps.now().getTime();
  const { count } = await deps.prisma.contactImport.deleteMany({
    where: {
      OR: [
        { status: { in: ['uploaded', 'uploading', 'failed'] }, updatedAt: { lt: new Date(now - UPLOAD_KEEP_MS) } },
        { status: { in: ['superseded', 'undone'] }, updatedAt: { lt: new Date(now - STALE_IMPORT_MS) } },
      ],
    },
  });
  return count;
}
