/**
 * The accounts server, one per data centre at `/accounts/{dc}` (Zoho: accounts.zoho.com, .eu, .in, ...):
 *
 *   GET  /accounts/{dc}/oauth/v2/auth            consent page: auto-approves, 302 to redirect_uri with
 *                                                code, state, location and accounts-server
 *   POST /accounts/{dc}/oauth/v2/token           authorization_code | refresh_token (query or form params)
 *   POST /accounts/{dc}/oauth/v2/token/revoke    ?token=<refresh or access token>
 *   POST /accounts/{dc}/developerconsole/self-client/code
 *                                                the API console's "Self Client → Generate Code" (scope,
 *                                                duration in minutes 3–10): a grant code for the org's
 *                                                self client, exchanged at the token endpoint without a
 *                                                redirect_uri
 *
 * Whatever the data centre a browser starts at, consent answers with the org's own (`location`,
 * `accounts-server`), and the token answer's `api_domain` is that data centre's API (`/api/{dc}`).
 * Codes and tokens are unknown at every other data centre (`invalid_code`), as with Zoho.
 */
import type { Context, Hono } from 'hono';
import { isZohoDataCentre } from '../../zoho/data-centres.js';
import { oauthError, ZohoApiError } from '../errors.js';
import { zohoRouter } from '../http.js';
import { KNOWN_SCOPE_PREFIXES, type SandboxState } from '../state.js';

/** Consent codes live 2 minutes (Zoho's are short-lived too). */
const CONSENT_CODE_TTL_SECONDS = 120;
const SCOPE_OPERATIONS = new Set(['ALL', 'READ', 'CREATE', 'UPDATE', 'DELETE', 'WRITE']);

/** Zoho separates scopes with commas (spaces are tolerated). */
export function splitScopes(s: string | undefined | null): string[] {
  return (s ?? '').split(/[,\s]+/).map((x) => x.trim()).filter(Boolean);
}

export function isKnownScope(scope: string): boolean {
  const op = scope.split('.').pop() ?? '';
  return SCOPE_OPERATIONS.has(op.toUpperCase()) && KNOWN_SCOPE_PREFIXES.some((p) => scope.toLowerCase().startsWith(p.toLowerCase() + '.'));
}

/** The sandbox's own base URL (mount prefix included), from a request under `/accounts/{dc}/`. */
function baseUrl(c: Context): string {
  const url = new URL(c.req.url);
  const i = url.pathname.lastIndexOf(`/accounts/${c.req.param('dc')}/`);
  return `${url.origin}${url.pathname.slice(0, i)}`;
}

export function oauthRoutes(state: SandboxState): Hono {
  const { config, tokens, clock, stats } = state;
  const app = zohoRouter();
  const home = config.dataCentre;

  app.get('/accounts/:dc/oauth/v2/auth', (c) => {
    const q = (k: string) => c.req.query(k) ?? '';
    const page = (title: string) =>
      c.html(`<!doctype html><html><head><title>Zoho Accounts (sandbox)</title></head><body><h1>${escapeHtml(title)}</h1></body></html>`, 400);
    if (!isZohoDataCentre(c.req.param('dc'))) return c.notFound();
    if (q('client_id') !== config.clientId) return page('Invalid Client');
    if (q('response_type') !== 'code') return page('Invalid Response Type');
    if (!config.redirectUris.includes(q('redirect_uri'))) return page('Invalid Redirect Uri');
    const scopes = splitScopes(q('scope'));
    if (scopes.length === 0 || !scopes.every(isKnownScope)) return page('Invalid OAuth Scope');
    const offline = q('access_type') === 'offline';
    const rec = tokens.newGrantCode(config.clientId, q('redirect_uri'), scopes, offline, CONSENT_CODE_TTL_SECONDS);
    const target = new URL(q('redirect_uri'));
    if (c.req.query('state') !== undefined) target.searchParams.set('state', q('state'));
    target.searchParams.set('code', rec.code);
    target.searchParams.set('location', home);
    target.searchParams.set('accounts-server', `${baseUrl(c)}/accounts/${home}`);
    return c.redirect(target.toString(), 302);
  });

  /** Zoho takes the token endpoint's parameters in the query string or a form body. */
  async function params(c: Context): Promise<(k: string) => string> {
    const query = new URL(c.req.url).searchParams;
    let form: Record<string, unknown> = {};
    const ct = c.req.header('content-type') ?? '';
    if (ct.includes('application/x-www-form-urlencoded') || ct.includes('multipart/form-data')) form = await c.req.parseBody();
    return (k) => (typeof form[k] === 'string' ? (form[k] as string) : (query.get(k) ?? ''));
  }

  app.post('/accounts/:dc/oauth/v2/token', async (c) => {
    if (!isZohoDataCentre(c.req.param('dc'))) return c.notFound();
    const get = await params(c);
    const grantType = get('grant_type');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') throw oauthError('unsupported_grant_type');
    const clientId = get('client_id');
    const secret = clientId === config.clientId ? config.clientSecret : clientId === config.selfClientId ? config.selfClientSecret : null;
    if (secret === null) throw oauthError('invalid_client');
    if (get('client_secret') !== secret) throw oauthError('invalid_client_secret');
    const atHome = c.req.param('dc') === home;
    const apiDomain = `${baseUrl(c)}/api/${home}`;

    if (grantType === 'authorization_code') {
      const rec = atHome ? tokens.codes.get(get('code')) : undefined;
      if (!rec || rec.used || rec.clientId !== clientId || rec.expiresAt <= clock.now()) throw oauthError('invalid_code');
      if (rec.redirectUri !== null && get('redirect_uri') !== rec.redirectUri) throw oauthError('invalid_redirect_uri');
      rec.used = true;
      stats.tokenGrants++;
      const refresh = rec.offline ? tokens.newRefreshToken(clientId, rec.scopes) : null;
      const access = tokens.newAccessToken(clientId, rec.scopes, refresh?.token ?? null);
      return c.json({
        access_token: access.token,
        ...(refresh ? { refresh_token: refresh.token } : {}),
        scope: rec.scopes.join(' '),
        api_domain: apiDomain,
        token_type: 'Bearer',
        expires_in: config.accessTokenTtlSeconds,
      });
    }
    const refresh = atHome ? tokens.refreshTokens.get(get('refresh_token')) : undefined;
    if (!refresh || refresh.revoked || refresh.clientId !== clientId) throw oauthError('invalid_code');
    if (!tokens.mayRefresh(refresh)) {
      throw new ZohoApiError(400, { error: 'Access Denied', error_description: 'You have made too many requests continuously. Please try again after some time.' });
    }
    stats.tokenGrants++;
    const access = tokens.newAccessToken(clientId, refresh.scopes, refresh.token);
    return c.json({ access_token: access.token, scope: refresh.scopes.join(' '), api_domain: apiDomain, token_type: 'Bearer', expires_in: config.accessTokenTtlSeconds });
  });

  app.post('/accounts/:dc/oauth/v2/token/revoke', async (c) => {
    if (!isZohoDataCentre(c.req.param('dc'))) return c.notFound();
    const get = await params(c);
    if (c.req.param('dc') !== home || !tokens.revoke(get('token'))) throw oauthError('invalid_token', 400);
    return c.json({ status: 'success' });
  });

  app.post('/accounts/:dc/developerconsole/self-client/code', async (c) => {
    if (c.req.param('dc') !== home) return c.json({ error: 'no self client in this data centre' }, 404);
    const get = await params(c);
    const scopes = splitScopes(get('scope'));
    if (scopes.length === 0 || !scopes.every(isKnownScope)) throw oauthError('invalid_scope', 400);
    const minutes = get('duration') ? Number(get('duration')) : 10;
    if (![3, 5, 7, 10].includes(minutes)) throw oauthError('invalid_duration', 400);
    const rec = tokens.newGrantCode(config.selfClientId, null, scopes, true, minutes * 60);
    return c.json({ code: rec.code, client_id: config.selfClientId, scope: scopes.join(','), expires_in: minutes * 60 });
  });

  return app;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}
