// "Download Customer List" of an unlocked smart segment (spec §2, §9): every customer of the segment,
// read from the CRM now page by page through `customerExport` (the CLI's export path), as
// smart-segment-customers-{id}-{date}.csv with the shared CSV rules (client/csv.ts: quoting, formula
// neutralisation). Pages bypass the Relay store and each is turned into CSV text as it arrives, so a
// large segment shows real progress (customers so far of the total) and the page stays responsive.
import { getRequest, graphql } from 'relay-runtime';
import { csvHeader, csvRows, type CsvCustomer } from '../../../client/csv.js';
import { smartSegmentFileName } from '../../../client/messages.js';
import type { downloadSmartSegmentPageQuery } from '../__generated__/downloadSmartSegmentPageQuery.graphql';
import { requestUncached } from '../relay/environment';
import { downloadFile } from './export-customers';

const pageQuery = graphql`
  query downloadSmartSegmentPageQuery($source: ID!, $after: String, $withTotal: Boolean!) {
    customerExport(source: $source, first: 200, after: $after) {
      totalCount @include(if: $withTotal)
      edges {
        node {
          ...csvCustomer_customer
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export type DownloadProgress = { phase: 'fetching' } | { phase: 'writing'; done: number; total: number };

export { smartSegmentFileName };

/** Downloads the segment's customers; resolves with how many were written. */
export async function downloadSmartSegment(
  segment: { id: string; segmentId: string; date: string },
  onProgress: (p: DownloadProgress) => void,
): Promise<number> {
  onProgress({ phase: 'fetching' });
  const text = getRequest(pageQuery).params.text;
  if (!text) throw new Error('The download request is missing');
  // Each page's CSV becomes a Blob at once: its bytes leave the page's JS heap for the browser's blob
  // storage, so the heap holds one page at a time however large the segment (web-export-memory bench).
  const parts: Blob[] = [new Blob([csvHeader({ bom: true })])];
  let after: string | null = null;
  let total = 0;
  let done = 0;
  for (;;) {
    const data: downloadSmartSegmentPageQuery['response'] = await requestUncached(text, { source: segment.id, after, withTotal: after === null });
    const page = data.customerExport;
    if (page.totalCount !== undefined) total = page.totalCount;
    // Read straight from the response (not the store): the fragment's fields are plain properties here.
    parts.push(new Blob([csvRows(page.edges.map((e) => e.node) as unknown as CsvCustomer[])]));
    done += page.edges.length;
    onProgress({ phase: 'writing', done, total: Math.max(total, done) });
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) break;
    after = page.pageInfo.endCursor;
  }
  downloadFile(smartSegmentFileName(segment.segmentId, segment.date), parts);
  return done;
}
