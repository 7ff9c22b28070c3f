/**
 * CRM module entry. Importing it registers every available connector; add a CRM by writing
 * `<crm>/provider.ts` (which calls registerConnector) and importing it here.
 */
import './hubspot/provider.js';

export * from './connector.js';
export { getConnectorFactory, registerConnector, isCrmSupported, supportedCrmTypes, notSupportedMessage, isKnownCrmType } from './registry.js';
export { mapContactToCustomer, CONTACT_PROPERTIES, FIELD_MAPPING, type Customer } from './mapping.js';
export { productLifecycleStage, LIFECYCLE_STAGES, type LifecycleStage } from './hubspot/model/index.js';
export { HubSpotConnector, createHubSpotConnector, HUBSPOT_API_BASE_URL, type HubSpotConnectorOptions } from './hubspot/connector.js';
export { buildAuthorizeUrl, exchangeCode, refreshAccessToken, revokeRefreshToken, type HubSpotTokenSet } from './hubspot/oauth.js';
export { resetSearchBuckets } from './hubspot/rate-limiter.js';
