// crm admin generate: generates today's Smart Segments now, with live progress from the
// generationProgress subscription (users done / total, segments, errors).
import { z } from 'zod';
import { segmentsGenerated } from '../../../client/messages.js';
import { defineCommand } from '../../command.js';
import { failingAs } from '../../errors.js';
import { graphql, operation } from '../../graphql.js';
import { resolveUser } from '../../ids.js';
import { NoticeLine } from '../../views/Notice.js';
import generateProgressNode, { type generateProgressSubscription } from '../../__generated__/generateProgressSubscription.graphql.js';
import generateNode, { type generateMutation } from '../../__generated__/generateMutation.graphql.js';

const Progress = operation<generateProgressSubscription>(
  generateProgressNode,
  graphql`
    subscription generateProgressSubscription {
      generationProgress {
        users
        completedUsers
        totalSegments
        successCount
        failedCount
        done
      }
    }
  `,
);

const Generate = operation<generateMutation>(
  generateNode,
  graphql`
    mutation generateMutation($userId: ID) {
      generateSmartSegments(input: { userId: $userId }) {
        stats {
          users
          completedUsers
          totalSegments
          successCount
          failedCount
        }
      }
    }
  `,
);

export default defineCommand({
  name: 'generate',
  summary: "Generate today's Smart Segments now, with live progress",
  description: 'For every user with a CRM connection (or one user with --user). Re-running updates the rows and keeps unlocks.',
  options: [{ flags: '--user <email|id>', description: 'only this user' }],
  examples: ['crm admin generate', 'crm admin generate --user demo@crm-assistant.local'],
  input: z.object({ user: z.string().trim().min(1).optional() }),
  async run(input, ctx) {
    const api = ctx.api();
    const userId = input.user ? (await resolveUser(api, input.user)).id : null;
    const live = ctx.ui.generationProgress();
    live.update(null);
    // Subscribe first, so that the run's events are not missed; the progress is only a view, the
    // mutation's answer is the result.
    const subscription = api.subscribe(Progress, {}, (data) => live.update(data.generationProgress));
    subscription.ended.catch(() => undefined);
    try {
      await subscription.ready;
      const { stats } = (await failingAs('Generation Failed', () => api.request(Generate, { userId }))).generateSmartSegments;
      live.update({ ...stats, done: true });
      live.end();
      ctx.ui.print(<NoticeLine notice={segmentsGenerated(stats.successCount, stats.users)} level={stats.failedCount ? 'warning' : 'success'} />);
      if (stats.failedCount) ctx.ui.note(`${stats.failedCount} segments could not be generated: see crm smart as the user, or the server log`);
    } finally {
      live.end();
      subscription.stop();
    }
  },
});
