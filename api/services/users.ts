// Administration of user accounts: ban (which also ends every session of the user) and unban.
import type { User } from '@prisma/client';
import { z } from 'zod';
import { AppError, assertId, notFound } from '../errors.js';
import { recordAudit } from './audit.js';
import { parseInput } from './validation.js';
import type { ServiceDeps } from './deps.js';

const banSchema = z.object({
  reason: z.string({ error: 'A reason is required to ban a user' }).trim().min(1, 'A reason is required to ban a user').max(500, 'Reason is too long'),
});

export async function banUser(deps: ServiceDeps, actor: User, userId: string, input: unknown): Promise<User> {
  const { reason } = parseInput(banSchema, input);
  assertId(userId, 'User');
  if (userId === actor.id) throw new AppError('BAD_USER_INPUT', 'You cannot ban yourself');
  return deps.prisma.$transaction(async (tx) => {
    const target = await tx.user.findUnique({ where: { id: userId } });
    if (!target) throw notFound('User not found');
    const now = deps.now();
    const user = await tx.user.update({ where: { id: userId }, data: { isBanned: true, bannedAt: now, banReason: reason } });
    // A ban ends every credential: browser sessions and personal access tokens.
    await tx.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
    await tx.personalAccessToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
    await recordAudit(deps, { actorId: actor.id, action: 'user.ban', targetType: 'User', targetId: userId, details: { reason } }, tx);
    return user;
  });
}

export async function unbanUser(deps: ServiceDeps, actor: User, userId: string): Promise<User> {
  assertId(userId, 'User');
  return deps.prisma.$transaction(async (tx) => {
    const target = await tx.user.findUnique({ where: { id: userId } });
    if (!target) throw notFound('User not found');
    const user = await tx.user.update({ where: { id: userId }, data: { isBanned: false, bannedAt: null, banReason: null } });
    await recordAudit(deps, { actorId: actor.id, action: 'user.unban', targetType: 'User', targetId: userId }, tx);
    return user;
  });
}
