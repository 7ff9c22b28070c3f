// Smart Segments generated in a test without going through the job queue: each user's job body
// (generateForUser, what the `generate-user-segments` job runs), one user after another. Tests of the
// engine itself (queue, workers, runs) use generateNow / the admin mutation instead.
import { generateForUser } from '../../api/services/smart-segments/generate.js';
import type { ServiceDeps } from '../../api/services/deps.js';

export interface GeneratedStats {
  users: number;
  completedUsers: number;
  totalSegments: number;
  successCount: number;
  failedCount: number;
}

export async function generateSegmentsFor(deps: ServiceDeps, userIds: string[], opts: { date?: string; retryDelayMs?: number } = {}): Promise<GeneratedStats> {
  const stats: GeneratedStats = { users: userIds.length, completedUsers: 0, totalSegments: 0, successCount: 0, failedCount: 0 };
  for (const id of userIds) {
    const user = await deps.prisma.user.findUniqueOrThrow({ where: { id } });
    const r = await generateForUser(deps, user, { date: opts.date, retryDelayMs: opts.retryDelayMs ?? 10 });
    stats.completedUsers += 1;
    stats.totalSegments += r.total;
    stats.successCount += r.success;
    stats.failedCount += r.failed;
  }
  return stats;
}
