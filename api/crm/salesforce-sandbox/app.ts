/**
 * The Salesforce-compatible sandbox: a Hono app serving the parts of Salesforce's REST API and OAuth
 * the product uses, at Salesforce's paths, over an org built from the shared synthetic people.
 *
 *   routes/data.ts   GET  /services/data                                  versions (not counted)
 *                    GET  /services/data/vNN.N                            resources
 *                    GET  /services/data/vNN.N/query?q=SOQL               query (COUNT(), aggregates, locators)
 *                    GET  /services/data/vNN.N/query/<locator>-<offset>   query more (nextRecordsUrl)
 *                    GET  /services/data/vNN.N/queryAll[?q= | /<locator>]
 *                    GET  /services/data/vNN.N/limits                     DailyApiRequests, ...
 *                    GET  /services/data/vNN.N/sobjects[/<Object>[/describe | /<id>]]
 *                    POST /services/data/vNN.N/composite                  up to 25 GET subrequests, one API call
 *   routes/oauth.ts  GET  /services/oauth2/authorize                      auto-approves, 302 to redirect_uri
 *                    POST /services/oauth2/token                          authorization_code (+PKCE) | refresh_token
 *                    POST|GET /services/oauth2/revoke
 *                    GET  /services/oauth2/userinfo, /id/<org>/<user>
 *
 * Every REST response carries `Sforce-Limit-Info`; the daily allocation and the concurrent
 * long-running request limit are enforced (limits.ts). Mount it anywhere
 * (`parent.route('/salesforce-sandbox', sandbox.app)`): the instance URL it hands out is derived from
 * the request, so it keeps the mount prefix, and `nextRecordsUrl` is relative as Salesforce's is.
 */
import { Hono } from 'hono';
import type { SyntheticPerson } from '../synthetic-people/index.js';
import type { TokenStore } from './auth.js';
import type { OrgData, OrgIdentity } from './data.js';
import type { SandboxFaults } from './faults.js';
import type { ConcurrencyGate, DailyAllocation } from './limits.js';
import { dataRoutes } from './routes/data.js';
import { oauthRoutes } from './routes/oauth.js';
import type { Schema } from './schema.js';
import type { OrgStore } from './soql/run.js';
import { createSandboxState, type SalesforceSandboxConfig, type SalesforceSandboxOptions, type SandboxClock, type SandboxStats } from './state.js';

export { DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS, type SalesforceSandboxOptions, type SandboxClock } from './state.js';

export interface IssuedTestToken {
  accessToken: string;
  refreshToken: string;
  /** what a token response's `instance_url` is relative to: pass the sandbox's base URL */
  scopes: string[];
}

export interface SalesforceSandbox {
  app: Hono;
  org: OrgData;
  schema: Schema;
  store: OrgStore;
  identity: OrgIdentity;
  config: SalesforceSandboxConfig;
  tokens: TokenStore;
  clock: SandboxClock;
  allocation: DailyAllocation;
  concurrency: ConcurrencyGate;
  stats: SandboxStats;
  /** the SOQL of the last 200 queries */
  queryLog: string[];
  faults: SandboxFaults | undefined;
  /** the synthetic person behind a Lead or Contact id (tests that compare CRMs) */
  personOf(recordId: string): SyntheticPerson | undefined;
  /** mints a session + refresh token directly (no browser round trip); `timeoutSeconds` overrides the session timeout */
  issueTestToken(options?: { scopes?: string[]; timeoutSeconds?: number }): IssuedTestToken;
  /** revokes a refresh token (and its sessions) or a session */
  revokeToken(token: string): boolean;
  /** forgets the API usage of the last 24 hours and the counters */
  resetLimits(): void;
}

export function createSalesforceSandbox(options: SalesforceSandboxOptions = {}): SalesforceSandbox {
  const state = createSandboxState(options);
  const app = new Hono();
  if (options.faults) app.use('*', options.faults.middleware());
  app.route('/', dataRoutes(state));
  app.route('/', oauthRoutes(state));
  const byPersonId = new Map(state.org.people.map((p) => [p.id, p]));
  return {
    app,
    org: state.org,
    schema: state.schema,
    store: state.store,
    identity: state.identity,
    config: state.config,
    tokens: state.tokens,
    clock: state.clock,
    allocation: state.allocation,
    concurrency: state.concurrency,
    stats: state.stats,
    queryLog: state.queryLog,
    faults: options.faults,
    personOf(recordId) {
      const pid = state.org.personIdOf.get(recordId);
      return pid === undefined ? undefined : byPersonId.get(pid);
    },
    issueTestToken(opts = {}) {
      const scopes = opts.scopes ?? ['api', 'refresh_token'];
      const refresh = state.tokens.newRefreshToken(state.config.clientId, scopes);
      const session = state.tokens.newSession(state.config.clientId, scopes, refresh.token, opts.timeoutSeconds ?? state.config.sessionTimeoutSeconds);
      return { accessToken: session.token, refreshToken: refresh.token, scopes };
    },
    revokeToken: (t) => state.tokens.revoke(t),
    resetLimits() {
      state.allocation.reset();
      for (const k of Object.keys(state.stats) as (keyof SandboxStats)[]) state.stats[k] = 0;
      state.queryLog.length = 0;
    },
  };
}
