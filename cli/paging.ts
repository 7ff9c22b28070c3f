// Lists are read to the end, page by page (the server's pages hold at most 100), or to --limit: a
// list never stops silently at a page boundary, and when --limit cuts it the user is told.
import { formatCount } from '../client/format.js';
import { intOption, type OptionSpec } from './command.js';
import type { Ui } from './ui.js';

export interface Connection<N> {
  edges: readonly { node: N }[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
  totalCount?: number;
}

/** The server's largest page (Pothos relay's maxSize). */
export const PAGE_SIZE = 100;

/** Every item (or the first `limit`), and how many there are in all. */
export async function readAll<N>(page: (first: number, after: string | null) => Promise<Connection<N>>, limit?: number): Promise<{ items: N[]; total: number }> {
  const items: N[] = [];
  let after: string | null = null;
  let total: number | undefined;
  for (;;) {
    const want = limit === undefined ? PAGE_SIZE : Math.min(PAGE_SIZE, limit - items.length);
    const got: Connection<N> = await page(want, after);
    total ??= got.totalCount;
    items.push(...got.edges.map((e) => e.node));
    if (!got.pageInfo.hasNextPage || (limit !== undefined && items.length >= limit)) {
      return { items: items.slice(0, limit), total: Math.max(total ?? items.length, items.length) };
    }
    after = got.pageInfo.endCursor ?? null;
  }
}

export const LIMIT_OPTION: OptionSpec = { flags: '--limit <n>', description: 'show at most n (default: all)' };
export const limitInput = intOption(1, 1_000_000).optional();

/** Tells the user (on stderr) that --limit left some out. */
export function noteCut(ui: Ui, shown: number, total: number, what: string): void {
  if (shown < total) ui.note(`Showing ${formatCount(shown)} of ${formatCount(total)} ${what} (--limit ${shown})`);
}
