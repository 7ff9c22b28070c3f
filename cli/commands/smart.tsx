// crm smart [--date YYYY-MM-DD] [unlock <id> | download <id>]: the day's Smart Segments.
import { z } from 'zod';
import { formatCount } from '../../client/format.js';
import { isClientError } from '../../client/index.js';
import { downloadComplete, segmentUnlocked, smartSegmentFileName, unlockLimitReached } from '../../client/messages.js';
import { dateOption, defineCommand, defineGroup, FORCE_OPTION, idArg, JSON_OPTION } from '../command.js';
import { CliError, failingAs } from '../errors.js';
import { exportCsv } from '../export-stream.js';
import { graphql, operation } from '../graphql.js';
import { resolveDailySegment } from '../ids.js';
import { planOutput } from '../output-file.js';
import { LIMIT_OPTION, limitInput, noteCut, readAll } from '../paging.js';
import { smartColumns, SmartSegmentsView } from '../views/Lists.js';
import { NoticeLine } from '../views/Notice.js';
import smartListNode, { type smartListQuery } from '../__generated__/smartListQuery.graphql.js';
import smartUnlockNode, { type smartUnlockMutation } from '../__generated__/smartUnlockMutation.graphql.js';

const List = operation<smartListQuery>(
  smartListNode,
  graphql`
    query smartListQuery($date: Date, $first: Int!, $after: String) {
      dailySegments(date: $date, first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
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
  options: [DATE, JSON_OPTION('the list'), LIMIT_OPTION],
  examples: ['crm smart', 'crm smart --date 2026-11-20', 'crm smart list --json | jq ".[] | select(.impactScore > 100)"'],
  input: z.object({ date: dateOption.optional(), json: z.boolean().optional(), limit: limitInput }),
  async run(input, ctx) {
    const api = ctx.api();
    const date = input.date ?? null;
    const { items: segments, total } = await readAll((first, after) => api.request(List, { date, first, after }).then((r) => r.dailySegments), input.limit);
    if (input.json) ctx.ui.json(segments.map((s) => ({ ...s, impactScore: Number(s.impactScore) })));
    else {
      const day = input.date ?? segments[0]?.date ?? utcToday();
      ctx.ui.list(<SmartSegmentsView segments={segments} date={day} today={!input.date} width={ctx.ui.width()} />, { columns: smartColumns(), rows: segments });
    }
    noteCut(ctx.ui, segments.length, total, 'Smart Segments');
  },
});

const unlock = defineCommand({
  name: 'unlock',
  summary: 'Unlock a Smart Segment (uses one of your daily smart segment unlocks)',
  description: 'A segment of a premium (locked) category asks for confirmation first. Unlocking an unlocked segment is free.',
  args: [{ name: '<id>', description: 'the segment id from crm smart (its first characters are enough)' }],
  options: [DATE, { flags: '-y, --yes', description: 'unlock a premium segment without asking' }, JSON_OPTION('the unlocked segment and your unlocks today')],
  examples: ['crm smart unlock 9d41c2aa', 'crm smart unlock 9d41c2aa --yes --json'],
  input: z.object({ id: idArg, date: dateOption.optional(), yes: z.boolean().default(false), json: z.boolean().optional() }),
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
        if (isClientError(err) && err.code === 'QUOTA_EXCEEDED') throw CliError.fromNotice(unlockLimitReached(err.details), 'See crm usage', err.code);
        throw err;
      }
    });
    const { usage } = unlockSmartSegment;
    if (input.json) return ctx.ui.json({ segmentId: segment.segmentId, name: segment.preset.name, isUnlocked: unlockSmartSegment.dailySegment.isUnlocked, usage });
    ctx.ui.print(<NoticeLine notice={segmentUnlocked(segment.preset.name)} />);
    ctx.ui.note(`Smart segments unlocked today: ${usage.smartSegmentsUsed}/${usage.smartSegmentLimit}. Download it with crm smart download ${segment.segmentId.slice(0, 8)}`);
  },
});

const download = defineCommand({
  name: 'download',
  summary: "Download an unlocked Smart Segment's customers as CSV",
  description:
    'Reads the customers from your CRM page by page. The file is named smart-segment-customers-<id>-<date>.csv unless -o says otherwise (- for standard output); it is written as crm export writes files (replaced only with --force).',
  args: [{ name: '<id>', description: 'the segment id from crm smart (its first characters are enough)' }],
  options: [DATE, { flags: '-o, --output <file>', description: 'the CSV file to write, or - for standard output' }, FORCE_OPTION],
  examples: ['crm smart download 9d41c2aa', 'crm smart download 9d41c2aa -o reactivation.csv --force', 'crm smart download 9d41c2aa -o - | head'],
  input: z.object({ id: idArg, date: dateOption.optional(), output: z.string().min(1).optional(), force: z.boolean().default(false) }),
  async run(input, ctx) {
    // A named file is checked before anything is asked of the server; the default name needs the segment.
    let target = input.output === undefined ? undefined : planOutput(input.output, { force: input.force });
    const api = ctx.api();
    const segment = await resolveDailySegment(api, input.id, input.date);
    if (segment.hasError) throw new CliError(`Download Failed: "${segment.preset.name}" could not be generated, so it has no customers to download`);
    if (!segment.isUnlocked) throw new CliError(`Download Failed: "${segment.preset.name}" is locked`, `Unlock it first: crm smart unlock ${segment.segmentId.slice(0, 8)}`);
    target ??= planOutput(smartSegmentFileName(segment.segmentId, segment.date), { force: input.force });
    const plan = target;
    const total = await failingAs('Download Failed', () => exportCsv(ctx, segment.id, plan));
    ctx.ui.note(`${downloadComplete(total).title}: ${downloadComplete(total).body} to ${plan.label}`);
  },
});

export default defineGroup({
  name: 'smart',
  summary: "Today's Smart Segments: list, unlock, download",
  commands: [list, unlock, download],
  defaultCommand: 'list',
  examples: ['crm smart', 'crm smart unlock 9d41c2aa', 'crm smart download 9d41c2aa', 'crm smart --date 2026-11-20'],
});
