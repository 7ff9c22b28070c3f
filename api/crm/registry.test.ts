import { describe, expect, it } from 'vitest';
import { CrmError, crmLabel, getProvider, HubSpotConnector, isCrmSupported, registeredProviders } from './index.js';

describe('CRM registry', () => {
  it('returns the HubSpot provider, whose connector is the HubSpot connector', () => {
    const p = getProvider('hubspot');
    expect(p.label).toBe('HubSpot');
    expect(p.createConnector({ getAccessToken: () => 'pat-na1-x' })).toBeInstanceOf(HubSpotConnector);
    expect(registeredProviders().map((x) => x.crmType)).toContain('hubspot');
    expect(isCrmSupported('hubspot')).toBe(true);
    expect(crmLabel('hubspot')).toBe('HubSpot');
  });

  it.each([
    ['other', 'This CRM cannot be connected directly yet. Import your contacts from a CSV or Excel export instead.'],
    ['sugarcrm', 'This CRM cannot be connected directly yet. Import your contacts from a CSV or Excel export instead.'],
    [null, 'This CRM cannot be connected directly yet. Import your contacts from a CSV or Excel export instead.'],
  ])('%s → NOT_SUPPORTED pointing at the contacts file, never a crash', (crmType, message) => {
    let caught: unknown;
    try {
      getProvider(crmType);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CrmError);
    expect(caught).toMatchObject({ code: 'NOT_SUPPORTED', message });
    expect(isCrmSupported(crmType)).toBe(false);
    expect(crmLabel(crmType)).toBe('your CRM');
  });
});
