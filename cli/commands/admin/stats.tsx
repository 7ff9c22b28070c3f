// crm admin stats: the usage statistics of the admin console.
import { z } from 'zod';
import { defineCommand } from '../../command.js';
import { graphql, operation } from '../../graphql.js';
import { StatsView } from '../../views/Admin.js';
import statsNode, { type statsQuery } from '../../__generated__/statsQuery.graphql.js';

const Stats = operation<statsQuery>(
  statsNode,
  graphql`
    query statsQuery {
      usageStats {
        totalUsers
        activeUsers
        totalChatQueries
        totalSmartSegments
      }
    }
  `,
);

export default defineCommand({
  name: 'stats',
  summary: 'Usage statistics: users, active users, queries, segments',
  options: [{ flags: '--json', description: 'print them as JSON' }],
  examples: ['crm admin stats', 'crm admin stats --json'],
  input: z.object({ json: z.boolean().optional() }),
  async run(input, ctx) {
    const { usageStats } = await ctx.api().request(Stats, {});
    if (input.json) return ctx.ui.json(usageStats);
    ctx.ui.print(<StatsView stats={usageStats} />);
  },
});
