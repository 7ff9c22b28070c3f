// The user's CRM connection: private-app tokens and OAuth 2.0 (HubSpot), tokens encrypted at rest
// (AES-256-GCM), automatic refresh before expiry, and a connector ready to query for a user.
import type { User, UserIntegration } from '@prisma/client';
import '../crm/index.js';
import type { AccessTokenProvider, CrmConnector } from '../crm/connector.js';
import { CrmError, isCrmError } from '../crm/errors.js';
import { buildAuthorizeUrl, exchangeCode, refreshAccessToken } from '../crm/hubspot/oauth.js';
import { getConnectorFactory, isCrmSupported, notSupportedMessage } from '../crm/registry.js';
import { decryptSecret, encryptSecret, keyedHash, randomToken } from '../crypto.js';
import { AppError } from '../errors.js';
import type { ServiceDeps } from './deps.js';

export const PROVIDER = 'hubspot';
const STATE_TTL_MS = 10 * 60_000;
/** Refresh an OAuth access token when it has less than this left. */
const REFRESH_MARGIN_MS = 5 * 60_000;

function oauthApp(deps: ServiceDeps): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = deps.crm;
  if (!clientId || !clientSecret) {
    throw new AppError('NOT_SUPPORTED', 'OAuth is not configured on this server (HUBSPOT_CLIENT_ID / HUBSPOT_CLIENT_SECRET). Use a private-app token instead.');
  }
  return { clientId, clientSecret };
}

export interface ConnectionStatus {
  userId: string;
  connected: boolean;
  tokenType: 'oauth' | 'pat' | null;
  scopes: string[];
  crmType: string;
  supported: boolean;
  /** Set when the CRM of the user has no connector yet. */
  message?: string;
  accountId?: string | null;
  revoked?: boolean;
}

async function activeIntegration(deps: ServiceDeps, userId: string): Promise<UserIntegration | null> {
  return deps.prisma.userIntegration.findUnique({ where: { userId_provider: { userId, provider: PROVIDER } } });
}

export async function hasToken(deps: ServiceDeps, user: User): Promise<boolean> {
  const i = await activeIntegration(deps, user.id);
  return Boolean(i && !i.isRevoked);
}

export async function connectionStatus(deps: ServiceDeps, user: User): Promise<ConnectionStatus> {
  const supported = isCrmSupported(user.crmType);
  const i = await activeIntegration(deps, user.id);
  const connected = Boolean(i && !i.isRevoked);
  return {
    userId: user.id,
    connected,
    tokenType: connected ? (i!.tokenType as 'oauth' | 'pat') : null,
    scopes: connected ? i!.scopes : [],
    crmType: user.crmType,
    supported,
    ...(supported ? {} : { message: notSupportedMessage(user.crmType) }),
    accountId: connected ? i!.accountId : null,
    revoked: Boolean(i?.isRevoked),
  };
}

function assertSupported(user: User) {
  if (!isCrmSupported(user.crmType)) throw new AppError('NOT_SUPPORTED', notSupportedMessage(user.crmType));
}

function connectorWithToken(deps: ServiceDeps, user: User, getAccessToken: AccessTokenProvider, accountId?: string): CrmConnector {
  return getConnectorFactory(user.crmType).create({
    getAccessToken,
    baseUrl: deps.crm.apiBaseUrl,
    accountId,
    requestTimeoutMs: deps.config.crmRetry.requestTimeoutMs,
    retryDeadlineMs: deps.config.crmRetry.retryDeadlineMs,
    baseBackoffMs: deps.config.crmRetry.baseBackoffMs,
    ...(deps.searchLimiters ? { searchLimiter: deps.searchLimiters.forAccount } : {}),
  });
}

/** Verifies a private-app token with the CRM and stores it (replacing any current connection). */
export async function savePrivateAppToken(deps: ServiceDeps, user: User, rawToken: unknown): Promise<ConnectionStatus> {
  const token = typeof rawToken === 'string' ? rawToken.trim() : '';
  if (!token) throw new AppError('BAD_USER_INPUT', 'Token required', { field: 'token' });
  if (token.length > 500) throw new AppError('BAD_USER_INPUT', 'This token is too long to be a CRM API token', { field: 'token' });
  assertSupported(user);
  let info;
  try {
    info = await connectorWithToken(deps, user, () => token).verifyCredentials();
  } catch (err) {
    if (isCrmError(err) && (err.code === 'UNAUTHORIZED' || err.code === 'VALIDATION')) {
      throw new AppError('BAD_USER_INPUT', 'The CRM rejected this token. Check that it is a valid private-app token with contact read access.', {
        title: 'Invalid token',
        field: 'token',
      });
    }
    throw err;
  }
  await storeIntegration(deps, user.id, {
    tokenType: 'pat',
    accessToken: token,
    refreshToken: null,
    expiresAt: null,
    scopes: info.scopes,
    accountId: info.accountId,
  });
  deps.logger.info({ userId: user.id, tokenType: 'pat' }, 'CRM connected');
  return connectionStatus(deps, user);
}

async function storeIntegration(
  deps: ServiceDeps,
  userId: string,
  v: { tokenType: 'oauth' | 'pat'; accessToken: string; refreshToken: string | null; expiresAt: Date | null; scopes: string[]; accountId: string | null },
) {
  const key = deps.config.tokenEncryptionKey;
  const data = {
    tokenType: v.tokenType,
    accessTokenCiphertext: encryptSecret(v.accessToken, key),
    refreshTokenCiphertext: v.refreshToken ? encryptSecret(v.refreshToken, key) : null,
    expiresAt: v.expiresAt,
    scopes: v.scopes,
    accountId: v.accountId,
    isRevoked: false,
  };
  await deps.prisma.userIntegration.upsert({
    where: { userId_provider: { userId, provider: PROVIDER } },
    create: { userId, provider: PROVIDER, ...data },
    update: data,
  });
}

export async function disconnect(deps: ServiceDeps, user: User): Promise<void> {
  const i = await activeIntegration(deps, user.id);
  if (!i) return;
  await deps.prisma.userIntegration.delete({ where: { id: i.id } });
  deps.logger.info({ userId: user.id }, 'CRM disconnected');
}

// ---------------------------------------------------------------------------------------------
// OAuth 2.0 authorization code flow

/** Creates a single-use state bound to the session and returns the provider's authorize URL. */
export async function startOAuth(deps: ServiceDeps, user: User, sessionId: string): Promise<string> {
  assertSupported(user);
  oauthApp(deps);
  const state = randomToken(24);
  const now = deps.now();
  await deps.prisma.oAuthState.create({
    data: {
      stateHash: keyedHash(state, deps.config.sessionSecret),
      userId: user.id,
      sessionId,
      provider: PROVIDER,
      redirectUri: deps.crm.redirectUri,
      createdAt: now,
      expiresAt: new Date(now.getTime() + STATE_TTL_MS),
    },
  });
  return buildAuthorizeUrl({
    authBaseUrl: deps.crm.authBaseUrl,
    clientId: oauthApp(deps).clientId,
    redirectUri: deps.crm.redirectUri,
    scopes: deps.crm.scopes,
    state,
  });
}

/**
 * Handles the provider's redirect: checks the state (exists, unused, unexpired, same session),
 * consumes it, exchanges the code and stores the tokens. Throws AppError with a user-facing message.
 */
export async function completeOAuth(
  deps: ServiceDeps,
  params: { code?: string; state?: string; error?: string; errorDescription?: string },
  session: { id: string; userId: string } | null,
): Promise<void> {
  if (params.error) throw new AppError('BAD_USER_INPUT', params.errorDescription || `Authorization was not granted (${params.error})`);
  if (!params.state || !params.code) throw new AppError('BAD_USER_INPUT', 'The authorization response is missing its code or state');
  if (!session) throw new AppError('UNAUTHENTICATED', 'Your session ended during authorization. Sign in and try again.');
  const now = deps.now();
  const stateHash = keyedHash(params.state, deps.config.sessionSecret);
  const record = await deps.prisma.oAuthState.findUnique({ where: { stateHash } });
  if (!record || record.provider !== PROVIDER || record.sessionId !== session.id || record.userId !== session.userId) {
    throw new AppError('BAD_USER_INPUT', 'Invalid authorization state. Start the connection again.');
  }
  if (record.expiresAt <= now) throw new AppError('BAD_USER_INPUT', 'The authorization request expired. Start the connection again.');
  // Single use, even under concurrent callbacks: only one update can flip usedAt from null.
  const { count } = await deps.prisma.oAuthState.updateMany({ where: { id: record.id, usedAt: null }, data: { usedAt: now } });
  if (count !== 1) throw new AppError('BAD_USER_INPUT', 'This authorization was already used. Start the connection again.');

  let tokens;
  try {
    tokens = await exchangeCode({
      apiBaseUrl: deps.crm.apiBaseUrl,
      ...oauthApp(deps),
      redirectUri: record.redirectUri,
      code: params.code,
    });
  } catch (err) {
    if (isCrmError(err)) throw new AppError('CRM_ERROR', `The CRM refused the authorization: ${err.message}`);
    throw err;
  }
  const user = await deps.prisma.user.findUniqueOrThrow({ where: { id: session.userId } });
  const info = await connectorWithToken(deps, user, () => tokens.accessToken).verifyCredentials();
  await storeIntegration(deps, user.id, {
    tokenType: 'oauth',
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: new Date(now.getTime() + tokens.expiresIn * 1000),
    scopes: info.scopes,
    accountId: info.accountId,
  });
  deps.logger.info({ userId: user.id, tokenType: 'oauth' }, 'CRM connected');
}

// ---------------------------------------------------------------------------------------------
// Using the connection

/** Serialises refreshes per integration within this process (other processes: see below). */
const refreshing = new Map<string, Promise<string>>();

async function refreshOAuth(deps: ServiceDeps, integrationId: string): Promise<string> {
  const current = await deps.prisma.userIntegration.findUniqueOrThrow({ where: { id: integrationId } });
  if (!current.refreshTokenCiphertext) {
    throw new CrmError('UNAUTHORIZED', 'The CRM connection has no refresh token. Reconnect in CRM Integration.', { revoked: true });
  }
  try {
    const tokens = await refreshAccessToken({
      apiBaseUrl: deps.crm.apiBaseUrl,
      ...oauthApp(deps),
      refreshToken: decryptSecret(current.refreshTokenCiphertext, deps.config.tokenEncryptionKey),
    });
    const key = deps.config.tokenEncryptionKey;
    await deps.prisma.userIntegration.update({
      where: { id: integrationId },
      data: {
        accessTokenCiphertext: encryptSecret(tokens.accessToken, key),
        refreshTokenCiphertext: encryptSecret(tokens.refreshToken ?? decryptSecret(current.refreshTokenCiphertext, key), key),
        expiresAt: new Date(deps.now().getTime() + tokens.expiresIn * 1000),
      },
    });
    return tokens.accessToken;
  } catch (err) {
    if (isCrmError(err) && (err.revoked || err.code === 'UNAUTHORIZED')) {
      await deps.prisma.userIntegration.update({ where: { id: integrationId }, data: { isRevoked: true } });
      deps.logger.warn({ integrationId }, 'CRM refresh token revoked; integration marked revoked');
      throw new CrmError('UNAUTHORIZED', 'Your CRM connection was revoked. Reconnect in CRM Integration.', { revoked: true, cause: err });
    }
    throw err;
  }
}

/** A connector for the user's CRM, or an AppError explaining why there is none. */
export async function connectorForUser(deps: ServiceDeps, user: User): Promise<CrmConnector> {
  assertSupported(user);
  const integration = await activeIntegration(deps, user.id);
  if (!integration || integration.isRevoked) {
    throw new AppError('CRM_NOT_CONNECTED', 'Not connected to CRM. Connect your HubSpot account in CRM Integration first.');
  }
  const getAccessToken = async (opts?: { forceRefresh?: boolean }) => {
    const i = await deps.prisma.userIntegration.findUniqueOrThrow({ where: { id: integration.id } });
    if (i.isRevoked) throw new CrmError('UNAUTHORIZED', 'Your CRM connection was revoked. Reconnect in CRM Integration.', { revoked: true });
    const dueForRefresh =
      i.tokenType === 'oauth' && (opts?.forceRefresh || (i.expiresAt && i.expiresAt.getTime() - deps.now().getTime() < REFRESH_MARGIN_MS));
    if (!dueForRefresh) return decryptSecret(i.accessTokenCiphertext, deps.config.tokenEncryptionKey);
    let pending = refreshing.get(i.id);
    if (!pending) {
      pending = refreshOAuth(deps, i.id).finally(() => refreshing.delete(i.id));
      refreshing.set(i.id, pending);
    }
    return pending;
  };
  return connectorWithToken(deps, user, getAccessToken, integration.accountId ?? undefined);
}
