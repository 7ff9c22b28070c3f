// Saved segments: named descriptions a user keeps. They can be run as a query, and are processed
// (daily and on demand): the description goes through the segmentation engine and the customer
// count, or the error, is recorded in processed_segments.
import type { Prisma, ProcessedSegment, Segment as SavedSegment, User } from '@prisma/client';
import { AppError, asAppError } from '../errors.js';
import { connectorForUser } from './crm.js';
import type { ServiceDeps } from './deps.js';
import { parseUnattended } from './nl-parser.js';
import { findOwned } from './owned.js';
import { createQuery, type QueryOutcome } from './queries.js';
import { countSegment } from './segment-runner.js';

export const MAX_DESCRIPTION_LENGTH = 500;

export type SavedSegmentWithLatest = SavedSegment & { latest: ProcessedSegment | null };

/** The user's saved segments, newest first (list arguments for GraphQL and REST alike). */
export function segmentListArgs(user: Pick<User, 'id'>) {
  return { where: { userId: user.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] } satisfies Prisma.SegmentFindManyArgs;
}

/** The latest processing result of a saved segment, selected with it. */
export const latestResultSelect = { orderBy: { processedAt: 'desc' }, take: 1 } satisfies Prisma.Segment$processedArgs;

export async function listSegments(deps: ServiceDeps, user: User): Promise<SavedSegmentWithLatest[]> {
  const rows = await deps.prisma.segment.findMany({ ...segmentListArgs(user), include: { processed: latestResultSelect } });
  return rows.map(({ processed, ...s }) => ({ ...s, latest: processed[0] ?? null }));
}

/** Saves a description as the user's segment (or gives back the one saved with it before). */
export async function createSegment(deps: ServiceDeps, user: User, rawDescription: unknown): Promise<SavedSegment> {
  const description = typeof rawDescription === 'string' ? rawDescription.trim() : '';
  if (!description) throw new AppError('BAD_USER_INPUT', 'Please describe the segment', { field: 'description' });
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new AppError('BAD_USER_INPUT', `The description is too long: at most ${MAX_DESCRIPTION_LENGTH} characters`, { field: 'description' });
  }
  // Saving the same description again (a second click, a second tab) gives back the saved one: one
  // segment per description. The user's lock makes two requests at once see each other.
  return deps.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`segments:${user.id}`}))`;
    const existing = await tx.segment.findFirst({ where: { userId: user.id, description: { equals: description, mode: 'insensitive' } } });
    return existing ?? tx.segment.create({ data: { userId: user.id, description, createdAt: deps.now() } });
  });
}

const ownSegment = (deps: ServiceDeps, user: User, id: string): Promise<SavedSegment> =>
  findOwned((where) => deps.prisma.segment.findFirst({ where }), id, user, 'Segment');

export const MAX_NAME_LENGTH = 100;

export interface SegmentChanges {
  /** A new name; blank removes it (the description is shown again). Undefined/null: unchanged. */
  name?: string | null;
  /** A new description; must be understood in full by the parser. Undefined/null: unchanged. */
  description?: string | null;
}

/**
 * Renames a saved segment and/or edits its description (the owner only: another user's segment is
 * "not found"). Everything is checked before anything is written, so a refusal changes nothing: the
 * name at most 100 characters; the description trimmed, 1 to 500 characters, not the description of
 * another of the user's segments, and understood in full by the parser (a saved segment runs
 * unattended, so a phrase not understood or a contradiction is refused here with the parser's words,
 * rather than turning into a failed count later). A changed description is counted again at once,
 * so the segment's latest count is of what it now says.
 */
export async function updateSegment(deps: ServiceDeps, user: User, id: string, changes: SegmentChanges): Promise<SavedSegment> {
  const segment = await ownSegment(deps, user, id);
  const data: { name?: string | null; description?: string } = {};
  if (changes.name !== undefined && changes.name !== null) {
    if (typeof changes.name !== 'string') throw new AppError('BAD_USER_INPUT', 'The name must be text', { field: 'name' });
    const name = changes.name.trim();
    if (name.length > MAX_NAME_LENGTH) throw new AppError('BAD_USER_INPUT', `The name is too long: at most ${MAX_NAME_LENGTH} characters`, { field: 'name' });
    data.name = name || null;
  }
  if (changes.description !== undefined && changes.description !== null) {
    const description = typeof changes.description === 'string' ? changes.description.trim() : '';
    if (!description) throw new AppError('BAD_USER_INPUT', 'Please describe the segment', { field: 'description' });
    if (description.length > MAX_DESCRIPTION_LENGTH) {
      throw new AppError('BAD_USER_INPUT', `The description is too long: at most ${MAX_DESCRIPTION_LENGTH} characters`, { field: 'description' });
    }
    if (description !== segment.description) {
      try {
        await parseUnattended(deps, description);
      } catch (err) {
        const known = asAppError(err);
        if (known?.code !== 'BAD_USER_INPUT') throw err;
        throw new AppError('BAD_USER_INPUT', known.message, { ...known.options, field: 'description' });
      }
      data.description = description;
    }
  }
  if (!Object.keys(data).length) return segment;
  const updated = await deps.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`segments:${user.id}`}))`;
    if (data.description !== undefined) {
      const twin = await tx.segment.findFirst({
        where: { userId: user.id, id: { not: segment.id }, description: { equals: data.description, mode: 'insensitive' } },
        select: { id: true },
      });
      if (twin) throw new AppError('BAD_USER_INPUT', 'Another of your saved segments already has this description', { field: 'description' });
    }
    return tx.segment.update({ where: { id: segment.id }, data });
  });
  if (data.description !== undefined) await processSegment(deps, user, updated);
  return updated;
}

export async function deleteSegment(deps: ServiceDeps, user: User, id: string): Promise<SavedSegment> {
  const s = await ownSegment(deps, user, id);
  await deps.prisma.segment.delete({ where: { id: s.id } });
  return s;
}

/** Runs the saved segment's description as a chat query (same pipeline, same quota). */
export async function runSegmentAsQuery(deps: ServiceDeps, user: User, id: string): Promise<QueryOutcome> {
  const s = await ownSegment(deps, user, id);
  return createQuery(deps, user, { naturalLanguage: s.description });
}

/** Counts the saved segment's customers now and records the result (or the error). */
export async function processSegment(deps: ServiceDeps, user: User, segment: SavedSegment): Promise<ProcessedSegment> {
  const opts = { now: deps.now(), timeZone: deps.config.usageTimeZone };
  let customerCount = 0;
  let errorMessage: string | null = null;
  try {
    const { segment: ast } = await parseUnattended(deps, segment.description);
    const connector = await connectorForUser(deps, user);
    customerCount = await countSegment(connector, connector.compile(ast, opts), opts);
  } catch (err) {
    const known = asAppError(err);
    if (!known) deps.logger.error({ err, segmentId: segment.id }, 'saved segment processing failed');
    errorMessage = known?.message ?? 'Processing failed unexpectedly';
  }
  return deps.prisma.processedSegment.create({
    data: { userId: user.id, segmentId: segment.id, customerCount, hasError: errorMessage ? 1 : 0, errorMessage, processedAt: deps.now() },
  });
}

export async function processOwnSegment(deps: ServiceDeps, user: User, id: string): Promise<ProcessedSegment> {
  return processSegment(deps, user, await ownSegment(deps, user, id));
}

/** Daily job: processes every saved segment of every active user with a CRM connection. */
export async function processAllSavedSegments(deps: ServiceDeps): Promise<{ processed: number; failed: number }> {
  const segments = await deps.prisma.segment.findMany({
    where: { user: { isBanned: false, integrations: { some: { isRevoked: false } } } },
    include: { user: true },
    orderBy: { createdAt: 'asc' },
  });
  let failed = 0;
  for (const { user, ...segment } of segments) {
    const r = await processSegment(deps, user, segment);
    if (r.hasError) failed++;
  }
  return { processed: segments.length, failed };
}
