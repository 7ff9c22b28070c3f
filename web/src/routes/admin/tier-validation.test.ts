import { describe, expect, it } from 'vitest';
import { parseLimit, parsePrice, tierCreateErrors, tierCreateInput, tierEditError, tierEditValues, type TierEditDraft } from './tier-validation';

const ok: TierEditDraft = { displayName: 'Pro', chatQueryLimit: '100', smartSegmentLimit: '10', priceMonthly: '49', priceYearly: '490.5' };

describe('tierEditError (spec §5, tier edit)', () => {
  it('accepts a valid edit, zero included', () => {
    expect(tierEditError(ok)).toBeNull();
    expect(tierEditError({ ...ok, chatQueryLimit: '0', smartSegmentLimit: '0', priceMonthly: '0', priceYearly: '0.00' })).toBeNull();
  });

  it.each([
    ['chatQueryLimit', '', 'Chat query limit must be a valid positive number'],
    ['chatQueryLimit', '-1', 'Chat query limit must be a valid positive number'],
    ['chatQueryLimit', 'abc', 'Chat query limit must be a valid positive number'],
    ['chatQueryLimit', '1.5', 'Chat query limit must be a valid positive number'],
    ['smartSegmentLimit', '-3', 'Smart segment limit must be a valid positive number'],
    ['smartSegmentLimit', ' ', 'Smart segment limit must be a valid positive number'],
    ['priceMonthly', '-0.01', 'Monthly price must be a valid positive number'],
    ['priceMonthly', '', 'Monthly price must be a valid positive number'],
    ['priceYearly', 'x', 'Yearly price must be a valid positive number'],
    ['displayName', '   ', 'Display name cannot be empty'],
  ] as const)('%s = %j → %s', (field, value, message) => {
    expect(tierEditError({ ...ok, [field]: value })).toBe(message);
  });

  it('reports the first problem in the spec order', () => {
    expect(tierEditError({ displayName: '', chatQueryLimit: '-1', smartSegmentLimit: '-1', priceMonthly: '-1', priceYearly: '-1' })).toBe(
      'Chat query limit must be a valid positive number',
    );
    expect(tierEditError({ ...ok, displayName: '', priceYearly: '-1' })).toBe('Yearly price must be a valid positive number');
  });

  it('sends prices with two decimals and a trimmed display name', () => {
    expect(tierEditValues({ ...ok, displayName: '  Pro plan ' })).toEqual({
      displayName: 'Pro plan',
      chatQueryLimit: 100,
      smartSegmentLimit: 10,
      priceMonthly: '49.00',
      priceYearly: '490.50',
    });
  });
});

describe('parsers', () => {
  it('parseLimit takes whole numbers from 0 to the largest Int', () => {
    expect(parseLimit('0')).toBe(0);
    expect(parseLimit(' 25 ')).toBe(25);
    expect(parseLimit('2147483648')).toBeNull();
    expect(parseLimit('2.5')).toBeNull();
  });

  it('parsePrice gives two-decimal strings', () => {
    expect(parsePrice('49')).toBe('49.00');
    expect(parsePrice('9.9')).toBe('9.90');
    expect(parsePrice('-0')).toBe('0.00');
    expect(parsePrice('1e2')).toBe('100.00');
    expect(parsePrice('')).toBeNull();
  });
});

describe('tierCreateErrors (spec §5, tier create)', () => {
  const empty = { name: '', displayName: '', chatQueryLimit: '', smartSegmentLimit: '', priceMonthly: '', priceYearly: '' };

  it('requires all six fields', () => {
    expect(tierCreateErrors(empty)).toEqual({
      name: 'Name is required',
      displayName: 'Display name is required',
      chatQueryLimit: 'Chat query limit is required',
      smartSegmentLimit: 'Smart segment limit is required',
      priceMonthly: 'Monthly price is required',
      priceYearly: 'Yearly price is required',
    });
  });

  it('builds the create input of a complete form', () => {
    const draft = { name: ' pro ', displayName: 'Pro', chatQueryLimit: '100', smartSegmentLimit: '10', priceMonthly: '49', priceYearly: '490' };
    expect(tierCreateErrors(draft)).toEqual({});
    expect(tierCreateInput(draft)).toEqual({
      name: 'pro',
      displayName: 'Pro',
      chatQueryLimit: 100,
      smartSegmentLimit: 10,
      priceMonthly: '49.00',
      priceYearly: '490.00',
      isActive: true,
    });
  });

  it('refuses numbers the API cannot take', () => {
    const draft = { name: 'pro', displayName: 'Pro', chatQueryLimit: '-1', smartSegmentLimit: '1.5', priceMonthly: '49', priceYearly: '-2' };
    expect(tierCreateErrors(draft)).toEqual({
      chatQueryLimit: 'Chat query limit must be a valid positive number',
      smartSegmentLimit: 'Smart segment limit must be a valid positive number',
      priceYearly: 'Yearly price must be a valid positive number',
    });
  });
});
