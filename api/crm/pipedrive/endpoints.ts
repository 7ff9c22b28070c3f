// Where the product finds Pipedrive: the real Pipedrive when PIPEDRIVE_API_BASE_URL is set (API calls of
// personal API tokens go there; OAuth connections use their own `api_domain`), otherwise the
// Pipedrive-compatible sandbox mounted in the API process.
import type { Config } from '../../config.js';
import { DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS } from '../pipedrive-sandbox/state.js';
import type { CrmEndpoints } from '../provider.js';
import { configurePipedriveBudgets } from './daily-budget.js';
import { PIPEDRIVE_OAUTH_HOST } from './model/index.js';

export const PIPEDRIVE_SANDBOX_PATH = '/pipedrive-sandbox';

/** @param appUrl the URL this process listens on (used for the in-process sandbox) */
export function resolvePipedriveEndpoints(config: Config, appUrl: string): CrmEndpoints {
  // The daily budgets of this process's connectors are shared through the product's Redis.
  configurePipedriveBudgets({ redisUrl: config.redisUrl });
  const sandbox = !config.pipedrive.apiBaseUrl;
  const external = config.publicUrl ?? appUrl;
  return {
    sandbox,
    apiBaseUrl: config.pipedrive.apiBaseUrl ?? `${appUrl}${PIPEDRIVE_SANDBOX_PATH}`,
    // The browser goes to the authorize page; the server exchanges codes at the token endpoint.
    authBaseUrl: config.pipedrive.oauthBaseUrl ?? (sandbox ? `${external}${PIPEDRIVE_SANDBOX_PATH}` : PIPEDRIVE_OAUTH_HOST),
    tokenBaseUrl: config.pipedrive.oauthBaseUrl ?? (sandbox ? `${appUrl}${PIPEDRIVE_SANDBOX_PATH}` : PIPEDRIVE_OAUTH_HOST),
    clientId: config.pipedrive.clientId ?? (sandbox ? DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.clientId : undefined),
    clientSecret: config.pipedrive.clientSecret ?? (sandbox ? DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.clientSecret : undefined),
    // Pipedrive apps declare their scopes in the Marketplace Manager (contacts: full — the connector
    // creates filters —, deals: read, users: read).
    scopes: [],
    redirectUri: `${external}/api/auth/pipedrive/callback`,
  };
}
