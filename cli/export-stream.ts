// Streams an export into a CSV target (output-file.ts: a file written atomically, a device, a pipe or
// stdout) page by page from customerExport: one page in memory at a time, written before the next is
// asked for (waiting for the target when it is slower than the server), with progress on stderr.
import { csvHeader, csvRows } from '../client/csv.js';
import type { Context } from './context.js';
import { graphql, operation } from './graphql.js';
import { onInterrupt } from './interrupt.js';
import { isFile, openOutput, type Output, type OutputPlan } from './output-file.js';
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

/** Writes every customer of the source as CSV to `out`; returns how many. */
export async function streamCsv(ctx: Context, source: string, out: Output, pageSize = EXPORT_PAGE_SIZE): Promise<number> {
  const api = ctx.api();
  const progress = ctx.ui.exportProgress();
  const stopProgress = onInterrupt(() => progress.end());
  let done = 0;
  let total = 0;
  let after: string | null = null;
  try {
    await out.write(csvHeader({ bom: out.plan.kind === 'file' })); // Excel needs the BOM; a pipe does not want it
    for (;;) {
      const page: exportStreamPageQuery['response']['customerExport'] = (await api.request(Page, { source, first: pageSize, after, withTotal: after === null }))
        .customerExport;
      if (after === null) total = page.totalCount ?? 0;
      if (page.edges.length) await out.write(csvRows(page.edges.map((e) => e.node)));
      done += page.edges.length;
      progress.update({ done, total: page.pageInfo.hasNextPage ? total : done, target: out.label });
      if (!page.pageInfo.hasNextPage) return done;
      after = page.pageInfo.endCursor ?? null;
    }
  } finally {
    stopProgress();
    progress.end();
  }
}

/**
 * Exports to the planned target (output-file.ts): a file is written completely or not at all, also
 * when the export is interrupted (Ctrl-C, SIGTERM).
 */
export async function exportCsv(ctx: Context, source: string, plan: OutputPlan, pageSize?: number): Promise<number> {
  const out = await openOutput(plan, ctx.ui.io.stdout);
  const stop = onInterrupt(() => {
    out.abort();
    if (isFile(plan)) ctx.ui.note(`Stopped: ${plan.label} was ${plan.replaces ? 'left as it was' : 'not written'}`);
  });
  try {
    const n = await streamCsv(ctx, source, out, pageSize);
    await out.finish();
    return n;
  } catch (err) {
    out.abort();
    throw err;
  } finally {
    stop();
  }
}
