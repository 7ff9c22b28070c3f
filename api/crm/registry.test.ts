import { describe, expect, it } from 'vitest';
import { CrmError, getConnectorFactory, HubSpotConnector, isCrmSupported, supportedCrmTypes } from './index.js';

describe('connector registry', () => {
  it('returns the HubSpot factory', () => {
    const f = getConnectorFactory('hubspot');
    expect(f.displayName).toBe('HubSpot');
    expect(f.create({ getAccessToken: () => 'pat-na1-x' })).toBeInstanceOf(HubSpotConnector);
    expect(supportedCrmTypes()).toEqual(['hubspot']);
    expect(isCrmSupported('hubspot')).toBe(true);
  });

  it.each([
    ['pipedrive', 'PipeDrive is not yet supported. HubSpot is the supported CRM today.'],
    ['salesforce', 'Salesforce is not yet supported. HubSpot is the supported CRM today.'],
    ['zoho', 'Zoho is not yet supported. HubSpot is the supported CRM today.'],
    ['other', 'This CRM is not yet supported. HubSpot is the supported CRM today.'],
    ['sugarcrm', 'This CRM is not yet supported. HubSpot is the supported CRM today.'],
    [null, 'This CRM is not yet supported. HubSpot is the supported CRM today.'],
  ])('%s → NOT_SUPPORTED, never a crash', (crmType, message) => {
    let caught: unknown;
    try {
      getConnectorFactory(crmType);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CrmError);
    expect(caught).toMatchObject({ code: 'NOT_SUPPORTED', message });
    expect(isCrmSupported(crmType)).toBe(false);
  });
});
