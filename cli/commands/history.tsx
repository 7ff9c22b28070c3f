// crm history: the queries you asked, newest first (at most 50 are kept).
import { z } from 'zod';
import { defineCommand, JSON_OPTION } from '../command.js';
import { graphql, operation } from '../graphql.js';
import { LIMIT_OPTION, limitInput, noteCut, readAll } from '../paging.js';
import { historyColumns, HistoryView } from '../views/Lists.js';
import historyNode, { type historyQuery } from '../__generated__/historyQuery.graphql.js';

const History = operation<historyQuery>(
  historyNode,
  graphql`
    query historyQuery($first: Int!, $after: String) {
      queryHistory(first: $first, after: $after) {
        totalCount
        edges {
          node {
            queryId
            naturalLanguage
            createdAt
            resultCount
            hasError
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

/** Spec §9: the history keeps 50 queries. */
const HISTORY_LIMIT = 50;

export default defineCommand({
  name: 'history',
  summary: 'List your past queries, newest first',
  options: [JSON_OPTION('the list'), LIMIT_OPTION],
  examples: ['crm history', 'crm history --limit 5', 'crm history --json | jq -r ".[0].queryId"'],
  input: z.object({ json: z.boolean().optional(), limit: limitInput }),
  async run(input, ctx) {
    const api = ctx.api();
    const { items: queries, total } = await readAll((first, after) => api.request(History, { first, after }).then((r) => r.queryHistory), input.limit);
    if (input.json) ctx.ui.json(queries);
    else ctx.ui.list(<HistoryView queries={queries} total={total} limit={HISTORY_LIMIT} width={ctx.ui.width()} />, { columns: historyColumns(), rows: queries });
    noteCut(ctx.ui, queries.length, total, 'queries');
  },
});
