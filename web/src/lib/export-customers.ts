// Downloads a query's customers as CSV: every one the table shows with its filters, search and sort
// (not only the page on screen), page by page, with a progress callback; the CSV rules are the shared
// ones of client/csv.ts.
import { fetchQuery, graphql, type Environment } from 'relay-runtime';
import { csvHeader, csvRows } from '../../../client/csv.js';
import { readCsvCustomer } from './csvCustomer';
import type { exportCustomersPageQuery } from '../__generated__/exportCustomersPageQuery.graphql';

const PAGE = 100;

const pageQuery = graphql`
  query exportCustomersPageQuery($id: ID!, $after: String, $filter: CustomerFilterInput, $orderBy: CustomerOrder) {
    node(id: $id) {
      ... on CustomerQuery {
        customers(first: 100, after: $after, filter: $filter, orderBy: $orderBy) {
          totalCount
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
    }
  }
`;

type Variables = exportCustomersPageQuery['variables'];

export async function exportQueryCustomers(
  environment: Environment,
  queryId: string,
  view: { filter?: Variables['filter']; orderBy?: Variables['orderBy'] },
  onProgress?: (done: number, total: number) => void,
) {
  const parts: string[] = [csvHeader({ bom: true })];
  let after: string | null = null;
  let done = 0;
  for (;;) {
    const data: exportCustomersPageQuery['response'] | undefined = await fetchQuery<exportCustomersPageQuery>(environment, pageQuery, { id: queryId, after, filter: view.filter ?? null, orderBy: view.orderBy ?? null }, { fetchPolicy: 'network-only' }).toPromise();
    const connection: NonNullable<NonNullable<exportCustomersPageQuery['response']['node']>['customers']> | undefined = data?.node?.customers;
    if (!connection) throw new Error('This query is no longer available');
    parts.push(csvRows(connection.edges.map((e) => readCsvCustomer(e.node))));
    done += connection.edges.length;
    onProgress?.(done, connection.totalCount);
    if (!connection.pageInfo.hasNextPage || connection.edges.length < PAGE) return { csv: parts.join(''), count: done };
    after = connection.pageInfo.endCursor ?? null;
  }
}

/** Saves text, or parts of it (pages already turned into Blobs), as a file. */
export function downloadFile(filename: string, content: string | BlobPart[], type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob(typeof content === 'string' ? [content] : content, { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const today = () => new Date().toISOString().slice(0, 10);
