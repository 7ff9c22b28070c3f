// The user's CRM connection, whatever the CRM: the spec's token method (adapted per CRM), OAuth 2.0,
// tokens encrypted at rest (AES-256-GCM), refresh before expiry, revoke on disconnect, the connection's
// field map, and a connector ready to query for a user. Everything CRM-specific comes from the CRM's
// provider (api/crm/<crm>/provider.ts); a user has one active connection at a time.
import { Prisma, type User, type UserIntegration } from '@prisma/client';
import '../crm/index.js';
import type { AccessTokenProvider, CrmConnector } from '../crm/connector.js';
import { CrmError, isCrmError } from '../crm/errors.js';
import { effectiveFieldMap, fieldMapOverridesSchema, type FieldMap, type FieldMapOverrides } from '../crm/field-map.js';
import type { CrmEndpoints, CrmProvider, CrmTokenSet, TokenMethodField } from '../crm/provider.js';
import { crmLabel, getProvider, isCrmSupported, notSupportedMessage } from '../crm/registry.js';
import { decryptSecret, encryptSecret, keyedHash, randomToken } from '../crypto.js';
import { AppError } from '../errors.js';
import { openImportedContacts } from './contact-imports/connection.js';
import { forgetCrmVocabulary } from './crm-vocabulary.js';
import type { ServiceDeps } from './deps.js';

const STATE_TTL_MS = 10 * 60_000;
/** Refresh an OAuth access token when it has less than this left. */
const REFRESH_MARGIN_MS = 5 * 60_000;

/** The CRM a user registered with, if the product has a connector for it. */
function providerOf(user: Pick<User, 'crmType'>): CrmProvider | null {
  return isCrmSupported(user.crmType) ? getProvider(user.crmType) : null;
}

function endpointsOf(deps: ServiceDeps, provider: CrmProvider): CrmEndpoints {
  return deps.crmEndpoints(provider.crmType);
}

function oauthApp(provider: CrmProvider, endpoints: CrmEndpoints) {
  if (!provider.oauth || !endpoints.clientId || !endpoints.clientSecret) {
    throw new AppError(
      'NOT_SUPPORTED',
      `OAuth with ${provider.label} is not configured on this server (${provider.crmType.toUpperCase()}_CLIENT_ID / ${provider.crmType.toUpperCase()}_CLIENT_SECRET). Use the ${provider.tokenMethod.label} method instead.`,
    );
  }
  return provider.oauth;
}

export interface ConnectionStatus {
  userId: string;
  connected: boolean;
  tokenType: 'oauth' | 'pat' | 'file' | null;
  scopes: string[];
  crmType: string;
  /** the CRM's name as the product writes it */
  crmLabel: string;
  /** whether the product connects to this CRM natively (else: contacts from a file) */
  supported: boolean;
  /** Set when the CRM of the user has no connector. */
  message?: string;
  accountId?: string | null;
  instanceUrl?: string | null;
  revoked?: boolean;
  /** how the user can connect: OAuth (when configured), the token method's inputs, a contacts file */
  methods: { oauth: boolean; token: { label: string; help: string; fields: TokenMethodField[] } | null; file: boolean };
  /** the connection's field-map overrides (null: the CRM's defaults) */
  fieldMapOverrides: FieldMapOverrides | null;
}

/** The user's active connection (one at a time: connecting replaces the previous one). */
async function activeIntegration(deps: ServiceDeps, userId: string): Promise<UserIntegration | null> {
  return deps.prisma.userIntegration.findFirst({ where: { userId }, orderBy: { updatedAt: 'desc' } });
}

export async function hasToken(deps: ServiceDeps, user: User): Promise<boolean> {
  const i = await activeIntegration(deps, user.id);
  return Boolean(i && !i.isRevoked);
}

function overridesOf(i: UserIntegration | null): FieldMapOverrides | null {
  if (!i?.fieldMap) return null;
  const parsed = fieldMapOverridesSchema.safeParse(i.fieldMap);
  return parsed.success ? parsed.data : null;
}

export async function connectionStatus(deps: ServiceDeps, user: User): Promise<ConnectionStatus> {
  const provider = providerOf(user);
  const i = await activeIntegration(deps, user.id);
  const connected = Boolean(i && !i.isRevoked);
  const endpoints = provider ? endpointsOf(deps, provider) : null;
  return {
    userId: user.id,
    connected,
    tokenType: connected ? (i!.tokenType as ConnectionStatus['tokenType']) : null,
    scopes: connected ? i!.scopes : [],
    crmType: user.crmType,
    crmLabel: crmLabel(user.crmType),
    supported: provider !== null,
    ...(provider ? {} : { message: notSupportedMessage(user.crmType) }),
    accountId: connected ? i!.accountId : null,
    instanceUrl: connected ? i!.instanceUrl : null,
    revoked: Boolean(i?.isRevoked),
    methods: {
      oauth: Boolean(provider?.oauth && endpoints?.clientId && endpoints.clientSecret),
      token: provider ? { label: provider.tokenMethod.label, help: provider.tokenMethod.help, fields: provider.tokenMethod.fields } : null,
      file: true,
    },
    fieldMapOverrides: overridesOf(i),
  };
}

/**
 * Links to the user's contacts in their CRM's app (the provider's record page for the active
 * connection), or null for every contact when there is none to link to (not connected, a contacts
 * file, a CRM or sandbox without pages).
 */
export async function crmRecordLinker(deps: ServiceDeps, user: User): Promise<(id: string) => string | null> {
  const provider = providerOf(user);
  const i = await activeIntegration(deps, user.id);
  if (!provider?.recordUrl || !i || i.isRevoked || i.provider !== provider.crmType) return () => null;
  const link = { endpoints: endpointsOf(deps, provider), accountId: i.accountId, instanceUrl: i.instanceUrl };
  return (id) => provider.recordUrl!(link, id);
}

function assertProvider(user: User): CrmProvider {
  const p = providerOf(user);
  if (!p) throw new AppError('NOT_SUPPORTED', notSupportedMessage(user.crmType));
  return p;
}

interface ConnectionInfo {
  provider: CrmProvider;
  instanceUrl?: string;
  region?: string;
  accountId?: string;
  fieldMap?: FieldMap;
}

function connectorWithToken(deps: ServiceDeps, c: ConnectionInfo, getAccessToken: AccessTokenProvider): CrmConnector {
  const endpoints = endpointsOf(deps, c.provider);
  return c.provider.createConnector({
    getAccessToken,
    baseUrl: endpoints.apiBaseUrl,
    instanceUrl: c.instanceUrl,
    region: c.region,
    accountId: c.accountId,
    fieldMap: c.fieldMap ?? c.provider.fieldMapDefaults,
    requestTimeoutMs: deps.config.crmRetry.requestTimeoutMs,
    retryDeadlineMs: deps.config.crmRetry.retryDeadlineMs,
    baseBackoffMs: deps.config.crmRetry.baseBackoffMs,
    ...(deps.searchLimiters ? { searchLimiter: deps.searchLimiters.forAccount } : {}),
  });
}

/** The token method's input: `{ token }` (the spec's payload) or the CRM's fields (token + instance URL, region). */
function tokenInput(raw: unknown): Record<string, string> {
  const o = (typeof raw === 'string' ? { token: raw } : raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string') out[k] = v.trim();
  return out;
}

/**
 * Verifies what the user pasted (the spec's token method, adapted per CRM) with the CRM and stores it,
 * replacing any current connection.
 */
export async function savePrivateAppToken(deps: ServiceDeps, user: User, raw: unknown, extra: Record<string, unknown> = {}): Promise<ConnectionStatus> {
  const input = { ...tokenInput(extra), ...tokenInput(typeof raw === 'string' || raw === undefined || raw === null ? { token: raw ?? '' } : raw) };
  if (!input.token) throw new AppError('BAD_USER_INPUT', 'Token required', { field: 'token' });
  if (input.token.length > 2000) throw new AppError('BAD_USER_INPUT', 'This token is too long to be a CRM API token', { field: 'token' });
  const provider = assertProvider(user);
  for (const f of provider.tokenMethod.fields) {
    if (f.required && !input[f.name]) throw new AppError('BAD_USER_INPUT', `${f.label} required`, { field: f.name });
  }
  const endpoints = endpointsOf(deps, provider);
  let tokens: CrmTokenSet;
  let info;
  try {
    tokens = await provider.tokenMethod.credentials(endpoints, input);
    info = await connectorWithToken(deps, { provider, instanceUrl: tokens.instanceUrl, region: input.region }, () => tokens.accessToken).verifyCredentials();
  } catch (err) {
    if (isCrmError(err) && (err.code === 'UNAUTHORIZED' || err.code === 'VALIDATION')) {
      const what = (provider.tokenMethod.fields.find((f) => f.name === 'token')?.label ?? 'token').toLowerCase();
      throw new AppError('BAD_USER_INPUT', `${provider.label} rejected this token. Check that it is a valid ${what} with read access to contacts.`, {
        title: 'Invalid token',
        field: 'token',
      });
    }
    throw err;
  }
  await storeIntegration(deps, user.id, provider.crmType, {
    tokenType: 'pat',
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: tokens.expiresIn ? new Date(deps.now().getTime() + tokens.expiresIn * 1000) : null,
    scopes: info.scopes.length ? info.scopes : (tokens.scopes ?? []),
    accountId: info.accountId,
    instanceUrl: tokens.instanceUrl ?? null,
    region: input.region || null,
  });
  deps.logger.info({ userId: user.id, crm: provider.crmType, tokenType: 'pat' }, 'CRM connected');
  return connectionStatus(deps, user);
}

interface StoredConnection {
  tokenType: 'oauth' | 'pat' | 'file';
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string[];
  accountId: string | null;
  instanceUrl?: string | null;
  region?: string | null;
}

/**
 * Stores the user's connection for `provider`, replacing every other one (one active connection per user).
 * A field map set for the same provider before is kept.
 */
export async function storeIntegration(deps: ServiceDeps, userId: string, provider: string, v: StoredConnection): Promise<void> {
  const key = deps.config.tokenEncryptionKey;
  const data = {
    tokenType: v.tokenType,
    accessTokenCiphertext: encryptSecret(v.accessToken, key),
    refreshTokenCiphertext: v.refreshToken ? encryptSecret(v.refreshToken, key) : null,
    expiresAt: v.expiresAt,
    scopes: v.scopes,
    accountId: v.accountId,
    instanceUrl: v.instanceUrl ?? null,
    region: v.region ?? null,
    isRevoked: false,
  };
  await deps.prisma.$transaction([
    deps.prisma.userIntegration.deleteMany({ where: { userId, provider: { not: provider } } }),
    deps.prisma.userIntegration.upsert({
      where: { userId_provider: { userId, provider } },
      create: { userId, provider, ...data },
      update: data,
    }),
  ]);
  // another account's values (or another CRM's) must not be suggested or resolved against
  forgetCrmVocabulary(userId);
}

/** Disconnects: the CRM is asked to revoke the grant (best effort), then the connection is forgotten. */
export async function disconnect(deps: ServiceDeps, user: User): Promise<void> {
  const i = await activeIntegration(deps, user.id);
  if (!i) return;
  const provider = isCrmSupported(i.provider) ? getProvider(i.provider) : null;
  // OAuth grants, and token-method ones that carry a refresh token (a Zoho self client's), are revoked.
  if (provider?.oauth?.revoke && (i.tokenType === 'oauth' || i.refreshTokenCiphertext) && !i.isRevoked) {
    const key = deps.config.tokenEncryptionKey;
    const token = i.refreshTokenCiphertext ? decryptSecret(i.refreshTokenCiphertext, key) : decryptSecret(i.accessTokenCiphertext, key);
    await provider.oauth
      .revoke(endpointsOf(deps, provider), { token, region: i.region ?? undefined })
      .catch((err) => deps.logger.warn({ userId: user.id, crm: provider.crmType, code: isCrmError(err) ? err.code : undefined }, 'CRM token revocation failed'));
  }
  await deps.prisma.userIntegration.deleteMany({ where: { userId: user.id } });
  forgetCrmVocabulary(user.id);
  deps.logger.info({ userId: user.id }, 'CRM disconnected');
}

// ---------------------------------------------------------------------------------------------
// OAuth 2.0 authorization code flow

/** Creates a single-use state bound to the session and returns the provider's authorize URL. */
export async function startOAuth(deps: ServiceDeps, user: User, sessionId: string, options: { region?: string } = {}): Promise<string> {
  const provider = assertProvider(user);
  const endpoints = endpointsOf(deps, provider);
  const oauth = oauthApp(provider, endpoints);
  const state = randomToken(24);
  const now = deps.now();
  await deps.prisma.oAuthState.create({
    data: {
      stateHash: keyedHash(state, deps.config.sessionSecret),
      userId: user.id,
      sessionId,
      provider: provider.crmType,
      redirectUri: endpoints.redirectUri,
      createdAt: now,
      expiresAt: new Date(now.getTime() + STATE_TTL_MS),
    },
  });
  return oauth.authorizeUrl(endpoints, { state, region: options.region });
}

/**
 * What the OAuth callback may show the user: fixed texts only. A provider's own words (its
 * error_description, a refused exchange's message) never reach the URL or the screen; they are logged.
 */
export const OAUTH_MESSAGES = {
  missing: 'The authorization response is missing its code or state',
  signedOut: 'Your session ended during authorization. Sign in and try again.',
  invalidState: 'Invalid authorization state. Start the connection again.',
  expired: 'The authorization request expired. Start the connection again.',
  used: 'This authorization was already used. Start the connection again.',
  denied: 'Access to your CRM was not granted. Start the connection again to allow it.',
  providerError: 'The CRM could not complete the authorization. Start the connection again.',
  refused: 'The CRM refused the authorization. Start the connection again.',
  failed: 'OAuth flow failed',
} as const;

/**
 * Handles the provider's redirect: checks the state (exists, unused, unexpired, same session, same CRM)
 * and consumes it — on the error branch too, so a link with made-up errors is refused like any other
 * forged callback and says only what we show — then exchanges the code and stores the tokens. Throws
 * AppError with an OAUTH_MESSAGES text.
 */
export async function completeOAuth(
  deps: ServiceDeps,
  params: { code?: string; state?: string; error?: string; callback?: Record<string, string> },
  session: { id: string; userId: string } | null,
  crmType: string = 'hubspot',
): Promise<void> {
  const refuse = (message: string, code: 'BAD_USER_INPUT' | 'UNAUTHENTICATED' | 'CRM_ERROR' = 'BAD_USER_INPUT') => new AppError(code, message);
  if (!params.state || (!params.code && !params.error)) throw refuse(OAUTH_MESSAGES.missing);
  if (!session) throw refuse(OAUTH_MESSAGES.signedOut, 'UNAUTHENTICATED');
  const now = deps.now();
  const stateHash = keyedHash(params.state, deps.config.sessionSecret);
  const record = await deps.prisma.oAuthState.findUnique({ where: { stateHash } });
  if (!record || record.provider !== crmType || record.sessionId !== session.id || record.userId !== session.userId) {
    throw refuse(OAUTH_MESSAGES.invalidState);
  }
  if (record.expiresAt <= now) throw refuse(OAUTH_MESSAGES.expired);
  // Single use, even under concurrent callbacks: only one update can flip usedAt from null.
  const { count } = await deps.prisma.oAuthState.updateMany({ where: { id: record.id, usedAt: null }, data: { usedAt: now } });
  if (count !== 1) throw refuse(OAUTH_MESSAGES.used);
  if (params.error) {
    // The provider's code is logged (a short token, not its text); the user gets ours.
    deps.logger.info({ userId: session.userId, providerError: /^[a-z_]{1,40}$/.test(params.error) ? params.error : 'other' }, 'OAuth authorization not granted');
    throw refuse(params.error === 'access_denied' ? OAUTH_MESSAGES.denied : OAUTH_MESSAGES.providerError);
  }
  if (!params.code) throw refuse(OAUTH_MESSAGES.missing);

  const user = await deps.prisma.user.findUniqueOrThrow({ where: { id: session.userId } });
  const provider = assertProvider(user);
  if (provider.crmType !== crmType) throw refuse(OAUTH_MESSAGES.invalidState);
  const endpoints = { ...endpointsOf(deps, provider), redirectUri: record.redirectUri };
  const oauth = oauthApp(provider, endpoints);
  const region = params.callback?.region;
  let tokens: CrmTokenSet;
  try {
    tokens = await oauth.exchangeCode(endpoints, { code: params.code, region, callback: params.callback ?? {} });
  } catch (err) {
    if (isCrmError(err)) {
      deps.logger.info({ userId: session.userId, crm: provider.crmType, crmError: err.code }, 'OAuth code exchange refused');
      throw refuse(OAUTH_MESSAGES.refused, 'CRM_ERROR');
    }
    throw err;
  }
  const info = await connectorWithToken(deps, { provider, instanceUrl: tokens.instanceUrl, region }, () => tokens.accessToken).verifyCredentials();
  await storeIntegration(deps, user.id, provider.crmType, {
    tokenType: 'oauth',
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: tokens.expiresIn ? new Date(now.getTime() + tokens.expiresIn * 1000) : null,
    scopes: info.scopes.length ? info.scopes : (tokens.scopes ?? []),
    accountId: info.accountId,
    instanceUrl: tokens.instanceUrl ?? null,
    region: region ?? null,
  });
  deps.logger.info({ userId: user.id, crm: provider.crmType, tokenType: 'oauth' }, 'CRM connected');
}

// ---------------------------------------------------------------------------------------------
// The connection's field map

/** Saves the connection's field-map overrides (null: back to the CRM's defaults). */
export async function saveFieldMap(deps: ServiceDeps, user: User, raw: unknown): Promise<ConnectionStatus> {
  const i = await activeIntegration(deps, user.id);
  if (!i || i.isRevoked) throw new AppError('CRM_NOT_CONNECTED', `Not connected to CRM. Connect ${crmLabel(user.crmType)} in CRM Integration first.`);
  let overrides: FieldMapOverrides | null = null;
  if (raw !== null && raw !== undefined) {
    const parsed = fieldMapOverridesSchema.safeParse(raw);
    if (!parsed.success) throw new AppError('BAD_USER_INPUT', `The field map is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}`, { field: 'fieldMap' });
    overrides = parsed.data;
  }
  await deps.prisma.userIntegration.update({
    where: { id: i.id },
    data: { fieldMap: overrides === null ? Prisma.DbNull : (overrides as Prisma.InputJsonValue) },
  });
  return connectionStatus(deps, user);
}

// ---------------------------------------------------------------------------------------------
// Using the connection

/** Serialises refreshes per integration within this process (other processes: see below). */
const refreshing = new Map<string, Promise<string>>();

async function refreshOAuth(deps: ServiceDeps, provider: CrmProvider, integrationId: string): Promise<string> {
  const current = await deps.prisma.userIntegration.findUniqueOrThrow({ where: { id: integrationId } });
  if (!current.refreshTokenCiphertext) {
    throw new CrmError('UNAUTHORIZED', 'The CRM connection has no refresh token. Reconnect in CRM Integration.', { revoked: true });
  }
  const endpoints = endpointsOf(deps, provider);
  try {
    const key = deps.config.tokenEncryptionKey;
    const tokens = await oauthApp(provider, endpoints).refresh(endpoints, {
      refreshToken: decryptSecret(current.refreshTokenCiphertext, key),
      region: current.region ?? undefined,
    });
    await deps.prisma.userIntegration.update({
      where: { id: integrationId },
      data: {
        accessTokenCiphertext: encryptSecret(tokens.accessToken, key),
        refreshTokenCiphertext: encryptSecret(tokens.refreshToken ?? decryptSecret(current.refreshTokenCiphertext, key), key),
        expiresAt: tokens.expiresIn ? new Date(deps.now().getTime() + tokens.expiresIn * 1000) : null,
        ...(tokens.instanceUrl ? { instanceUrl: tokens.instanceUrl } : {}),
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

/** Builds connectors for connections of another kind than a CRM's tokens (contacts files): see imported/. */
export type ConnectionKind = (deps: ServiceDeps, user: User, integration: UserIntegration) => Promise<CrmConnector> | CrmConnector;
const connectionKinds = new Map<string, ConnectionKind>();

/** Registers how connections of a provider name that is not a CRM are opened (e.g. "file"). */
export function registerConnectionKind(provider: string, open: ConnectionKind): void {
  connectionKinds.set(provider, open);
}

// Contacts imported from a file are a connection of their own kind (provider "file").
registerConnectionKind('file', openImportedContacts);

/** A connector for the user's active connection, or an AppError explaining why there is none. */
export async function connectorForUser(deps: ServiceDeps, user: User): Promise<CrmConnector> {
  const integration = await activeIntegration(deps, user.id);
  if (!integration || integration.isRevoked) {
    if (!providerOf(user) && !connectionKinds.size) throw new AppError('NOT_SUPPORTED', notSupportedMessage(user.crmType));
    throw new AppError(
      'CRM_NOT_CONNECTED',
      providerOf(user)
        ? `Not connected to CRM. Connect your ${crmLabel(user.crmType)} account in CRM Integration first.`
        : 'Not connected to CRM. Import your contacts from a CSV or Excel file in CRM Integration first.',
    );
  }
  const kind = connectionKinds.get(integration.provider);
  if (kind) return kind(deps, user, integration);
  const provider = getProvider(integration.provider);
  const getAccessToken = async (opts?: { forceRefresh?: boolean }) => {
    const i = await deps.prisma.userIntegration.findUniqueOrThrow({ where: { id: integration.id } });
    if (i.isRevoked) throw new CrmError('UNAUTHORIZED', 'Your CRM connection was revoked. Reconnect in CRM Integration.', { revoked: true });
    // OAuth connections, and token-method ones that came with a refresh token and an expiry (a Zoho
    // self client's grant), are refreshed before they expire.
    const refreshable = i.tokenType === 'oauth' || (i.refreshTokenCiphertext !== null && i.expiresAt !== null);
    const dueForRefresh = refreshable && (opts?.forceRefresh || (i.expiresAt && i.expiresAt.getTime() - deps.now().getTime() < REFRESH_MARGIN_MS));
    if (!dueForRefresh) return decryptSecret(i.accessTokenCiphertext, deps.config.tokenEncryptionKey);
    let pending = refreshing.get(i.id);
    if (!pending) {
      pending = refreshOAuth(deps, provider, i.id).finally(() => refreshing.delete(i.id));
      refreshing.set(i.id, pending);
    }
    return pending;
  };
  return connectorWithToken(
    deps,
    {
      provider,
      instanceUrl: integration.instanceUrl ?? undefined,
      region: integration.region ?? undefined,
      accountId: integration.accountId ?? undefined,
      fieldMap: effectiveFieldMap(provider.fieldMapDefaults, overridesOf(integration)),
    },
    getAccessToken,
  );
}
