// Where the product finds Salesforce: the login host (SALESFORCE_LOGIN_URL, e.g.
// https://login.salesforce.com, https://test.salesforce.com for a Salesforce sandbox org, or the org's
// My Domain) when it is set, otherwise the Salesforce-compatible sandbox mounted in this process. The
// API itself lives on each org's instance URL, which the token response (or the user) gives.
import type { Config } from '../../config.js';
import { DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS } from '../salesforce-sandbox/app.js';
import type { CrmEndpoints } from '../provider.js';

export const SALESFORCE_SANDBOX_PATH = '/salesforce-sandbox';
export const SALESFORCE_LOGIN_URL = 'https://login.salesforce.com';

/** @param appUrl the URL this process listens on (used for the in-process sandbox) */
export function resolveSalesforceEndpoints(config: Config, appUrl: string): CrmEndpoints {
  const sandbox = !config.salesforce.loginUrl;
  const external = config.publicUrl ?? appUrl;
  const login = config.salesforce.loginUrl ?? `${appUrl}${SALESFORCE_SANDBOX_PATH}`;
  return {
    sandbox,
    // the token endpoint, and the instance URL a pasted token defaults to in embedded mode
    apiBaseUrl: login,
    authBaseUrl: sandbox ? `${external}${SALESFORCE_SANDBOX_PATH}` : login,
    tokenBaseUrl: login,
    clientId: config.salesforce.clientId ?? (sandbox ? DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS.clientId : undefined),
    clientSecret: config.salesforce.clientSecret ?? (sandbox ? DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS.clientSecret : undefined),
    scopes: config.salesforce.scopes,
    redirectUri: `${external}/api/auth/salesforce/callback`,
  };
}

/**
 * A pasted instance URL, checked: https on a Salesforce host (the product sends the user's session
 * there, so it must not be any other server), or the embedded sandbox. Returns the URL without a
 * trailing slash, or null.
 */
export function checkInstanceUrl(raw: string, allowedSuffixes: readonly string[], sandboxUrls: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  const clean = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  if (sandboxUrls.some((u) => clean === u.replace(/\/+$/, ''))) return clean;
  if (url.protocol !== 'https:' || url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return null;
  const host = url.hostname.toLowerCase();
  return allowedSuffixes.some((s) => host === s || host.endsWith(`.${s}`)) ? url.origin : null;
}
