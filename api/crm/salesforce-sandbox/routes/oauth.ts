/**
 * OAuth 2.0 (`/services/oauth2`): authorize (auto-approves: one demo org and user), token
 * (authorization_code with optional PKCE, refresh_token), revoke, and the identity endpoints
 * (`/services/oauth2/userinfo`, the `id` URL `/id/<org>/<user>`). None of these count against the API
 * allocation, as in Salesforce.
 */
import { createHmac } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { pkceMatches, type SessionRecord } from '../auth.js';
import { oauthError, SalesforceApiError } from '../errors.js';
import { baseUrlOf, salesforceRouter, type SandboxEnv } from '../http.js';
import type { SandboxState } from '../state.js';

/** Scopes granted when the authorize request names none (the connected app's selection). */
const DEFAULT_SCOPES = ['api', 'refresh_token'];
const issuesRefreshToken = (scopes: string[]) => scopes.includes('refresh_token') || scopes.includes('offline_access');

export function oauthRoutes(state: SandboxState): Hono<SandboxEnv> {
  const { config, tokens, identity, clock } = state;
  const app = salesforceRouter();

  // A browser page: a bad client or callback URL is shown, not redirected to (Salesforce does the same).
  app.get('/services/oauth2/authorize', (c) => {
    const q = (k: string) => c.req.query(k) ?? '';
    const page = (error: string, description: string) =>
      c.html(
        `<!doctype html><html><head><title>Salesforce sandbox: authorization failed</title></head><body><h1>Authorization failed</h1><p>error=${escapeHtml(error)}&amp;error_description=${escapeHtml(description)}</p></body></html>`,
        400,
      );
    if (q('client_id') !== config.clientId) return page('invalid_client_id', 'client identifier invalid');
    const redirectUri = q('redirect_uri');
    if (!config.redirectUris.includes(redirectUri)) return page('redirect_uri_mismatch', 'redirect_uri must match configuration');
    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
      if (c.req.query('state') !== undefined) target.searchParams.set('state', q('state'));
      return c.redirect(target.toString(), 302);
    };
    if (q('response_type') !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response type not supported' });
    const requested = q('scope').split(/[\s+]+/).filter(Boolean);
    const scopes = requested.length ? requested : DEFAULT_SCOPES;
    if (scopes.some((s) => !config.scopes.includes(s))) return back({ error: 'invalid_scope', error_description: 'the requested scope is not allowed' });
    const challenge = c.req.query('code_challenge') ?? null;
    const method = (c.req.query('code_challenge_method') ?? (challenge ? 'S256' : '')).toUpperCase();
    if (config.requirePkce && !challenge) return back({ error: 'invalid_request', error_description: 'missing required code challenge' });
    if (challenge && method !== 'S256' && method !== 'PLAIN') return back({ error: 'invalid_request', error_description: 'invalid code challenge method' });
    const rec = tokens.newAuthCode({
      clientId: config.clientId,
      redirectUri,
      scopes,
      codeChallenge: challenge,
      codeChallengeMethod: challenge ? (method === 'PLAIN' ? 'plain' : 'S256') : null,
    });
    return back({ code: rec.code });
  });

  app.post('/services/oauth2/token', async (c) => {
    const form = await readForm(c);
    const get = (k: string) => form.get(k) ?? '';
    const basic = basicCredentials(c.req.header('authorization'));
    const clientId = basic?.id ?? get('client_id');
    const clientSecret = basic?.secret ?? get('client_secret');
    const grantType = get('grant_type');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') throw oauthError('unsupported_grant_type', 'grant type not supported');
    if (clientId !== config.clientId) throw oauthError('invalid_client_id', 'client identifier invalid');
    const base = baseUrlOf(c, '/services/oauth2');
    if (grantType === 'authorization_code') {
      const rec = tokens.codes.get(get('code'));
      // A code is checked before the client secret so that a PKCE-only client (no secret) can use it.
      if (!rec || rec.used) throw oauthError('invalid_grant', 'invalid authorization code');
      if (rec.expiresAt <= clock.now()) throw oauthError('invalid_grant', 'expired authorization code');
      if (get('redirect_uri') !== rec.redirectUri) throw oauthError('redirect_uri_mismatch', 'redirect_uri must match configuration');
      if (rec.codeChallenge) {
        if (!pkceMatches(rec.codeChallenge, rec.codeChallengeMethod!, get('code_verifier'))) throw oauthError('invalid_grant', 'invalid code verifier');
        if (clientSecret && clientSecret !== config.clientSecret) throw oauthError('invalid_client', 'invalid client credentials');
      } else if (clientSecret !== config.clientSecret) throw oauthError('invalid_client', 'invalid client credentials');
      rec.used = true;
      const refresh = issuesRefreshToken(rec.scopes) ? tokens.newRefreshToken(config.clientId, rec.scopes) : null;
      const session = tokens.newSession(config.clientId, rec.scopes, refresh?.token ?? null);
      return c.json({ ...tokenResponse(session, base), ...(refresh ? { refresh_token: refresh.token } : {}) });
    }
    if (clientSecret !== config.clientSecret) throw oauthError('invalid_client', 'invalid client credentials');
    const refresh = tokens.refreshTokens.get(get('refresh_token'));
    if (!refresh || refresh.revoked || refresh.clientId !== config.clientId) throw oauthError('invalid_grant', 'expired access/refresh token');
    return c.json(tokenResponse(tokens.newSession(config.clientId, refresh.scopes, refresh.token), base));
  });

  const revoke = async (c: Context<SandboxEnv>) => {
    const token = c.req.method === 'GET' ? (c.req.query('token') ?? '') : ((await readForm(c)).get('token') ?? c.req.query('token') ?? '');
    if (!tokens.revoke(token)) throw oauthError('invalid_token', 'invalid token');
    return c.body(null, 200);
  };
  app.post('/services/oauth2/revoke', revoke);
  app.get('/services/oauth2/revoke', revoke);

  const bearerSession = (c: Context<SandboxEnv>): SessionRecord => {
    const session = tokens.authenticate(c.req.header('authorization')) ?? tokens.session(c.req.query('oauth_token') ?? '');
    if (!session) throw new SalesforceApiError(403, 'Bad_OAuth_Token');
    return session;
  };

  const userinfo = (c: Context<SandboxEnv>) => {
    bearerSession(c);
    const base = baseUrlOf(c, '/services/oauth2');
    const u = identityUrls(base, state);
    return c.json({
      sub: u.id,
      user_id: identity.userId,
      organization_id: identity.orgId,
      preferred_username: identity.username,
      nickname: identity.userFirstName.toLowerCase(),
      name: `${identity.userFirstName} ${identity.userLastName}`,
      email: identity.userEmail,
      email_verified: true,
      given_name: identity.userFirstName,
      family_name: identity.userLastName,
      zoneinfo: identity.timeZone,
      photos: { picture: `${base}/profilephoto/005/F`, thumbnail: `${base}/profilephoto/005/T` },
      profile: `${base}/${identity.userId}`,
      picture: `${base}/profilephoto/005/F`,
      address: {},
      is_salesforce_integration_user: false,
      urls: u.urls,
      active: true,
      user_type: 'STANDARD',
      language: identity.language,
      locale: identity.locale,
      utcOffset: utcOffsetMs(identity.timeZone, clock.now()),
      updated_at: new Date(clock.now()).toISOString().replace('Z', '+0000'),
      is_app_installed: true,
    });
  };
  app.get('/services/oauth2/userinfo', userinfo);
  app.post('/services/oauth2/userinfo', userinfo);

  app.get('/id/:orgId/:userId', (c) => {
    bearerSession(c);
    if (c.req.param('orgId') !== identity.orgId || c.req.param('userId') !== identity.userId) throw new SalesforceApiError(404, 'Not Found');
    const base = baseUrlOf(c, '/id/');
    const u = identityUrls(base, state);
    return c.json({
      id: u.id,
      asserted_user: true,
      user_id: identity.userId,
      organization_id: identity.orgId,
      username: identity.username,
      nick_name: identity.userFirstName.toLowerCase(),
      display_name: `${identity.userFirstName} ${identity.userLastName}`,
      email: identity.userEmail,
      email_verified: true,
      first_name: identity.userFirstName,
      last_name: identity.userLastName,
      timezone: identity.timeZone,
      photos: { picture: `${base}/profilephoto/005/F`, thumbnail: `${base}/profilephoto/005/T` },
      addr_street: null,
      addr_city: null,
      addr_state: null,
      addr_country: null,
      addr_zip: null,
      mobile_phone: null,
      mobile_phone_verified: false,
      is_lightning_login_user: false,
      status: { created_date: null, body: null },
      urls: u.urls,
      active: true,
      user_type: 'STANDARD',
      language: identity.language,
      locale: identity.locale,
      utcOffset: utcOffsetMs(identity.timeZone, clock.now()),
      last_modified_date: new Date(clock.now()).toISOString().replace('Z', '+0000'),
      is_app_installed: true,
    });
  });

  function tokenResponse(session: SessionRecord, base: string) {
    const id = `${base}/id/${identity.orgId}/${identity.userId}`;
    const issuedAt = String(session.issuedAt);
    return {
      access_token: session.token,
      signature: createHmac('sha256', config.clientSecret).update(id + issuedAt).digest('base64'),
      scope: session.scopes.join(' '),
      instance_url: base,
      id,
      token_type: 'Bearer',
      issued_at: issuedAt,
    };
  }

  return app;
}

function identityUrls(base: string, state: SandboxState) {
  const { identity, config } = state;
  const v = config.latestVersion;
  const data = `${base}/services/data/v{version}`;
  return {
    id: `${base}/id/${identity.orgId}/${identity.userId}`,
    urls: {
      enterprise: `${base}/services/Soap/c/{version}/${identity.orgId.slice(0, 15)}`,
      metadata: `${base}/services/Soap/m/{version}/${identity.orgId.slice(0, 15)}`,
      partner: `${base}/services/Soap/u/{version}/${identity.orgId.slice(0, 15)}`,
      rest: `${data}/`,
      sobjects: `${data}/sobjects/`,
      search: `${data}/search/`,
      query: `${data}/query/`,
      recent: `${data}/recent/`,
      tooling_rest: `${data}/tooling/`,
      profile: `${base}/${identity.userId}`,
      custom_domain: base,
      latest_version: v,
    },
  };
}

async function readForm(c: Context<SandboxEnv>): Promise<Map<string, string>> {
  const ct = c.req.header('content-type') ?? '';
  const out = new Map<string, string>();
  if (ct.includes('application/x-www-form-urlencoded') || ct.includes('multipart/form-data')) {
    const form = await c.req.parseBody();
    for (const [k, v] of Object.entries(form)) if (typeof v === 'string') out.set(k, v);
  } else {
    // Salesforce also reads OAuth parameters from the query string.
    for (const [k, v] of new URL(c.req.url).searchParams) out.set(k, v);
  }
  return out;
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  if (!header || !header.toLowerCase().startsWith('basic ')) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
}

function utcOffsetMs(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}
