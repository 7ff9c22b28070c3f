// crm query "<question>": runs a question as a query (one of today's chat queries), then shows how it
// was understood and the first customers; --json, --csv (all customers), --limit.
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { graphql, operation } from '../graphql.js';
import { checkOutputs, RESULT_OPTIONS, PAGE, resultInput, runWithLimitMessage, showResult } from '../results.js';
import queryRunNode, { type queryRunMutation } from '../__generated__/queryRunMutation.graphql.js';

const Run = operation<queryRunMutation>(
  queryRunNode,
  graphql`
    mutation queryRunMutation($question: String!, $first: Int!) {
      runQuery(input: { naturalLanguage: $question }) {
        ...results_payload @relay(mask: false)
      }
    }
  `,
);

export default defineCommand({
  name: 'query',
  summary: 'Ask a question about your customers',
  description: 'Uses one of your daily chat queries. Shows how the question was understood and the first customers; the query is kept in crm history.',
  args: [{ name: '<question>', description: 'the question, in plain language' }],
  options: RESULT_OPTIONS,
  examples: [
    'crm query "customers in Europe who bought in the last 30 days with lifetime value over $5k"',
    'crm query "top 10 customers by lifetime value" --json',
    'crm query "leads in Canada" --csv leads.csv',
    'crm query "subscribers who never purchased" --csv | wc -l',
  ],
  input: z.object({ question: z.string(), ...resultInput }),
  async run(input, ctx) {
    checkOutputs(input);
    const api = ctx.api();
    const { runQuery } = await runWithLimitMessage('run', () => ctx.ui.task('Searching your CRM…', () => api.request(Run, { question: input.question, first: Math.min(PAGE, input.limit) })));
    await showResult(ctx, 'run', runQuery, input);
  },
});
