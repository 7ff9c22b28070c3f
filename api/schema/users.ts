// Users as Relay nodes; the viewer; the admin user table (a connection) with ban and unban.
import { createContextCache } from '@pothos/core';
import type { PricingTier } from '@prisma/client';
import { builder } from '../builder.js';
import type { RequestContext } from '../context.js';
import { adminUserListArgs, banUser, todaysUsageSelect, unbanUser } from '../services/users.js';
import { effectiveTier } from '../services/usage.js';
import { sendPasswordResetLink } from '../services/password-reset.js';
import { nodeAccess } from './node-access.js';

/** The free tier, loaded once per request for the users without a tier of their own. */
const fallbackTier = createContextCache((ctx: RequestContext) => effectiveTier(ctx.deps, { currentTierId: null }));
const limitsOf = async (tier: Pick<PricingTier, 'chatQueryLimit' | 'smartSegmentLimit'> | null, ctx: RequestContext) => tier ?? (await fallbackTier(ctx));

const TodaysUsage = builder.simpleObject('TodaysUsage', {
  fields: (t) => ({ chatQueriesUsed: t.int(), smartSegmentsUsed: t.int() }),
});

const tierSelect = { currentTier: { select: { displayName: true, chatQueryLimit: true, smartSegmentLimit: true } } } as const;

export const UserNode = builder.prismaNode('User', {
  id: { field: 'id' },
  findUnique: nodeAccess('User', 'selfOrAdmin'),
  nullable: true,
  fields: (t) => ({
    userId: t.exposeString('id', { description: 'The raw user id (uuid)' }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    email: t.exposeString('email'),
    crmType: t.exposeString('crmType'),
    industry: t.exposeString('industry'),
    isAdmin: t.exposeBoolean('isAdmin'),
    isBanned: t.exposeBoolean('isBanned'),
    bannedAt: t.expose('bannedAt', { type: 'DateTime', nullable: true }),
    banReason: t.exposeString('banReason', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    tierName: t.string({
      nullable: true,
      description: 'Display name of the stored tier; null when the user has none ("No Tier")',
      select: tierSelect,
      resolve: (u) => u.currentTier?.displayName ?? null,
    }),
    chatQueryLimit: t.int({
      description: "Chat queries per day: the tier's limit, or the free tier's when the user has none",
      select: tierSelect,
      resolve: async (u, _a, ctx) => (await limitsOf(u.currentTier, ctx)).chatQueryLimit,
    }),
    smartSegmentLimit: t.int({
      description: 'Smart-segment unlocks per day (same fallback)',
      select: tierSelect,
      resolve: async (u, _a, ctx) => (await limitsOf(u.currentTier, ctx)).smartSegmentLimit,
    }),
    todaysUsage: t.field({
      type: TodaysUsage,
      description: 'Usage of the current usage day (USAGE_TIME_ZONE)',
      select: (_a, ctx) => ({ dailyUsage: todaysUsageSelect(ctx.deps) }),
      resolve: (u) => u.dailyUsage[0] ?? { chatQueriesUsed: 0, smartSegmentsUsed: 0 },
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.prismaField({
    type: 'User',
    nullable: true,
    description: 'The signed-in user; null when signed out',
    resolve: (query, _r, _a, ctx) => (ctx.user ? ctx.deps.prisma.user.findUnique({ ...query, where: { id: ctx.user.id } }) : null),
  }),
);

builder.queryField('adminUsers', (t) =>
  t.prismaConnection({
    type: 'User',
    cursor: 'id',
    authScopes: { admin: true },
    description: "Every user, oldest account first, with tier and today's usage",
    args: {
      search: t.arg.string({ description: 'Text in first name, last name or email' }),
      banned: t.arg.boolean({ description: 'true: banned only; false: active only' }),
    },
    totalCount: (_c, args, ctx) => ctx.deps.prisma.user.count({ where: adminUserListArgs(args).where }),
    resolve: (query, _r, args, ctx) => ctx.deps.prisma.user.findMany({ ...query, ...adminUserListArgs(args) }),
  }),
);

const UserPayload = (name: string) =>
  builder.simpleObject(name, { fields: (t) => ({ user: t.field({ type: UserNode }) }) });

builder.mutationField('banUser', (t) =>
  t.field({
    type: UserPayload('BanUserPayload'),
    authScopes: { admin: true },
    description: "Bans a user: their sessions and access tokens end at once",
    args: {
      input: t.arg({
        type: builder.inputType('BanUserInput', {
          fields: (f) => ({ userId: f.globalID({ required: true, for: UserNode }), reason: f.string({ required: true }) }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({ user: await banUser(ctx.deps, ctx.user!, input.userId.id, { reason: input.reason }) }),
  }),
);

builder.mutationField('sendPasswordReset', (t) =>
  t.field({
    type: UserPayload('SendPasswordResetPayload'),
    authScopes: { admin: true },
    description: 'E-mails the user a one-time, expiring link to set a new password (audited)',
    args: {
      input: t.arg({
        type: builder.inputType('SendPasswordResetInput', { fields: (f) => ({ userId: f.globalID({ required: true, for: UserNode }) }) }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({ user: await sendPasswordResetLink(ctx.deps, ctx.user!, input.userId.id) }),
  }),
);

builder.mutationField('unbanUser', (t) =>
  t.field({
    type: UserPayload('UnbanUserPayload'),
    authScopes: { admin: true },
    args: {
      input: t.arg({
        type: builder.inputType('UnbanUserInput', { fields: (f) => ({ userId: f.globalID({ required: true, for: UserNode }) }) }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({ user: await unbanUser(ctx.deps, ctx.user!, input.userId.id) }),
  }),
);
