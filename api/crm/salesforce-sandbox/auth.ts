/**
 * The sandbox org's OAuth state: authorization codes, refresh tokens and sessions (access tokens).
 *
 * Modelled on Salesforce's OAuth 2.0 web-server flow:
 *  - authorization codes are single-use and valid for 15 minutes; PKCE (`code_challenge`, S256 or
 *    plain) is checked when the authorize request carried a challenge;
 *  - an access token is a session id `<org id>!<opaque>`; it has no announced lifetime (the token
 *    response carries no `expires_in`) and dies after the org's session timeout of inactivity
 *    (default 2 hours, each use extends it) or on revocation, answering 401 INVALID_SESSION_ID;
 *  - a refresh token is issued when the scopes include `refresh_token` (or `offline_access`) and does
 *    not expire; the refresh grant returns a new access token and no new refresh token;
 *  - revoking a refresh token revokes the sessions minted from it; revoking an access token ends that
 *    session;
 *  - configured tokens (`accessTokens`) stand for a session id obtained elsewhere (the "paste a token"
 *    method, e.g. `sf org display`) and never time out.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface SessionRecord {
  token: string;
  clientId: string | null;
  scopes: string[];
  refreshToken: string | null;
  issuedAt: number;
  lastUsedAt: number;
  /** seconds of inactivity after which the session dies; null = never */
  timeoutSeconds: number | null;
  revoked: boolean;
}

export interface RefreshTokenRecord {
  token: string;
  clientId: string;
  scopes: string[];
  revoked: boolean;
}

export interface AuthCodeRecord {
  code: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  expiresAt: number;
  used: boolean;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | 'plain' | null;
}

export class TokenStore {
  readonly sessions = new Map<string, SessionRecord>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly codes = new Map<string, AuthCodeRecord>();

  constructor(
    private readonly orgId15: string,
    private readonly now: () => number,
    private readonly sessionTimeoutSeconds: number,
    private readonly authCodeTtlSeconds: number,
    staticTokens: readonly string[],
    staticScopes: readonly string[],
  ) {
    for (const token of staticTokens) {
      this.sessions.set(token, { token, clientId: null, scopes: [...staticScopes], refreshToken: null, issuedAt: 0, lastUsedAt: 0, timeoutSeconds: null, revoked: false });
    }
  }

  newAuthCode(rec: Omit<AuthCodeRecord, 'code' | 'expiresAt' | 'used'>): AuthCodeRecord {
    const full: AuthCodeRecord = { ...rec, code: `aPrx${randomBytes(36).toString('base64url')}==`, expiresAt: this.now() + this.authCodeTtlSeconds * 1000, used: false };
    this.codes.set(full.code, full);
    return full;
  }

  newRefreshToken(clientId: string, scopes: string[]): RefreshTokenRecord {
    const rec: RefreshTokenRecord = { token: `5Aep861${randomBytes(42).toString('base64url')}`, clientId, scopes, revoked: false };
    this.refreshTokens.set(rec.token, rec);
    return rec;
  }

  newSession(clientId: string | null, scopes: string[], refreshToken: string | null, timeoutSeconds: number | null = this.sessionTimeoutSeconds): SessionRecord {
    const now = this.now();
    const rec: SessionRecord = {
      token: `${this.orgId15}!${randomBytes(72).toString('base64url')}`,
      clientId,
      scopes,
      refreshToken,
      issuedAt: now,
      lastUsedAt: now,
      timeoutSeconds,
      revoked: false,
    };
    this.sessions.set(rec.token, rec);
    return rec;
  }

  /** The live session of an `Authorization: Bearer|OAuth <token>` header (extending it), or null. */
  authenticate(authorization: string | undefined): SessionRecord | null {
    if (!authorization) return null;
    const space = authorization.indexOf(' ');
    if (space < 0) return null;
    const scheme = authorization.slice(0, space).toLowerCase();
    if (scheme !== 'bearer' && scheme !== 'oauth') return null;
    return this.session(authorization.slice(space + 1).trim());
  }

  /** The live session of a token (extending it), or null. */
  session(token: string): SessionRecord | null {
    const rec = this.sessions.get(token);
    if (!rec || rec.revoked) return null;
    const now = this.now();
    if (rec.timeoutSeconds !== null && now - rec.lastUsedAt >= rec.timeoutSeconds * 1000) return null;
    rec.lastUsedAt = now;
    return rec;
  }

  /** Revokes a refresh token (and its sessions) or a session. False when the token is unknown. */
  revoke(token: string): boolean {
    const refresh = this.refreshTokens.get(token);
    if (refresh && !refresh.revoked) {
      refresh.revoked = true;
      for (const s of this.sessions.values()) if (s.refreshToken === token) s.revoked = true;
      return true;
    }
    const session = this.sessions.get(token);
    if (session && !session.revoked) {
      session.revoked = true;
      return true;
    }
    return false;
  }
}

/** PKCE: does `verifier` answer `challenge`? */
export function pkceMatches(challenge: string, method: 'S256' | 'plain', verifier: string): boolean {
  if (method === 'plain') return challenge === verifier;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}
