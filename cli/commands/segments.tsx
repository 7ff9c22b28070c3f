// crm segments [add "<description>" | rm <id>]: your saved segment descriptions.
import { z } from 'zod';
import { segmentCreated, segmentDeleted, SEGMENT_DELETE_CONFIRM } from '../../client/messages.js';
import { defineCommand, defineGroup, idArg } from '../command.js';
import { failingAs } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import { resolveSavedSegment } from '../ids.js';
import { SegmentsView } from '../views/Lists.js';
import { NoticeLine } from '../views/Notice.js';
import segmentsListNode, { type segmentsListQuery } from '../__generated__/segmentsListQuery.graphql.js';
import segmentsAddNode, { type segmentsAddMutation } from '../__generated__/segmentsAddMutation.graphql.js';
import segmentsRemoveNode, { type segmentsRemoveMutation } from '../__generated__/segmentsRemoveMutation.graphql.js';

const List = operation<segmentsListQuery>(
  segmentsListNode,
  graphql`
    query segmentsListQuery {
      savedSegments(first: 100) {
        totalCount
        edges {
          node {
            segmentId
            description
            createdAt
            latestResult {
              customerCount
              hasError
              processedAt
            }
          }
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

const list = defineCommand({
  name: 'list',
  summary: 'List your saved segments (the default)',
  options: [{ flags: '--json', description: 'print the list as JSON' }],
  examples: ['crm segments', 'crm segments list --json'],
  input: z.object({ json: z.boolean().optional() }),
  async run(input, ctx) {
    const { savedSegments } = await ctx.api().request(List, {});
    const segments = savedSegments.edges.map((e) => e.node);
    if (input.json) return ctx.ui.json(segments);
    ctx.ui.print(<SegmentsView segments={segments} total={savedSegments.totalCount} width={ctx.ui.width()} />);
  },
});

const add = defineCommand({
  name: 'add',
  summary: 'Save a segment description',
  args: [{ name: '<description>', description: 'what the segment is, in plain language (at most 500 characters)' }],
  examples: ['crm segments add "high-value customers in Germany"'],
  input: z.object({ description: z.string() }),
  async run(input, ctx) {
    const { createSavedSegment } = await failingAs('Error creating segment', () => ctx.api().request(Add, { description: input.description }));
    ctx.ui.print(<NoticeLine notice={segmentCreated(createSavedSegment.savedSegment.description)} />);
  },
});

const rm = defineCommand({
  name: 'rm',
  summary: 'Delete a saved segment',
  aliases: ['delete'],
  args: [{ name: '<id>', description: 'the segment id from crm segments (its first characters are enough)' }],
  options: [{ flags: '-y, --yes', description: 'delete without asking' }],
  examples: ['crm segments rm 5be0c1d2', 'crm segments rm 5be0c1d2 --yes'],
  input: z.object({ id: idArg, yes: z.boolean().default(false) }),
  async run(input, ctx) {
    const api = ctx.api();
    const segment = await resolveSavedSegment(api, input.id);
    await ctx.ui.confirm(SEGMENT_DELETE_CONFIRM, { yes: input.yes, detail: segment.description });
    await failingAs('Error deleting segment', () => api.request(Remove, { id: segment.id }));
    ctx.ui.print(<NoticeLine notice={segmentDeleted(segment.description)} />);
  },
});

export default defineGroup({
  name: 'segments',
  summary: 'List, add and delete your saved segments',
  commands: [list, add, rm],
  defaultCommand: 'list',
  examples: ['crm segments', 'crm segments add "leads in Canada"', 'crm segments rm 5be0c1d2 --yes'],
});
