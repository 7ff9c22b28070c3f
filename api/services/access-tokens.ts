// Personal access tokens: the credential of non-browser clients (the CLI), sent as
// `Authorization: Bearer <token>` over HTTP and in the graphql-ws connection. A token is created by
// signing in with email and password, shown once, stored as a keyed hash, listed and revoked by its
// owner, and ended by a ban. Browser sessions stay cookies (sessions.ts).
import type { PersonalAccessToken, Prisma, User } from '@prisma/client';
import { z } from 'zod';
import { keyedHash, randomToken } from '../crypto.js';
import { notFound } from '../errors.js';
import { CREDENTIAL_TOPIC } from '../events/pubsub.js';
import type { ServiceDeps } from './deps.js';
import { findOwned } from './owned.js';
import { parseInput } from './validation.js';

/** Recognisable in logs and secret scanners; the rest is 32 random bytes. */
export const ACCESS_TOKEN_PREFIX = 'crm_pat_';
const DISPLAY_PREFIX_LENGTH = ACCESS_TOKEN_PREFIX.length + 6;
const TOUCH_INTERVAL_MS = 5 * 60_000;
export const MAX_TOKENS_PER_USER = 50;

const createSchema = z.object({
  name: z
    .string({ error: 'A name for the token is required' })
    .trim()
    .min(1, 'A name for the token is required')
    .max(100, 'The token name must be at most 100 characters'),
});

export interface CreatedAccessToken {
  /** The token itself: returned once, never stored. */
  token: string;
  accessToken: PersonalAccessToken;
}

/** Validates a token name before anything else (so a bad name costs no sign-in attempt). */
export const parseTokenName = (name: unknown): string => parseInput(createSchema, { name }).name;

/** Creates a named token for a user who has just proven who they are (auth.ts signInForToken). */
export async function createAccessToken(deps: ServiceDeps, user: Pick<User, 'id'>, name: string): Promise<CreatedAccessToken> {
  const token = ACCESS_TOKEN_PREFIX + randomToken();
  const accessToken = await deps.prisma.$transaction(async (tx) => {
    const created = await tx.personalAccessToken.create({
      data: { userId: user.id, name, tokenHash: hashToken(deps, token), prefix: token.slice(0, DISPLAY_PREFIX_LENGTH), createdAt: deps.now() },
    });
    // Keep the newest tokens only: a script that logs in in a loop must not grow the table forever.
    const stale = await tx.personalAccessToken.findMany({
      where: { userId: user.id, revokedAt: null },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: MAX_TOKENS_PER_USER,
      select: { id: true },
    });
    if (stale.length) await tx.personalAccessToken.updateMany({ where: { id: { in: stale.map((s) => s.id) } }, data: { revokedAt: deps.now() } });
    return created;
  });
  deps.logger.info({ userId: user.id, tokenId: accessToken.id }, 'access token created');
  return { token, accessToken };
}

const hashToken = (deps: ServiceDeps, token: string) => keyedHash(token, deps.config.sessionSecret);

export interface AccessTokenInfo {
  accessToken: PersonalAccessToken;
  user: User;
}

/** The live token for a bearer value, or null (unknown, revoked, expired, or user banned). */
export async function resolveAccessToken(deps: ServiceDeps, token: string | undefined): Promise<AccessTokenInfo | null> {
  if (!token || !token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 200) return null;
  const row = await deps.prisma.personalAccessToken.findUnique({ where: { tokenHash: hashToken(deps, token) }, include: { user: true } });
  const now = deps.now();
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now) || row.user.isBanned) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await deps.prisma.personalAccessToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  const { user, ...accessToken } = row;
  return { accessToken, user };
}

/**
 * The banned owner of a bearer value (its token is revoked by the ban, or otherwise ended), or null.
 * Lets a client be told "Account suspended" instead of a bare "signed out".
 */
export async function bannedOwnerOf(deps: ServiceDeps, token: string | undefined): Promise<User | null> {
  if (!token || !token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 200) return null;
  const row = await deps.prisma.personalAccessToken.findUnique({ where: { tokenHash: hashToken(deps, token) }, include: { user: true } });
  return row?.user.isBanned ? row.user : null;
}

/** The bearer value of an `Authorization` header, if it carries one. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** The owner's live tokens, newest first (list arguments for any reader: GraphQL or REST). */
export function accessTokenListArgs(user: Pick<User, 'id'>) {
  return {
    where: { userId: user.id, revokedAt: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  } satisfies Prisma.PersonalAccessTokenFindManyArgs;
}

/** Revokes one of the owner's tokens; another user's token is "not found". */
export async function revokeAccessToken(deps: ServiceDeps, user: Pick<User, 'id'>, id: string): Promise<PersonalAccessToken> {
  const token = await findOwned((where) => deps.prisma.personalAccessToken.findFirst({ where }), id, user, 'Access token');
  if (token.revokedAt) throw notFound('Access token not found');
  const revoked = await deps.prisma.personalAccessToken.update({ where: { id: token.id }, data: { revokedAt: deps.now() } });
  deps.events.pubsub.publish('credentialEnded', CREDENTIAL_TOPIC, { userId: user.id, accessTokenId: token.id });
  return revoked;
}

/** Revokes a token by id (the credential of the current request, at logout). */
export async function revokeAccessTokenById(deps: ServiceDeps, id: string): Promise<void> {
  await deps.prisma.personalAccessToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: deps.now() } });
}
