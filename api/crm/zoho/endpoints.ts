/**
 * Where the product finds Zoho: Zoho's own hosts (per data centre) when ZOHO_CLIENT_ID or
 * ZOHO_ACCOUNTS_URL is set, otherwise the Zoho sandbox mounted in the API process. Zoho's hosts depend
 * on the account's data centre, so the accounts URLs here are templates with `{dc}` (empty: Zoho's own
 * table, data-centres.ts); the API domain comes with each token (`api_domain`) and is stored with the
 * connection.
 */
import type { Config } from '../../config.js';
import type { CrmEndpoints } from '../provider.js';
import { DEFAULT_ZOHO_CREDENTIALS, ZOHO_SANDBOX_PATH } from '../zoho-sandbox/app.js';
import { configureZohoBudgets } from './budget.js';
import { ZOHO_DATA_CENTRES, isZohoDataCentre, type ZohoDataCentre } from './data-centres.js';
import { accountsUrlOf, ZOHO_SCOPES } from './oauth.js';

export { ZOHO_SANDBOX_PATH };

export interface ZohoEndpoints extends CrmEndpoints {
  /** the data centre used when the user names none */
  defaultDataCentre: ZohoDataCentre;
}

export function resolveZohoEndpoints(config: Config, appUrl: string): ZohoEndpoints {
  configureZohoBudgets({ redisUrl: config.redisUrl, concurrency: config.zoho.concurrency });
  const sandbox = !config.zoho.clientId && !config.zoho.accountsUrl;
  const external = config.publicUrl ?? appUrl;
  const dc = sandbox ? config.zoho.sandboxDataCentre : config.zoho.dataCentre;
  const apiTemplate = sandbox ? `${appUrl}${ZOHO_SANDBOX_PATH}/api/{dc}` : config.zoho.apiDomain;
  return {
    sandbox,
    apiBaseUrl: apiTemplate ? apiTemplate.replaceAll('{dc}', dc) : ZOHO_DATA_CENTRES[dc].apiDomain,
    // templates: the browser's accounts server, and the one this server calls (the same for real Zoho)
    authBaseUrl: sandbox ? `${external}${ZOHO_SANDBOX_PATH}/accounts/{dc}` : (config.zoho.accountsUrl ?? ''),
    tokenBaseUrl: sandbox ? `${appUrl}${ZOHO_SANDBOX_PATH}/accounts/{dc}` : (config.zoho.accountsUrl ?? ''),
    clientId: config.zoho.clientId ?? (sandbox ? DEFAULT_ZOHO_CREDENTIALS.clientId : undefined),
    clientSecret: config.zoho.clientSecret ?? (sandbox ? DEFAULT_ZOHO_CREDENTIALS.clientSecret : undefined),
    scopes: ZOHO_SCOPES,
    redirectUri: `${external}/api/auth/zoho/callback`,
    defaultDataCentre: dc,
  };
}

/** The browser's accounts server of a data centre. */
export function browserAccountsUrl(e: CrmEndpoints, dc: ZohoDataCentre): string {
  return accountsUrlOf(dc, e.authBaseUrl || undefined);
}

/** The accounts server this server calls for a data centre. */
export function serverAccountsUrl(e: CrmEndpoints, dc: ZohoDataCentre): string {
  return accountsUrlOf(dc, e.tokenBaseUrl || undefined);
}

/** The data centre a user picked, or the default. */
export function dataCentreOf(e: CrmEndpoints, region: string | undefined): ZohoDataCentre {
  if (region && isZohoDataCentre(region)) return region;
  return (e as Partial<ZohoEndpoints>).defaultDataCentre ?? 'us';
}
