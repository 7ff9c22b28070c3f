/**
 * Zoho OAuth (the accounts server of the account's data centre): the consent URL, the code exchange
 * (a consent code, or a self client's grant code), refresh and revoke. Zoho answers most grant problems
 * with HTTP 200 and `{ "error": "invalid_code" }`; these functions turn them into CrmErrors:
 *  - a consent or grant code that is wrong, used or expired → VALIDATION (the user starts again);
 *  - a refresh token Zoho no longer knows (revoked, or the connection removed in Zoho) → UNAUTHORIZED,
 *    `revoked` (the user must reconnect);
 *  - wrong client credentials → VALIDATION; too many refreshes ("Access Denied") → RATE_LIMITED;
 *  - no answer → UNAVAILABLE.
 */
import { CrmError } from '../errors.js';
import { ZOHO_DATA_CENTRES, isZohoDataCentre, type ZohoDataCentre } from './data-centres.js';

/** Read-only access to what the product queries, and the metadata it reads. */
export const ZOHO_SCOPES = [
  'ZohoCRM.coql.READ',
  'ZohoCRM.modules.leads.READ',
  'ZohoCRM.modules.contacts.READ',
  'ZohoCRM.modules.accounts.READ',
  'ZohoCRM.modules.deals.READ',
  'ZohoCRM.settings.fields.READ',
  'ZohoCRM.org.READ',
  'ZohoCRM.users.READ',
];

export interface ZohoTokens {
  accessToken: string;
  /** null for a refresh (Zoho keeps the refresh token) or an online grant */
  refreshToken: string | null;
  expiresIn: number | null;
  /** the account's API domain (`https://www.zohoapis.eu`) */
  apiDomain: string;
  scopes: string[];
}

/** The accounts server of each data centre: Zoho's own, or `template` with `{dc}` (the sandbox). */
export function accountsUrlOf(dc: ZohoDataCentre, template?: string): string {
  return template ? template.replaceAll('{dc}', dc) : ZOHO_DATA_CENTRES[dc].accountsUrl;
}

/**
 * The data centre a callback names, checked: its `location` must be a data centre, and an
 * `accounts-server` given with it must be that data centre's accounts server (the callback comes through
 * the browser: a forged server must not receive the client secret).
 */
export function dataCentreOfCallback(callback: Record<string, string>, template?: string): ZohoDataCentre | null {
  const location = callback.location;
  if (!location || !isZohoDataCentre(location)) return null;
  const server = callback['accounts-server'];
  if (server && server.replace(/\/+$/, '') !== accountsUrlOf(location, template)) {
    throw new CrmError('VALIDATION', 'Zoho sent the sign-in back from an accounts server that does not belong to its data centre.', { details: { location } });
  }
  return location;
}

export function buildZohoAuthorizeUrl(input: { accountsUrl: string; clientId: string; redirectUri: string; scopes: string[]; state: string }): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: input.clientId,
    scope: input.scopes.join(','),
    redirect_uri: input.redirectUri,
    access_type: 'offline',
    prompt: 'consent',
    state: input.state,
  });
  return `${input.accountsUrl}/oauth/v2/auth?${q}`;
}

type TokenAnswer = { access_token?: string; refresh_token?: string; expires_in?: number; api_domain?: string; scope?: string; error?: string; error_description?: string };

async function tokenCall(accountsUrl: string, path: string, params: Record<string, string>, timeoutMs = 30_000): Promise<{ status: number; body: TokenAnswer }> {
  let res: Response;
  try {
    res = await fetch(`${accountsUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (cause) {
    throw new CrmError('UNAVAILABLE', 'Zoho accounts did not answer. Try again in a moment.', { cause });
  }
  let body: TokenAnswer = {};
  try {
    body = (await res.json()) as TokenAnswer;
  } catch {
    if (res.status >= 500 || res.status === 429) throw new CrmError('UNAVAILABLE', 'Zoho accounts did not answer. Try again in a moment.', { status: res.status });
  }
  if (res.status >= 500) throw new CrmError('UNAVAILABLE', 'Zoho accounts did not answer. Try again in a moment.', { status: res.status });
  return { status: res.status, body };
}

function tokensOf(body: TokenAnswer): ZohoTokens {
  if (!body.access_token || !body.api_domain) throw new CrmError('UNAVAILABLE', 'Zoho accounts gave an unexpected answer.');
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? null,
    expiresIn: typeof body.expires_in === 'number' ? body.expires_in : null,
    apiDomain: body.api_domain.replace(/\/+$/, ''),
    scopes: (body.scope ?? '').split(/[\s,]+/).filter(Boolean),
  };
}

function grantError(body: TokenAnswer, status: number, kind: 'code' | 'refresh'): CrmError | null {
  const e = body.error;
  if (!e) return null;
  const opts = { status, category: e };
  if (e === 'invalid_client') return new CrmError('VALIDATION', 'Zoho does not know this client ID (check it, and the data centre).', opts);
  if (e === 'invalid_client_secret') return new CrmError('VALIDATION', 'The client secret does not match the client ID.', opts);
  if (e === 'invalid_redirect_uri') return new CrmError('VALIDATION', 'Zoho refused the redirect URI registered for this product.', opts);
  if (e === 'Access Denied') return new CrmError('RATE_LIMITED', 'Zoho refused another token refresh for now. Try again in a few minutes.', { ...opts, retryAfterMs: 60_000 });
  if (kind === 'refresh') return new CrmError('UNAUTHORIZED', 'Zoho no longer accepts this connection. Reconnect Zoho.', { ...opts, revoked: true });
  return new CrmError('VALIDATION', 'Zoho did not accept the code: it is wrong, already used, expired, or from another data centre.', opts);
}

/** Exchanges a consent code (with the redirect URI) or a self client's grant code (without). */
export async function exchangeZohoCode(input: { accountsUrl: string; clientId: string; clientSecret: string; code: string; redirectUri?: string }): Promise<ZohoTokens> {
  const params: Record<string, string> = { grant_type: 'authorization_code', client_id: input.clientId, client_secret: input.clientSecret, code: input.code };
  if (input.redirectUri) params.redirect_uri = input.redirectUri;
  const { status, body } = await tokenCall(input.accountsUrl, '/oauth/v2/token', params);
  const err = grantError(body, status, 'code');
  if (err) throw err;
  if (status >= 400) throw new CrmError('VALIDATION', 'Zoho did not accept the code.', { status });
  return tokensOf(body);
}

export async function refreshZohoToken(input: { accountsUrl: string; clientId: string; clientSecret: string; refreshToken: string }): Promise<ZohoTokens> {
  const { status, body } = await tokenCall(input.accountsUrl, '/oauth/v2/token', {
    grant_type: 'refresh_token',
    client_id: input.clientId,
    client_secret: input.clientSecret,
    refresh_token: input.refreshToken,
  });
  const err = grantError(body, status, 'refresh');
  if (err) throw err;
  if (status >= 400) throw new CrmError('UNAUTHORIZED', 'Zoho no longer accepts this connection. Reconnect Zoho.', { status, revoked: true });
  return tokensOf(body);
}

/** Revokes a refresh token; a token Zoho no longer knows counts as revoked. */
export async function revokeZohoToken(input: { accountsUrl: string; token: string }): Promise<void> {
  const { status, body } = await tokenCall(input.accountsUrl, `/oauth/v2/token/revoke?${new URLSearchParams({ token: input.token })}`, {});
  if (status >= 400 && body.error !== 'invalid_token') throw new CrmError('UNAVAILABLE', 'Zoho did not revoke the connection.', { status });
}

// ---------------------------------------------------------------------------------------------------
// What the product stores as the connection's refresh token

/**
 * A Zoho grant as stored (encrypted) with a connection: the refresh token, the data centre whose
 * accounts server refreshes it, and — for a self client's grant — that client's id and secret (a self
 * client's tokens are refreshed with its own credentials, not the product's).
 */
export interface ZohoGrant {
  dc: ZohoDataCentre;
  refreshToken: string;
  selfClient?: { clientId: string; clientSecret: string };
}

const GRANT_PREFIX = 'zoho-grant.v1.';

export function encodeZohoGrant(g: ZohoGrant): string {
  return GRANT_PREFIX + Buffer.from(JSON.stringify(g)).toString('base64url');
}

export function decodeZohoGrant(stored: string): ZohoGrant {
  if (!stored.startsWith(GRANT_PREFIX)) throw new CrmError('UNAUTHORIZED', 'The stored Zoho connection is unreadable. Reconnect Zoho.', { revoked: true });
  try {
    const g = JSON.parse(Buffer.from(stored.slice(GRANT_PREFIX.length), 'base64url').toString('utf8')) as ZohoGrant;
    if (!isZohoDataCentre(g.dc) || typeof g.refreshToken !== 'string') throw new Error('bad grant');
    return g;
  } catch (cause) {
    throw new CrmError('UNAUTHORIZED', 'The stored Zoho connection is unreadable. Reconnect Zoho.', { revoked: true, cause });
  }
}

/** The data centre of an API domain (`https://www.zohoapis.eu` → eu), or null. */
export function dataCentreOfApiDomain(apiDomain: string): ZohoDataCentre | null {
  const host = apiDomain.replace(/\/+$/, '');
  for (const [dc, info] of Object.entries(ZOHO_DATA_CENTRES)) if (info.apiDomain === host) return dc as ZohoDataCentre;
  const m = /\/api\/([a-z]{2})$/.exec(host); // the sandbox's /api/{dc}
  return m && isZohoDataCentre(m[1]) ? m[1] : null;
}
