import { describe, expect, it } from 'vitest';
import { formatLocalDate, localDateString, resolveContext, resolveDateExpr, zonedTimeToEpoch } from './resolve.js';

const at = (iso: string, timeZone = 'UTC') => resolveContext({ now: iso, timeZone });

describe('date resolution', () => {
  it('resolves relative, anchored and absolute dates in UTC', () => {
    const ctx = at('2026-06-15T12:00:00Z'); // Monday
    expect(new Date(resolveDateExpr({ kind: 'relative', amount: 30, unit: 'day', direction: 'past' }, ctx)).toISOString()).toBe('2026-05-16T12:00:00.000Z');
    expect(new Date(resolveDateExpr({ kind: 'anchor', unit: 'quarter', offset: 0 }, ctx)).toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(new Date(resolveDateExpr({ kind: 'anchor', unit: 'quarter', offset: -1 }, ctx)).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(new Date(resolveDateExpr({ kind: 'anchor', unit: 'week', offset: 0 }, ctx)).toISOString()).toBe('2026-06-15T00:00:00.000Z');
    expect(new Date(resolveDateExpr({ kind: 'anchor', unit: 'week', offset: -1 }, ctx)).toISOString()).toBe('2026-06-08T00:00:00.000Z');
    expect(new Date(resolveDateExpr({ kind: 'anchor', unit: 'year', offset: -1 }, ctx)).toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(new Date(resolveDateExpr({ kind: 'absolute', date: '2024-03-01' }, ctx)).toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect(resolveDateExpr({ kind: 'now' }, ctx)).toBe(Date.parse('2026-06-15T12:00:00Z'));
  });

  it('weeks start on Monday, also on a Sunday', () => {
    const ctx = at('2026-06-14T23:00:00Z'); // Sunday
    expect(new Date(resolveDateExpr({ kind: 'anchor', unit: 'week', offset: 0 }, ctx)).toISOString()).toBe('2026-06-08T00:00:00.000Z');
  });

  it('clamps month arithmetic to the end of the month', () => {
    const ctx = at('2026-03-31T10:00:00Z');
    expect(new Date(resolveDateExpr({ kind: 'relative', amount: 1, unit: 'month', direction: 'past' }, ctx)).toISOString()).toBe('2026-02-28T10:00:00.000Z');
  });

  it('uses the local calendar of the time zone', () => {
    // 02:00 UTC on Jun 15 is still Jun 14 in Los Angeles
    const ctx = at('2026-06-15T02:00:00Z', 'America/Los_Angeles');
    expect(new Date(resolveDateExpr({ kind: 'anchor', unit: 'day', offset: 0 }, ctx)).toISOString()).toBe('2026-06-14T07:00:00.000Z');
    expect(localDateString(ctx.nowMs, ctx.timeZone)).toBe('2026-06-14');
    expect(new Date(resolveDateExpr({ kind: 'absolute', date: '2026-01-01' }, ctx)).toISOString()).toBe('2026-01-01T08:00:00.000Z');
  });

  it('keeps the wall-clock time across a DST change and skips DST gaps', () => {
    // Berlin: DST starts 2026-03-29 02:00 -> 03:00
    const ctx = at('2026-04-05T10:00:00Z', 'Europe/Berlin'); // 12:00 local (CEST)
    expect(new Date(resolveDateExpr({ kind: 'relative', amount: 2, unit: 'week', direction: 'past' }, ctx)).toISOString()).toBe('2026-03-22T11:00:00.000Z');
    // 02:30 does not exist that day: moved forward by the gap (like Temporal's "compatible"), 03:30 CEST
    expect(new Date(zonedTimeToEpoch(2026, 3, 29, 2, 30, 0, 0, 'Europe/Berlin')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // Santiago: DST ends at midnight, the day still starts at a valid instant
    const t = zonedTimeToEpoch(2026, 9, 6, 0, 0, 0, 0, 'America/Santiago');
    expect(localDateString(t, 'America/Santiago')).toBe('2026-09-06');
  });

  it('formats dates and rejects unknown time zones', () => {
    expect(formatLocalDate(Date.parse('2025-01-05T12:00:00Z'), 'UTC')).toBe('Jan 5, 2025');
    expect(() => resolveContext({ timeZone: 'Not/AZone' })).toThrow(expect.objectContaining({ code: 'INVALID_TIME_ZONE' }));
    expect(() => resolveContext({ now: 'not a date' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
