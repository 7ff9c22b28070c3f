/**
 * A segment as one CRM will run it: the part the CRM expresses natively (its own query language), and
 * the part the product evaluates itself on the records the native part returns.
 *
 * Connectors build plans with `planSegment`, giving a test of which conditions they can express and a
 * compiler for those. The plan is JSON (stored with a query or a daily segment, so an export or a
 * download runs what the answer ran).
 */
import { isAnd, isCondition, segmentSchema, type Condition, type Segment, type SegmentNode, type SegmentSort } from '../segmentation/ast.js';
import type { CrmType } from './crm-types.js';

export interface SegmentPlan<Q = unknown> {
  crmType: CrmType;
  /** the CRM's own query for the natively expressed part (with the segment's order and cap when `residual` is absent) */
  native: Q;
  /**
   * Conditions the CRM cannot express: the product evaluates them on every record `native` returns
   * (segmentation/evaluate.ts), then orders and caps the survivors itself (`sort`, `limit`).
   */
  residual?: SegmentNode;
  sort?: SegmentSort;
  limit?: number;
  /** the instant relative dates were resolved against (set when there is a residual, so a later run agrees) */
  compiledAt?: string;
}

/** What the CRM can filter on natively. Sorting on any segment sort field is expected of every CRM. */
export type NativeTest = (condition: Condition) => boolean;

function nodeIsNative(node: SegmentNode, test: NativeTest): boolean {
  if (isCondition(node)) return test(node);
  if (isAnd(node)) return node.and.every((n) => nodeIsNative(n, test));
  if ('or' in node) return node.or.every((n) => nodeIsNative(n, test));
  return nodeIsNative(node.not, test);
}

/**
 * Splits a segment where it must be: the conjuncts of its top-level AND that the CRM can express go to
 * the native query, the rest stay with the product. A condition the CRM cannot express inside an OR or a
 * NOT takes the whole OR / NOT with it (the native part may only narrow, never widen or change, the
 * set the product filters).
 */
export function splitSegment(segment: Segment, test: NativeTest): { native: Segment; residual?: SegmentNode } {
  if (!segment.where || nodeIsNative(segment.where, test)) return { native: segment };
  const parts = isAnd(segment.where) ? segment.where.and : [segment.where];
  const native = parts.filter((n) => nodeIsNative(n, test));
  const rest = parts.filter((n) => !nodeIsNative(n, test));
  const where = native.length === 0 ? undefined : native.length === 1 ? native[0] : { and: native };
  return {
    // The product sorts and caps after its own filter, so the native query reads every candidate.
    native: { version: segment.version, ...(where ? { where } : {}) },
    residual: rest.length === 1 ? rest[0] : { and: rest },
  };
}

/** Builds a plan: the native compiler gets the whole segment, or the part it can express. */
export function planSegment<Q>(
  crmType: CrmType,
  segment: Segment,
  ctx: { now: Date },
  test: NativeTest,
  compileNative: (segment: Segment) => Q,
): SegmentPlan<Q> {
  const { native, residual } = splitSegment(segment, test);
  if (!residual) return { crmType, native: compileNative(native) };
  return {
    crmType,
    native: compileNative(native),
    residual,
    ...(segment.sort ? { sort: segment.sort } : {}),
    ...(segment.limit !== undefined ? { limit: segment.limit } : {}),
    compiledAt: ctx.now.toISOString(),
  };
}

/**
 * A plan read back from storage. Rows written before plans carried their CRM hold a compiled HubSpot
 * query as it was (`{ searches, sort?, maxResults? }`): those are HubSpot plans.
 */
export function readStoredPlan(json: unknown): SegmentPlan | null {
  if (!json || typeof json !== 'object') return null;
  const o = json as Record<string, unknown>;
  if (typeof o.crmType === 'string' && 'native' in o) {
    if (o.residual !== undefined && !segmentSchema.safeParse({ version: 1, where: o.residual }).success) return null;
    return o as unknown as SegmentPlan;
  }
  if (Array.isArray(o.searches)) return { crmType: 'hubspot', native: o };
  return null;
}
