// Server-side sessions: the cookie carries a random token; the database stores its keyed hash.
import type { Session, User } from '@prisma/client';
import { keyedHash, randomToken } from '../crypto.js';
import type { ServiceDeps } from './deps.js';

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
  const session = await deps.prisma.session.findUnique({
    where: { tokenHash: keyedHash(token, deps.config.sessionSecret) },
    include: { user: true },
  });
  const now = deps.now();
  if (!session || session.revokedAt || session.expiresAt <= now || session.user.isBanned) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await deps.prisma.session.update({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  const { user, ...rest } = session;
  return { session: rest, user };
}

export async function revokeSession(deps: ServiceDeps, sessionId: string): Promise<void> {
  await deps.prisma.session.updateMany({
    where: { id: sessionId, revokedAt: null },
    data: { revokedAt: deps.now() },
  });
}

export async function revokeUserSessions(deps: ServiceDeps, userId: string): Promise<number> {
  const { count } = await deps.prisma.session.updateMany({
    where: { userId, revokedAt: null },
    data: { revokedAt: deps.now() },
  });
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
