// crm smart [--date YYYY-MM-DD] [unlock <id> | download <id>]: the day's Smart Segments.
import { z } from 'zod';
import { formatCount } from '../../client/format.js';
import { isClientError } from '../../client/index.js';
import { downloadComplete, segmentUnlocked, smartSegmentFileName, unlockLimitReached } from '../../client/messages.js';
import { dateOption, defineCommand, defineGroup, idArg } from '../command.js';
import { CliError, failingAs } from '../errors.js';
import { exportCsv } from '../export-stream.js';
import { graphql, operation } from '../graphql.js';
import { resolveDailySegment } from '../ids.js';
import { SmartSegmentsView } from '../views/Lists.js';
import { NoticeLine } from '../views/Notice.js';
import smartListNode, { type smartListQuery } from '../__generated__/smartListQuery.graphql.js';
import smartUnlockNode, { type smartUnlockMutation } from '../__generated__/smartUnlockMutation.graphql.js';

const List = operation<smartListQuery>(
  smartListNode,
  graphql`
    query smartListQuery($date: Date) {
      dailySegments(date: $date, first: 100) {
        totalCount
        edges {
          node {
            segmentId
            date
            customerCount
            impactScore
            hasError
            errorMessage
            isUnlocked
            generatedAt
            preset {
              name
              category {
                displayName
                isLocked
              }
            }
          }
        }
      }
    }
  `,
);

const Unlock = operation<smartUnlockMutation>(
  smartUnlockNode,
  graphql`
    mutation smartUnlockMutation($id: ID!) {
      unlockSmartSegment(input: { id: $id }) {
        dailySegment {
          segmentId
          isUnlocked
        }
        usage {
          smartSegmentsUsed
          smartSegmentLimit
        }
      }
    }
  `,
);

const DATE = { flags: '--date <YYYY-MM-DD>', description: 'the day of the segments (default today)' };
const utcToday = () => new Date().toISOString().slice(0, 10);

const list = defineCommand({
  name: 'list',
  summary: "List the day's Smart Segments (the default)",
  options: [DATE, { flags: '--json', description: 'print the list as JSON' }],
  examples: ['crm smart', 'crm smart --date 2026-11-20', 'crm smart list --json'],
  input: z.object({ date: dateOption.optional(), json: z.boolean().optional() }),
  async run(input, ctx) {
    const { dailySegments } = await ctx.api().request(List, { date: input.date ?? null });
    const segments = dailySegments.edges.map((e) => e.node);
    if (input.json) return ctx.ui.json(segments);
    const date = input.date ?? segments[0]?.date ?? utcToday();
    ctx.ui.print(<SmartSegmentsView segments={segments} date={date} today={!input.date} width={ctx.ui.width()} />);
  },
});

const unlock = defineCommand({
  name: 'unlock',
  summary: 'Unlock a Smart Segment (uses one of your daily smart segment unlocks)',
  description: 'A segment of a premium (locked) category asks for confirmation first. Unlocking an unlocked segment is free.',
  args: [{ name: '<id>', description: 'the segment id from crm smart (its first characters are enough)' }],
  options: [DATE, { flags: '-y, --yes', description: 'unlock a premium segment without asking' }],
  examples: ['crm smart unlock 9d41c2aa', 'crm smart unlock 9d41c2aa --yes'],
  input: z.object({ id: idArg, date: dateOption.optional(), yes: z.boolean().default(false) }),
  async run(input, ctx) {
    const api = ctx.api();
    const segment = await resolveDailySegment(api, input.id, input.date);
    if (!segment.isUnlocked && segment.preset.category.isLocked) {
      await ctx.ui.confirm(`Unlock "${segment.preset.name}" (${formatCount(segment.customerCount)} customers)?`, {
        yes: input.yes,
        detail: 'This uses one of your daily smart segment unlocks.',
      });
    }
    const { unlockSmartSegment } = await failingAs('Failed to unlock', async () => {
      try {
        return await api.request(Unlock, { id: segment.id });
      } catch (err) {
        if (isClientError(err) && err.code === 'QUOTA_EXCEEDED') throw CliError.fromNotice(unlockLimitReached(err.details), 'See crm usage');
        throw err;
      }
    });
    const { usage } = unlockSmartSegment;
    ctx.ui.print(<NoticeLine notice={segmentUnlocked(segment.preset.name)} />);
    ctx.ui.note(`Smart segments unlocked today: ${usage.smartSegmentsUsed}/${usage.smartSegmentLimit}. Download it with crm smart download ${segment.segmentId.slice(0, 8)}`);
  },
});

const download = defineCommand({
  name: 'download',
  summary: "Download an unlocked Smart Segment's customers as CSV",
  description: 'Reads the customers from your CRM page by page. The file is named smart-segment-customers-<id>-<date>.csv unless -o says otherwise (- for standard output).',
  args: [{ name: '<id>', description: 'the segment id from crm smart (its first characters are enough)' }],
  options: [DATE, { flags: '-o, --output <file>', description: 'the CSV file to write, or - for standard output' }],
  examples: ['crm smart download 9d41c2aa', 'crm smart download 9d41c2aa -o reactivation.csv', 'crm smart download 9d41c2aa -o - | head'],
  input: z.object({ id: idArg, date: dateOption.optional(), output: z.string().min(1).optional() }),
  async run(input, ctx) {
    const api = ctx.api();
    const segment = await resolveDailySegment(api, input.id, input.date);
    if (segment.hasError) throw new CliError(`Download Failed: "${segment.preset.name}" could not be generated, so it has no customers to download`);
    if (!segment.isUnlocked) throw new CliError(`Download Failed: "${segment.preset.name}" is locked`, `Unlock it first: crm smart unlock ${segment.segmentId.slice(0, 8)}`);
    const file = input.output === '-' ? undefined : (input.output ?? smartSegmentFileName(segment.segmentId, segment.date));
    const total = await failingAs('Download Failed', () => exportCsv(ctx, segment.id, file));
    ctx.ui.note(`${downloadComplete(total).title}: ${downloadComplete(total).body} to ${file ?? 'standard output'}`);
  },
});

export default defineGroup({
  name: 'smart',
  summary: "Today's Smart Segments: list, unlock, download",
  commands: [list, unlock, download],
  defaultCommand: 'list',
  examples: ['crm smart', 'crm smart unlock 9d41c2aa', 'crm smart download 9d41c2aa', 'crm smart --date 2026-11-20'],
});
