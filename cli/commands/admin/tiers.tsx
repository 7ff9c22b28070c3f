// crm admin tiers: the pricing tiers, inactive ones included.
import { z } from 'zod';
import { defineCommand } from '../../command.js';
import { graphql, operation } from '../../graphql.js';
import { tierColumns, TiersView } from '../../views/Admin.js';
import tiersNode, { type tiersQuery } from '../../__generated__/tiersQuery.graphql.js';

const Tiers = operation<tiersQuery>(
  tiersNode,
  graphql`
    query tiersQuery {
      pricingTiers {
        name
        displayName
        chatQueryLimit
        smartSegmentLimit
        priceMonthly
        priceYearly
        isActive
      }
    }
  `,
);

export default defineCommand({
  name: 'tiers',
  summary: 'List the pricing tiers with their daily limits and prices',
  options: [{ flags: '--json', description: 'print them as JSON' }],
  examples: ['crm admin tiers', 'crm admin tiers --json'],
  input: z.object({ json: z.boolean().optional() }),
  async run(input, ctx) {
    const { pricingTiers } = await ctx.api().request(Tiers, {});
    if (input.json) return ctx.ui.json(pricingTiers.map((t) => ({ ...t, priceMonthly: Number(t.priceMonthly), priceYearly: Number(t.priceYearly) })));
    ctx.ui.list(<TiersView tiers={pricingTiers} width={ctx.ui.width()} />, { columns: tierColumns(), rows: pricingTiers });
  },
});
