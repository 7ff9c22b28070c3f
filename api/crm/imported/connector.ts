/**
 * The connector over a user's imported contacts (the "Other" CRM, and anyone's contacts file): segments
 * compile to SQL over `imported_contacts` in the product's own database (query.ts → sql.ts). Every
 * condition is native, so a plan never has a residual; counts are exact (`count(*)`), reads and pages
 * are keyset pages in the product's result order, and nothing is held between pages.
 */
import { z } from 'zod';
import { InvalidCursorError, type CompileContext, type CrmConnector, type CrmCredentialsInfo, type NativeCursor, type ReadOptions, type RecordPage, type VocabularyField } from '../connector.js';
import { CrmError } from '../errors.js';
import type { CrmFieldDescription, FieldMap } from '../field-map.js';
import type { LifecycleStage, LifecycleValue } from '../hubspot/model/index.js';
import { planSegment, type SegmentPlan } from '../plan.js';
import type { CrmRecord } from '../record.js';
import type { Segment } from '../../segmentation/ast.js';
import { compileImportedQuery, importedQuerySchema, type ImportedQuery } from './query.js';
import { pageSql, Params, predicateSql, RECORD_COLUMNS, sortKeySelect, type KeysetPosition } from './sql.js';

/** Runs one parameterized statement and returns its rows (Prisma's $queryRawUnsafe, or a pg client in tests). */
export type SqlRunner = <T = Record<string, unknown>>(sql: string, params: unknown[]) => Promise<T[]>;

/** What the connector reads: one import of one user. */
export interface ImportedContactsSource {
  importId: string;
  /** the import's columns as the field map names them (customer field → the file's column) and its stage map */
  fieldMap: FieldMap;
  /** the file's mapped columns, for describeFields */
  fields: CrmFieldDescription[];
}

/** Rows per statement when a whole segment is read. */
const READ_PAGE = 1000;

interface Row {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  company: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  stage: string | null;
  lifecycle_stage: string;
  last_purchase_at: number | null;
  last_purchase_amount: number | null;
  lifetime_value: number | null;
  created_at: number | null;
  id_num: number | null;
  sort_key: number | string | null;
}

type Part = 'withKey' | 'withoutKey' | 'all';

const positionSchema = z.strictObject({
  hasKey: z.boolean(),
  key: z.union([z.number(), z.string(), z.null()]),
  idNum: z.number().nullable(),
  id: z.string().max(1000),
});
const cursorSchema = z.strictObject({
  part: z.enum(['withKey', 'withoutKey', 'all']),
  after: positionSchema.nullable(),
  /** records of the order before this position (a capped segment stops at its limit) */
  n: z.number().int().min(0),
});
type Cursor = z.infer<typeof cursorSchema>;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toRecord(r: Row): CrmRecord {
  return {
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    company: r.company,
    stage: r.stage as LifecycleValue | null,
    lifecycleStage: r.lifecycle_stage as LifecycleStage,
    lastPurchaseAt: num(r.last_purchase_at),
    lastPurchaseAmount: num(r.last_purchase_amount),
    lifetimeValue: num(r.lifetime_value),
    city: r.city,
    state: r.state,
    country: r.country,
    createdAt: num(r.created_at),
  };
}

function positionOf(r: Row): KeysetPosition {
  const key = r.sort_key === null || r.sort_key === undefined ? null : typeof r.sort_key === 'string' ? r.sort_key : Number(r.sort_key);
  return { hasKey: key !== null, key, idNum: num(r.id_num), id: r.id };
}

const VOCABULARY_SQL: Record<VocabularyField, string> = {
  company: 'company',
  city: 'city',
  state: 'state',
  country: 'country',
  emailDomain: 'email_domain_key',
};

export class ImportedContactsConnector implements CrmConnector {
  readonly crmType = 'other' as const;
  readonly fieldMap: FieldMap;

  constructor(
    private readonly sql: SqlRunner,
    private readonly source: ImportedContactsSource,
  ) {
    this.fieldMap = source.fieldMap;
  }

  compile(segment: Segment, ctx: CompileContext): SegmentPlan<ImportedQuery> {
    // Everything a segment says is native here: the plan is the whole segment as a query.
    return planSegment('other', segment, ctx, () => true, (s) => compileImportedQuery(s, ctx));
  }

  /** The plan's query, or a clear refusal for a plan made for another CRM connection. */
  private queryOf(plan: SegmentPlan): ImportedQuery {
    const parsed = plan.crmType === this.crmType && !plan.residual ? importedQuerySchema.safeParse(plan.native) : null;
    if (!parsed?.success) {
      throw new CrmError(
        'VALIDATION',
        'This segment was prepared for another CRM connection than your imported contacts. Run the question again to search them.',
        { category: 'PLAN_OF_ANOTHER_CONNECTION' },
      );
    }
    return parsed.data;
  }

  private filter(query: ImportedQuery, params: Params): string {
    return `import_id = ${params.add(this.source.importId, 'uuid')} AND ${predicateSql(query.where, params)}`;
  }

  async count(plan: SegmentPlan): Promise<number> {
    const query = this.queryOf(plan);
    const params = new Params();
    const [row] = await this.sql<{ n: number }>(`SELECT count(*)::int AS n FROM imported_contacts WHERE ${this.filter(query, params)}`, params.values);
    const n = Number(row?.n ?? 0);
    return query.limit !== undefined ? Math.min(n, query.limit) : n;
  }

  /** At most `limit` rows of one part of the order, after `after`. */
  private async fetchPart(query: ImportedQuery, part: Part, after: KeysetPosition | null, limit: number): Promise<Row[]> {
    if (limit <= 0) return [];
    const params = new Params();
    const page = pageSql(query, after, part, params, this.filter(query, params));
    return this.sql<Row>(
      `SELECT ${RECORD_COLUMNS}, ${sortKeySelect(query.sort)} FROM imported_contacts WHERE ${page.where} ORDER BY ${page.orderBy} LIMIT ${params.add(limit, 'int')}`,
      params.values,
    );
  }

  /**
   * Up to `want` rows in the plan's order from `cursor` on, crossing from the contacts that have the sort
   * value to those that do not; each with the cursor that resumes after it.
   */
  private async rowsFrom(query: ImportedQuery, cursor: Cursor, want: number): Promise<{ row: Row; cursor: Cursor }[]> {
    const out: { row: Row; cursor: Cursor }[] = [];
    let { part, after } = cursor;
    let n = cursor.n;
    for (;;) {
      const rows = await this.fetchPart(query, part, after, want - out.length);
      for (const row of rows) {
        after = positionOf(row);
        out.push({ row, cursor: { part, after, n: ++n } });
      }
      if (out.length >= want || part !== 'withKey') return out;
      part = 'withoutKey';
      after = null;
    }
  }

  async *read(plan: SegmentPlan, options: ReadOptions = {}): AsyncIterable<CrmRecord> {
    const query = this.queryOf(plan);
    // the count runs next to the first page (two connections on PostgreSQL; one after the other on the embedded default)
    let total: Promise<number> | null = options.onTotal ? this.count(plan) : null;
    total?.catch(() => undefined);
    const cap = Math.min(query.limit ?? Number.POSITIVE_INFINITY, options.limit ?? Number.POSITIVE_INFINITY);
    let cursor: Cursor = { part: query.sort ? 'withKey' : 'all', after: null, n: 0 };
    while (cursor.n < cap && !options.signal?.aborted) {
      const want = Math.min(READ_PAGE, cap - cursor.n);
      const rows = await this.rowsFrom(query, cursor, want);
      if (total) {
        options.onTotal!(await total);
        total = null;
      }
      for (const r of rows) yield toRecord(r.row);
      if (rows.length < want) return;
      cursor = rows[rows.length - 1].cursor;
    }
    if (total) options.onTotal!(await total);
  }

  async readPage(plan: SegmentPlan, options: { first: number; cursor: NativeCursor | null }): Promise<RecordPage> {
    const query = this.queryOf(plan);
    let cursor: Cursor = { part: query.sort ? 'withKey' : 'all', after: null, n: 0 };
    if (options.cursor !== null && options.cursor !== undefined) {
      const parsed = cursorSchema.safeParse(options.cursor);
      if (!parsed.success || (parsed.data.part === 'all') !== !query.sort) throw new InvalidCursorError('not a cursor of this segment');
      cursor = parsed.data;
    }
    const cap = query.limit ?? Number.POSITIVE_INFINITY;
    const first = Math.max(1, Math.floor(options.first));
    // one more than asked tells whether there is a next page
    const rows = await this.rowsFrom(query, cursor, Math.min(first + 1, cap - cursor.n));
    const page = rows.slice(0, first);
    const more = rows.length > first;
    return {
      records: page.map((r) => ({ record: toRecord(r.row), cursor: r.cursor })),
      next: more && page.length ? page[page.length - 1].cursor : null,
    };
  }

  async describeFields(): Promise<CrmFieldDescription[]> {
    return this.source.fields;
  }

  async listValues(field: VocabularyField, options: { maxRecords?: number } = {}): Promise<string[]> {
    const params = new Params();
    const expr = VOCABULARY_SQL[field];
    const sample = options.maxRecords ? ` LIMIT ${params.add(options.maxRecords, 'int')}` : '';
    const rows = await this.sql<{ v: string }>(
      `SELECT v FROM (SELECT ${expr} AS v FROM imported_contacts WHERE import_id = ${params.add(this.source.importId, 'uuid')}${sample}) s
       WHERE v IS NOT NULL GROUP BY v ORDER BY count(*) DESC, v COLLATE "C"`,
      params.values,
    );
    return rows.map((r) => r.v);
  }

  async verifyCredentials(): Promise<CrmCredentialsInfo> {
    return { accountId: `import:${this.source.importId}`, scopes: [], tokenType: 'pat' };
  }
}
