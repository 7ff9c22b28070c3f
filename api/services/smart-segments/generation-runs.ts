// A generation run queued on the job workers (one job per user, generate.ts): its row counts the
// users done and their segments, so that administrators follow the run to its end from any API
// process, whichever worker did each user. A user is counted once per run — a job that runs again
// after its worker died does not count twice — and the row that counts the last user closes the run.
import type { GenerationRun } from '@prisma/client';
import { isUuid } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import { dayToDate } from '../usage.js';
import { ADMIN_TOPIC, type GenerationProgress, type GenerationStats } from '../../events/pubsub.js';

export interface UserOutcome {
  total: number;
  success: number;
  failed: number;
}

/** Opens a run of `users` users; a run of nobody is finished at once. Announces its start. */
export async function openGenerationRun(deps: ServiceDeps, date: string, users: number): Promise<GenerationStats> {
  const run = await deps.prisma.generationRun.create({ data: { date: dayToDate(date), users, finishedAt: users === 0 ? deps.now() : null } });
  const stats: GenerationStats = { runId: run.id, date, users, completedUsers: 0, totalSegments: 0, successCount: 0, failedCount: 0 };
  publish(deps, { ...stats, done: users === 0 });
  return stats;
}

type RunCounts = Pick<GenerationRun, 'id' | 'date' | 'users' | 'completedUsers' | 'totalSegments' | 'successCount' | 'failedCount'>;

const progressOf = (run: RunCounts): GenerationProgress => ({
  runId: run.id,
  date: run.date.toISOString().slice(0, 10),
  users: run.users,
  completedUsers: run.completedUsers,
  totalSegments: run.totalSegments,
  successCount: run.successCount,
  failedCount: run.failedCount,
  done: run.completedUsers >= run.users,
});

/**
 * Counts a user's outcome into the run, once: the insert of (run, user) and the counters' increment
 * are one statement, so concurrent workers never lose an update and a repeated job adds nothing.
 * Announces the run's new totals (done with its last user). False when the user was already counted.
 */
export async function recordRunUser(deps: ServiceDeps, runId: string, userId: string, outcome: UserOutcome): Promise<boolean> {
  const rows = await deps.prisma.$queryRaw<RunCounts[]>`
    WITH counted AS (
      INSERT INTO generation_run_users (run_id, user_id) VALUES (${runId}::uuid, ${userId}::uuid)
      ON CONFLICT DO NOTHING
      RETURNING run_id
    )
    UPDATE generation_runs SET
      completed_users = completed_users + 1,
      total_segments = total_segments + ${outcome.total},
      success_count = success_count + ${outcome.success},
      failed_count = failed_count + ${outcome.failed},
      finished_at = CASE WHEN completed_users + 1 >= users THEN ${deps.now()} ELSE finished_at END
    WHERE id = (SELECT run_id FROM counted)
    RETURNING id, date, users, completed_users AS "completedUsers", total_segments AS "totalSegments",
      success_count AS "successCount", failed_count AS "failedCount"`;
  if (!rows[0]) return false;
  publish(deps, progressOf(rows[0]));
  return true;
}

/** A queued run's progress now (for a client that may have missed its events); null for no such run. */
export async function readGenerationRun(deps: ServiceDeps, runId: string): Promise<GenerationProgress | null> {
  if (!isUuid(runId)) return null;
  const run = await deps.prisma.generationRun.findUnique({ where: { id: runId } });
  return run ? progressOf(run) : null;
}

function publish(deps: ServiceDeps, progress: GenerationProgress) {
  deps.events.pubsub.publish('generationProgress', ADMIN_TOPIC, progress);
}

/**
 * Resolves with the run's final state once its last user is counted (the REST route of spec §7 answers
 * with the finished run's figures), or with its state so far when `signal` aborts (the client left;
 * the run goes on). Woken by the run's events, and reads the row at least every second besides, so
 * an event lost between processes only delays it.
 */
export async function waitForRunEnd(deps: ServiceDeps, runId: string, signal?: AbortSignal): Promise<GenerationProgress | null> {
  const iterator = deps.events.pubsub.subscribe('generationProgress', ADMIN_TOPIC)[Symbol.asyncIterator]();
  let wake = () => {};
  void (async () => {
    for (;;) {
      const next = await iterator.next().catch(() => ({ done: true as const, value: undefined }));
      if (next.done) return;
      if (next.value.runId === runId) wake();
    }
  })();
  const onAbort = () => wake();
  signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      const run = await readGenerationRun(deps, runId);
      if (!run || run.done || signal?.aborted) return run;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await iterator.return?.();
  }
}
