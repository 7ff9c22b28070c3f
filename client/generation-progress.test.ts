import { describe, expect, it } from 'vitest';
import { endsRun, laterProgress, runFollower } from './generation-progress.js';

const p = (runId: string | null, completedUsers: number, done = false) => ({ runId, completedUsers, done });

describe('laterProgress', () => {
  it('takes the first event, and newer counts of the same run', () => {
    expect(laterProgress(null, p('r1', 0))).toEqual(p('r1', 0));
    expect(laterProgress(p('r1', 1), p('r1', 2))).toEqual(p('r1', 2));
  });

  it('keeps the shown progress when an older event of the same run arrives late', () => {
    expect(laterProgress(p('r1', 3), p('r1', 2))).toEqual(p('r1', 3));
    expect(laterProgress(p('r1', 4, true), p('r1', 3))).toEqual(p('r1', 4, true));
  });

  it('follows another run, and runs done in one request (no runId), as they come', () => {
    expect(laterProgress(p('r1', 3), p('r2', 0))).toEqual(p('r2', 0));
    expect(laterProgress(p(null, 3), p(null, 1))).toEqual(p(null, 1));
  });
});

describe('endsRun', () => {
  it('is true only for the done event of that run', () => {
    expect(endsRun(p('r1', 2, true), 'r1')).toBe(true);
    expect(endsRun(p('r1', 1), 'r1')).toBe(false);
    expect(endsRun(p('r2', 2, true), 'r1')).toBe(false);
    expect(endsRun(p(null, 2, true), null)).toBe(false);
    expect(endsRun(null, 'r1')).toBe(false);
  });
});

describe('runFollower', () => {
  it('shows the newer progress of a run, whatever order its events arrive in', () => {
    const f = runFollower();
    expect(f.seen(p('r1', 2))).toEqual(p('r1', 2));
    expect(f.seen(p('r1', 1))).toEqual(p('r1', 2));
    f.clear();
    expect(f.seen(p('r1', 1))).toEqual(p('r1', 1));
  });

  it('resolves a followed run with its done event', async () => {
    const f = runFollower();
    const end = f.follow('r1');
    f.seen(p('r2', 3, true));
    f.seen(p('r1', 1));
    f.seen(p('r1', 2, true));
    await expect(end).resolves.toEqual(p('r1', 2, true));
  });

  it('resolves at once for a run that ended before it was followed', async () => {
    const f = runFollower();
    f.seen(p('r1', 1, true));
    f.seen(p('r2', 0));
    await expect(f.follow('r1')).resolves.toEqual(p('r1', 1, true));
  });
});
