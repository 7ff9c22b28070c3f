/**
 * Query locators (server-side cursors behind `nextRecordsUrl`): a query's result is fixed when it
 * runs and served in batches from `/query/<locator>-<offset>`. As in Salesforce, a locator dies after
 * 15 minutes without use, a user keeps at most 10 open (opening another drops the least recently
 * used), and the last batch closes it; a dead locator answers 400 INVALID_QUERY_LOCATOR.
 */
import { KEY_PREFIXES, makeId } from '../salesforce/model/ids.js';
import type { Row } from './data.js';
import type { CompiledQuery } from './soql/compile.js';

export interface Locator {
  id: string;
  query: CompiledQuery;
  rows: Row[];
  batchSize: number;
  owner: string;
  lastUsedAt: number;
}

export const LOCATOR_IDLE_MS = 15 * 60_000;
export const MAX_OPEN_LOCATORS = 10;

export class Locators {
  private readonly open = new Map<string, Locator>();
  private seq = 0;

  constructor(private readonly now: () => number) {}

  create(owner: string, query: CompiledQuery, rows: Row[], batchSize: number): Locator {
    const mine = [...this.open.values()].filter((l) => l.owner === owner).sort((a, b) => a.lastUsedAt - b.lastUsedAt);
    while (mine.length >= MAX_OPEN_LOCATORS) this.open.delete(mine.shift()!.id);
    const loc: Locator = { id: makeId(KEY_PREFIXES.QueryLocator, ++this.seq), query, rows, batchSize, owner, lastUsedAt: this.now() };
    this.open.set(loc.id, loc);
    return loc;
  }

  /** A live locator of this owner (touching it), or null. */
  get(id: string, owner: string): Locator | null {
    const loc = this.open.get(id);
    if (!loc || loc.owner !== owner) return null;
    if (this.now() - loc.lastUsedAt >= LOCATOR_IDLE_MS) {
      this.open.delete(id);
      return null;
    }
    loc.lastUsedAt = this.now();
    return loc;
  }

  close(id: string): void {
    this.open.delete(id);
  }

  get size(): number {
    return this.open.size;
  }
}
