/**
 * A connector over records held in memory, for tests of the seam: it "expresses natively" only the
 * conditions `native` accepts, so the product must evaluate the rest (the plan's residual). Its native
 * side is the record evaluator itself, paged by position.
 */
import type { Condition, Segment } from '../../segmentation/ast.js';
import { compileRecordEvaluator } from '../../segmentation/evaluate.js';
import { InvalidCursorError, type CompileContext, type CrmConnector, type NativeCursor, type ReadOptions, type RecordPage } from '../connector.js';
import type { FieldMap } from '../field-map.js';
import { HUBSPOT_FIELD_MAP } from '../hubspot/field-map.js';
import { planSegment, type SegmentPlan } from '../plan.js';
import { sortRecords, type CrmRecord } from '../record.js';

interface MemoryQuery {
  segment: Segment;
  now: string;
  timeZone: string;
}

export class MemoryConnector implements CrmConnector {
  readonly crmType = 'other' as const;
  readonly fieldMap: FieldMap = HUBSPOT_FIELD_MAP;
  requests = 0;

  constructor(
    private readonly records: readonly CrmRecord[],
    private readonly native: (c: Condition) => boolean = () => true,
  ) {}

  compile(segment: Segment, ctx: CompileContext): SegmentPlan<MemoryQuery> {
    return planSegment('other', segment, ctx, this.native, (s) => ({ segment: s, now: ctx.now.toISOString(), timeZone: ctx.timeZone }));
  }

  private run(plan: SegmentPlan): CrmRecord[] {
    this.requests++;
    const q = plan.native as MemoryQuery;
    const keep = compileRecordEvaluator(q.segment.where, { now: Date.parse(q.now), timeZone: q.timeZone });
    const out = sortRecords(this.records.filter(keep), q.segment.sort);
    return q.segment.limit !== undefined ? out.slice(0, q.segment.limit) : out;
  }

  async count(plan: SegmentPlan): Promise<number> {
    return this.run(plan).length;
  }

  async *read(plan: SegmentPlan, options: ReadOptions = {}): AsyncIterable<CrmRecord> {
    const all = this.run(plan);
    options.onTotal?.(all.length);
    yield* all.slice(0, options.limit);
  }

  async readPage(plan: SegmentPlan, options: { first: number; cursor: NativeCursor | null }): Promise<RecordPage> {
    const at = options.cursor ?? 0;
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0) throw new InvalidCursorError('not a cursor of this connector');
    const all = this.run(plan);
    const slice = all.slice(at, at + options.first);
    return { records: slice.map((record, i) => ({ record, cursor: at + i + 1 })), next: at + slice.length < all.length ? at + slice.length : null };
  }

  async describeFields() {
    return [];
  }

  async verifyCredentials() {
    return { accountId: 'memory', scopes: [], tokenType: 'pat' as const };
  }
}
