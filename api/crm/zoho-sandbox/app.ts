/**
 * The Zoho CRM sandbox: a Hono app serving the parts of Zoho CRM's public API the product uses, at
 * Zoho's paths, over the shared synthetic people mapped to Leads, Contacts, Accounts and Deals (data.ts).
 * Zoho splits its hosts by data centre (accounts.zoho.eu, www.zohoapis.eu, ...); the sandbox serves each
 * data centre under a path of its own, and the org lives in one of them (`dataCentre`, default "us"):
 *
 *   accounts server  /accounts/{dc}/oauth/v2/auth | token | token/revoke,
 *                    /accounts/{dc}/developerconsole/self-client/code            (routes/oauth.ts)
 *   API domain       /api/{dc}/crm/v7/coql                                       (routes/coql.ts)
 *                    /api/{dc}/crm/v7/settings/fields?module=…, /org, /users     (routes/settings.ts)
 *
 * Every API call needs `Authorization: Zoho-oauthtoken …`, costs API credits (a rolling 24-hour budget
 * reported in X-RATELIMIT-DAY-LIMIT / -REMAINING; 429 when used up) and counts against the org's
 * concurrency limit (429 beyond it). Mount it anywhere (`parent.route('/zoho-sandbox', sandbox.app)`):
 * the URLs it hands out (accounts-server, api_domain) come from the incoming request's URL.
 */
import { Hono } from 'hono';
import { ZOHO_SCOPES } from '../zoho/oauth.js';
import type { GrantCode } from './auth.js';
import { apiMiddleware } from './http.js';
import type { ZohoSandboxFaults } from './faults.js';
import { coqlRoutes } from './routes/coql.js';
import { oauthRoutes } from './routes/oauth.js';
import { settingsRoutes } from './routes/settings.js';
import { createSandboxState, type SandboxState, type ZohoSandboxOptions } from './state.js';

export { DEFAULT_ZOHO_CREDENTIALS, type ZohoSandboxOptions, type SandboxClock } from './state.js';

/** What the product asks for (the Zoho connector's scopes): test tokens and grants carry them by default. */
export const ZOHO_READ_SCOPES: readonly string[] = ZOHO_SCOPES;

export interface IssuedZohoToken {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scopes: string[];
  /** the API domain's path inside the sandbox (`/api/us`) */
  apiPath: string;
}

/** Where the product serves the sandbox in embedded mode (like /hubspot-sandbox). */
export const ZOHO_SANDBOX_PATH = '/zoho-sandbox';

export interface ZohoSandbox {
  app: Hono;
  state: SandboxState;
  config: SandboxState['config'];
  clock: SandboxState['clock'];
  stats: SandboxState['stats'];
  faults: ZohoSandboxFaults | undefined;
  /** mints an access + refresh token pair directly (no browser round trip) */
  issueTestToken(options?: { scopes?: string[]; ttlSeconds?: number }): IssuedZohoToken;
  /** a self-client grant code, as the API console's "Generate Code" gives one */
  issueSelfClientGrant(options?: { scopes?: string[]; minutes?: number }): GrantCode;
  /** revokes a refresh token and the access tokens minted from it */
  revokeToken(token: string): boolean;
  /** gives the org its full API credits back */
  resetCredits(): void;
}

/**
 * @param options.basePath serve every route under this prefix (e.g. ZOHO_SANDBOX_PATH when a host app
 *   hands requests over unchanged); without it mount the app with `parent.route(prefix, sandbox.app)`.
 */
export function createZohoSandbox(options: ZohoSandboxOptions & { basePath?: string } = {}): ZohoSandbox {
  const state = createSandboxState(options);
  const { config, tokens } = state;
  const app = options.basePath ? new Hono().basePath(options.basePath) : new Hono();
  // The gate first: an injected latency is time a request spends in flight.
  app.use('/api/:dc/crm/*', apiMiddleware(state));
  if (options.faults) app.use('*', options.faults.middleware());
  app.route('/', coqlRoutes(state));
  app.route('/', settingsRoutes(state));
  app.route('/', oauthRoutes(state));
  return {
    app,
    state,
    config,
    clock: state.clock,
    stats: state.stats,
    faults: options.faults,
    issueTestToken(opts = {}) {
      const scopes = opts.scopes ?? [...ZOHO_READ_SCOPES];
      const refresh = tokens.newRefreshToken(config.clientId, scopes);
      const access = tokens.newAccessToken(config.clientId, scopes, refresh.token, opts.ttlSeconds);
      return { accessToken: access.token, refreshToken: refresh.token, expiresIn: Math.round((access.expiresAt - access.issuedAt) / 1000), scopes, apiPath: `/api/${config.dataCentre}` };
    },
    issueSelfClientGrant(opts = {}) {
      return tokens.newGrantCode(config.selfClientId, null, opts.scopes ?? [...ZOHO_READ_SCOPES], true, (opts.minutes ?? 10) * 60);
    },
    revokeToken: (t) => tokens.revoke(t),
    resetCredits: () => state.credits.reset(),
  };
}
