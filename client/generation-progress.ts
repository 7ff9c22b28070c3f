// Following a Smart Segment generation run from its progress events, for both clients. A run done
// in one request answers with its totals; a run queued on the job workers answers at its start
// (queued, with a runId) and ends with the event that says done. Workers announce independently,
// so a run's events may arrive out of order: the one with more users done is the newer.

export interface RunProgress {
  runId?: string | null;
  completedUsers: number;
  done: boolean;
}

/** The progress to show after `next` arrives: `next`, unless it is an older event of the same run. */
export function laterProgress<P extends RunProgress>(shown: P | null, next: P): P {
  if (shown && shown.runId && shown.runId === next.runId && (shown.done || shown.completedUsers > next.completedUsers)) return shown;
  return next;
}

/** Whether `progress` is the end of the queued run `runId`. */
export const endsRun = (progress: RunProgress | null, runId: string | null | undefined): boolean =>
  Boolean(runId && progress && progress.runId === runId && progress.done);
