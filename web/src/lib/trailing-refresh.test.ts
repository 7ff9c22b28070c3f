import { describe, expect, it } from 'vitest';
import { trailingRefresh } from './trailing-refresh';

/** A run the test finishes by hand, counting how many started. */
function controlledRun() {
  const pending: Array<(ok: boolean) => void> = [];
  const run = () => new Promise<void>((resolve, reject) => pending.push((ok) => (ok ? resolve() : reject(new Error('network')))));
  const finish = async (ok = true) => {
    pending.shift()!(ok);
    await new Promise((r) => setTimeout(r, 0));
  };
  return { run, pending, finish, started: () => pending.length };
}

describe('trailingRefresh', () => {
  it('runs at once when idle', () => {
    const c = controlledRun();
    trailingRefresh(c.run)();
    expect(c.started()).toBe(1);
  });

  it('never overlaps, and calls made during a run earn exactly one more run after it', async () => {
    const c = controlledRun();
    const refresh = trailingRefresh(c.run);
    refresh();
    refresh();
    refresh();
    refresh();
    expect(c.started()).toBe(1);
    await c.finish();
    expect(c.started()).toBe(1); // the one trailing run, started after the first ended
    await c.finish();
    expect(c.started()).toBe(0);
  });

  it('a failed run still lets the trailing run happen, and later calls run again', async () => {
    const c = controlledRun();
    const refresh = trailingRefresh(c.run);
    refresh();
    refresh();
    await c.finish(false);
    expect(c.started()).toBe(1);
    await c.finish();
    refresh();
    expect(c.started()).toBe(1);
  });
});
