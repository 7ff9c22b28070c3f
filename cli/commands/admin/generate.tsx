// crm admin generate: generates today's Smart Segments now, with live progress from the
// generationProgress subscription (users done / total, segments, errors), to the end of the run on
// the job workers.
import { z } from 'zod';
import { runFollower } from '../../../client/generation-progress.js';
import { segmentsGenerated } from '../../../client/messages.js';
import { TIMED_OUT } from '../../api.js';
import { defineCommand, JSON_OPTION } from '../../command.js';
import { CliError, failingAs } from '../../errors.js';
import { graphql, operation } from '../../graphql.js';
import { resolveUser } from '../../ids.js';
import { onInterrupt } from '../../interrupt.js';
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

/** What goes on after Ctrl-C: the run is the server's; watching it is ours. */
function stoppedNote(started: boolean, runId: string | null): string {
  if (runId) return `Stopped watching: the run goes on on the server. Follow it again with crm admin generate --follow ${runId}`;
  if (started) return 'Stopped watching: the generation goes on on the server until every user is done; crm admin stats and crm smart (as the user) show its segments then';
  return 'Stopped: no generation was started';
}

/** An abort signal that fires when `reset` has not been called for `ms` (the server went quiet). */
function idleSignal(ms: number) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const reset = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(TIMED_OUT), ms);
  };
  reset();
  return { signal: controller.signal, reset, stop: () => clearTimeout(timer) };
}

export default defineCommand({
  name: 'generate',
  summary: "Generate today's Smart Segments now, with live progress",
  description: [
    'For every user with a CRM connection (or one user with --user). Re-running updates the rows and keeps unlocks.',
    'Ctrl-C stops watching, not the run: it goes on on the server. A run has an id; --follow <run-id> watches it again.',
  ].join('\n\n'),
  options: [
    { flags: '--user <email|id>', description: 'only this user' },
    { flags: '--follow <run-id>', description: 'watch a run that was started before (its id is shown when it starts), without starting one' },
    JSON_OPTION('the totals of the run'),
  ],
  examples: ['crm admin generate', 'crm admin generate --user demo@crm-assistant.local', 'crm admin generate --follow 0b6c6c1e-8a4e-4d8e-9a39-3f0c2f1d6c11'],
  input: z.object({ user: z.string().trim().min(1).optional(), follow: z.string().trim().min(1).optional(), json: z.boolean().optional() }),
  async run(input, ctx) {
    if (input.user && input.follow) throw new CliError('--user and --follow cannot go together: --follow watches a run that has started already');
    const api = ctx.api();
    const userId = input.user ? (await resolveUser(api, input.user)).id : null;
    const live = ctx.ui.generationProgress();
    live.update(null);
    // The run may take long; the server is alive while its events come. The request gives up when
    // none has come for the timeout.
    const quiet = idleSignal(ctx.timeoutMs());
    // Subscribe first, so that the run's events are not missed. The run is queued on the job workers:
    // the answer is its start, and it ends with the event (or the read of its state) that says done.
    const follower = runFollower<Progress>();
    const seen = (p: Progress) => {
      quiet.reset();
      live.update(follower.seen(p));
    };
    const subscription = api.subscribe(Progress, {}, (data) => seen(data.generationProgress));
    subscription.ended.catch(() => undefined);
    let started = false;
    let runId: string | null = input.follow ?? null;
    const stopOnInterrupt = onInterrupt(() => {
      live.end();
      ctx.ui.note(stoppedNote(started, runId));
    });
    let timer: NodeJS.Timeout | undefined;
    // A queued run's state is also read every few seconds (a dropped socket loses events); when the
    // server stays away beyond the reads' retries, following ends with that error.
    const polled = (id: string) =>
      new Promise<never>((_resolve, reject) => {
        timer = setInterval(() => {
          api.request(Run, { id }).then((d) => d.generationRun && seen(d.generationRun), reject);
        }, RUN_READ_MS);
      });
    try {
      await subscription.ready;
      let stats: Omit<Progress, 'done' | 'runId'>;
      if (input.follow) {
        const { generationRun } = await api.request(Run, { id: input.follow });
        if (!generationRun) throw new CliError(`No generation run ${input.follow}`, 'Its id is shown when a run is queued on the job workers');
        seen(generationRun);
        stats = await Promise.race([follower.follow(input.follow), polled(input.follow)]);
      } else {
        started = true;
        const answer = (await failingAs('Generation Failed', () => api.request(Generate, { userId }, { signal: quiet.signal }))).generateSmartSegments.stats;
        const queued = answer.runId;
        runId = queued;
        ctx.ui.note(`Queued on the job workers as run ${queued}; following it (Ctrl-C stops watching, not the run)`);
        stats = await Promise.race([follower.follow(queued), polled(queued)]);
      }
      live.update({ ...stats, done: true });
      live.end();
      const { users, completedUsers, totalSegments, successCount, failedCount } = stats;
      if (input.json) return ctx.ui.json({ runId, users, completedUsers, totalSegments, successCount, failedCount });
      ctx.ui.print(<NoticeLine notice={segmentsGenerated(stats.successCount, stats.users)} level={stats.failedCount ? 'warning' : 'success'} />);
      if (stats.failedCount) ctx.ui.note(`${stats.failedCount} segments could not be generated: see crm smart as the user, or the server log`);
    } finally {
      stopOnInterrupt();
      quiet.stop();
      clearInterval(timer);
      live.end();
      subscription.stop();
    }
  },
});
