// Exports: every customer of a stored query or of an unlocked Smart Segment, read from the CRM page by
// page for a CSV file of any size. Stateless: the cursor says where the next page starts (see
// segment-runner.ts fetchSegmentPage), so no server memory or state grows with the export, and any API
// process can serve the next page. A stored query runs its stored segment again now (relative dates
// resolve to today), like a re-run, but stores nothing and uses no quota; a Smart Segment follows the
// download rule (unlocked, generated without error). Both are the owner's only.
import type { User } from '@prisma/client';
import { z } from 'zod';
import { AppError, badInput } from '../errors.js';
import { InvalidCursorError, type CrmConnector, type SegmentPlan } from '../crm/connector.js';
import { segmentSchema } from '../segmentation/index.js';
import { connectorForUser } from './crm.js';
import type { ServiceDeps } from './deps.js';
import { parseQuestion } from './nl-parser.js';
import { getOwnQuery } from './queries.js';
import { countSegment, cursorKindOf, fetchSegmentPage, type RunContext, type SegmentCursor, type SegmentPage } from './segment-runner.js';
import { downloadableSegment } from './smart-segments/user.js';

/** What can be exported: a stored query (CustomerQuery) or a generated Smart Segment (DailySegment). */
export interface ExportSource {
  type: 'CustomerQuery' | 'DailySegment';
  id: string;
}

export const EXPORT_PAGE_DEFAULT = 100;
/** At most one CRM page: a page costs about one CRM request (per search of a HubSpot segment). */
export const EXPORT_PAGE_MAX = 200;

interface OpenedSource {
  connector: CrmConnector;
  plan: SegmentPlan;
  ctx: RunContext;
  /** The count of its last run (query) or of its generation (Smart Segment). */
  lastCount: number;
}

async function openSource(deps: ServiceDeps, user: User, source: ExportSource): Promise<OpenedSource> {
  const ctx = { now: deps.now(), timeZone: deps.config.usageTimeZone };
  if (source.type === 'DailySegment') {
    const { segment, plan } = await downloadableSegment(deps, user, source.id);
    return { connector: await connectorForUser(deps, user), plan, ctx: planContext(plan, ctx), lastCount: segment.customerCount };
  }
  const query = await getOwnQuery(deps, user, source.id);
  const stored = segmentSchema.safeParse(query.segment);
  const segment = stored.success ? stored.data : (await parseQuestion(deps, query.naturalLanguage)).segment;
  const connector = await connectorForUser(deps, user);
  return { connector, plan: connector.compile(segment, ctx), ctx, lastCount: query.resultCount };
}

/** A stored plan's residual dates resolve against the time it was compiled for. */
function planContext(plan: SegmentPlan, ctx: RunContext): RunContext {
  return plan.compiledAt ? { ...ctx, now: new Date(plan.compiledAt) } : ctx;
}

const cursorSchema = z.union([
  z.strictObject({ by: z.literal('native'), at: z.json() }),
  z.strictObject({ by: z.literal('position'), offset: z.number().int().min(0).max(1_000_000) }),
]);

/** Cursors are opaque to clients: base64url of the JSON position. */
export const encodeExportCursor = (cursor: SegmentCursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');

const invalidCursor = () => badInput('Invalid cursor: pass the endCursor of the previous page', 'after');

function decodeCursor(raw: string | null | undefined, plan: SegmentPlan): SegmentCursor | null {
  if (raw === null || raw === undefined || raw === '') return null;
  let parsed: unknown;
  try {
    parsed = raw.length <= 2000 ? JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) : undefined;
  } catch {
    parsed = undefined;
  }
  const cursor = cursorSchema.safeParse(parsed);
  if (!cursor.success || cursor.data.by !== cursorKindOf(plan)) throw invalidCursor();
  return cursor.data as SegmentCursor;
}

export interface ExportPageArgs {
  first?: number | null;
  after?: string | null;
}

/** One page of the export. */
export async function exportPage(deps: ServiceDeps, user: User, source: ExportSource, args: ExportPageArgs): Promise<SegmentPage> {
  const first = args.first ?? EXPORT_PAGE_DEFAULT;
  if (!Number.isInteger(first) || first < 1 || first > EXPORT_PAGE_MAX) throw badInput(`first must be from 1 to ${EXPORT_PAGE_MAX}`, 'first');
  const { connector, plan, ctx } = await openSource(deps, user, source);
  const cursor = decodeCursor(args.after, plan);
  try {
    return await fetchSegmentPage(connector, plan, ctx, { first, cursor });
  } catch (err) {
    // A native cursor the connector does not recognise (another segment's, or made up).
    if (err instanceof InvalidCursorError) throw invalidCursor();
    throw err;
  }
}

/**
 * How many customers the export holds: counted by the CRM now when that is one request; otherwise (a
 * HubSpot segment of several searches, conditions the product evaluates itself) the count of its last
 * run, which needs no CRM reads.
 */
export async function exportTotal(deps: ServiceDeps, user: User, source: ExportSource): Promise<number> {
  const { connector, plan, ctx, lastCount } = await openSource(deps, user, source);
  if (plan.residual || (connector.countCost?.(plan) ?? 1) > 1) return lastCount;
  return countSegment(connector, plan, ctx);
}

/** The source named by a Relay global id's type, or NOT_FOUND (as for an id that does not exist). */
export function exportSource(typename: string, id: string): ExportSource {
  if (typename === 'CustomerQuery' || typename === 'DailySegment') return { type: typename, id };
  throw new AppError('NOT_FOUND', 'Query or Smart Segment not found');
}
