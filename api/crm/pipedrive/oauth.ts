/**
 * Pipedrive OAuth 2 with the official client's `OAuth2Configuration` (pipedrive/v2): the authorize URL
 * (oauth.pipedrive.com, or the sandbox), the code exchange, the refresh and the revocation. The token
 * response names the company's API host (`api_domain`), which every later call of the connection uses.
 */
import { OAuth2Configuration, type TokenResponse } from 'pipedrive/v2';
import { CrmError } from '../errors.js';
import type { PipedriveOAuthErrorBody } from './model/index.js';

export interface PipedriveOAuthApp {
  /** https://oauth.pipedrive.com, or the sandbox's base URL */
  oauthBaseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface PipedriveTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  /** the company's API host, e.g. https://acme.pipedrive.com */
  apiDomain: string;
  scopes: string[];
}

function oauthConfig(app: PipedriveOAuthApp): OAuth2Configuration {
  return new OAuth2Configuration({ clientId: app.clientId, clientSecret: app.clientSecret, redirectUri: app.redirectUri, host: app.oauthBaseUrl.replace(/\/+$/, '') });
}

/** The page the browser is sent to (Pipedrive apps declare their scopes; the URL names none). */
export function buildPipedriveAuthorizeUrl(app: Omit<PipedriveOAuthApp, 'clientSecret'>, state: string): string {
  const url = new URL(`${app.oauthBaseUrl.replace(/\/+$/, '')}/oauth/authorize`);
  url.searchParams.set('client_id', app.clientId);
  url.searchParams.set('redirect_uri', app.redirectUri);
  url.searchParams.set('state', state);
  return url.toString();
}

function tokens(t: TokenResponse): PipedriveTokens {
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    expiresIn: Number(t.expires_in),
    apiDomain: t.api_domain,
    scopes: (t.scope ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  };
}

/** OAuth failures as CrmErrors: a bad code or refresh token means reconnecting; a bad client is our configuration. */
export function oauthCrmError(raw: unknown, operation: string): CrmError {
  const body = raw as Partial<PipedriveOAuthErrorBody> | undefined;
  const code = typeof body?.error === 'string' ? body.error : undefined;
  const message = typeof body?.message === 'string' ? body.message : undefined;
  if (code === 'invalid_grant') return new CrmError('UNAUTHORIZED', `Pipedrive refused the grant (${operation}): ${message ?? code}`, { category: code, revoked: true, cause: raw });
  if (code === 'invalid_client' || code === 'unauthorized_client') {
    return new CrmError('VALIDATION', `Pipedrive does not accept the app's client id or secret (${operation})`, { category: code, cause: raw });
  }
  if (code) return new CrmError('VALIDATION', `Pipedrive OAuth error (${operation}): ${message ?? code}`, { category: code, cause: raw });
  return new CrmError('UNAVAILABLE', `Pipedrive's OAuth server could not be reached (${operation})`, { cause: raw });
}

export async function exchangePipedriveCode(app: PipedriveOAuthApp, code: string): Promise<PipedriveTokens> {
  try {
    return tokens(await oauthConfig(app).authorize(code));
  } catch (err) {
    throw oauthCrmError(err, 'code exchange');
  }
}

export async function refreshPipedriveToken(app: PipedriveOAuthApp, refreshToken: string): Promise<PipedriveTokens> {
  const oauth = oauthConfig(app);
  oauth.updateToken({ refresh_token: refreshToken } as TokenResponse);
  try {
    return tokens(await oauth.tokenRefresh());
  } catch (err) {
    throw oauthCrmError(err, 'token refresh');
  }
}

/** Revokes a refresh token (and with it the access tokens it minted). An unknown token is not an error. */
export async function revokePipedriveToken(app: PipedriveOAuthApp, refreshToken: string): Promise<void> {
  const oauth = oauthConfig(app);
  oauth.updateToken({ refresh_token: refreshToken } as TokenResponse);
  try {
    await oauth.revokeToken('refresh_token');
  } catch (err) {
    throw oauthCrmError(err, 'revoke');
  }
}
