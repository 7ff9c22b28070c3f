/**
 * OAuth routes, as oauth.pipedrive.com serves them: `GET /oauth/authorize` (auto-approves: one demo
 * company and user), `POST /oauth/token` (authorization_code | refresh_token; client credentials in a
 * Basic header; form-encoded) and `POST /oauth/revoke`.
 */
import type { Context, Hono } from 'hono';
import type { PipedriveTokenResponse } from '../../pipedrive/model/index.js';
import type { AccessTokenRecord, RefreshTokenRecord } from '../auth.js';
import { oauthError } from '../errors.js';
import { pipedriveRouter } from '../http.js';
import type { SandboxState } from '../state.js';

export function oauthRoutes(state: SandboxState): Hono {
  const { config, tokens, clock, users } = state;
  const app = pipedriveRouter();

  // A browser page: problems are shown as a 400 page instead of redirecting.
  app.get('/oauth/authorize', (c) => {
    const clientId = c.req.query('client_id') ?? '';
    const redirectUri = c.req.query('redirect_uri') ?? '';
    const page = (detail: string) =>
      c.html(`<!doctype html><html><head><title>Pipedrive sandbox: authorization failed</title></head><body><h1>Authorization failed</h1><p>${escapeHtml(detail)}</p></body></html>`, 400);
    if (clientId !== config.clientId) return page('invalid_client: the client_id is missing or unknown.');
    if (!config.redirectUris.includes(redirectUri)) return page('invalid_request: redirect_uri does not match the callback URL of the app.');
    const code = tokens.newAuthCode(clientId, redirectUri, users[0]);
    const target = new URL(redirectUri);
    target.searchParams.set('code', code.code);
    const st = c.req.query('state');
    if (st !== undefined) target.searchParams.set('state', st);
    return c.redirect(target.toString(), 302);
  });

  app.post('/oauth/token', async (c) => {
    authenticateClient(c, config);
    const form = await formBody(c);
    const grantType = form.grant_type ?? '';
    if (grantType === 'authorization_code') {
      const rec = tokens.codes.get(form.code ?? '');
      if (!rec || rec.clientId !== config.clientId || rec.used) throw oauthError(400, 'invalid_grant', 'Invalid grant: authorization code is invalid');
      if (rec.expiresAt <= clock.now()) throw oauthError(400, 'invalid_grant', 'Invalid grant: authorization code has expired');
      if ((form.redirect_uri ?? '') !== rec.redirectUri) throw oauthError(400, 'invalid_request', 'Invalid request: `redirect_uri` is invalid');
      rec.used = true;
      const refresh = tokens.newRefreshToken(config.clientId, config.scopes, rec.user);
      const access = tokens.newAccessToken(config.clientId, config.scopes, rec.user, refresh.token);
      return c.json(tokenResponse(c, access, refresh));
    }
    if (grantType === 'refresh_token') {
      const refresh = tokens.useRefreshToken(form.refresh_token ?? '', config.clientId);
      if (!refresh) throw oauthError(400, 'invalid_grant', 'Invalid grant: refresh token is invalid');
      const access = tokens.newAccessToken(config.clientId, refresh.scopes, refresh.user, refresh.token);
      return c.json(tokenResponse(c, access, refresh));
    }
    throw oauthError(400, 'unsupported_grant_type', 'Unsupported grant type: `grant_type` is invalid');
  });

  app.post('/oauth/revoke', async (c) => {
    authenticateClient(c, config);
    const form = await formBody(c);
    if (!form.token) throw oauthError(400, 'invalid_request', 'Missing parameter: `token`');
    // RFC 7009: an unknown token is not an error. (The official client URL-encodes an access token
    // before form-encoding it, so it may arrive encoded once.)
    if (!tokens.revoke(form.token, config.clientId)) tokens.revoke(safeDecode(form.token), config.clientId);
    return c.body(null, 200);
  });

  function tokenResponse(c: Context, access: AccessTokenRecord, refresh: RefreshTokenRecord): PipedriveTokenResponse {
    return {
      access_token: access.token,
      token_type: 'Bearer',
      refresh_token: refresh.token,
      scope: access.scopes.join(','),
      expires_in: Math.round((access.expiresAt - access.issuedAt) / 1000),
      api_domain: config.apiDomain ?? baseUrlOf(c),
    };
  }

  return app;
}

/** The sandbox's own base URL as this request reached it (mount prefix kept). */
function baseUrlOf(c: Context): string {
  const url = new URL(c.req.url);
  return `${url.origin}${url.pathname.replace(/\/oauth\/token$/, '')}`;
}

function authenticateClient(c: Context, config: { clientId: string; clientSecret: string }): void {
  const m = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  const [id, secret] = m ? Buffer.from(m[1], 'base64').toString('utf8').split(':') : [];
  if (id !== config.clientId || secret !== config.clientSecret) throw oauthError(401, 'invalid_client', 'Invalid client: client is invalid');
}

async function formBody(c: Context): Promise<Record<string, string | undefined>> {
  const ct = c.req.header('content-type') ?? '';
  if (!ct.includes('application/x-www-form-urlencoded')) throw oauthError(400, 'invalid_request', 'Invalid request: content must be application/x-www-form-urlencoded');
  const form = await c.req.parseBody();
  return Object.fromEntries(Object.entries(form).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]));
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
