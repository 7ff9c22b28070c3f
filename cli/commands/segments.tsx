// crm segments [add "<description>" | edit <id> | rm <id> | run <id>]: your saved segments.
import { z } from 'zod';
import { segmentCreated, segmentDeleted, SEGMENT_DELETE_CONFIRM } from '../../client/messages.js';
import { defineCommand, defineGroup, idArg, JSON_OPTION, wordsArg } from '../command.js';
import { failingAs } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import { resolveSavedSegment } from '../ids.js';
import { LIMIT_OPTION, limitInput, noteCut, readAll } from '../paging.js';
import { planResultOutput, RESULT_OPTIONS, PAGE, resultInput, runWithLimitMessage, showResult } from '../results.js';
import { segmentColumns, SegmentsView } from '../views/Lists.js';
import { NoticeLine } from '../views/Notice.js';
import segmentsListNode, { type segmentsListQuery } from '../__generated__/segmentsListQuery.graphql.js';
import segmentsAddNode, { type segmentsAddMutation } from '../__generated__/segmentsAddMutation.graphql.js';
import segmentsRemoveNode, { type segmentsRemoveMutation } from '../__generated__/segmentsRemoveMutation.graphql.js';
import segmentsRunNode, { type segmentsRunMutation } from '../__generated__/segmentsRunMutation.graphql.js';
import segmentsEditNode, { type segmentsEditMutation } from '../__generated__/segmentsEditMutation.graphql.js';

const List = operation<segmentsListQuery>(
  segmentsListNode,
  graphql`
    query segmentsListQuery($first: Int!, $after: String) {
      savedSegments(first: $first, after: $after) {
        totalCount
        edges {
          node {
            segmentId
            name
            description
            createdAt
            latestResult {
              customerCount
              hasError
              processedAt
            }
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

const Add = operation<segmentsAddMutation>(
  segmentsAddNode,
  graphql`
    mutation segmentsAddMutation($description: String!) {
      createSavedSegment(input: { description: $description }) {
        savedSegment {
          segmentId
          description
          createdAt
        }
      }
    }
  `,
);

const Edit = operation<segmentsEditMutation>(
  segmentsEditNode,
  graphql`
    mutation segmentsEditMutation($id: ID!, $name: String, $description: String) {
      updateSavedSegment(input: { id: $id, name: $name, description: $description }) {
        savedSegment {
          segmentId
          name
          description
          latestResult {
            customerCount
            hasError
            processedAt
          }
        }
      }
    }
  `,
);

const Remove = operation<segmentsRemoveMutation>(
  segmentsRemoveNode,
  graphql`
    mutation segmentsRemoveMutation($id: ID!) {
      deleteSavedSegment(input: { id: $id }) {
        deletedId
      }
    }
  `,
);

const Run = operation<segmentsRunMutation>(
  segmentsRunNode,
  graphql`
    mutation segmentsRunMutation($id: ID!, $first: Int!) {
      runSavedSegment(input: { id: $id }) {
        ...results_payload @relay(mask: false)
      }
    }
  `,
);

const list = defineCommand({
  name: 'list',
  summary: 'List your saved segments (the default)',
  options: [JSON_OPTION('the list'), LIMIT_OPTION],
  examples: ['crm segments', 'crm segments list --limit 20', 'crm segments list --json'],
  input: z.object({ json: z.boolean().optional(), limit: limitInput }),
  async run(input, ctx) {
    const api = ctx.api();
    const { items: segments, total } = await readAll((first, after) => api.request(List, { first, after }).then((r) => r.savedSegments), input.limit);
    if (input.json) ctx.ui.json(segments);
    else ctx.ui.list(<SegmentsView segments={segments} total={total} width={ctx.ui.width()} />, { columns: segmentColumns(), rows: segments });
    noteCut(ctx.ui, segments.length, total, 'saved segments');
  },
});

const add = defineCommand({
  name: 'add',
  summary: 'Save a segment description',
  args: [{ name: '<description...>', description: 'what the segment is, in plain language (at most 500 characters; quotes are optional)' }],
  options: [JSON_OPTION('the new segment (its segmentId)')],
  examples: ['crm segments add high-value customers in Germany', 'crm segments add "leads in Canada" --json | jq -r .segmentId'],
  input: z.object({ description: wordsArg, json: z.boolean().optional() }),
  async run(input, ctx) {
    const { createSavedSegment } = await failingAs('Error creating segment', () => ctx.api().request(Add, { description: input.description }));
    const segment = createSavedSegment.savedSegment;
    if (input.json) return ctx.ui.json(segment);
    ctx.ui.print(<NoticeLine notice={segmentCreated(segment.description)} />);
  },
});

const edit = defineCommand({
  name: 'edit',
  summary: 'Rename a saved segment or change its description',
  aliases: ['rename'],
  description:
    'A new description must be understood in full (as the web app checks it) and is counted again. A blank --name removes the name. A refusal changes nothing.',
  args: [{ name: '<id>', description: 'the segment id from crm segments (its first characters are enough)' }],
  options: [
    { flags: '--name <name>', description: 'the new name (at most 100 characters; "" removes it)' },
    { flags: '--description <text>', description: 'the new description (at most 500 characters)' },
    JSON_OPTION('the updated segment'),
  ],
  examples: ['crm segments edit 5be0c1d2 --name "Canadian prospects"', 'crm segments rename 5be0c1d2 --name ""', 'crm segments edit 5be0c1d2 --description "leads in Canada created this year"'],
  input: z
    .object({ id: idArg, name: z.string().optional(), description: z.string().optional(), json: z.boolean().optional() })
    .refine((v) => v.name !== undefined || v.description !== undefined, { message: 'Say what to change: --name and/or --description' }),
  async run(input, ctx) {
    const api = ctx.api();
    const segment = await resolveSavedSegment(api, input.id);
    const { updateSavedSegment } = await failingAs('Error updating segment', () =>
      api.request(Edit, { id: segment.id, ...(input.name !== undefined ? { name: input.name } : {}), ...(input.description !== undefined ? { description: input.description } : {}) }),
    );
    const updated = updateSavedSegment.savedSegment;
    if (input.json) return ctx.ui.json(updated);
    ctx.ui.print(<NoticeLine notice={{ title: 'Segment updated', body: updated.name ? `${updated.name}: ${updated.description}` : updated.description }} />);
  },
});

const rm = defineCommand({
  name: 'rm',
  summary: 'Delete a saved segment',
  aliases: ['delete'],
  args: [{ name: '<id>', description: 'the segment id from crm segments (its first characters are enough)' }],
  options: [{ flags: '-y, --yes', description: 'delete without asking' }, JSON_OPTION('the deleted segment')],
  examples: ['crm segments rm 5be0c1d2', 'crm segments rm 5be0c1d2 --yes'],
  input: z.object({ id: idArg, yes: z.boolean().default(false), json: z.boolean().optional() }),
  async run(input, ctx) {
    const api = ctx.api();
    const segment = await resolveSavedSegment(api, input.id);
    await ctx.ui.confirm(SEGMENT_DELETE_CONFIRM, { yes: input.yes, detail: segment.description });
    await failingAs('Error deleting segment', () => api.request(Remove, { id: segment.id }));
    if (input.json) return ctx.ui.json({ segmentId: segment.segmentId, description: segment.description, deleted: true });
    ctx.ui.print(<NoticeLine notice={segmentDeleted(segment.description)} />);
  },
});

const run = defineCommand({
  name: 'run',
  summary: 'Run a saved segment as a query (uses one of your daily chat queries)',
  description: 'Its description is asked as a question, as crm query does; the query is kept in crm history.',
  args: [{ name: '<id>', description: 'the segment id from crm segments (its first characters are enough)' }],
  options: RESULT_OPTIONS,
  examples: ['crm segments run 5be0c1d2', 'crm segments run 5be0c1d2 --json --limit 50', 'crm segments run 5be0c1d2 --csv germany.csv'],
  input: z.object({ id: idArg, ...resultInput }),
  async run(input, ctx) {
    const csv = planResultOutput(input);
    const api = ctx.api();
    const segment = await resolveSavedSegment(api, input.id);
    const { runSavedSegment } = await runWithLimitMessage('run', () => ctx.ui.task('Searching your CRM…', () => api.request(Run, { id: segment.id, first: Math.min(PAGE, input.limit) })));
    await showResult(ctx, 'run', runSavedSegment, input, csv);
  },
});

export default defineGroup({
  name: 'segments',
  summary: 'List, add, run, rename and delete your saved segments',
  commands: [list, add, run, edit, rm],
  defaultCommand: 'list',
  examples: ['crm segments', 'crm segments add leads in Canada', 'crm segments run 5be0c1d2', 'crm segments edit 5be0c1d2 --name "Canadian prospects"', 'crm segments rm 5be0c1d2 --yes'],
});
