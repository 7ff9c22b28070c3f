/**
 * The HubSpot-compatible sandbox: a Hono app serving the parts of HubSpot's public API the product
 * uses, at HubSpot's paths, over deterministic synthetic contacts.
 *
 *   POST   /crm/v3/objects/contacts/search
 *   GET    /crm/v3/objects/contacts                 (list: limit ≤ 100, after, properties)
 *   GET    /crm/v3/objects/contacts/{id}            (properties, idProperty=email)
 *   POST   /crm/v3/objects/contacts/batch/read
 *   GET    /crm/v3/properties/contacts[/{name}]
 *   GET    /oauth/authorize                          (auto-approves, 302 to redirect_uri)
 *   POST   /oauth/v1/token                           (authorization_code | refresh_token, form-encoded)
 *   GET    /oauth/v1/access-tokens/{token}
 *   GET    /oauth/v1/refresh-tokens/{token}
 *   DELETE /oauth/v1/refresh-tokens/{token}
 *   POST   /oauth/v2/private-apps/get/access-token-info
 *
 * Mount it anywhere: `parent.route('/hubspot-sandbox', sandbox.app)`; URLs it generates (list paging
 * links) are derived from the incoming request URL, so they keep the mount prefix.
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { TokenStore, type PortalIdentity } from './auth.js';
import { generateContacts, type SandboxContact } from './data.js';
import {
  HubSpotApiError, expiredAuthentication, invalidAuthentication, missingScopes, notFoundError, oauthError,
  secondlyRateLimit, validationError,
} from './errors.js';
import { CONTACT_PROPERTY_DEFS, DEFAULT_SEARCH_PROPERTIES, renderPropertyDefinition } from './properties.js';
import { executeSearch } from './search.js';
import { ContactStore, createContactStore, renderContact } from './store.js';

export interface HubSpotSandboxOptions {
  /** number of synthetic contacts (default 5,000) */
  contactCount?: number;
  /** generator seed (default 42) */
  seed?: number;
  /** reference time for the synthetic dates (default: today 00:00 UTC) */
  now?: Date | number | string;
  /** use these contacts instead of generating them */
  contacts?: SandboxContact[];
  /** OAuth app credentials (defaults: fixed demo values, see DEFAULT_SANDBOX_CREDENTIALS) */
  clientId?: string;
  clientSecret?: string;
  /** registered redirect URIs (exact match, as HubSpot requires) */
  redirectUris?: string[];
  /** scopes the app may request and private-app tokens carry */
  scopes?: string[];
  /** accepted private-app tokens (`Authorization: Bearer pat-…`) */
  privateAppTokens?: string[];
  /** search requests per second per account (default 5, HubSpot's limit); 0 disables throttling */
  rateLimitPerSecond?: number;
  /** access-token lifetime (default 1800 s, as HubSpot) */
  accessTokenTtlSeconds?: number;
  /** authorization-code lifetime (default 600 s) */
  authCodeTtlSeconds?: number;
  /** the demo portal */
  hubId?: number;
  hubDomain?: string;
  /** base clock (epoch ms) for token expiry and throttling (default Date.now); see `clock` controls */
  clock?: () => number;
  /** build every search index up front (slower start, steadier first searches) */
  warmUp?: boolean;
}

export interface SandboxClock {
  now(): number;
  /** moves the sandbox clock forward (token expiry, rate-limit windows) */
  advance(ms: number): void;
  /** pins the clock to a fixed instant (until reset) */
  set(epochMs: number): void;
  /** back to the base clock */
  reset(): void;
}

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
  config: {
    hubId: number;
    hubDomain: string;
    clientId: string;
    clientSecret: string;
    redirectUris: string[];
    scopes: string[];
    privateAppTokens: string[];
    rateLimitPerSecond: number;
    accessTokenTtlSeconds: number;
  };
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
}

export const DEFAULT_SANDBOX_CREDENTIALS = {
  clientId: '5d3c7e1a-8b2f-4c6d-9e0a-1f2b3c4d5e6f',
  clientSecret: 'a9f8e7d6-c5b4-4a3b-8c2d-1e0f9a8b7c6d',
  privateAppToken: 'pat-na1-7c1e9a52-3f4b-4d8e-b6a0-2c5d8e1f4a97',
  hubId: 24_186_743,
  hubDomain: 'sandbox-24186743.hubspot.local',
  redirectUris: ['http://localhost:3000/api/auth/hubspot/callback', 'http://127.0.0.1:3000/api/auth/hubspot/callback'],
  scopes: ['oauth', 'crm.objects.contacts.read', 'crm.schemas.contacts.read'],
} as const;

const CONTACTS_READ = 'crm.objects.contacts.read';
const SCHEMAS_READ = 'crm.schemas.contacts.read';

/** Sliding one-second window per account, as HubSpot's SECONDLY policy for search. */
class SecondlyLimiter {
  private readonly hits = new Map<number, number[]>();
  constructor(private readonly limit: number) {}

  /** Returns 0 when admitted, else the seconds to wait. */
  check(account: number, now: number): number {
    if (!(this.limit > 0)) return 0;
    let list = this.hits.get(account);
    if (!list) this.hits.set(account, (list = []));
    while (list.length && list[0] <= now - 1000) list.shift();
    if (list.length >= this.limit) return Math.max(1, Math.ceil((list[0] + 1000 - now) / 1000));
    list.push(now);
    return 0;
  }

  reset(): void {
    this.hits.clear();
  }
}

export function createHubSpotSandbox(options: HubSpotSandboxOptions = {}): HubSpotSandbox {
  const contacts = options.contacts ?? generateContacts({ count: options.contactCount ?? 5000, seed: options.seed ?? 42, now: options.now });
  const store = createContactStore(contacts);
  if (options.warmUp) store.warmUp();

  const baseClock = options.clock ?? (() => Date.now());
  let offset = 0;
  let pinned: number | null = null;
  const clock: SandboxClock = {
    now: () => (pinned ?? baseClock()) + offset,
    advance: (ms) => {
      offset += ms;
    },
    set: (t) => {
      pinned = t;
      offset = 0;
    },
    reset: () => {
      pinned = null;
      offset = 0;
    },
  };

  const config: HubSpotSandbox['config'] = {
    hubId: options.hubId ?? DEFAULT_SANDBOX_CREDENTIALS.hubId,
    hubDomain: options.hubDomain ?? DEFAULT_SANDBOX_CREDENTIALS.hubDomain,
    clientId: options.clientId ?? DEFAULT_SANDBOX_CREDENTIALS.clientId,
    clientSecret: options.clientSecret ?? DEFAULT_SANDBOX_CREDENTIALS.clientSecret,
    redirectUris: options.redirectUris ?? [...DEFAULT_SANDBOX_CREDENTIALS.redirectUris],
    scopes: options.scopes ?? [...DEFAULT_SANDBOX_CREDENTIALS.scopes],
    privateAppTokens: options.privateAppTokens ?? [DEFAULT_SANDBOX_CREDENTIALS.privateAppToken],
    rateLimitPerSecond: options.rateLimitPerSecond ?? 5,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 1800,
  };
  const portal: PortalIdentity = { hubId: config.hubId, hubDomain: config.hubDomain, userId: 7_120_001, user: 'demo@sandbox.hubspot.local', appId: 3_100_417 };
  const tokens = new TokenStore(
    portal,
    clock.now,
    config.accessTokenTtlSeconds,
    options.authCodeTtlSeconds ?? 600,
    new Set(config.privateAppTokens),
    config.scopes.filter((s) => s !== 'oauth'),
  );
  const limiter = new SecondlyLimiter(config.rateLimitPerSecond);
  const stats = { searchRequests: 0, rateLimited: 0 };

  const app = new Hono();

  const fail = (c: Context, err: unknown) => {
    if (err instanceof HubSpotApiError) {
      return c.json(err.body, err.httpStatus as ContentfulStatusCode, err.headers);
    }
    throw err;
  };

  const requireAuth = (c: Context, anyOfScopes: string[]) => {
    const auth = tokens.authenticate(c.req.header('authorization'));
    if (auth.kind === 'missing' || auth.kind === 'invalid') throw invalidAuthentication();
    if (auth.kind === 'expired') throw expiredAuthentication(auth.expiredMsAgo);
    if (!anyOfScopes.some((s) => auth.scopes.includes(s))) throw missingScopes(anyOfScopes);
    return auth;
  };

  const propertiesParam = (c: Context): string[] | null => {
    const all = c.req.queries('properties');
    if (!all || all.length === 0) return null;
    return all.flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
  };

  const withSystemProps = (props: string[]) => [...new Set([...props, 'hs_object_id'])].filter((p) => store.column(p)).sort();

  // --- CRM: search -----------------------------------------------------------------------------------
  app.post('/crm/v3/objects/contacts/search', async (c) => {
    try {
      const auth = requireAuth(c, [CONTACTS_READ]);
      stats.searchRequests++;
      const wait = limiter.check(auth.hubId, clock.now());
      if (wait > 0) {
        stats.rateLimited++;
        throw secondlyRateLimit(wait, config.rateLimitPerSecond);
      }
      const text = await c.req.text();
      return c.json(executeSearch(store, text));
    } catch (err) {
      return fail(c, err);
    }
  });

  // --- CRM: batch read ----------------------------------------------------------------------------------
  app.post('/crm/v3/objects/contacts/batch/read', async (c) => {
    try {
      requireAuth(c, [CONTACTS_READ]);
      const startedAt = new Date(clock.now()).toISOString();
      let body: Record<string, unknown>;
      try {
        body = (await c.req.json()) as Record<string, unknown>;
      } catch {
        throw validationError('Invalid input JSON: the request body is not valid JSON.');
      }
      const inputs = body?.inputs;
      if (!Array.isArray(inputs)) throw validationError('Invalid input JSON: inputs must be an array.');
      if (inputs.length > 100) throw validationError(`Batch read is limited to 100 inputs, got ${inputs.length}.`);
      const requested = Array.isArray(body.properties) && body.properties.length > 0 ? body.properties.map(String) : DEFAULT_SEARCH_PROPERTIES;
      const props = withSystemProps(requested);
      const idProperty = typeof body.idProperty === 'string' ? body.idProperty : 'hs_object_id';
      const results = [];
      const missing: string[] = [];
      const seen = new Set<number>();
      for (const input of inputs) {
        const id = String((input as Record<string, unknown>)?.id ?? '');
        const row = findRow(store, id, idProperty);
        if (row < 0) missing.push(id);
        else if (!seen.has(row)) {
          seen.add(row);
          results.push(renderContact(store, row, props));
        }
      }
      const completedAt = new Date(clock.now()).toISOString();
      if (missing.length === 0) return c.json({ status: 'COMPLETE', results, startedAt, completedAt });
      return c.json(
        {
          status: 'COMPLETE',
          results,
          numErrors: 1,
          errors: [
            {
              status: 'error',
              category: 'OBJECT_NOT_FOUND',
              message: 'Could not get some CONTACT objects, they may be deleted or not exist. Check that ids are valid.',
              context: { ids: missing },
            },
          ],
          startedAt,
          completedAt,
        },
        207,
      );
    } catch (err) {
      return fail(c, err);
    }
  });

  // --- CRM: list ---------------------------------------------------------------------------------------
  app.get('/crm/v3/objects/contacts', (c) => {
    try {
      requireAuth(c, [CONTACTS_READ]);
      const limitRaw = c.req.query('limit');
      const limit = limitRaw === undefined ? 10 : Number(limitRaw);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw validationError(`limit must be an integer between 1 and 100, got ${JSON.stringify(limitRaw)}.`);
      const afterRaw = c.req.query('after');
      let start = 0;
      if (afterRaw !== undefined && afterRaw !== '') {
        if (!/^\d+$/.test(afterRaw)) throw validationError(`Invalid after cursor ${JSON.stringify(afterRaw)}.`);
        // `after` is the hs_object_id of the first record of the page
        start = lowerBoundIds(store.ids, Number(afterRaw));
      }
      const props = withSystemProps(propertiesParam(c) ?? DEFAULT_SEARCH_PROPERTIES);
      const end = Math.min(store.size, start + limit);
      const results = [];
      for (let r = start; r < end; r++) results.push(renderContact(store, r, props));
      const response: Record<string, unknown> = { results };
      if (end < store.size) {
        const next = String(store.ids[end]);
        const url = new URL(c.req.url);
        url.searchParams.set('after', next);
        response.paging = { next: { after: next, link: url.toString() } };
      }
      return c.json(response);
    } catch (err) {
      return fail(c, err);
    }
  });

  // --- CRM: get by id ----------------------------------------------------------------------------------
  app.get('/crm/v3/objects/contacts/:id', (c) => {
    try {
      requireAuth(c, [CONTACTS_READ]);
      const id = c.req.param('id');
      const idProperty = c.req.query('idProperty') ?? 'hs_object_id';
      const row = findRow(store, id, idProperty);
      if (row < 0) throw notFoundError(`Object not found.  objectId are usually numeric.`, { context: { id: [id] } });
      return c.json(renderContact(store, row, withSystemProps(propertiesParam(c) ?? DEFAULT_SEARCH_PROPERTIES)));
    } catch (err) {
      return fail(c, err);
    }
  });

  // --- CRM: properties ---------------------------------------------------------------------------------
  app.get('/crm/v3/properties/contacts', (c) => {
    try {
      requireAuth(c, [SCHEMAS_READ, CONTACTS_READ]);
      return c.json({ results: CONTACT_PROPERTY_DEFS.map((d, i) => renderPropertyDefinition(d, i)) });
    } catch (err) {
      return fail(c, err);
    }
  });

  app.get('/crm/v3/properties/contacts/:name', (c) => {
    try {
      requireAuth(c, [SCHEMAS_READ, CONTACTS_READ]);
      const name = c.req.param('name');
      const i = CONTACT_PROPERTY_DEFS.findIndex((d) => d.name === name);
      if (i < 0) throw notFoundError(`Unable to find property ${name} for object type contacts`);
      return c.json(renderPropertyDefinition(CONTACT_PROPERTY_DEFS[i], i));
    } catch (err) {
      return fail(c, err);
    }
  });

  // --- OAuth: authorize (browser) ------------------------------------------------------------------------
  app.get('/oauth/authorize', (c) => {
    const clientId = c.req.query('client_id') ?? '';
    const redirectUri = c.req.query('redirect_uri') ?? '';
    const state = c.req.query('state');
    const scopes = splitScopes(c.req.query('scope'));
    const optional = splitScopes(c.req.query('optional_scope'));
    const page = (title: string, detail: string) =>
      c.html(
        `<!doctype html><html><head><title>HubSpot sandbox: authorization failed</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></body></html>`,
        400,
      );
    if (clientId !== config.clientId) return page('Authorization failed', 'BAD_CLIENT_ID: the client_id is missing or unknown.');
    if (!config.redirectUris.includes(redirectUri)) {
      return page('Authorization failed', 'BAD_REDIRECT_URI: the redirect_uri does not match any redirect URL configured for this app.');
    }
    const unknown = scopes.filter((s) => !config.scopes.includes(s));
    if (scopes.length === 0 || unknown.length > 0) {
      return page(
        'Authorization failed',
        `BAD_SCOPES: there is a mismatch between the scopes in the install URL and the app's configured scopes${unknown.length ? ` (${unknown.join(', ')})` : ''}.`,
      );
    }
    const granted = [...new Set([...scopes, ...optional.filter((s) => config.scopes.includes(s))])];
    const rec = tokens.newAuthCode(clientId, redirectUri, granted);
    const target = new URL(redirectUri);
    target.searchParams.set('code', rec.code);
    if (state !== undefined) target.searchParams.set('state', state);
    return c.redirect(target.toString(), 302);
  });

  // --- OAuth: token -------------------------------------------------------------------------------------
  app.post('/oauth/v1/token', async (c) => {
    try {
      const ct = c.req.header('content-type') ?? '';
      if (!ct.includes('application/x-www-form-urlencoded') && !ct.includes('multipart/form-data')) {
        throw oauthError('BAD_REQUEST', 'The request body must be application/x-www-form-urlencoded.');
      }
      const form = await c.req.parseBody();
      const get = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : '');
      const grantType = get('grant_type');
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw oauthError('BAD_GRANT_TYPE', 'missing or unsupported grant_type');
      }
      if (get('client_id') !== config.clientId) throw oauthError('BAD_CLIENT_ID', 'missing or unknown client id');
      if (get('client_secret') !== config.clientSecret) throw oauthError('BAD_CLIENT_SECRET', 'missing or invalid client secret');
      if (grantType === 'authorization_code') {
        const rec = tokens.codes.get(get('code'));
        if (!rec || rec.clientId !== config.clientId) throw oauthError('BAD_AUTH_CODE', 'missing or unknown auth code');
        if (rec.used) throw oauthError('BAD_AUTH_CODE', 'auth code has already been used');
        if (rec.expiresAt <= clock.now()) throw oauthError('BAD_AUTH_CODE', 'auth code has expired');
        if (get('redirect_uri') !== rec.redirectUri) {
          throw oauthError('BAD_REDIRECT_URI', `redirect_uri does not match initial redirect_uri: ${rec.redirectUri}`);
        }
        rec.used = true;
        const refresh = tokens.newRefreshToken(config.clientId, rec.scopes);
        const access = tokens.newAccessToken(config.clientId, rec.scopes, refresh.token);
        return c.json({ token_type: 'bearer', refresh_token: refresh.token, access_token: access.token, expires_in: config.accessTokenTtlSeconds });
      }
      const refresh = tokens.refreshTokens.get(get('refresh_token'));
      if (!refresh || refresh.revoked || refresh.clientId !== config.clientId) {
        throw oauthError('BAD_REFRESH_TOKEN', 'missing or unknown refresh token');
      }
      const access = tokens.newAccessToken(config.clientId, refresh.scopes, refresh.token);
      return c.json({ token_type: 'bearer', refresh_token: refresh.token, access_token: access.token, expires_in: config.accessTokenTtlSeconds });
    } catch (err) {
      return fail(c, err);
    }
  });

  // --- OAuth: token metadata / revocation ---------------------------------------------------------------
  app.get('/oauth/v1/access-tokens/:token', (c) => {
    try {
      const rec = tokens.accessTokens.get(c.req.param('token'));
      if (!rec || rec.revoked) throw notFoundError('Access token not found');
      const expiresIn = tokens.expiresIn(rec);
      if (expiresIn <= 0) throw expiredAuthentication(-expiresIn * 1000);
      return c.json({
        token: rec.token,
        user: rec.user,
        hub_domain: config.hubDomain,
        scopes: rec.scopes,
        scope_to_scope_group_pks: rec.scopes.map((_, i) => 25 + i),
        trial_scopes: [],
        trial_scope_to_scope_group_pks: [],
        hub_id: rec.hubId,
        app_id: rec.appId,
        expires_in: expiresIn,
        user_id: rec.userId,
        token_type: 'access',
      });
    } catch (err) {
      return fail(c, err);
    }
  });

  app.get('/oauth/v1/refresh-tokens/:token', (c) => {
    try {
      const rec = tokens.refreshTokens.get(c.req.param('token'));
      if (!rec || rec.revoked) throw notFoundError('Refresh token not found');
      return c.json({
        token: rec.token,
        user: rec.user,
        hub_domain: config.hubDomain,
        scopes: rec.scopes,
        hub_id: rec.hubId,
        client_id: rec.clientId,
        user_id: rec.userId,
        token_type: 'refresh',
      });
    } catch (err) {
      return fail(c, err);
    }
  });

  app.delete('/oauth/v1/refresh-tokens/:token', (c) => {
    try {
      if (!tokens.revokeRefreshToken(c.req.param('token'))) throw notFoundError('Refresh token not found');
      return c.body(null, 204);
    } catch (err) {
      return fail(c, err);
    }
  });

  app.post('/oauth/v2/private-apps/get/access-token-info', async (c) => {
    try {
      let body: Record<string, unknown> = {};
      try {
        body = (await c.req.json()) as Record<string, unknown>;
      } catch {
        throw validationError('Invalid input JSON: expected { "tokenKey": "…" }.');
      }
      const key = typeof body.tokenKey === 'string' ? body.tokenKey : '';
      if (!tokens.privateAppTokens.has(key)) throw invalidAuthentication();
      return c.json({ userId: portal.userId, hubId: config.hubId, appId: portal.appId, scopes: [...tokens.privateAppScopes] });
    } catch (err) {
      return fail(c, err);
    }
  });

  return {
    app,
    store,
    contacts: store.contacts,
    config,
    tokens,
    clock,
    stats,
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

function splitScopes(s: string | undefined): string[] {
  return (s ?? '').split(/[\s+]+/).map((x) => x.trim()).filter(Boolean);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

function lowerBoundIds(ids: Float64Array, id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function findRow(store: ContactStore, id: string, idProperty: string): number {
  if (idProperty === 'email') {
    const p = store.postingsOf('email');
    const k = p.index.get(id.toLowerCase());
    return k === undefined ? -1 : p.rows[p.start[k]];
  }
  if (!/^\d+$/.test(id)) return -1;
  return store.rowOfId(Number(id));
}
