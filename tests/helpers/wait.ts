// Waiting for something asynchronous in a test: vitest's own waitFor, for a condition that is false
// until it holds (never a fixed sleep).
import { vi } from 'vitest';

export function until(check: () => boolean | Promise<boolean>, opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<void> {
  return vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${opts.what ?? 'condition'}`);
    },
    { timeout: opts.timeoutMs ?? 15_000, interval: opts.intervalMs ?? 25 },
  );
}
