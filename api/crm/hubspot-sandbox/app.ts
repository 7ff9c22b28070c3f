/**
 * The HubSpot-compatible sandbox: a Hono app serving the parts of HubSpot's public API the product
 * uses, at HubSpot's paths, over deterministic synthetic contacts. The routes live by topic in
 * `routes/` and share one state (state.ts):
 *
 *   routes/contacts.ts    POST /crm/v3/objects/contacts/search
 *                         GET  /crm/v3/objects/contacts                 (list: limit ≤ 100, after, properties)
 *                         GET  /crm/v3/objects/contacts/{id}            (properties, idProperty=email)
 *                         POST /crm/v3/objects/contacts/batch/read
 *                         GET  /contacts/{portal}/record/0-1/{id}      (the contact's page in the app, HTML)
 *   routes/properties.ts  GET  /crm/v3/properties/contacts[/{name}]
 *   routes/oauth.ts       GET  /oauth/authorize                          (auto-approves, 302 to redirect_uri)
 *                         POST /oauth/v1/token                           (authorization_code | refresh_token, form-encoded)
 *                         GET  /oauth/v1/access-tokens/{token}
 *                         GET|DELETE /oauth/v1/refresh-tokens/{token}
 *                         POST /oauth/v2/private-apps/get/access-token-info
 *
 * Mount it anywhere: `parent.route('/hubspot-sandbox', sandbox.app)`; URLs it generates (list paging
 * links) are derived from the incoming request URL, so they keep the mount prefix.
 */
import { Hono } from 'hono';
import type { TokenStore } from './auth.js';
import type { SandboxContact } from './data.js';
import type { SandboxFaults } from './faults.js';
import { contactRoutes } from './routes/contacts.js';
import { oauthRoutes } from './routes/oauth.js';
import { propertyRoutes } from './routes/properties.js';
import { createSandboxState, type HubSpotSandboxOptions, type SandboxClock, type SandboxConfig } from './state.js';
import type { ContactStore } from './store.js';

export { DEFAULT_SANDBOX_CREDENTIALS, type HubSpotSandboxOptions, type SandboxClock } from './state.js';

export interface IssuedTestToken {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  expiresAt: number;
  scopes: string[];
}

export interface HubSpotSandbox {
  app: Hono;
  store: ContactStore;
  contacts: readonly SandboxContact[];
  config: SandboxConfig;
  tokens: TokenStore;
  clock: SandboxClock;
  /** mints an OAuth access + refresh token pair directly (no browser round trip) */
  issueTestToken(options?: { scopes?: string[]; ttlSeconds?: number }): IssuedTestToken;
  /** revokes a refresh token (and its access tokens), like DELETE /oauth/v1/refresh-tokens/{token} */
  revokeRefreshToken(refreshToken: string): boolean;
  /** forgets the throttling history */
  resetRateLimits(): void;
  /** request counters, handy in tests */
  stats: { searchRequests: number; rateLimited: number };
  /** the fault switchboard passed in options (tests only) */
  faults: SandboxFaults | undefined;
}

export function createHubSpotSandbox(options: HubSpotSandboxOptions = {}): HubSpotSandbox {
  const state = createSandboxState(options);
  const { store, config, tokens, clock, limiter, stats } = state;
  const app = new Hono();
  if (options.faults) app.use('*', options.faults.middleware());
  app.route('/', contactRoutes(state));
  app.route('/', propertyRoutes(state));
  app.route('/', oauthRoutes(state));
  return {
    app,
    store,
    contacts: store.contacts,
    config,
    tokens,
    clock,
    stats,
    faults: options.faults,
    issueTestToken(opts = {}) {
      const scopes = opts.scopes ?? config.scopes;
      const refresh = tokens.newRefreshToken(config.clientId, scopes);
      const access = tokens.newAccessToken(config.clientId, scopes, refresh.token, opts.ttlSeconds);
      return { accessToken: access.token, refreshToken: refresh.token, expiresIn: Math.round((access.expiresAt - access.issuedAt) / 1000), expiresAt: access.expiresAt, scopes };
    },
    revokeRefreshToken: (t) => tokens.revokeRefreshToken(t),
    resetRateLimits: () => limiter.reset(),
  };
}
