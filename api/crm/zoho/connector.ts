/**
 * Zoho CRM implementation of the CRM connector: COQL over Leads and Contacts (compile.ts), purchases
 * from each contact's won Deals (records.ts), every call through the shared call policy and the org's
 * budget (api.ts, budget.ts).
 *
 * Reading: each module's query is read in pages of 2,000 (COQL's maximum) and the two are merged in the
 * product's order (they share one id space):
 *  - by id (no sort): keyset pages (`id > last`), so any number of records is read, each once;
 *  - by a field both modules hold: Zoho sorts (`order by F, id`), records without a value read after
 *    the others by id (the product's order; COQL would put them first), by offset within COQL's
 *    100,000-record window;
 *  - by a derived purchase field: every record is read, then sorted here.
 * Contacts' purchases come from their won deals: for a few contacts with `Contact_Name in (…)`, for many
 * from one read of every won deal (whichever takes fewer calls).
 */
import type { Segment } from '../../segmentation/ast.js';
import { CallPolicy } from '../call-policy.js';
import {
  InvalidCursorError, type CompileContext, type CrmConnector, type CrmConnectorOptions, type CrmCredentialsInfo, type NativeCursor,
  type ReadOptions, type RecordPage, type VocabularyField,
} from '../connector.js';
import { CrmError } from '../errors.js';
import type { CrmFieldDescription, FieldMap } from '../field-map.js';
import type { SegmentPlan } from '../plan.js';
import { compareRecords, sortRecords, type CrmRecord } from '../record.js';
import { ZohoApi, isExpiredZohoToken, toZohoCrmError, type ZohoFieldMeta } from './api.js';
import { zohoBudgetFor, type ZohoBudget } from './budget.js';
import { compileZohoPlan, type ZohoModuleQuery, type ZohoNativeQuery } from './compile.js';
import { DERIVED_FIELDS, fieldIn, isDerived, WON_DEAL_STAGE, ZOHO_FIELD_MAP, type ZohoPersonModule } from './field-map.js';
import { addDeal, instant, needsDeals, selectColumns, zohoRecord, type Purchases } from './records.js';

export const PAGE = 2000;
const OFFSET_WINDOW = 100_000;
/** Up to this many contacts, their deals are read by id (`in` lists of 50) rather than every won deal. */
const DEALS_BY_ID_MAX = 100;
const DEALS_BY_ID_PAGE = 200;

export interface ZohoConnectorOptions extends CrmConnectorOptions {
  /** the org's API domain (`https://www.zohoapis.eu`, or the sandbox's `…/zoho-sandbox/api/us`) */
  baseUrl: string;
  /** calls in flight at once for the org, across processes (default 5) */
  concurrency?: number;
  /** Redis shared by the product's processes: the org's credits and concurrency are shared there */
  redisUrl?: string;
  /** the org's budget (default: this process's, see budget.ts) */
  budget?: ZohoBudget;
  maxAttempts?: number;
}

type Stream = AsyncGenerator<{ module: ZohoPersonModule; row: Record<string, unknown> }>;

export class ZohoConnector implements CrmConnector {
  readonly crmType = 'zoho' as const;
  readonly fieldMap: FieldMap;
  readonly api: ZohoApi;
  private readonly budget: ZohoBudget;
  private account: Promise<CrmCredentialsInfo> | null = null;

  constructor(private readonly options: ZohoConnectorOptions) {
    this.fieldMap = options.fieldMap ?? ZOHO_FIELD_MAP;
    const apiDomain = options.baseUrl.replace(/\/+$/, '');
    this.budget = options.budget ?? zohoBudgetFor(options.accountId ?? apiDomain, { concurrency: options.concurrency, redisUrl: options.redisUrl });
    const policy = new CallPolicy({
      crmName: 'Zoho',
      toCrmError: toZohoCrmError,
      isExpiredToken: isExpiredZohoToken,
      maxAttempts: options.maxAttempts,
      baseBackoffMs: options.baseBackoffMs,
      requestTimeoutMs: options.requestTimeoutMs,
      retryDeadlineMs: options.retryDeadlineMs,
    });
    this.api = new ZohoApi({ apiDomain, getAccessToken: options.getAccessToken, policy, budget: this.budget });
  }

  compile(segment: Segment, ctx: CompileContext): SegmentPlan<ZohoNativeQuery> {
    return compileZohoPlan(segment, ctx, this.fieldMap);
  }

  private native(plan: SegmentPlan): ZohoNativeQuery {
    const n = plan.native as ZohoNativeQuery;
    if (!n || !Array.isArray(n.queries)) throw new CrmError('VALIDATION', 'This search was prepared for another CRM; ask it again.');
    return n;
  }

  async count(plan: SegmentPlan): Promise<number> {
    const native = this.native(plan);
    let total = 0;
    for (const q of native.queries) {
      const page = await this.api.coql(`select COUNT(id) from ${q.module} where ${q.where}`, 1);
      total += Number(page.data[0]?.['COUNT(id)'] ?? 0);
    }
    return native.limit !== undefined ? Math.min(total, native.limit) : total;
  }

  countCost(plan: SegmentPlan): number {
    return this.native(plan).queries.length;
  }

  // ------------------------------------------------------------------------------------------------
  // Reading

  /** The sort field as each module holds it, or null when Zoho cannot sort on it (derived, missing). */
  private sortField(native: ZohoNativeQuery): Partial<Record<ZohoPersonModule, string>> | null {
    if (!native.sort) return null;
    const mapped = this.fieldMap.fields[sortMapped(native.sort.field)];
    const out: Partial<Record<ZohoPersonModule, string>> = {};
    for (const q of native.queries) {
      const name = fieldIn(q.module, mapped);
      if (name === null || isDerived(name)) return null;
      out[q.module] = name;
    }
    return out;
  }

  /** One module's rows by id, from after `after`, in pages of `PAGE`. */
  private async *byId(q: ZohoModuleQuery, after: string | null, pageSize = PAGE): Stream {
    const cols = selectColumns(q.module, this.fieldMap).join(', ');
    let last = after;
    for (;;) {
      const where = last ? `(${q.where} and id > '${last}')` : q.where;
      const page = await this.api.coql(`select ${cols} from ${q.module} where ${where} order by id asc limit ${pageSize}`, pageSize);
      for (const row of page.data) yield { module: q.module, row };
      if (!page.more || page.data.length === 0) return;
      last = String(page.data[page.data.length - 1].id);
    }
  }

  /** One module's rows in the sort's order: those with a value (Zoho sorts), then those without, by id. */
  private async *bySort(q: ZohoModuleQuery, field: string, desc: boolean, start: { phase: 0 | 1; offset: number }, pageSize = PAGE): Stream {
    const cols = selectColumns(q.module, this.fieldMap).join(', ');
    const dir = desc ? 'desc' : 'asc';
    let { phase, offset } = start;
    while (phase < 2) {
      const where = phase === 0 ? `(${q.where} and ${field} is not null)` : `(${q.where} and ${field} is null)`;
      const order = phase === 0 ? `order by ${field} ${dir}, id ${dir}` : 'order by id asc';
      if (offset + pageSize > OFFSET_WINDOW) {
        throw new CrmError('VALIDATION', `Zoho returns sorted results only within its first ${OFFSET_WINDOW.toLocaleString('en-US')} records; narrow the search or drop the sort.`);
      }
      const page = await this.api.coql(`select ${cols} from ${q.module} where ${where} ${order} limit ${offset}, ${pageSize}`, pageSize);
      for (const row of page.data) yield { module: q.module, row };
      offset += page.data.length;
      if (!page.more || page.data.length === 0) {
        phase = (phase + 1) as 0 | 1;
        offset = 0;
      }
    }
  }

  /** Purchases of the given contacts, from their won deals. */
  async purchasesOf(contactIds: string[], all?: { map: Map<string, Purchases> | null }): Promise<Map<string, Purchases>> {
    if (contactIds.length === 0) return new Map();
    if (contactIds.length > DEALS_BY_ID_MAX || all?.map) {
      if (all && !all.map) all.map = await this.allPurchases();
      return all?.map ?? this.allPurchases();
    }
    const out = new Map<string, Purchases>();
    for (let i = 0; i < contactIds.length; i += 50) {
      const ids = contactIds.slice(i, i + 50).map((id) => `'${id}'`).join(', ');
      let last: string | null = null;
      for (;;) {
        const where = `((Stage = '${WON_DEAL_STAGE}' and Contact_Name in (${ids}))${last ? ` and id > '${last}'` : ''})`;
        // 50 contacts rarely have 200 won deals: LIMIT 200 costs 1 credit where 2,000 costs 3.
        const page = await this.api.coql(`select Contact_Name, Amount, Closing_Date from Deals where ${where} order by id asc limit ${DEALS_BY_ID_PAGE}`, DEALS_BY_ID_PAGE);
        for (const d of page.data) foldDeal(out, d);
        if (!page.more || page.data.length === 0) break;
        last = String(page.data[page.data.length - 1].id);
      }
    }
    return out;
  }

  /** Every contact's purchases, from one read of every won deal. */
  async allPurchases(): Promise<Map<string, Purchases>> {
    const out = new Map<string, Purchases>();
    let last: string | null = null;
    for (;;) {
      const where = last ? `(Stage = '${WON_DEAL_STAGE}' and id > '${last}')` : `Stage = '${WON_DEAL_STAGE}'`;
      const page = await this.api.coql(`select Contact_Name, Amount, Closing_Date from Deals where ${where} order by id asc limit ${PAGE}`, PAGE);
      for (const d of page.data) foldDeal(out, d);
      if (!page.more || page.data.length === 0) return out;
      last = String(page.data[page.data.length - 1].id);
    }
  }

  /** Rows → records, joining contacts' purchases batch by batch (`batchSize`: no more rows are read ahead). */
  private async *records(rows: Stream, signal?: AbortSignal, batchSize = PAGE): AsyncGenerator<{ record: CrmRecord; module: ZohoPersonModule }> {
    const all = { map: null as Map<string, Purchases> | null };
    let batch: { module: ZohoPersonModule; row: Record<string, unknown> }[] = [];
    const flush = async function* (this: ZohoConnector) {
      const contacts = batch.filter((b) => needsDeals(b.module, this.fieldMap)).map((b) => String(b.row.id));
      const purchases = await this.purchasesOf(contacts, all);
      for (const b of batch) yield { record: zohoRecord(b.module, b.row, this.fieldMap, purchases.get(String(b.row.id))), module: b.module };
      batch = [];
    }.bind(this);
    for await (const r of rows) {
      signal?.throwIfAborted();
      batch.push(r);
      if (batch.length >= batchSize) yield* flush();
    }
    if (batch.length) yield* flush();
  }

  async *read(plan: SegmentPlan, options: ReadOptions = {}): AsyncGenerator<CrmRecord> {
    const native = this.native(plan);
    const cap = Math.min(options.limit ?? Infinity, native.limit ?? Infinity);
    if (options.onTotal) options.onTotal(await this.count(plan));
    if (native.queries.length === 0 || cap <= 0) return;
    const sortField = this.sortField(native);
    if (native.sort && !sortField) {
      // Derived sort field: every record, sorted here.
      const all: CrmRecord[] = [];
      for await (const { record } of this.records(mergeStreams(native.queries.map((q) => this.byId(q, null)), idOrder), options.signal)) all.push(record);
      yield* sortRecords(all, native.sort).slice(0, Number.isFinite(cap) ? cap : undefined);
      return;
    }
    const pageSize = Number.isFinite(cap) ? Math.max(1, Math.min(PAGE, cap)) : PAGE;
    const streams = native.queries.map((q) =>
      sortField && native.sort ? this.bySort(q, sortField[q.module]!, native.sort.direction === 'desc', { phase: 0, offset: 0 }, pageSize) : this.byId(q, null, pageSize),
    );
    const order = native.sort ? rowOrder(native.sort, sortField!) : idOrder;
    let n = 0;
    for await (const { record } of this.records(mergeStreams(streams, order), options.signal, pageSize)) {
      if (n++ >= cap) return;
      yield record;
    }
  }

  /**
   * One page. The cursor is JSON: by id `{ after, taken }` (the last id returned); sorted by a field,
   * each module's phase and offset; sorted by a derived field, a position in the whole sorted list.
   */
  async readPage(plan: SegmentPlan, options: { first: number; cursor: NativeCursor | null }): Promise<RecordPage> {
    const native = this.native(plan);
    const cursor = (options.cursor ?? {}) as { after?: string | null; taken?: number; pos?: Record<string, [0 | 1, number]>; index?: number };
    if (typeof cursor !== 'object' || Array.isArray(cursor)) throw new InvalidCursorError('Not a Zoho cursor');
    const taken = cursor.taken ?? 0;
    const cap = native.limit ?? Infinity;
    const first = Math.max(0, Math.min(options.first, cap - taken));
    if (native.queries.length === 0 || first === 0) return { records: [], next: null };
    const sortField = this.sortField(native);

    if (native.sort && !sortField) {
      const all: CrmRecord[] = [];
      for await (const r of this.read({ ...plan, native: { ...native, limit: undefined } } as SegmentPlan)) all.push(r);
      sortRecords(all, native.sort);
      const start = cursor.index ?? 0;
      const slice = all.slice(start, Math.min(start + first, Number.isFinite(cap) ? cap : all.length));
      const records = slice.map((record, i) => ({ record, cursor: { index: start + i + 1, taken: taken + i + 1 } }));
      const end = start + slice.length;
      return { records, next: end < all.length && taken + slice.length < cap ? { index: end, taken: taken + slice.length } : null };
    }

    const size = Math.min(PAGE, first + 1);
    if (!native.sort) {
      const after = cursor.after ?? null;
      const streams = native.queries.map((q) => this.byId(q, after, size));
      const out: RecordPage['records'] = [];
      let more = false;
      for await (const { record } of this.records(take(mergeStreams(streams, idOrder), first + 1))) {
        if (out.length === first) {
          more = true;
          break;
        }
        out.push({ record, cursor: { after: record.id, taken: taken + out.length + 1 } });
      }
      const last = out.at(-1)?.cursor ?? null;
      return { records: out, next: more && taken + out.length < cap ? last : null };
    }

    // Sorted by a field both modules hold: per-module positions.
    const pos: Record<string, [0 | 1, number]> = { ...(cursor.pos ?? {}) };
    const desc = native.sort.direction === 'desc';
    const streams = native.queries.map((q) => {
      const [phase, offset] = pos[q.module] ?? [0, 0];
      return this.bySort(q, sortField![q.module]!, desc, { phase, offset }, size);
    });
    const out: RecordPage['records'] = [];
    let more = false;
    for await (const { record, module } of this.records(take(mergeStreams(streams, rowOrder(native.sort, sortField!)), first + 1))) {
      if (out.length === first) {
        more = true;
        break;
      }
      const [phase, offset] = pos[module] ?? [0, 0];
      const hasValue = record[sortKeyField(native.sort.field)] !== null;
      pos[module] = phase === 0 && !hasValue ? [1, 1] : [phase, offset + 1];
      out.push({ record, cursor: { pos: { ...pos }, taken: taken + out.length + 1 } });
    }
    const last = out.at(-1)?.cursor ?? null;
    return { records: out, next: more && taken + out.length < cap ? last : null };
  }

  // ------------------------------------------------------------------------------------------------
  // Fields, values, credentials

  async describeFields(): Promise<CrmFieldDescription[]> {
    const stageField = this.fieldMap.fields.lifecycleStage;
    const kind = (f: ZohoFieldMeta): CrmFieldDescription['kind'] =>
      f.api_name === stageField ? 'stage'
      : f.data_type === 'currency' || f.data_type === 'double' || f.data_type === 'integer' || f.data_type === 'bigint' || f.data_type === 'decimal' ? (f.api_name === 'id' ? 'other' : 'number')
      : f.data_type === 'date' || f.data_type === 'datetime' ? 'date'
      : f.data_type === 'text' || f.data_type === 'email' || f.data_type === 'picklist' || f.data_type === 'website' || f.data_type === 'phone' ? 'text'
      : 'other';
    const fields = await this.api.fields('Contacts');
    const out: CrmFieldDescription[] = fields.map((f) => ({
      name: f.api_name,
      label: f.field_label,
      kind: kind(f),
      ...(f.tooltip?.value ? { description: f.tooltip.value } : {}),
      ...(f.pick_list_values?.length ? { options: f.pick_list_values.map((o) => ({ value: o.actual_value, label: o.display_value })) } : {}),
    }));
    // The account's name is read through the Account_Name lookup.
    out.push({ name: 'Account_Name.Account_Name', label: 'Account Name (company)', kind: 'text', description: "The name of the contact's account; a lead's Company." });
    out.push(
      { name: DERIVED_FIELDS.lastPurchaseDate, label: 'Last won deal: closing date', kind: 'date', derived: true, description: `Closing date of the contact's latest deal at stage ${WON_DEAL_STAGE}.` },
      { name: DERIVED_FIELDS.lastPurchaseAmount, label: 'Last won deal: amount', kind: 'number', derived: true, description: `Amount of the contact's latest deal at stage ${WON_DEAL_STAGE}.` },
      { name: DERIVED_FIELDS.lifetimeValue, label: 'Won deals: total amount', kind: 'number', derived: true, description: `Sum of the amounts of the contact's deals at stage ${WON_DEAL_STAGE}.` },
    );
    return out;
  }

  async listValues(field: VocabularyField, options: { maxRecords?: number } = {}): Promise<string[]> {
    const mapped = field === 'emailDomain' ? this.fieldMap.fields.email : this.fieldMap.fields[field];
    const counts = new Map<string, { value: string; n: number }>();
    const max = options.maxRecords ?? 3000;
    let read = 0;
    for (const module of ['Contacts', 'Leads'] as const) {
      const name = fieldIn(module, mapped);
      if (!name || isDerived(name) || read >= max) continue;
      const limit = Math.min(PAGE, max - read);
      const page = await this.api.coql(`select ${name} from ${module} where ${name} is not null order by id desc limit ${limit}`, limit);
      for (const row of page.data) {
        read++;
        let v = String(row[name] ?? '').trim();
        if (field === 'emailDomain') v = v.includes('@') ? v.slice(v.lastIndexOf('@') + 1).toLowerCase() : '';
        if (!v) continue;
        const k = v.toLowerCase();
        const c = counts.get(k);
        if (c) c.n++;
        else counts.set(k, { value: v, n: 1 });
      }
    }
    return [...counts.values()].sort((a, b) => b.n - a.n || a.value.localeCompare(b.value)).map((c) => c.value);
  }

  verifyCredentials(): Promise<CrmCredentialsInfo> {
    this.account ??= (async () => {
      const org = await this.api.org();
      const user = await this.api.currentUser().catch(() => null);
      return {
        accountId: String(org.zgid ?? org.id),
        scopes: [],
        tokenType: 'oauth' as const,
        ...(org.company_name ? { accountName: org.company_name } : {}),
        ...(user?.email ? { user: user.email } : {}),
      };
    })();
    this.account.catch(() => (this.account = null));
    return this.account;
  }

  /** The day's API credits as Zoho last reported them (null before the first call). */
  credits() {
    return this.budget.credits();
  }
}

// ---------------------------------------------------------------------------------------------------

function foldDeal(out: Map<string, Purchases>, d: Record<string, unknown>) {
  const contact = (d.Contact_Name as { id?: string } | null)?.id;
  if (!contact) return;
  const amount = d.Amount === null || d.Amount === undefined ? null : Number(d.Amount);
  const next = addDeal(out.get(contact), { id: String(d.id), closedAt: instant(d.Closing_Date), amount: Number.isFinite(amount) ? amount : null });
  if (next) out.set(contact, next);
}

type Row = { module: ZohoPersonModule; row: Record<string, unknown> };
type RowCompare = (a: Row, b: Row) => number;

/** Ids of one length compare as text (Zoho's are 19 digits); shorter first. */
function compareIdText(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
const idOrder: RowCompare = (a, b) => compareIdText(String(a.row.id), String(b.row.id));

const SORT_MAPPED = {
  lifetimeValue: 'lifetimeValue', lastPurchaseAmount: 'lastPurchaseAmount', lastPurchaseDate: 'lastPurchaseDate', createdAt: 'createdAt',
  firstName: 'firstName', lastName: 'lastName', company: 'company', email: 'email', city: 'city', state: 'state', country: 'country',
} as const;
function sortMapped(field: keyof typeof SORT_MAPPED) {
  return SORT_MAPPED[field];
}
function sortKeyField(field: keyof typeof SORT_MAPPED): keyof CrmRecord {
  return field === 'lastPurchaseDate' ? 'lastPurchaseAt' : field;
}

/** The product's order on raw rows of a field both modules hold (records.ts reads the same values). */
function rowOrder(sort: NonNullable<ZohoNativeQuery['sort']>, fields: Partial<Record<ZohoPersonModule, string>>): RowCompare {
  const cmp = compareRecords(sort);
  const key = sortKeyField(sort.field);
  const probe = (r: Row) => {
    const v = r.row[fields[r.module]!];
    const raw = v === null || v === undefined || v === '' ? null : typeof v === 'object' ? String((v as { name?: unknown }).name ?? '') : v;
    const value = raw === null ? null : key === 'createdAt' || key === 'lastPurchaseAt' ? instant(raw) : typeof raw === 'number' ? raw : String(raw).trim() || null;
    return { id: String(r.row.id), [key]: value } as unknown as CrmRecord;
  };
  return (a, b) => cmp(probe(a), probe(b));
}

/** Merges streams each already in `order` into one. */
async function* mergeStreams(streams: Stream[], order: RowCompare): Stream {
  const heads = await Promise.all(streams.map((s) => s.next()));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      if (heads[i].done) continue;
      if (best < 0 || order(heads[i].value as Row, heads[best].value as Row) < 0) best = i;
    }
    if (best < 0) return;
    yield heads[best].value as Row;
    heads[best] = await streams[best].next();
  }
}

async function* take(stream: Stream, n: number): Stream {
  if (n <= 0) return;
  let i = 0;
  for await (const r of stream) {
    yield r;
    if (++i >= n) return;
  }
}
