// "Download Customer List" of an unlocked smart segment (spec §2, §9): every customer of the segment,
// fetched from the CRM now, as smart-segment-customers-{id}-{date}.csv with the shared CSV rules
// (client/csv.ts: quoting, formula neutralisation). The customers bypass the Relay store, and the CSV
// is built in slices that yield to the browser, so a large segment shows progress and the page stays
// responsive.
import { getRequest, graphql } from 'relay-runtime';
import { csvHeader, csvRows, type CsvCustomer } from '../../../client/csv.js';
import { smartSegmentFileName } from '../../../client/messages.js';
import type { downloadSmartSegmentMutation } from '../__generated__/downloadSmartSegmentMutation.graphql';
import { requestUncached } from '../relay/environment';
import { downloadFile } from './export-customers';

const mutation = graphql`
  mutation downloadSmartSegmentMutation($input: SmartSegmentIdInput!) {
    smartSegmentCustomers(input: $input) {
      total
      customers {
        ...csvCustomer_customer
      }
    }
  }
`;

const SLICE = 2000;
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export type DownloadProgress = { phase: 'fetching' } | { phase: 'writing'; done: number; total: number };

export { smartSegmentFileName };

/** Downloads the segment's customers; resolves with how many were written. */
export async function downloadSmartSegment(
  segment: { id: string; segmentId: string; date: string },
  onProgress: (p: DownloadProgress) => void,
): Promise<number> {
  onProgress({ phase: 'fetching' });
  const text = getRequest(mutation).params.text;
  if (!text) throw new Error('The download request is missing');
  const data = await requestUncached<downloadSmartSegmentMutation['response']>(text, { input: { id: segment.id } });
  const { customers, total } = data.smartSegmentCustomers;
  const parts = [csvHeader()];
  for (let i = 0; i < customers.length; i += SLICE) {
    // Read straight from the response (not the store): the fragment's fields are plain properties here.
    parts.push(csvRows(customers.slice(i, i + SLICE) as unknown as CsvCustomer[]));
    onProgress({ phase: 'writing', done: Math.min(i + SLICE, customers.length), total: customers.length });
    await yieldToBrowser();
  }
  downloadFile(smartSegmentFileName(segment.segmentId, segment.date), parts.join(''));
  return total;
}
