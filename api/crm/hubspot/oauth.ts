/**
 * HubSpot OAuth 2.0 helpers: plain HTTP, no storage. The product's DB-backed flow (state storage,
 * token encryption, refresh-before-expiry) is built on top of these.
 *
 *   buildAuthorizeUrl   → https://app.hubspot.com/oauth/authorize?client_id&redirect_uri&scope&state
 *   exchangeCode        → POST {api}/oauth/v1/token  grant_type=authorization_code (form-encoded)
 *   refreshAccessToken  → POST {api}/oauth/v1/token  grant_type=refresh_token
 *   revokeRefreshToken  → DELETE {api}/oauth/v1/refresh-tokens/{token}
 *
 * HubSpot answers token errors with 400 `{ status: "BAD_AUTH_CODE" | "BAD_REFRESH_TOKEN" |
 * "BAD_CLIENT_ID" | "BAD_REDIRECT_URI" | …, message, correlationId }`. They map to CrmError:
 * BAD_REFRESH_TOKEN (and RFC-style invalid_grant) → UNAUTHORIZED with `revoked: true` (the user must
 * reconnect); BAD_AUTH_CODE → UNAUTHORIZED; client / redirect misconfiguration → VALIDATION;
 * 429 → RATE_LIMITED; 5xx and network failures → UNAVAILABLE.
 */
import { CrmError } from '../errors.js';

export const HUBSPOT_AUTH_BASE_URL = 'https://app.hubspot.com';
export const HUBSPOT_OAUTH_API_BASE_URL = 'https://api.hubapi.com';

export interface HubSpotTokenSet {
  accessToken: string;
  refreshToken: string;
  tokenType: string;
  /** seconds, as returned (HubSpot: 1800) */
  expiresIn: number;
  /** epoch ms when the access token expires (computed locally at receipt) */
  expiresAt: number;
}

export interface OAuthHttpOptions {
  /** API base URL (default https://api.hubapi.com; the sandbox URL in embedded mode) */
  apiBaseUrl?: string;
  /** injectable fetch (tests) */
  fetch?: typeof fetch;
  /** injectable clock for expiresAt (tests) */
  now?: () => number;
}

export interface BuildAuthorizeUrlInput {
  /** default https://app.hubspot.com; the sandbox URL in embedded mode */
  authBaseUrl?: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  optionalScopes?: readonly string[];
  state: string;
}

export function buildAuthorizeUrl(input: BuildAuthorizeUrlInput): string {
  const base = (input.authBaseUrl ?? HUBSPOT_AUTH_BASE_URL).replace(/\/+$/, '');
  const params: Array<[string, string]> = [
    ['client_id', input.clientId],
    ['redirect_uri', input.redirectUri],
    ['scope', input.scopes.join(' ')],
  ];
  if (input.optionalScopes?.length) params.push(['optional_scope', input.optionalScopes.join(' ')]);
  params.push(['state', input.state]);
  // encodeURIComponent writes spaces as %20, as HubSpot's documentation shows for `scope`
  return `${base}/oauth/authorize?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
}

export interface ExchangeCodeInput extends OAuthHttpOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  code: string;
}

export function exchangeCode(input: ExchangeCodeInput): Promise<HubSpotTokenSet> {
  return tokenRequest(input, {
    grant_type: 'authorization_code',
    client_id: input.clientId,
    client_secret: input.clientSecret,
    redirect_uri: input.redirectUri,
    code: input.code,
  });
}

export interface RefreshAccessTokenInput extends OAuthHttpOptions {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  redirectUri?: string;
}

export function refreshAccessToken(input: RefreshAccessTokenInput): Promise<HubSpotTokenSet> {
  const form: Record<string, string> = {
    grant_type: 'refresh_token',
    client_id: input.clientId,
    client_secret: input.clientSecret,
    refresh_token: input.refreshToken,
  };
  if (input.redirectUri) form.redirect_uri = input.redirectUri;
  return tokenRequest(input, form);
}

/** Revokes a refresh token (disconnect). A token HubSpot no longer knows counts as revoked. */
export async function revokeRefreshToken(input: OAuthHttpOptions & { refreshToken: string }): Promise<void> {
  const f = input.fetch ?? fetch;
  const url = `${apiBase(input)}/oauth/v1/refresh-tokens/${encodeURIComponent(input.refreshToken)}`;
  let res: Response;
  try {
    res = await f(url, { method: 'DELETE' });
  } catch (err) {
    throw new CrmError('UNAVAILABLE', `HubSpot could not be reached to revoke the token: ${(err as Error).message}`, { cause: err });
  }
  if (res.ok || res.status === 404) return;
  throw mapTokenError(res.status, await readJson(res), res.headers);
}

async function tokenRequest(opts: OAuthHttpOptions, form: Record<string, string>): Promise<HubSpotTokenSet> {
  const f = opts.fetch ?? fetch;
  const now = opts.now ?? Date.now;
  let res: Response;
  try {
    res = await f(`${apiBase(opts)}/oauth/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    });
  } catch (err) {
    throw new CrmError('UNAVAILABLE', `HubSpot could not be reached for the OAuth token: ${(err as Error).message}`, { cause: err });
  }
  const body = await readJson(res);
  if (!res.ok) throw mapTokenError(res.status, body, res.headers);
  const b = body as Record<string, unknown>;
  if (typeof b.access_token !== 'string' || typeof b.refresh_token !== 'string') {
    throw new CrmError('UNAVAILABLE', 'HubSpot returned an OAuth token response without tokens.', { status: res.status, details: body });
  }
  const expiresIn = Number(b.expires_in ?? 0);
  return {
    accessToken: b.access_token,
    refreshToken: b.refresh_token,
    tokenType: typeof b.token_type === 'string' ? b.token_type : 'bearer',
    expiresIn,
    expiresAt: now() + expiresIn * 1000,
  };
}

function apiBase(opts: OAuthHttpOptions): string {
  return (opts.apiBaseUrl ?? HUBSPOT_OAUTH_API_BASE_URL).replace(/\/+$/, '');
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 500) };
  }
}

const REVOKED = new Set(['BAD_REFRESH_TOKEN', 'invalid_grant']);
const MISCONFIGURED = new Set(['BAD_CLIENT_ID', 'BAD_CLIENT_SECRET', 'BAD_REDIRECT_URI', 'BAD_GRANT_TYPE', 'BAD_REQUEST', 'invalid_client', 'invalid_request']);

export function mapTokenError(status: number, body: unknown, headers?: Headers): CrmError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const code = String(b.status ?? b.error ?? '');
  const message = String(b.message ?? b.error_description ?? `HTTP ${status}`);
  const common = { status, category: code || undefined, correlationId: typeof b.correlationId === 'string' ? b.correlationId : undefined, details: body };
  if (REVOKED.has(code)) {
    return new CrmError('UNAUTHORIZED', `HubSpot refused the refresh token (${code}): ${message}. Reconnect HubSpot.`, { ...common, revoked: true });
  }
  if (code === 'BAD_AUTH_CODE') return new CrmError('UNAUTHORIZED', `HubSpot refused the authorization code: ${message}`, common);
  if (status === 429) {
    const ra = headers?.get('retry-after');
    return new CrmError('RATE_LIMITED', `HubSpot rate limit reached: ${message}`, { ...common, retryAfterMs: ra && /^\d+$/.test(ra) ? Number(ra) * 1000 : undefined });
  }
  if (status >= 500) return new CrmError('UNAVAILABLE', `HubSpot OAuth is unavailable (HTTP ${status}): ${message}`, common);
  if (MISCONFIGURED.has(code)) return new CrmError('VALIDATION', `HubSpot OAuth configuration problem (${code}): ${message}`, common);
  if (status === 401 || status === 403) return new CrmError('UNAUTHORIZED', `HubSpot OAuth refused (${code || status}): ${message}`, common);
  return new CrmError('VALIDATION', `HubSpot OAuth request rejected (${code || status}): ${message}`, common);
}
