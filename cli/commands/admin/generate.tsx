// crm admin generate: generates today's Smart Segments now, with live progress from the
// generationProgress subscription (users done / total, segments, errors), to the end of the run even
// when the server hands it to separate job workers.
import { z } from 'zod';
import { runFollower } from '../../../client/generation-progress.js';
import { segmentsGenerated } from '../../../client/messages.js';
import { defineCommand } from '../../command.js';
import { failingAs } from '../../errors.js';
import { graphql, operation } from '../../graphql.js';
import { resolveUser } from '../../ids.js';
import { NoticeLine } from '../../views/Notice.js';
import generateProgressNode, { type generateProgressSubscription } from '../../__generated__/generateProgressSubscription.graphql.js';
import generateNode, { type generateMutation } from '../../__generated__/generateMutation.graphql.js';
import generateRunNode, { type generateRunQuery } from '../../__generated__/generateRunQuery.graphql.js';

type Progress = generateProgressSubscription['response']['generationProgress'];
/** While following a queued run: how often its state is read besides the events (which a dropped socket loses). */
const RUN_READ_MS = 5000;

// The fields of a run's progress, read by the subscription and by the run query (spread unmasked).
const _progressFields = graphql`
  fragment generate_progress on GenerationProgress {
    runId
    users
    completedUsers
    totalSegments
    successCount
    failedCount
    done
  }
`;

const Progress = operation<generateProgressSubscription>(
  generateProgressNode,
  graphql`
    subscription generateProgressSubscription {
      generationProgress {
        ...generate_progress @relay(mask: false)
      }
    }
  `,
);

const Run = operation<generateRunQuery>(
  generateRunNode,
  graphql`
    query generateRunQuery($id: ID!) {
      generationRun(id: $id) {
        ...generate_progress @relay(mask: false)
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
          runId
          queued
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
    // Subscribe first, so that the run's events are not missed. A run done in this request answers
    // with its totals; a run queued on the job workers answers at its start and ends with the event
    // (or the read of its state) that says done.
    const follower = runFollower<Progress>();
    const seen = (p: Progress) => live.update(follower.seen(p));
    const subscription = api.subscribe(Progress, {}, (data) => seen(data.generationProgress));
    subscription.ended.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    try {
      await subscription.ready;
      const answer = (await failingAs('Generation Failed', () => api.request(Generate, { userId }))).generateSmartSegments.stats;
      const runId = answer.queued ? answer.runId : null;
      if (runId) {
        ctx.ui.note('Queued on the job workers; following the run (Ctrl-C stops watching, not the run)');
        timer = setInterval(() => {
          api.request(Run, { id: runId }).then((d) => d.generationRun && seen(d.generationRun), () => undefined);
        }, RUN_READ_MS);
      }
      const stats: Omit<Progress, 'done' | 'runId'> = runId ? await follower.follow(runId) : answer;
      live.update({ ...stats, done: true });
      live.end();
      ctx.ui.print(<NoticeLine notice={segmentsGenerated(stats.successCount, stats.users)} level={stats.failedCount ? 'warning' : 'success'} />);
      if (stats.failedCount) ctx.ui.note(`${stats.failedCount} segments could not be generated: see crm smart as the user, or the server log`);
    } finally {
      clearInterval(timer);
      live.end();
      subscription.stop();
    }
  },
});
