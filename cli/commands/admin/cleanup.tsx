// crm admin cleanup --retention N [--dry-run]: deletes usage records older than N days.
import { z } from 'zod';
import { formatCount } from '../../../client/format.js';
import { cleanupCompleted } from '../../../client/messages.js';
import { defineCommand, intOption, JSON_OPTION } from '../../command.js';
import { failingAs } from '../../errors.js';
import { graphql, operation } from '../../graphql.js';
import { CleanupView } from '../../views/Admin.js';
import { NoticeLine } from '../../views/Notice.js';
import cleanupStatsNode, { type cleanupStatsQuery } from '../../__generated__/cleanupStatsQuery.graphql.js';
import cleanupRunNode, { type cleanupRunMutation } from '../../__generated__/cleanupRunMutation.graphql.js';

const Stats = operation<cleanupStatsQuery>(
  cleanupStatsNode,
  graphql`
    query cleanupStatsQuery($retentionDays: Int!) {
      cleanupStats(retentionDays: $retentionDays) {
        totalRecords
        retentionDays
        oldRecords
        wouldDelete
        oldestRecordDate
      }
    }
  `,
);

const Run = operation<cleanupRunMutation>(
  cleanupRunNode,
  graphql`
    mutation cleanupRunMutation($retentionDays: Int!) {
      runCleanup(input: { retentionDays: $retentionDays }) {
        deletedCount
        message
      }
    }
  `,
);

/** Spec §9: retention 1 to 365 days, 90 by default. */
const RETENTION = { min: 1, max: 365, default: 90 };

export default defineCommand({
  name: 'cleanup',
  summary: 'Delete usage records older than the retention period',
  options: [
    { flags: '--retention <days>', description: `keep this many days, ${RETENTION.min} to ${RETENTION.max} (default ${RETENTION.default})` },
    { flags: '--dry-run', description: 'only show what would be deleted' },
    { flags: '-y, --yes', description: 'delete without asking' },
    JSON_OPTION('the statistics and how many were deleted'),
  ],
  examples: ['crm admin cleanup --dry-run', 'crm admin cleanup --retention 30', 'crm admin cleanup --retention 30 --yes'],
  input: z.object({
    retention: intOption(RETENTION.min, RETENTION.max).default(RETENTION.default),
    dryRun: z.boolean().default(false),
    yes: z.boolean().default(false),
    json: z.boolean().optional(),
  }),
  async run(input, ctx) {
    const api = ctx.api();
    const { cleanupStats } = await api.request(Stats, { retentionDays: input.retention });
    const done = (deletedCount: number, message: string | null) => ctx.ui.json({ ...cleanupStats, dryRun: input.dryRun, deletedCount, message });
    if (!input.json) ctx.ui.print(<CleanupView stats={cleanupStats} />);
    if (input.dryRun) return input.json ? done(0, null) : ctx.ui.note('Dry run: nothing was deleted.');
    if (cleanupStats.wouldDelete === 0) return input.json ? done(0, null) : ctx.ui.note('Nothing to delete.');
    await ctx.ui.confirm(`Delete ${formatCount(cleanupStats.wouldDelete)} usage records older than ${input.retention} days?`, { yes: input.yes });
    const { runCleanup } = await failingAs('Cleanup Failed', () => api.request(Run, { retentionDays: input.retention }));
    if (input.json) return done(runCleanup.deletedCount, runCleanup.message);
    ctx.ui.print(<NoticeLine notice={cleanupCompleted(runCleanup.message)} />);
  },
});
