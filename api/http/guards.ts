// Route guards for REST: authentication and the administrator role, enforced on the server.
import type { User } from '@prisma/client';
import { AppError } from '../errors.js';
import type { MiddlewareHandler } from 'hono';
import type { RequestContext } from '../context.js';
import type { AppEnv } from './request-context.js';

export function requireUser(ctx: RequestContext): User {
  if (!ctx.user) throw ctx.suspended ?? new AppError('UNAUTHENTICATED', 'You must be signed in', { title: 'Unauthorized' });
  return ctx.user;
}

export function requireAdmin(ctx: RequestContext): User {
  const user = requireUser(ctx);
  if (!user.isAdmin) throw new AppError('FORBIDDEN', 'You need administrator privileges to do this', { title: 'Forbidden' });
  return user;
}

/** OAuth needs a browser session (its state is bound to the session); a bearer client cannot start it. */
export function requireBrowserSession(ctx: RequestContext) {
  requireUser(ctx);
  if (!ctx.session) throw new AppError('BAD_USER_INPUT', 'Connecting a CRM by OAuth must be started from the web app');
  return ctx.session;
}

/**
 * Every route under /api/admin sits behind this guard (each handler also asks for the admin it acts
 * as): a route added there later cannot be reached by a normal user by mistake.
 */
export const adminGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireAdmin(c.var.ctx);
  await next();
};
