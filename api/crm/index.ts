/**
 * CRM module entry. Importing it registers every CRM the product speaks natively; add a CRM by writing
 * `<crm>/provider.ts` (which calls registerProvider) and importing it here — one line per CRM.
 */
import './hubspot/provider.js';
import './salesforce/provider.js';
import './pipedrive/provider.js';
import './zoho/provider.js';

export * from './connector.js';
export { getProvider, registerProvider, registeredProviders, isCrmSupported, supportedCrmTypes, notSupportedMessage, isKnownCrmType, crmLabel } from './registry.js';
export type { CrmProvider, CrmEndpoints, CrmOAuth, CrmTokenMethod, CrmTokenSet, TokenMethodField } from './provider.js';
export { mapContactToCustomer, CONTACT_PROPERTIES, FIELD_MAPPING } from './mapping.js';
export { toCustomer, sortRecords, compareRecords } from './record.js';
export { planSegment, splitSegment, readStoredPlan } from './plan.js';
export { productLifecycleStage, LIFECYCLE_STAGES, type LifecycleStage } from './hubspot/model/index.js';
export { HubSpotConnector, createHubSpotConnector, HUBSPOT_API_BASE_URL, type HubSpotConnectorOptions } from './hubspot/connector.js';
export { buildAuthorizeUrl, exchangeCode, refreshAccessToken, revokeRefreshToken, type HubSpotTokenSet } from './hubspot/oauth.js';
export { resetSearchBuckets } from './hubspot/rate-limiter.js';
