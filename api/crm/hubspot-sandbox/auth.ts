/**
 * In-memory OAuth / private-app token state of the sandbox portal.
 *
 * Behaviour modelled on HubSpot's OAuth 2.0 implementation:
 *  - authorization codes are single-use and short-lived (10 minutes here);
 *  - access tokens live 30 minutes (`expires_in: 1800`), refresh tokens do not expire;
 *  - the refresh grant returns a new access token and the same refresh token;
 *  - deleting a refresh token (`DELETE /oauth/v1/refresh-tokens/{token}`) revokes it and the access
 *    tokens minted from it;
 *  - private-app tokens (`pat-na1-…`) never expire and carry the app's scopes.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export interface AccessTokenRecord {
  token: string;
  hubId: number;
  userId: number;
  user: string;
  appId: number;
  clientId: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  refreshToken: string | null;
  revoked: boolean;
}

export interface RefreshTokenRecord {
  token: string;
  clientId: string;
  scopes: string[];
  hubId: number;
  userId: number;
  user: string;
  revoked: boolean;
}

export interface AuthCodeRecord {
  code: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  expiresAt: number;
  used: boolean;
}

export interface PortalIdentity {
  hubId: number;
  hubDomain: string;
  userId: number;
  user: string;
  appId: number;
}

export type Authenticated =
  | { kind: 'pat'; token: string; scopes: string[]; hubId: number }
  | { kind: 'oauth'; token: string; scopes: string[]; hubId: number; record: AccessTokenRecord };

export type AuthFailure = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'expired'; expiredMsAgo: number };

export class TokenStore {
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly codes = new Map<string, AuthCodeRecord>();

  constructor(
    private readonly portal: PortalIdentity,
    private readonly now: () => number,
    private readonly accessTokenTtlSeconds: number,
    private readonly authCodeTtlSeconds: number,
    readonly privateAppTokens: ReadonlySet<string>,
    readonly privateAppScopes: readonly string[],
  ) {}

  newAuthCode(clientId: string, redirectUri: string, scopes: string[]): AuthCodeRecord {
    const rec: AuthCodeRecord = {
      code: randomUUID(),
      clientId,
      redirectUri,
      scopes,
      expiresAt: this.now() + this.authCodeTtlSeconds * 1000,
      used: false,
    };
    this.codes.set(rec.code, rec);
    return rec;
  }

  newRefreshToken(clientId: string, scopes: string[]): RefreshTokenRecord {
    const rec: RefreshTokenRecord = {
      token: `na1-${randomUUID().slice(0, 4)}-${randomUUID()}`,
      clientId,
      scopes,
      hubId: this.portal.hubId,
      userId: this.portal.userId,
      user: this.portal.user,
      revoked: false,
    };
    this.refreshTokens.set(rec.token, rec);
    return rec;
  }

  newAccessToken(clientId: string, scopes: string[], refreshToken: string | null, ttlSeconds = this.accessTokenTtlSeconds): AccessTokenRecord {
    const issuedAt = this.now();
    const rec: AccessTokenRecord = {
      token: `CN${randomBytes(48).toString('base64url')}`,
      hubId: this.portal.hubId,
      userId: this.portal.userId,
      user: this.portal.user,
      appId: this.portal.appId,
      clientId,
      scopes,
      issuedAt,
      expiresAt: issuedAt + ttlSeconds * 1000,
      refreshToken,
      revoked: false,
    };
    this.accessTokens.set(rec.token, rec);
    return rec;
  }

  /** Revokes a refresh token and the access tokens minted from it. Returns false when unknown. */
  revokeRefreshToken(token: string): boolean {
    const rec = this.refreshTokens.get(token);
    if (!rec || rec.revoked) return false;
    rec.revoked = true;
    for (const at of this.accessTokens.values()) if (at.refreshToken === token) at.revoked = true;
    return true;
  }

  /** Resolves a bearer token. */
  authenticate(authorization: string | undefined): Authenticated | AuthFailure {
    if (!authorization) return { kind: 'missing' };
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) return { kind: 'invalid' };
    const token = m[1];
    if (this.privateAppTokens.has(token)) {
      return { kind: 'pat', token, scopes: [...this.privateAppScopes], hubId: this.portal.hubId };
    }
    const rec = this.accessTokens.get(token);
    if (!rec || rec.revoked) return { kind: 'invalid' };
    const now = this.now();
    if (rec.expiresAt <= now) return { kind: 'expired', expiredMsAgo: now - rec.expiresAt };
    return { kind: 'oauth', token, scopes: rec.scopes, hubId: rec.hubId, record: rec };
  }

  /** Seconds until expiry (negative when expired). */
  expiresIn(rec: AccessTokenRecord): number {
    return Math.floor((rec.expiresAt - this.now()) / 1000);
  }
}
