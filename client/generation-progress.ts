// Following a Smart Segment generation run from its progress events, for both clients. A run is
// queued on the job workers: the mutation answers at its start (with its runId) and the run ends with
// the event that says done. Workers announce independently,
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

export interface RunFollower<P extends RunProgress> {
  /** Takes an event (or a read of a run); returns the progress to show now. */
  seen(progress: P): P;
  /** Resolves with the queued run's last progress — at once if it has already ended (a small run can end before the answer that queued it). */
  follow(runId: string): Promise<P>;
  /** Forgets the progress shown (a new run starts). */
  clear(): void;
}

export function runFollower<P extends RunProgress>(): RunFollower<P> {
  let shown: P | null = null;
  const ended = new Map<string, P>();
  let waiting: { runId: string; resolve: (last: P) => void } | null = null;
  return {
    seen(progress) {
      shown = laterProgress(shown, progress);
      if (progress.runId && progress.done) ended.set(progress.runId, progress);
      if (waiting && endsRun(progress, waiting.runId)) {
        waiting.resolve(progress);
        waiting = null;
      }
      return shown;
    },
    follow(runId) {
      const last = ended.get(runId);
      return last ? Promise.resolve(last) : new Promise<P>((resolve) => (waiting = { runId, resolve }));
    },
    clear() {
      shown = null;
    },
  };
}
