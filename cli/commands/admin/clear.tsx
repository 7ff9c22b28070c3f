// crm admin clear <email|id>: deletes one user's generated Smart Segments of a day (default today).
import { z } from 'zod';
import { segmentsCleared } from '../../../client/messages.js';
import { dateOption, defineCommand, idArg, JSON_OPTION } from '../../command.js';
import { failingAs } from '../../errors.js';
import { graphql, operation } from '../../graphql.js';
import { resolveUser } from '../../ids.js';
import { NoticeLine } from '../../views/Notice.js';
import clearNode, { type clearMutation } from '../../__generated__/clearMutation.graphql.js';

const Clear = operation<clearMutation>(
  clearNode,
  graphql`
    mutation clearMutation($userId: ID!, $date: Date) {
      clearSmartSegments(input: { userId: $userId, date: $date }) {
        deletedCount
      }
    }
  `,
);

export default defineCommand({
  name: 'clear',
  summary: "Delete a user's generated Smart Segments of a day",
  description: 'Asks first (--yes without a terminal). Unlocks of those segments are lost; a new generation makes them again.',
  args: [{ name: '<user>', description: 'email, user id, or the first characters of the id' }],
  options: [
    { flags: '--date <YYYY-MM-DD>', description: 'the day (default today)' },
    { flags: '-y, --yes', description: 'clear without asking' },
    JSON_OPTION('how many were deleted'),
  ],
  examples: ['crm admin clear demo@crm-assistant.local', 'crm admin clear 1c9e77d0 --date 2026-11-20 --yes'],
  input: z.object({ user: idArg, date: dateOption.optional(), yes: z.boolean().default(false), json: z.boolean().optional() }),
  async run(input, ctx) {
    const api = ctx.api();
    const user = await resolveUser(api, input.user);
    await ctx.ui.confirm(`Delete the Smart Segments of ${user.firstName} ${user.lastName} <${user.email}> generated ${input.date ? `on ${input.date}` : 'today'}?`, {
      yes: input.yes,
      detail: 'Their unlocks of those segments are lost too.',
    });
    const { clearSmartSegments } = await failingAs('Clear Failed', () => api.request(Clear, { userId: user.id, date: input.date ?? null }));
    if (input.json) return ctx.ui.json({ userId: user.userId, email: user.email, deletedCount: clearSmartSegments.deletedCount });
    ctx.ui.print(<NoticeLine notice={segmentsCleared(clearSmartSegments.deletedCount)} />);
  },
});
