// The audit log over GraphQL (administrators): who did what when, newest first.
import { builder } from '../builder.js';
import { auditListArgs } from '../services/audit.js';
import { nodeAccess } from './node-access.js';

export const AuditLogEntryNode = builder.prismaNode('AuditLog', {
  name: 'AuditLogEntry',
  id: { field: 'id' },
  findUnique: nodeAccess('AuditLogEntry', 'admin'),
  nullable: true,
  fields: (t) => ({
    action: t.exposeString('action', { description: 'e.g. user.ban, pricingTier.update, smartSegmentPreset.delete' }),
    targetType: t.exposeString('targetType', { nullable: true }),
    targetId: t.exposeString('targetId', { nullable: true }),
    details: t.expose('details', { type: 'JSON', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    actor: t.relation('actor', { nullable: true }),
    actorEmail: t.string({
      nullable: true,
      description: 'Email of the administrator (null when that account was deleted)',
      select: { actor: { select: { email: true } } },
      resolve: (entry) => entry.actor?.email ?? null,
    }),
  }),
});

builder.queryField('auditLog', (t) =>
  t.prismaConnection({
    type: 'AuditLog',
    cursor: 'id',
    authScopes: { admin: true },
    description: 'Administrative actions, newest first',
    args: { action: t.arg.string({ description: 'Only this action, e.g. user.ban' }) },
    totalCount: (_c, args, ctx) => ctx.deps.prisma.auditLog.count({ where: auditListArgs(args).where }),
    resolve: (query, _r, args, ctx) => ctx.deps.prisma.auditLog.findMany({ ...query, ...auditListArgs(args) }),
  }),
);
