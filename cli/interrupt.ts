// Ctrl-C, `kill` and a closed terminal end the CLI, but first what the running command registered is
// run: a half-written export file is removed, the user is told what goes on on the server. main.ts
// installs the signal handlers; commands never exit the process themselves.
import os from 'node:os';

export const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type Signal = (typeof SIGNALS)[number];

const handlers = new Set<(signal: Signal) => void>();

/** Runs `fn` if the process is interrupted before the returned function is called. */
export function onInterrupt(fn: (signal: Signal) => void): () => void {
  handlers.add(fn);
  return () => handlers.delete(fn);
}

/** Runs the registered handlers, newest first; returns the exit code a shell gives to the signal (130 for Ctrl-C). */
export function interrupted(signal: Signal): number {
  for (const fn of [...handlers].reverse()) {
    try {
      fn(signal);
    } catch {
      // Best effort: the other handlers still run.
    }
  }
  handlers.clear();
  return 128 + os.constants.signals[signal];
}
