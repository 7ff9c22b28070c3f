import { describe, expect, it } from 'vitest';
import { questionLimitNote } from './usage.js';

describe('questionLimitNote', () => {
  it('says nothing below 80 %, the count above, and the reset time at the limit', () => {
    expect(questionLimitNote(3, 10, 'UTC')).toBeNull();
    expect(questionLimitNote(9, 10, 'UTC')).toEqual({ level: 'warning', text: '9 of 10 used today' });
    expect(questionLimitNote(10, 10, 'UTC')).toEqual({ level: 'limit', text: '10 of 10 used today, resets at midnight UTC' });
    expect(questionLimitNote(12, 10, 'Europe/Berlin')).toEqual({ level: 'limit', text: '12 of 10 used today, resets at midnight (Europe/Berlin)' });
    expect(questionLimitNote(0, 0, 'UTC')?.level).toBe('limit'); // a tier without questions
  });
});
