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
