/** Registers HubSpot (imported once from api/crm/index.ts). */
import { CrmError } from '../errors.js';
import { createHubSpotSandbox } from '../hubspot-sandbox/app.js';
import type { CrmProvider } from '../provider.js';
import { registerProvider } from '../registry.js';
import { HubSpotConnector, toCrmError } from './connector.js';
import { HUBSPOT_SANDBOX_PATH, resolveHubSpotEndpoints } from './endpoints.js';
import { HUBSPOT_FIELD_MAP } from './field-map.js';
import { SEARCH_LIMITS } from './model/index.js';
import { buildAuthorizeUrl, exchangeCode, refreshAccessToken, revokeRefreshToken } from './oauth.js';

export const hubspotProvider: CrmProvider = {
  crmType: 'hubspot',
  label: 'HubSpot',
  sandboxPath: HUBSPOT_SANDBOX_PATH,
  resolveEndpoints: resolveHubSpotEndpoints,
  createSandbox: (config, endpoints) =>
    createHubSpotSandbox({ contactCount: config.sandbox.contacts, seed: config.sandbox.seed, redirectUris: [endpoints.redirectUri] }),
  fieldMapDefaults: HUBSPOT_FIELD_MAP,
  limits: { requests: SEARCH_LIMITS.requestsPerSecond, windowMs: 1000 },
  callPolicy: {
    toCrmError,
    isExpiredToken: (err: CrmError) => err.code === 'UNAUTHORIZED' && err.category === 'EXPIRED_AUTHENTICATION',
  },
  oauth: {
    authorizeUrl: (e, { state }) => buildAuthorizeUrl({ authBaseUrl: e.authBaseUrl, clientId: e.clientId!, redirectUri: e.redirectUri, scopes: e.scopes, state }),
    exchangeCode: async (e, { code }) => {
      const t = await exchangeCode({ apiBaseUrl: e.apiBaseUrl, clientId: e.clientId!, clientSecret: e.clientSecret!, redirectUri: e.redirectUri, code });
      return { accessToken: t.accessToken, refreshToken: t.refreshToken, expiresIn: t.expiresIn };
    },
    refresh: async (e, { refreshToken }) => {
      const t = await refreshAccessToken({ apiBaseUrl: e.apiBaseUrl, clientId: e.clientId!, clientSecret: e.clientSecret!, refreshToken });
      return { accessToken: t.accessToken, refreshToken: t.refreshToken, expiresIn: t.expiresIn };
    },
    revoke: (e, { token }) => revokeRefreshToken({ apiBaseUrl: e.apiBaseUrl, refreshToken: token }),
  },
  tokenMethod: {
    label: 'API token (private app)',
    help: 'In HubSpot: Settings → Integrations → Private Apps, create an app with contact read access and copy its access token.',
    fields: [{ name: 'token', label: 'Private app access token', placeholder: 'pat-na1-…', secret: true, required: true }],
    credentials: async (_e, input) => ({ accessToken: input.token, refreshToken: null, expiresIn: null }),
  },
  // HubSpot's app; the sandbox serves the same path with a page of the contact.
  recordUrl: ({ endpoints, accountId }, id) =>
    accountId ? `${endpoints.sandbox ? endpoints.apiBaseUrl : 'https://app.hubspot.com'}/contacts/${encodeURIComponent(accountId)}/record/0-1/${encodeURIComponent(id)}` : null,
  createConnector: (options) => new HubSpotConnector(options),
};

registerProvider(hubspotProvider);
