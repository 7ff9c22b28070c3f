import { describe, expect, it } from 'vitest';
import { endsRun, laterProgress } from './generation-progress.js';

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
