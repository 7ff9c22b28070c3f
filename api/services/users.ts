// Administration of user accounts: the user table (with tier and today's usage), ban (which also
// ends every session and access token of the user) and unban.
import type { Prisma, User } from '@prisma/client';
import { z } from 'zod';
import { AppError, assertId, notFound } from '../errors.js';
import { recordAudit } from './audit.js';
import { dayToDate, effectiveTier, usageDay } from './usage.js';
import { parseInput } from './validation.js';
import { CREDENTIAL_TOPIC } from '../events/pubsub.js';
import type { ServiceDeps } from './deps.js';
import { invalidate } from './read-cache.js';

export interface AdminUserRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  crmType: string;
  industry: string;
  /** The display name of the user's stored tier; null when the user has none ("No Tier"). */
  tierName: string | null;
  /** The limits that apply: the tier's, or the free-tier fallback of usage.ts when tierName is null. */
  chatQueryLimit: number;
  smartSegmentLimit: number;
  todaysUsage: { chatQueriesUsed: number; smartSegmentsUsed: number };
  isBanned: boolean;
  bannedAt: Date | null;
  banReason: string | null;
}

export interface AdminUserFilter {
  /** Case-insensitive text over first name, last name and email. */
  search?: string | null;
  /** true: banned users only; false: active users only. */
  banned?: boolean | null;
}

/** The admin user table's order and filter (list arguments for GraphQL and REST alike). */
export function adminUserListArgs(filter: AdminUserFilter = {}) {
  const q = filter.search?.trim();
  const where: Prisma.UserWhereInput = {
    ...(filter.banned === true || filter.banned === false ? { isBanned: filter.banned } : {}),
    ...(q ? { OR: (['firstName', 'lastName', 'email'] as const).map((f) => ({ [f]: { contains: q, mode: 'insensitive' as const } })) } : {}),
  };
  return { where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } satisfies Prisma.UserFindManyArgs;
}

/** Today's usage row of each user, selected with the user (no query per user). */
export const todaysUsageSelect = (deps: ServiceDeps) =>
  ({
    where: { date: dayToDate(usageDay(deps.now(), deps.config.usageTimeZone)) },
    take: 1,
    select: { chatQueriesUsed: true, smartSegmentsUsed: true },
  }) satisfies Prisma.User$dailyUsageArgs;

/**
 * Every user (or those matching the filter), oldest account first, with tier and today's usage
 * (the usage day of USAGE_TIME_ZONE): one query whatever the number of users, plus one for the
 * free-tier fallback when some user has no tier.
 */
export async function listAdminUsers(deps: ServiceDeps, filter: AdminUserFilter = {}): Promise<AdminUserRow[]> {
  const users = await deps.prisma.user.findMany({
    ...adminUserListArgs(filter),
    include: {
      currentTier: { select: { displayName: true, chatQueryLimit: true, smartSegmentLimit: true } },
      dailyUsage: todaysUsageSelect(deps),
    },
  });
  const fallback = users.some((u) => !u.currentTier) ? await effectiveTier(deps, { currentTierId: null }) : null;
  return users.map((u) => {
    const limits = u.currentTier ?? fallback!;
    const used = u.dailyUsage[0];
    return {
      id: u.id,
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
      crmType: u.crmType,
      industry: u.industry,
      tierName: u.currentTier?.displayName ?? null,
      chatQueryLimit: limits.chatQueryLimit,
      smartSegmentLimit: limits.smartSegmentLimit,
      todaysUsage: { chatQueriesUsed: used?.chatQueriesUsed ?? 0, smartSegmentsUsed: used?.smartSegmentsUsed ?? 0 },
      isBanned: u.isBanned,
      bannedAt: u.bannedAt,
      banReason: u.banReason,
    };
  });
}
const banSchema = z.object({
  reason: z.string({ error: 'A reason is required to ban a user' }).trim().min(1, 'A reason is required to ban a user').max(500, 'Reason is too long'),
});

export async function banUser(deps: ServiceDeps, actor: User, userId: string, input: unknown): Promise<User> {
  const { reason } = parseInput(banSchema, input);
  assertId(userId, 'User');
  if (userId === actor.id) throw new AppError('BAD_USER_INPUT', 'You cannot ban yourself');
  const banned = await deps.prisma.$transaction(async (tx) => {
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
  invalidate(deps, { userId });
  // Open websockets of the user close at once, on every API process.
  deps.events.pubsub.publish('credentialEnded', CREDENTIAL_TOPIC, { userId, all: true });
  return banned;
}

export async function unbanUser(deps: ServiceDeps, actor: User, userId: string): Promise<User> {
  assertId(userId, 'User');
  const unbanned = await deps.prisma.$transaction(async (tx) => {
    const target = await tx.user.findUnique({ where: { id: userId } });
    if (!target) throw notFound('User not found');
    const user = await tx.user.update({ where: { id: userId }, data: { isBanned: false, bannedAt: null, banReason: null } });
    await recordAudit(deps, { actorId: actor.id, action: 'user.unban', targetType: 'User', targetId: userId }, tx);
    return user;
  });
  invalidate(deps, { userId });
  return unbanned;
}
