/**
 * OAuth and token routes: authorize (auto-approves: one demo portal), the token grants, token
 * metadata and revocation, and private-app token info.
 */
import type { Hono } from 'hono';
import { expiredAuthentication, invalidAuthentication, notFoundError, oauthError, validationError } from '../errors.js';
import { hubSpotRouter } from '../http.js';
import type { SandboxState } from '../state.js';

export function oauthRoutes(state: SandboxState): Hono {
  const { config, tokens, portal, clock } = state;
  const app = hubSpotRouter();

  // A browser page: problems are shown as a 400 page instead of redirecting, as HubSpot does.
  app.get('/oauth/authorize', (c) => {
    const clientId = c.req.query('client_id') ?? '';
    const redirectUri = c.req.query('redirect_uri') ?? '';
    const oauthState = c.req.query('state');
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
    if (oauthState !== undefined) target.searchParams.set('state', oauthState);
    return c.redirect(target.toString(), 302);
  });

  app.post('/oauth/v1/token', async (c) => {
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
  });

  app.get('/oauth/v1/access-tokens/:token', (c) => {
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
  });

  app.get('/oauth/v1/refresh-tokens/:token', (c) => {
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
  });

  app.delete('/oauth/v1/refresh-tokens/:token', (c) => {
    if (!tokens.revokeRefreshToken(c.req.param('token'))) throw notFoundError('Refresh token not found');
    return c.body(null, 204);
  });

  app.post('/oauth/v2/private-apps/get/access-token-info', async (c) => {
    let body: Record<string, unknown> = {};
    try {
      body = (await c.req.json()) as Record<string, unknown>;
    } catch {
      throw validationError('Invalid input JSON: expected { "tokenKey": "…" }.');
    }
    const key = typeof body.tokenKey === 'string' ? body.tokenKey : '';
    if (!tokens.privateAppTokens.has(key)) throw invalidAuthentication();
    return c.json({ userId: portal.userId, hubId: config.hubId, appId: portal.appId, scopes: [...tokens.privateAppScopes] });
  });

  return app;
}

function splitScopes(s: string | undefined): string[] {
  return (s ?? '').split(/[\s+]+/).map((x) => x.trim()).filter(Boolean);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}
