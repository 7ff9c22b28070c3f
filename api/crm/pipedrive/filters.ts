/**
 * The connector's Pipedrive filters: a plan runs through filter definitions (`/v1/filters`), which the
 * connector creates, reuses when an identical one exists, and cleans up.
 *
 * - A filter is named after its definition: `CRM Assistant · <type> · <hash>` (hash of the type and
 *   conditions). A process remembers the filters it made or found, per company.
 * - At most every 10 minutes per company, filter type and process (and at a process's first filter),
 *   the company's filters are listed once: the connector's own ones are remembered by name (an identical filter made
 *   by another process, or before a restart, is reused — after one read of its conditions, in case a
 *   user edited it in Pipedrive), and cleaned up: its own filters unused for a day, duplicates, and the
 *   least recently used beyond 100 are deleted in one bulk request. Filters anyone else made are never
 *   touched. Between listings a filter the process does not know is simply created (one request).
 * - A remembered filter that has gone (deleted in Pipedrive, or by another process's clean-up) answers
 *   404: the caller forgets it and ensures it again.
 */
import { createHash } from 'node:crypto';
import type { PipedriveApis } from './client.js';
import type { FilterCondition, FilterConditions } from './model/index.js';

export const OWN_FILTER_PREFIX = 'CRM Assistant · ';
const LIST_EVERY_MS = 10 * 60_000;
const UNUSED_FOR_MS = 24 * 3_600_000;
const KEEP_AT_MOST = 100;

export type FilterKind = 'people' | 'deals';

/** Runs one Pipedrive call under the connector's call policy. */
export type PipedriveCall = <T>(operation: string, send: (apis: PipedriveApis) => Promise<T>) => Promise<T>;

/** Filter ids this process knows, per company (scope) and name; `verified` once its conditions were read. */
const known = new Map<string, { id: number; verified: boolean }>();
const lastListed = new Map<string, number>();

/** Forgets every known filter and listing (tests, a "new process"). */
export function resetRememberedFilters(): void {
  known.clear();
  lastListed.clear();
}

export function conditionsOf(groups: { and: FilterCondition[]; or: FilterCondition[] }): FilterConditions {
  return { glue: 'and', conditions: [{ glue: 'and', conditions: groups.and }, { glue: 'or', conditions: groups.or }] };
}

function normalised(c: FilterConditions | undefined): string {
  const line = (l: Partial<FilterCondition>) => [l.object, String(l.field_id), l.operator, l.value ?? null, l.extra_value ?? null].map((x) => (x === null || x === undefined ? null : String(x)));
  const groups = (c?.conditions ?? []).map((g) => [g.glue, (g.conditions ?? []).map(line)]);
  return JSON.stringify(groups);
}

export function filterName(kind: FilterKind, conditions: FilterConditions): string {
  return `${OWN_FILTER_PREFIX}${kind} · ${createHash('sha256').update(`${kind}:${normalised(conditions)}`).digest('hex').slice(0, 16)}`;
}

function parseV1Time(s: string | null | undefined): number {
  if (!s) return 0;
  const t = Date.parse(s.includes('T') ? s : `${s.replace(' ', 'T')}Z`);
  return Number.isFinite(t) ? t : 0;
}

interface ListedFilter {
  id?: number;
  name?: string;
  last_used_time?: string | null;
  update_time?: string | null;
  add_time?: string;
}

export class PipedriveFilters {
  constructor(
    private readonly call: PipedriveCall,
    /** the company (and API host) the filters belong to */
    private readonly scope: string,
    private readonly now: () => number = Date.now,
  ) {}

  private key(name: string): string {
    return `${this.scope}|${name}`;
  }

  /** Forgets a filter that answered 404 (it will be found or created again). */
  forget(kind: FilterKind, conditions: FilterConditions): void {
    known.delete(this.key(filterName(kind, conditions)));
  }

  /** The id of a filter with these conditions: known, found (identical) or created. */
  async ensure(kind: FilterKind, conditions: FilterConditions): Promise<number> {
    const name = filterName(kind, conditions);
    const key = this.key(name);
    if (!known.has(key) && this.now() - (lastListed.get(`${this.scope}|${kind}`) ?? -Infinity) >= LIST_EVERY_MS) await this.listAndClean(kind);
    const hit = known.get(key);
    if (hit?.verified) return hit.id;
    if (hit) {
      const full = await this.call('read filter', (api) => api.filters.getFilter({ id: hit.id })).catch(() => null);
      if (full && normalised(full.data?.conditions as FilterConditions | undefined) === normalised(conditions)) {
        hit.verified = true;
        return hit.id;
      }
      known.delete(key);
    }
    const created = await this.call('create filter', (api) => api.filters.addFilter({ AddFilterRequest: { name, type: kind, conditions } }));
    const id = created.data?.id;
    if (id === undefined) throw new Error('Pipedrive created a filter without an id');
    known.set(key, { id, verified: true });
    return id;
  }

  /** Lists the company's filters of a type: remembers the connector's own, deletes the stale ones. */
  private async listAndClean(kind: FilterKind): Promise<void> {
    const now = this.now();
    lastListed.set(`${this.scope}|${kind}`, now);
    const listed = await this.call('list filters', (api) => api.filters.getFilters({ type: kind }));
    const own = ((listed.data ?? []) as ListedFilter[])
      .filter((f) => f.id !== undefined && f.name?.startsWith(OWN_FILTER_PREFIX))
      .map((f) => ({ id: f.id!, name: f.name!, used: Math.max(parseV1Time(f.last_used_time), parseV1Time(f.update_time), parseV1Time(f.add_time)) }))
      .sort((a, b) => b.used - a.used);
    const seen = new Set<string>();
    const stale: number[] = [];
    for (const [i, f] of own.entries()) {
      if (seen.has(f.name) || now - f.used > UNUSED_FOR_MS || i >= KEEP_AT_MOST) stale.push(f.id);
      else {
        seen.add(f.name);
        const key = this.key(f.name);
        if (known.get(key)?.id !== f.id) known.set(key, { id: f.id, verified: false });
      }
    }
    if (stale.length === 0) return;
    await this.call('delete filters', (api) => api.filters.deleteFilters({ ids: stale.join(',') }));
    for (const [k, v] of known) if (k.startsWith(`${this.scope}|`) && stale.includes(v.id)) known.delete(k);
  }
}
