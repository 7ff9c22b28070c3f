// crm usage: today's usage against the daily limits, with meters.
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { graphql, operation } from '../graphql.js';
import { UsageView } from '../views/UsageView.js';
import usageNode, { type usageQuery } from '../__generated__/usageQuery.graphql.js';

const Usage = operation<usageQuery>(
  usageNode,
  graphql`
    query usageQuery {
      usage {
        chatQueriesUsed
        chatQueryLimit
        smartSegmentsUsed
        smartSegmentLimit
        tierName
      }
    }
  `,
);

export default defineCommand({
  name: 'usage',
  summary: "Show today's usage and your daily limits",
  options: [{ flags: '--json', description: 'print the usage as JSON' }],
  examples: ['crm usage', 'crm usage --json'],
  input: z.object({ json: z.boolean().optional() }),
  async run(input, ctx) {
    const { usage } = await ctx.api().request(Usage, {});
    if (input.json) return ctx.ui.json(usage);
    ctx.ui.print(<UsageView usage={usage} />);
  },
});
