import { describe, expect, it } from 'vitest';
import { actionText, detailEntries, words } from './audit-text';

describe('the audit log in words', () => {
  it('names actions', () => {
    expect(actionText('pricingTier.update')).toBe('Pricing tier updated');
    expect(actionText('user.ban')).toBe('User banned');
    expect(actionText('smart-segments.generate')).toBe('Smart segments generated');
    expect(actionText('maintenance.cleanup')).toBe('Maintenance cleanup run');
    expect(words('smartSegmentPreset')).toBe('Smart segment preset');
  });
  it('reads details as labelled values, never JSON', () => {
    expect(detailEntries({ chatQueryLimit: 20, reason: 'Chargebacks', isLocked: true, changes: { monthlyPrice: 9 }, ids: ['a', 'b'] })).toEqual([
      ['Chat query limit', '20'],
      ['Reason', 'Chargebacks'],
      ['Is locked', 'yes'],
      ['Changes', 'monthly price 9'],
      ['Ids', 'a, b'],
    ]);
    expect(detailEntries(null)).toEqual([]);
  });
});
