/**
 * The sandbox company's records and what the routes ask of them: lookups between persons,
 * organizations and deals, the filters users (and the connector) create, their evaluation (memoised
 * per filter revision) and v2 list paging with opaque cursors over a stable order.
 */
import type { FilterConditions, FilterType, PipedriveFilter, V2SortField } from '../pipedrive/model/index.js';
import { compileDealFilter, compileOrgFilter, compilePeopleFilter, localDate, type EvaluationContext } from './conditions.js';
import type { PdCompanyData, PdDeal, PdOrganization, PdPerson } from './data.js';
import { buildFields, type CompanyFields, type FieldLookup } from './fields.js';

export interface StoredFilter {
  id: number;
  name: string;
  type: FilterType;
  conditions: FilterConditions;
  user_id: number;
  visible_to: string;
  add_time: number;
  update_time: number;
  last_used_time: number | null;
  active: boolean;
  /** bumps on every change (evaluation cache key) */
  revision: number;
}

type Listable = { id: number; add_time: number; update_time: number };

export class CompanyStore implements FieldLookup {
  readonly fields: CompanyFields;
  readonly persons: PdPerson[];
  readonly organizations: PdOrganization[];
  readonly deals: PdDeal[];
  private readonly personIndex = new Map<number, PdPerson>();
  private readonly orgIndex = new Map<number, PdOrganization>();
  private readonly counts = new Map<number, { won: number; lost: number; open: number }>();
  private readonly filters = new Map<number, StoredFilter>();
  private nextFilterId = 1;
  private readonly evaluated = new Map<string, Listable[]>();

  constructor(readonly data: PdCompanyData, readonly timeZone: string, private readonly now: () => number) {
    this.fields = buildFields(data);
    this.persons = data.persons;
    this.organizations = data.organizations;
    this.deals = data.deals;
    for (const p of this.persons) {
      this.personIndex.set(p.id, p);
      this.counts.set(p.id, { won: 0, lost: 0, open: 0 });
    }
    for (const o of this.organizations) this.orgIndex.set(o.id, o);
    for (const d of this.deals) this.counts.get(d.person_id)![d.status]++;
  }

  // FieldLookup
  orgOf(person: PdPerson): PdOrganization | null {
    return person.org_id === null ? null : (this.orgIndex.get(person.org_id) ?? null);
  }
  personOf(deal: PdDeal): PdPerson | null {
    return this.personIndex.get(deal.person_id) ?? null;
  }
  orgById(id: number | null): PdOrganization | null {
    return id === null ? null : (this.orgIndex.get(id) ?? null);
  }
  dealCounts(person: PdPerson): { won: number; lost: number; open: number } {
    return this.counts.get(person.id)!;
  }
  person(id: number): PdPerson | undefined {
    return this.personIndex.get(id);
  }

  // Filters -----------------------------------------------------------------------------------------
  createFilter(input: { name: string; type: FilterType; conditions: FilterConditions; userId: number; visibleTo?: string }): StoredFilter {
    const t = this.now();
    const f: StoredFilter = {
      id: this.nextFilterId++, name: input.name, type: input.type, conditions: input.conditions, user_id: input.userId,
      visible_to: input.visibleTo ?? '1', add_time: t, update_time: t, last_used_time: null, active: true, revision: 1,
    };
    this.filters.set(f.id, f);
    return f;
  }
  filter(id: number): StoredFilter | undefined {
    const f = this.filters.get(id);
    return f?.active ? f : undefined;
  }
  listFilters(type?: FilterType): StoredFilter[] {
    return [...this.filters.values()].filter((f) => f.active && (!type || f.type === type));
  }
  updateFilter(f: StoredFilter, patch: { name?: string; conditions?: FilterConditions }): void {
    if (patch.name !== undefined) f.name = patch.name;
    if (patch.conditions !== undefined) f.conditions = patch.conditions;
    f.update_time = this.now();
    f.revision++;
  }
  /** Marks a filter deleted (it no longer lists, reads or applies). */
  deleteFilter(f: StoredFilter): void {
    f.active = false;
    for (const key of this.evaluated.keys()) if (key.startsWith(`${f.id}:`)) this.evaluated.delete(key);
  }
  get filterCount(): number {
    return this.listFilters().length;
  }

  /** The records a filter selects, in id order (memoised per filter revision; relative dates per day). */
  applyFilter(f: StoredFilter): Listable[] {
    f.last_used_time = this.now();
    const ctx: EvaluationContext = { fields: this.fields, lookup: this, timeZone: this.timeZone, now: this.now() };
    const day = localDate(this.timeZone)(ctx.now);
    const key = `${f.id}:${f.revision}:${day}`;
    let hit = this.evaluated.get(key);
    if (!hit) {
      if (f.type === 'people') hit = this.persons.filter(compilePeopleFilter(f.conditions, ctx));
      else if (f.type === 'deals') hit = this.deals.filter(compileDealFilter(f.conditions, ctx));
      else hit = this.organizations.filter(compileOrgFilter(f.conditions, ctx));
      if (this.evaluated.size > 256) this.evaluated.delete(this.evaluated.keys().next().value!);
      this.evaluated.set(key, hit);
    }
    return hit;
  }
}

export function renderFilter(f: StoredFilter, withConditions: boolean): PipedriveFilter {
  const out: PipedriveFilter = {
    id: f.id,
    name: f.name,
    active_flag: f.active,
    type: f.type,
    temporary_flag: null,
    user_id: f.user_id,
    add_time: v1Time(f.add_time),
    update_time: v1Time(f.update_time),
    visible_to: f.visible_to,
    custom_view_id: null,
    last_used_time: f.last_used_time === null ? null : v1Time(f.last_used_time),
    filter_code: null,
    is_editable: true,
  };
  if (withConditions) out.conditions = f.conditions;
  return out;
}

/** v1 timestamps: `YYYY-MM-DD HH:MM:SS` (UTC). */
export function v1Time(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** v2 timestamps: RFC 3339 in UTC with whole seconds (`2025-01-01T10:20:00Z`). */
export function v2Time(ms: number | null): string | null {
  return ms === null ? null : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

// ---------------------------------------------------------------------------------------------------
// v2 paging: a stable order (the sort field, then id) and a cursor naming the next page's first record.

export interface PageRequest {
  sortBy: V2SortField;
  direction: 'asc' | 'desc';
  limit: number;
  cursor: string | null;
}

export class CursorError extends Error {}

interface CursorBody {
  /** sort field the cursor was made for */
  s: V2SortField;
  d: 'asc' | 'desc';
  /** the first record of the page: its sort key and id */
  k: number;
  i: number;
}

export function encodeCursor(c: CursorBody): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(s: string): CursorBody {
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as CursorBody;
    if (typeof c.k === 'number' && typeof c.i === 'number' && typeof c.s === 'string') return c;
  } catch {
    // fall through
  }
  throw new CursorError('Invalid cursor');
}

const sortedOrders = new WeakMap<readonly Listable[], Map<string, readonly Listable[]>>();

/** One page of `records` (any order) in the request's order. */
export function pageOf<T extends Listable>(records: readonly T[], req: PageRequest): { items: T[]; nextCursor: string | null } {
  const key = (r: T) => (req.sortBy === 'id' ? r.id : r[req.sortBy]);
  const sign = req.direction === 'asc' ? 1 : -1;
  const cmp = (ak: number, ai: number, bk: number, bi: number) => sign * (ak - bk || ai - bi);
  // Persons, deals and organizations are held in id order: no sort needed for the default; other orders
  // are memoised per record list (the company's lists and evaluated filters are stable arrays).
  let sorted = records;
  if (req.sortBy !== 'id' || req.direction !== 'asc') {
    let orders = sortedOrders.get(records);
    if (!orders) sortedOrders.set(records, (orders = new Map()));
    const k = `${req.sortBy}:${req.direction}`;
    sorted = (orders.get(k) as readonly T[] | undefined) ?? [...records].sort((a, b) => cmp(key(a), a.id, key(b), b.id));
    orders.set(k, sorted);
  }
  let start = 0;
  if (req.cursor) {
    const c = decodeCursor(req.cursor);
    if (c.s !== req.sortBy || c.d !== req.direction) throw new CursorError('The cursor belongs to another sort order');
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(key(sorted[mid]), sorted[mid].id, c.k, c.i) < 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const items = sorted.slice(start, start + req.limit);
  const next = sorted[start + req.limit];
  return { items, nextCursor: next ? encodeCursor({ s: req.sortBy, d: req.direction, k: key(next), i: next.id }) : null };
}
