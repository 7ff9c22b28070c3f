// Where the product finds the CRM: real HubSpot when HUBSPOT_API_BASE_URL is set, otherwise the
// HubSpot-compatible sandbox mounted in the API process under SANDBOX_PATH.
import type { Config } from '../config.js';
import { HUBSPOT_AUTH_BASE_URL } from './hubspot/oauth.js';
import { DEFAULT_SANDBOX_CREDENTIALS } from './hubspot-sandbox/app.js';

export const SANDBOX_PATH = '/hubspot-sandbox';

export interface CrmEndpoints {
  /** true when the embedded sandbox serves the CRM API */
  sandbox: boolean;
  /** base URL the server calls (API + token endpoint) */
  apiBaseUrl: string;
  /** base URL of the authorize page the browser is sent to */
  authBaseUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  scopes: string[];
  redirectUri: string;
}

/** @param appUrl the URL this process listens on (used for the in-process sandbox) */
export function resolveCrmEndpoints(config: Config, appUrl: string): CrmEndpoints {
  const sandbox = !config.hubspot.apiBaseUrl;
  const external = config.publicUrl ?? appUrl;
  return {
    sandbox,
    apiBaseUrl: config.hubspot.apiBaseUrl ?? `${appUrl}${SANDBOX_PATH}`,
    authBaseUrl: config.hubspot.authBaseUrl ?? (sandbox ? `${external}${SANDBOX_PATH}` : HUBSPOT_AUTH_BASE_URL),
    clientId: config.hubspot.clientId ?? (sandbox ? DEFAULT_SANDBOX_CREDENTIALS.clientId : undefined),
    clientSecret: config.hubspot.clientSecret ?? (sandbox ? DEFAULT_SANDBOX_CREDENTIALS.clientSecret : undefined),
    scopes: config.hubspot.scopes,
    redirectUri: `${external}/api/auth/hubspot/callback`,
  };
}
