/** Registers the HubSpot connector (imported once from api/crm/index.ts). */
import type { CrmConnectorFactory } from '../connector.js';
import { registerConnector } from '../registry.js';
import { HubSpotConnector, type HubSpotConnectorOptions } from './connector.js';

export const hubspotConnectorFactory: CrmConnectorFactory<HubSpotConnectorOptions> = {
  crmType: 'hubspot',
  displayName: 'HubSpot',
  create: (options) => new HubSpotConnector(options),
};

registerConnector(hubspotConnectorFactory);
