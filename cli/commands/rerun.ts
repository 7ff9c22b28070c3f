// crm rerun <id>: runs a past query again (its stored segment), like the web app's re-run.
import { z } from 'zod';
import { defineCommand, idArg } from '../command.js';
import { graphql, operation } from '../graphql.js';
import { resolveQueryId } from '../ids.js';
import { planResultOutput, RESULT_OPTIONS, PAGE, resultInput, runWithLimitMessage, showResult } from '../results.js';
import rerunNode, { type rerunMutation } from '../__generated__/rerunMutation.graphql.js';

const Rerun = operation<rerunMutation>(
  rerunNode,
  graphql`
    mutation rerunMutation($id: ID!, $first: Int!) {
      rerunQuery(input: { queryId: $id }) {
        ...results_payload @relay(mask: false)
      }
    }
  `,
);

export default defineCommand({
  name: 'rerun',
  summary: 'Run a past query again',
  description: 'Uses one of your daily chat queries; the query keeps its place in crm history with the new results.',
  args: [{ name: '<id>', description: 'the query id from crm history (its first characters are enough)' }],
  options: RESULT_OPTIONS,
  examples: ['crm rerun 3f2a1b9c', 'crm rerun 3f2a1b9c --json --limit 50', 'crm rerun 3f2a1b9c --csv all.csv --force'],
  input: z.object({ id: idArg, ...resultInput }),
  async run(input, ctx) {
    const csv = planResultOutput(input);
    const api = ctx.api();
    const { id } = await resolveQueryId(api, input.id);
    const { rerunQuery } = await runWithLimitMessage('rerun', () => ctx.ui.task('Searching your CRM…', () => api.request(Rerun, { id, first: Math.min(PAGE, input.limit) })));
    await showResult(ctx, 'rerun', rerunQuery, input, csv);
  },
});
