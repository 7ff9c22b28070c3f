/**
 * The Pipedrive-compatible sandbox: a Hono app serving the parts of Pipedrive's public API the product
 * uses, at Pipedrive's paths, over the shared synthetic people (as persons, organizations and deals of
 * one company). The routes live by topic in `routes/` and share one state (state.ts):
 *
 *   routes/records.ts  GET /api/v2/persons[/{id}]        (filter_id, ids, org_id, owner_id, cursor paging ≤ 500)
 *                      GET /api/v2/organizations[/{id}]
 *                      GET /api/v2/deals[/{id}]          (filter_id, person_id, status, ...)
 *   routes/v1.ts       GET /v1/users/me                   (also under /api/v1)
 *                      GET /v1/personFields, /v1/organizationFields, /v1/dealFields
 *                      GET|POST /v1/filters, GET /v1/filters/helpers, GET|PUT|DELETE /v1/filters/{id}, DELETE /v1/filters?ids=
 *   routes/oauth.ts    GET /oauth/authorize, POST /oauth/token, POST /oauth/revoke   (oauth.pipedrive.com)
 *
 * Mount it anywhere: `parent.route('/pipedrive-sandbox', sandbox.app)`; the OAuth `api_domain` is derived
 * from the incoming request URL, so API calls of OAuth tokens come back through the mount prefix.
 */
import { Hono } from 'hono';
import type { TokenStore } from './auth.js';
import type { PdCompanyData } from './data.js';
import type { SandboxFaults } from './faults.js';
import type { RateLimiter } from './rate-limit.js';
import { oauthRoutes } from './routes/oauth.js';
import { recordRoutes } from './routes/records.js';
import { v1Routes } from './routes/v1.js';
import { createSandboxState, type PipedriveSandboxConfig, type PipedriveSandboxOptions, type SandboxClock, type SandboxState } from './state.js';
import type { CompanyStore } from './store.js';

export { DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS, type PipedriveSandboxOptions, type SandboxClock } from './state.js';

export interface IssuedPipedriveToken {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  expiresAt: number;
  scopes: string[];
}

export interface PipedriveSandbox {
  app: Hono;
  store: CompanyStore;
  data: PdCompanyData;
  config: PipedriveSandboxConfig;
  tokens: TokenStore;
  clock: SandboxClock;
  limiter: RateLimiter;
  stats: SandboxState['stats'];
  /** mints an OAuth access + refresh token pair directly (no browser round trip) */
  issueTestToken(options?: { scopes?: string[]; ttlSeconds?: number }): IssuedPipedriveToken;
  /** revokes a refresh token (and its access tokens) or an access token */
  revokeToken(token: string): boolean;
  /** forgets burst windows and the day's token spending */
  resetRateLimits(): void;
  /** the fault switchboard passed in options (tests only) */
  faults: SandboxFaults | undefined;
}

export function createPipedriveSandbox(options: PipedriveSandboxOptions = {}): PipedriveSandbox {
  const state = createSandboxState(options);
  const { store, config, tokens, clock, limiter, stats, users } = state;
  const app = new Hono();
  if (options.faults) app.use('*', options.faults.middleware());
  const v1 = v1Routes(state);
  app.route('/v1', v1);
  app.route('/api/v1', v1);
  app.route('/', recordRoutes(state));
  app.route('/', oauthRoutes(state));
  return {
    app,
    store,
    data: store.data,
    config,
    tokens,
    clock,
    limiter,
    stats,
    faults: options.faults,
    issueTestToken(opts = {}) {
      const scopes = opts.scopes ?? config.scopes;
      const refresh = tokens.newRefreshToken(config.clientId, scopes, users[0]);
      const access = tokens.newAccessToken(config.clientId, scopes, users[0], refresh.token, opts.ttlSeconds);
      return { accessToken: access.token, refreshToken: refresh.token, expiresIn: Math.round((access.expiresAt - access.issuedAt) / 1000), expiresAt: access.expiresAt, scopes };
    },
    revokeToken: (t) => tokens.revoke(t, config.clientId),
    resetRateLimits: () => limiter.reset(),
  };
}
