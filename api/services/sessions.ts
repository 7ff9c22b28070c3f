// Server-side sessions: the cookie carries a random token; the database stores its keyed hash.
import type { Session, User } from '@prisma/client';
import { keyedHash, randomToken } from '../crypto.js';
import type { ServiceDeps } from './deps.js';
import { invalidate } from './read-cache.js';

export const SESSION_COOKIE = 'crm_session';
const TOUCH_INTERVAL_MS = 5 * 60_000;

export interface SessionInfo {
  session: Session;
  user: User;
}

export async function createSession(
  deps: ServiceDeps,
  userId: string,
  meta: { ip?: string; userAgent?: string } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.config.sessionTtlDays * 86_400_000);
  await deps.prisma.session.create({
    data: {
      tokenHash: keyedHash(token, deps.config.sessionSecret),
      userId,
      ip: meta.ip?.slice(0, 100),
      userAgent: meta.userAgent?.slice(0, 300),
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
    },
  });
  return { token, expiresAt };
}

/** The live session for a cookie token, or null (unknown, expired, revoked, or user banned). */
export async function resolveSession(deps: ServiceDeps, token: string | undefined): Promise<SessionInfo | null> {
  if (!token || token.length > 200) return null;
  let tokenHash = deps.cache?.tokenHashes.get(token);
  if (!tokenHash) {
    tokenHash = keyedHash(token, deps.config.sessionSecret);
    deps.cache?.tokenHashes.set(token, tokenHash);
  }
  const now = deps.now();
  let info = deps.cache?.sessions.get(tokenHash);
  // Stored only when read from the database: setting on every hit would restart the entry's TTL,
  // and the TTL is what bounds an invalidation that never arrived.
  let store = !info;
  if (!info) {
    const row = await deps.prisma.session.findUnique({ where: { tokenHash }, include: { user: true } });
    if (!row) return null;
    const { user, ...session } = row;
    info = { session, user };
  }
  const { session, user } = info;
  if (session.revokedAt || session.expiresAt <= now || user.isBanned) {
    deps.cache?.sessions.delete(tokenHash);
    return null;
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await deps.prisma.session.update({ where: { id: session.id }, data: { lastSeenAt: now } });
    info = { session: { ...session, lastSeenAt: now }, user };
    store = true;
  }
  if (store) deps.cache?.sessions.set(tokenHash, info, { noUpdateTTL: !!deps.cache?.sessions.has(tokenHash) });
  return info;
}

export async function revokeSession(deps: ServiceDeps, sessionId: string): Promise<void> {
  const revoked = await deps.prisma.session.updateManyAndReturn({
    where: { id: sessionId, revokedAt: null },
    data: { revokedAt: deps.now() },
    select: { userId: true },
  });
  for (const { userId } of revoked) invalidate(deps, { userId });
}

export async function revokeUserSessions(deps: ServiceDeps, userId: string): Promise<number> {
  const { count } = await deps.prisma.session.updateMany({
    where: { userId, revokedAt: null },
    data: { revokedAt: deps.now() },
  });
  invalidate(deps, { userId });
  return count;
}

/** Removes sessions that expired or were revoked more than a day ago (daily maintenance). */
export async function purgeExpiredSessions(deps: ServiceDeps): Promise<number> {
  const now = deps.now();
  const { count } = await deps.prisma.session.deleteMany({
    where: {
      OR: [{ expiresAt: { lte: now } }, { revokedAt: { lte: new Date(now.getTime() - 86_400_000) } }],
    },
  });
  return count;
}
