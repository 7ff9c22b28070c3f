import { describe, expect, it } from 'vitest';
import { CrmError } from '../errors.js';
import { assertBodySize, assertWithinSearchLimits, planPartition, withIdFloor } from './partition.js';
import type { HubSpotFilterGroup } from './model/index.js';

const g = (n: number, tag = 'x'): HubSpotFilterGroup => ({
  filters: Array.from({ length: n }, (_, i) => ({ propertyName: `${tag}${i}`, operator: 'HAS_PROPERTY' as const })),
});
const fits = (batch: HubSpotFilterGroup[]) => {
  const floored = withIdFloor(batch, '1');
  return floored.length <= 5 && floored.every((x) => x.filters.length <= 6) && floored.reduce((s, x) => s + x.filters.length, 0) <= 18;
};

describe('planPartition', () => {
  it('keeps a request that still fits in one batch', () => {
    expect(planPartition([])).toEqual({ batches: [[]], unpartitionable: [] });
    const groups = [g(2, 'a'), g(5, 'b'), g(3, 'c')];
    expect(planPartition(groups)).toEqual({ batches: [groups], unpartitionable: [] });
  });

  it('splits when the extra filter would exceed 18 in total', () => {
    const groups = [g(3, 'a'), g(3, 'b'), g(3, 'c'), g(3, 'd'), g(3, 'e')]; // 15 + 5 = 20
    const plan = planPartition(groups);
    expect(plan.batches.length).toBe(2);
    expect(plan.batches.flat()).toEqual(groups);
    for (const b of plan.batches) expect(fits(b)).toBe(true);
  });

  it('sets aside groups that already have 6 filters', () => {
    const groups = [g(6, 'a'), g(1, 'b'), g(6, 'c')];
    const plan = planPartition(groups);
    expect(plan.unpartitionable).toEqual([groups[0], groups[2]]);
    expect(plan.batches).toEqual([[groups[1]]]);
  });

  it('always yields batches within limits (exhaustive over small shapes)', () => {
    const sizes = [1, 2, 3, 4, 5, 6];
    for (const a of sizes) for (const b of sizes) for (const c of sizes) {
      const groups = [g(a, 'a'), g(b, 'b'), g(c, 'c'), g(a, 'd'), g(b, 'e')];
      const plan = planPartition(groups);
      for (const batch of plan.batches) expect(fits(batch)).toBe(true);
      expect([...plan.batches.flat(), ...plan.unpartitionable].length).toBe(groups.length);
    }
  });
});

describe('withIdFloor', () => {
  it('adds hs_object_id GT to every group, or makes it the only group', () => {
    expect(withIdFloor([], '42')).toEqual([{ filters: [{ propertyName: 'hs_object_id', operator: 'GT', value: '42' }] }]);
    const groups = [g(1, 'a'), g(2, 'b')];
    const out = withIdFloor(groups, '7');
    expect(out.map((x) => x.filters.at(-1))).toEqual([
      { propertyName: 'hs_object_id', operator: 'GT', value: '7' },
      { propertyName: 'hs_object_id', operator: 'GT', value: '7' },
    ]);
    expect(groups[0].filters).toHaveLength(1); // input untouched
    expect(withIdFloor(groups, null)).toEqual(groups);
  });
});

describe('request checks', () => {
  it('rejects requests over HubSpot limits with VALIDATION', () => {
    const bad = [
      { filterGroups: [g(1), g(1), g(1), g(1), g(1), g(1)] },
      { filterGroups: [g(7)] },
      { filterGroups: [g(6), g(6), g(6), g(1)] },
      { filterGroups: [], sorts: [{ propertyName: 'a', direction: 'ASCENDING' as const }, { propertyName: 'b', direction: 'ASCENDING' as const }] },
    ];
    for (const req of bad) expect(() => assertWithinSearchLimits(req)).toThrow(CrmError);
    expect(() => assertWithinSearchLimits({ filterGroups: [g(6), g(6), g(6)] })).not.toThrow();
  });

  it('measures the body like HubSpot (3,000 characters)', () => {
    expect(() => assertBodySize({ filterGroups: [], query: 'x'.repeat(2970) })).not.toThrow();
    expect(() => assertBodySize({ filterGroups: [], query: 'x'.repeat(3000) })).toThrow(/3000/);
  });
});
