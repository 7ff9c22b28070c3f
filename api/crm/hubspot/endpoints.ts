// Where the product finds HubSpot: the real HubSpot when HUBSPOT_API_BASE_URL is set, otherwise the
// HubSpot-compatible sandbox mounted in the API process.
import type { Config } from '../../config.js';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../hubspot-sandbox/app.js';
import type { CrmEndpoints } from '../provider.js';
import { HUBSPOT_AUTH_BASE_URL } from './oauth.js';

export const HUBSPOT_SANDBOX_PATH = '/hubspot-sandbox';

/** @param appUrl the URL this process listens on (used for the in-process sandbox) */
export function resolveHubSpotEndpoints(config: Config, appUrl: string): CrmEndpoints {
  const sandbox = !config.hubspot.apiBaseUrl;
  const external = config.publicUrl ?? appUrl;
  return {
    sandbox,
    apiBaseUrl: config.hubspot.apiBaseUrl ?? `${appUrl}${HUBSPOT_SANDBOX_PATH}`,
    authBaseUrl: config.hubspot.authBaseUrl ?? (sandbox ? `${external}${HUBSPOT_SANDBOX_PATH}` : HUBSPOT_AUTH_BASE_URL),
    clientId: config.hubspot.clientId ?? (sandbox ? DEFAULT_SANDBOX_CREDENTIALS.clientId : undefined),
    clientSecret: config.hubspot.clientSecret ?? (sandbox ? DEFAULT_SANDBOX_CREDENTIALS.clientSecret : undefined),
    scopes: config.hubspot.scopes,
    redirectUri: `${external}/api/auth/hubspot/callback`,
  };
}
