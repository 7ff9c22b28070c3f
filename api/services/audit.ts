// Audit log of administrative actions: who did what to which record, when.
import type { Prisma } from '@prisma/client';
import type { ServiceDeps } from './deps.js';

export async function recordAudit(
  deps: Pick<ServiceDeps, 'prisma' | 'now'>,
  entry: { actorId: string; action: string; targetType?: string; targetId?: string; details?: Prisma.InputJsonValue },
  tx: Pick<ServiceDeps['prisma'], 'auditLog'> = deps.prisma,
): Promise<void> {
  await tx.auditLog.create({ data: { ...entry, createdAt: deps.now() } });
}

/** The audit log's order and filter, newest first (list arguments for GraphQL). */
export function auditListArgs(filter: { action?: string | null } = {}) {
  return {
    where: filter.action ? { action: filter.action } : {},
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  } satisfies Prisma.AuditLogFindManyArgs;
}
