/**
 * In-memory OAuth state of the sandbox org, modelled on Zoho's accounts server:
 *  - grant codes (from the consent page, or a self client's "Generate Code" in the API console) are
 *    single-use; consent codes live 2 minutes here, self-client codes as long as the developer chose (3–10);
 *  - access tokens (`1000.<hex>.<hex>`) live an hour (`expires_in: 3600`); refresh tokens do not expire;
 *  - the refresh grant answers a new access token and no refresh token; at most 10 access tokens per
 *    refresh token in 10 minutes (then "Access Denied");
 *  - revoking a refresh token revokes the access tokens minted from it;
 *  - scopes are Zoho's (`ZohoCRM.modules.ALL`, `ZohoCRM.coql.READ`, ...): a broader scope covers the
 *    narrower ones (`ZohoCRM.settings.ALL` ⊇ `ZohoCRM.settings.fields.READ`).
 * The org lives in one data centre; its tokens are unknown at every other one.
 */
import { randomBytes } from 'node:crypto';

export interface GrantCode {
  code: string;
  clientId: string;
  /** null for a self client's code (no redirect) */
  redirectUri: string | null;
  scopes: string[];
  offline: boolean;
  expiresAt: number;
  used: boolean;
}

export interface RefreshToken {
  token: string;
  clientId: string;
  scopes: string[];
  revoked: boolean;
  /** when access tokens were minted from it (the 10-per-10-minutes rule) */
  minted: number[];
}

export interface AccessToken {
  token: string;
  clientId: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  refreshToken: string | null;
  revoked: boolean;
}

export type Authenticated = { kind: 'ok'; record: AccessToken };
export type AuthFailure = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'expired' };

const hex = (n: number) => randomBytes(n).toString('hex');
const zohoToken = () => `1000.${hex(16)}.${hex(16)}`;

export const REFRESHES_PER_WINDOW = 10;
export const REFRESH_WINDOW_MS = 10 * 60_000;

export class ZohoTokenStore {
  readonly codes = new Map<string, GrantCode>();
  readonly refreshTokens = new Map<string, RefreshToken>();
  readonly accessTokens = new Map<string, AccessToken>();

  constructor(
    private readonly now: () => number,
    private readonly accessTokenTtlSeconds: number,
  ) {}

  newGrantCode(clientId: string, redirectUri: string | null, scopes: string[], offline: boolean, ttlSeconds: number): GrantCode {
    const rec: GrantCode = { code: zohoToken(), clientId, redirectUri, scopes, offline, expiresAt: this.now() + ttlSeconds * 1000, used: false };
    this.codes.set(rec.code, rec);
    return rec;
  }

  newRefreshToken(clientId: string, scopes: string[]): RefreshToken {
    const rec: RefreshToken = { token: zohoToken(), clientId, scopes, revoked: false, minted: [] };
    this.refreshTokens.set(rec.token, rec);
    return rec;
  }

  newAccessToken(clientId: string, scopes: string[], refreshToken: string | null, ttlSeconds = this.accessTokenTtlSeconds): AccessToken {
    const issuedAt = this.now();
    const rec: AccessToken = { token: zohoToken(), clientId, scopes, issuedAt, expiresAt: issuedAt + ttlSeconds * 1000, refreshToken, revoked: false };
    this.accessTokens.set(rec.token, rec);
    if (refreshToken) this.refreshTokens.get(refreshToken)?.minted.push(issuedAt);
    return rec;
  }

  /** Whether the refresh token may mint another access token now (10 per 10 minutes). */
  mayRefresh(rec: RefreshToken): boolean {
    const since = this.now() - REFRESH_WINDOW_MS;
    rec.minted = rec.minted.filter((t) => t > since);
    return rec.minted.length < REFRESHES_PER_WINDOW;
  }

  /** Revokes a refresh token (and what it minted) or a single access token. False when unknown. */
  revoke(token: string): boolean {
    const refresh = this.refreshTokens.get(token);
    if (refresh && !refresh.revoked) {
      refresh.revoked = true;
      for (const at of this.accessTokens.values()) if (at.refreshToken === token) at.revoked = true;
      return true;
    }
    const access = this.accessTokens.get(token);
    if (access && !access.revoked) {
      access.revoked = true;
      return true;
    }
    return false;
  }

  /** Resolves `Authorization: Zoho-oauthtoken <token>`. */
  authenticate(authorization: string | undefined): Authenticated | AuthFailure {
    if (!authorization) return { kind: 'missing' };
    const [scheme, token, ...rest] = authorization.trim().split(/\s+/);
    if (scheme !== 'Zoho-oauthtoken' || !token || rest.length) return { kind: 'invalid' };
    const rec = this.accessTokens.get(token);
    if (!rec || rec.revoked) return { kind: 'invalid' };
    if (rec.expiresAt <= this.now()) return { kind: 'expired' };
    return { kind: 'ok', record: rec };
  }
}

/**
 * Whether the granted scopes cover `required` (e.g. `ZohoCRM.modules.contacts.READ`): a granted scope
 * covers it when its service and path are a prefix of the required one's and its operation is ALL or the
 * same. Compared case-insensitively, as Zoho does.
 */
export function scopeCovers(granted: readonly string[], required: string): boolean {
  const [service, ...rest] = required.toLowerCase().split('.');
  const op = rest.pop();
  return granted.some((g) => {
    const [gs, ...grest] = g.toLowerCase().split('.');
    const gop = grest.pop();
    if (gs !== service || (gop !== 'all' && gop !== op)) return false;
    return grest.length <= rest.length && grest.every((p, i) => p === rest[i]);
  });
}
