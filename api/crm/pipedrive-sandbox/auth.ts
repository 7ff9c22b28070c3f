/**
 * The sandbox company's credentials: personal API tokens (one per user; sent as `x-api-token`, as the
 * official client does, or the classic `api_token` query parameter) and OAuth 2 (oauth.pipedrive.com):
 *  - authorization codes are single-use and short-lived (5 minutes here);
 *  - access tokens live 3599 s (`expires_in`), and carry the app's scopes;
 *  - the refresh grant returns a new access token and the same refresh token; a refresh token lapses
 *    after 60 days without use;
 *  - `POST /oauth/revoke` of a refresh token revokes it and every access token minted from it; of an
 *    access token, that token alone.
 * When a request carries both an API token and a bearer token the API token wins (as the client's README says).
 */
import { randomBytes } from 'node:crypto';
import type { PdUser } from './data.js';

export interface AccessTokenRecord {
  token: string;
  user: PdUser;
  clientId: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  refreshToken: string | null;
  revoked: boolean;
}

export interface RefreshTokenRecord {
  token: string;
  user: PdUser;
  clientId: string;
  scopes: string[];
  lastUsedAt: number;
  revoked: boolean;
}

export interface AuthCodeRecord {
  code: string;
  clientId: string;
  redirectUri: string;
  user: PdUser;
  expiresAt: number;
  used: boolean;
}

export type Authenticated =
  | { kind: 'api_token'; token: string; user: PdUser }
  | { kind: 'oauth'; token: string; user: PdUser; scopes: string[]; record: AccessTokenRecord };

export type AuthFailure = { kind: 'missing' } | { kind: 'invalid'; via: 'api_token' | 'bearer' } | { kind: 'expired' };

const REFRESH_IDLE_MS = 60 * 86_400_000;

export class TokenStore {
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly codes = new Map<string, AuthCodeRecord>();

  constructor(
    private readonly companyId: number,
    private readonly now: () => number,
    private readonly accessTokenTtlSeconds: number,
    private readonly authCodeTtlSeconds: number,
    /** API token → its user */
    readonly apiTokens: ReadonlyMap<string, PdUser>,
  ) {}

  newAuthCode(clientId: string, redirectUri: string, user: PdUser): AuthCodeRecord {
    const rec: AuthCodeRecord = { code: `${this.companyId}.${user.id}.${randomBytes(20).toString('hex')}`, clientId, redirectUri, user, expiresAt: this.now() + this.authCodeTtlSeconds * 1000, used: false };
    this.codes.set(rec.code, rec);
    return rec;
  }

  newRefreshToken(clientId: string, scopes: string[], user: PdUser): RefreshTokenRecord {
    const rec: RefreshTokenRecord = { token: `${this.companyId}:${user.id}:${randomBytes(24).toString('hex')}`, user, clientId, scopes, lastUsedAt: this.now(), revoked: false };
    this.refreshTokens.set(rec.token, rec);
    return rec;
  }

  newAccessToken(clientId: string, scopes: string[], user: PdUser, refreshToken: string | null, ttlSeconds = this.accessTokenTtlSeconds): AccessTokenRecord {
    const issuedAt = this.now();
    const rec: AccessTokenRecord = {
      token: `v1u:${randomBytes(60).toString('base64url')}`, user, clientId, scopes, issuedAt, expiresAt: issuedAt + ttlSeconds * 1000, refreshToken, revoked: false,
    };
    this.accessTokens.set(rec.token, rec);
    return rec;
  }

  /** A refresh token that may still be used (not revoked, used in the last 60 days); marks it used. */
  useRefreshToken(token: string, clientId: string): RefreshTokenRecord | null {
    const rec = this.refreshTokens.get(token);
    if (!rec || rec.revoked || rec.clientId !== clientId || this.now() - rec.lastUsedAt > REFRESH_IDLE_MS) return null;
    rec.lastUsedAt = this.now();
    return rec;
  }

  /** Revokes a refresh token (and its access tokens) or an access token. False when unknown. */
  revoke(token: string, clientId: string): boolean {
    const refresh = this.refreshTokens.get(token);
    if (refresh && refresh.clientId === clientId) {
      refresh.revoked = true;
      for (const at of this.accessTokens.values()) if (at.refreshToken === token) at.revoked = true;
      return true;
    }
    const access = this.accessTokens.get(token);
    if (access && access.clientId === clientId) {
      access.revoked = true;
      return true;
    }
    return false;
  }

  /** Resolves the request's credentials: API token (header or query) first, then a bearer token. */
  authenticate(req: { apiTokenHeader?: string; apiTokenQuery?: string; authorization?: string }): Authenticated | AuthFailure {
    const apiToken = req.apiTokenHeader ?? req.apiTokenQuery;
    if (apiToken !== undefined) {
      const user = this.apiTokens.get(apiToken.trim());
      return user ? { kind: 'api_token', token: apiToken.trim(), user } : { kind: 'invalid', via: 'api_token' };
    }
    if (!req.authorization) return { kind: 'missing' };
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.authorization);
    if (!m) return { kind: 'invalid', via: 'bearer' };
    const rec = this.accessTokens.get(m[1]);
    if (!rec || rec.revoked) return { kind: 'invalid', via: 'bearer' };
    if (rec.expiresAt <= this.now()) return { kind: 'expired' };
    return { kind: 'oauth', token: rec.token, user: rec.user, scopes: rec.scopes, record: rec };
  }
}
