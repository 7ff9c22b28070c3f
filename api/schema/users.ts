// Users as Relay nodes; the viewer; admin-only ban/unban.
import { builder } from '../builder.js';
import { nodeAccess } from './node-access.js';
import { banUser, unbanUser } from '../services/users.js';

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
  }),
});

builder.queryField('viewer', (t) =>
  t.prismaField({
    type: 'User',
    nullable: true,
    resolve: (query, _r, _a, ctx) => (ctx.user ? ctx.deps.prisma.user.findUnique({ ...query, where: { id: ctx.user.id } }) : null),
  }),
);

const BanUserInput = builder.inputType('BanUserInput', {
  fields: (t) => ({ userId: t.id({ required: true }), reason: t.string({ required: true }) }),
});
const UnbanUserInput = builder.inputType('UnbanUserInput', {
  fields: (t) => ({ userId: t.id({ required: true }) }),
});

builder.mutationField('banUser', (t) =>
  t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    args: { input: t.arg({ type: BanUserInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const user = await banUser(ctx.deps, ctx.user!, String(input.userId), { reason: input.reason });
      return ctx.deps.prisma.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
);

builder.mutationField('unbanUser', (t) =>
  t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    args: { input: t.arg({ type: UnbanUserInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const user = await unbanUser(ctx.deps, ctx.user!, String(input.userId));
      return ctx.deps.prisma.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
);
