// crm history: the queries you asked, newest first (at most 50 are kept).
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { graphql, operation } from '../graphql.js';
import { HistoryView } from '../views/Lists.js';
import historyNode, { type historyQuery } from '../__generated__/historyQuery.graphql.js';

const History = operation<historyQuery>(
  historyNode,
  graphql`
    query historyQuery {
      queryHistory(first: 50) {
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
      }
    }
  `,
);

/** Spec §9: the history keeps 50 queries. */
const HISTORY_LIMIT = 50;

export default defineCommand({
  name: 'history',
  summary: 'List your past queries, newest first',
  options: [{ flags: '--json', description: 'print the list as JSON' }],
  examples: ['crm history', 'crm history --json | jq -r ".[0].queryId"'],
  input: z.object({ json: z.boolean().optional() }),
  async run(input, ctx) {
    const { queryHistory } = await ctx.api().request(History, {});
    const queries = queryHistory.edges.map((e) => e.node);
    if (input.json) return ctx.ui.json(queries);
    ctx.ui.print(<HistoryView queries={queries} total={queryHistory.totalCount} limit={HISTORY_LIMIT} width={ctx.ui.width()} />);
  },
});
