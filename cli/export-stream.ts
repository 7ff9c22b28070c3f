// Streams an export into a CSV file (or stdout) page by page from customerExport: one page in memory
// at a time, written before the next is asked for (waiting for the file when it is slower than the
// server), with progress on stderr. A file is written as <name>.part and renamed when complete, so an
// interrupted export never leaves a file that looks whole.
import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { csvHeader, csvRows } from '../client/csv.js';
import type { Context } from './context.js';
import { graphql, operation } from './graphql.js';
import exportStreamPageNode, { type exportStreamPageQuery } from './__generated__/exportStreamPageQuery.graphql.js';

const Page = operation<exportStreamPageQuery>(
  exportStreamPageNode,
  graphql`
    query exportStreamPageQuery($source: ID!, $first: Int!, $after: String, $withTotal: Boolean!) {
      customerExport(source: $source, first: $first, after: $after) {
        totalCount @include(if: $withTotal)
        edges {
          node {
            ...CustomerTable_customer @relay(mask: false)
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
);

/** The server's largest page: one CRM search page. */
export const EXPORT_PAGE_SIZE = 200;

async function write(out: Writable, text: string) {
  if (!out.write(text)) await once(out, 'drain');
}

/** Writes every customer of the source as CSV to `out`; returns how many. */
export async function streamCsv(ctx: Context, source: string, out: Writable, target: string, pageSize = EXPORT_PAGE_SIZE): Promise<number> {
  const api = ctx.api();
  const progress = ctx.ui.exportProgress();
  let done = 0;
  let total = 0;
  let after: string | null = null;
  try {
    await write(out, csvHeader());
    for (;;) {
      const page: exportStreamPageQuery['response']['customerExport'] = (await api.request(Page, { source, first: pageSize, after, withTotal: after === null }))
        .customerExport;
      if (after === null) total = page.totalCount ?? 0;
      if (page.edges.length) await write(out, csvRows(page.edges.map((e) => e.node)));
      done += page.edges.length;
      progress.update({ done, total: page.pageInfo.hasNextPage ? total : done, target });
      if (!page.pageInfo.hasNextPage) return done;
      after = page.pageInfo.endCursor ?? null;
    }
  } finally {
    progress.end();
  }
}

/** Exports to `file` (written completely or not at all), or to stdout without a file. */
export async function exportCsv(ctx: Context, source: string, file: string | undefined, pageSize?: number): Promise<number> {
  if (!file) return streamCsv(ctx, source, ctx.ui.io.stdout, 'standard output', pageSize);
  const part = `${file}.part`;
  const out = createWriteStream(part, { mode: 0o600 });
  // Interrupted (Ctrl-C): no half file is left behind.
  const interrupted = () => {
    out.destroy();
    rmSync(part, { force: true });
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  try {
    await once(out, 'open');
    const n = await streamCsv(ctx, source, out, file, pageSize);
    out.end();
    await once(out, 'finish');
    renameSync(part, file);
    return n;
  } catch (err) {
    out.destroy();
    rmSync(part, { force: true });
    throw err;
  } finally {
    process.off('SIGINT', interrupted);
  }
}
