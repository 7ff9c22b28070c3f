import { describe, expect, it } from 'vitest';
import { productLifecycleStage } from './hubspot/model/index.js';
import { CONTACT_PROPERTIES, mapContactToCustomer, toIsoDate, toWholeUsd } from './mapping.js';

describe('lifecycle stage mapping', () => {
  it.each([
    ['subscriber', 'subscriber'],
    ['lead', 'lead'],
    ['marketingqualifiedlead', 'lead'],
    ['salesqualifiedlead', 'lead'],
    ['opportunity', 'opportunity'],
    ['customer', 'customer'],
    ['evangelist', 'customer'],
    ['other', 'unknown'],
    ['', 'unknown'],
    [null, 'unknown'],
    [undefined, 'unknown'],
    ['1234567', 'unknown'], // custom stage ids
    ['Customer', 'customer'],
    [' Customer ', 'customer'],
    ['MARKETINGQUALIFIEDLEAD', 'lead'],
  ] as const)('%s → %s', (input, expected) => {
    expect(productLifecycleStage(input)).toBe(expected);
  });
});

describe('mapContactToCustomer', () => {
  it('maps every field', () => {
    expect(
      mapContactToCustomer({
        id: '101',
        properties: {
          hs_object_id: '101',
          firstname: ' Alice ',
          lastname: 'Smith',
          email: 'alice@acme.com',
          company: 'Acme Corporation',
          lifecyclestage: 'salesqualifiedlead',
          recent_deal_close_date: '2025-03-04T23:30:00.000Z',
          recent_deal_amount: '1520.5',
          total_revenue: '10234.49',
          city: 'San Francisco',
          state: 'California',
          country: 'United States',
        },
      }),
    ).toEqual({
      id: '101',
      firstName: 'Alice',
      lastName: 'Smith',
      email: 'alice@acme.com',
      company: 'Acme Corporation',
      lifecycleStage: 'lead',
      lastPurchaseDate: '2025-03-04',
      lastPurchaseAmount: 1521,
      lifetimeValue: 10234,
      city: 'San Francisco',
      state: 'California',
      country: 'United States',
    });
  });

  it('maps missing values to null and falls back to the record id', () => {
    expect(mapContactToCustomer({ id: '7', properties: { firstname: '', recent_deal_amount: null } })).toEqual({
      id: '7', firstName: null, lastName: null, email: null, company: null, lifecycleStage: 'unknown',
      lastPurchaseDate: null, lastPurchaseAmount: null, lifetimeValue: null, city: null, state: null, country: null,
    });
  });

  it('rounds money to whole USD and reads dates in UTC', () => {
    expect(toWholeUsd('0.5')).toBe(1);
    expect(toWholeUsd('2.49')).toBe(2);
    expect(toWholeUsd('-2.5')).toBe(-3);
    expect(toWholeUsd('-0.4')).toBe(0);
    expect(toWholeUsd('abc')).toBeNull();
    expect(toIsoDate('1735689599999')).toBe('2024-12-31');
    expect(toIsoDate('2025-01-01T00:00:00.000Z')).toBe('2025-01-01');
    expect(toIsoDate('garbage')).toBeNull();
  });

  it('requests exactly the properties it maps', () => {
    expect([...CONTACT_PROPERTIES].sort()).toEqual(
      ['city', 'company', 'country', 'email', 'firstname', 'hs_object_id', 'lastname', 'lifecyclestage', 'recent_deal_amount', 'recent_deal_close_date', 'state', 'total_revenue'],
    );
  });
});
