/**
 * Salesforce OAuth 2.0 web-server flow on jsforce's OAuth2 (no storage; the product's connection
 * service stores and refreshes):
 *
 *   authorizeUrl  → {login}/services/oauth2/authorize?response_type=code&client_id&redirect_uri&scope&state
 *   exchangeCode  → POST {login}/services/oauth2/token grant_type=authorization_code → access token, refresh
 *                   token (scope refresh_token), instance_url (the org's API host), no expires_in
 *   refresh       → grant_type=refresh_token → a new access token (the refresh token stays)
 *   revoke        → POST {login}/services/oauth2/revoke token=<refresh token> (its sessions end too)
 *
 * Token errors `{ error, error_description }`: invalid_grant (a revoked or expired refresh token, a bad
 * code) → UNAUTHORIZED with `revoked`; invalid_client_id / invalid_client / redirect_uri_mismatch →
 * VALIDATION (the app's configuration); anything else, or no answer → UNAVAILABLE.
 */
import { OAuth2 } from 'jsforce';
import { CrmError } from '../errors.js';
import type { CrmEndpoints, CrmTokenSet } from '../provider.js';

function oauth2(e: CrmEndpoints): OAuth2 {
  return new OAuth2({ loginUrl: e.tokenBaseUrl ?? e.apiBaseUrl, clientId: e.clientId, clientSecret: e.clientSecret, redirectUri: e.redirectUri });
}

export function authorizeUrl(e: CrmEndpoints, state: string): string {
  const base = e.authBaseUrl.replace(/\/+$/, '');
  const params = new URLSearchParams({ response_type: 'code', client_id: e.clientId ?? '', redirect_uri: e.redirectUri, scope: e.scopes.join(' '), state });
  return `${base}/services/oauth2/authorize?${params}`;
}

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  instance_url?: string;
  scope?: string;
}

function tokens(res: TokenResponse, refreshToken: string | null): CrmTokenSet {
  return {
    accessToken: res.access_token,
    refreshToken: res.refresh_token ?? refreshToken,
    expiresIn: null, // Salesforce announces no lifetime: a session ends after the org's inactivity timeout
    ...(res.instance_url ? { instanceUrl: res.instance_url.replace(/\/+$/, '') } : {}),
    ...(res.scope ? { scopes: res.scope.split(' ').filter(Boolean) } : {}),
  };
}

export function oauthError(err: unknown): CrmError {
  const e = (err ?? {}) as { name?: string; message?: string; code?: string };
  const code = e.name ?? '';
  if (code === 'invalid_grant') return new CrmError('UNAUTHORIZED', `Salesforce refused the grant (${e.message ?? code}).`, { category: code, revoked: true, cause: err });
  if (code === 'invalid_client_id' || code === 'invalid_client' || code === 'redirect_uri_mismatch' || code === 'unsupported_grant_type') {
    return new CrmError('VALIDATION', `Salesforce refused the connected app's configuration (${code}: ${e.message ?? ''}).`, { category: code, cause: err });
  }
  return new CrmError('UNAVAILABLE', 'Salesforce could not be reached to authorize the connection.', { category: code || e.code, cause: err });
}

export async function exchangeCode(e: CrmEndpoints, code: string): Promise<CrmTokenSet> {
  try {
    return tokens((await oauth2(e).requestToken(code)) as unknown as TokenResponse, null);
  } catch (err) {
    throw oauthError(err);
  }
}

export async function refresh(e: CrmEndpoints, refreshToken: string): Promise<CrmTokenSet> {
  try {
    return tokens((await oauth2(e).refreshToken(refreshToken)) as unknown as TokenResponse, refreshToken);
  } catch (err) {
    throw oauthError(err);
  }
}

/** Revokes the grant (best effort: a token Salesforce no longer knows is as good as revoked). */
export async function revoke(e: CrmEndpoints, token: string): Promise<void> {
  try {
    await oauth2(e).revokeToken(token);
  } catch (err) {
    const c = oauthError(err);
    if (c.code === 'UNAVAILABLE' && !(String((err as Error)?.name ?? '').startsWith('ERROR_HTTP_5'))) return;
    throw c;
  }
}
