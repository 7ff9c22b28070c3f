// Brute-force protection: at most N failed logins per email+IP within a sliding window. Kept in the
// database so the limit holds across API processes.
import { AppError } from '../errors.js';
import type { ServiceDeps } from './deps.js';

export async function assertLoginAllowed(deps: ServiceDeps, email: string, ip: string): Promise<void> {
  const { maxFailures, windowMinutes } = deps.config.login;
  const since = new Date(deps.now().getTime() - windowMinutes * 60_000);
  const failures = await deps.prisma.loginAttempt.findMany({
    where: { email, ip, createdAt: { gt: since } },
    orderBy: { createdAt: 'asc' },
    select: { createdAt: true },
  });
  if (failures.length >= maxFailures) {
    const oldest = failures[failures.length - maxFailures].createdAt.getTime();
    const retryAfter = Math.max(1, Math.ceil((oldest + windowMinutes * 60_000 - deps.now().getTime()) / 1000));
    throw new AppError(
      'RATE_LIMITED',
      `Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
      { title: 'Too many login attempts', retryAfter },
    );
  }
}

export async function recordLoginFailure(deps: ServiceDeps, email: string, ip: string): Promise<void> {
  await deps.prisma.loginAttempt.create({ data: { email, ip, createdAt: deps.now() } });
}

export async function clearLoginFailures(deps: ServiceDeps, email: string, ip: string): Promise<void> {
  await deps.prisma.loginAttempt.deleteMany({ where: { email, ip } });
}

export async function purgeOldLoginAttempts(deps: ServiceDeps): Promise<number> {
  const since = new Date(deps.now().getTime() - deps.config.login.windowMinutes * 60_000);
  const { count } = await deps.prisma.loginAttempt.deleteMany({ where: { createdAt: { lt: since } } });
  return count;
}
