// REST compatibility routes for user administration (admin only, enforced here on the server):
// the user table, ban and unban, a password reset link.
import { Hono } from 'hono';
import { requireAdmin } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { sendPasswordResetLink } from '../services/password-reset.js';
import { banUser, listAdminUsers, unbanUser } from '../services/users.js';

export const adminUserRoutes = new Hono<AppEnv>();

adminUserRoutes.get('/', async (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  return c.json(await listAdminUsers(ctx.deps));
});

adminUserRoutes.post('/:userId/ban', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const user = await banUser(ctx.deps, admin, c.req.param('userId'), await readJson(c));
  return c.json({ success: true, message: 'User has been successfully banned from the platform', userId: user.id });
});

adminUserRoutes.post('/:userId/unban', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const user = await unbanUser(ctx.deps, admin, c.req.param('userId'));
  return c.json({ success: true, message: `${user.firstName} ${user.lastName} can now access the platform`, userId: user.id });
});

adminUserRoutes.post('/:userId/password-reset', async (c) => {
  const ctx = c.var.ctx;
  const admin = requireAdmin(ctx);
  const user = await sendPasswordResetLink(ctx.deps, admin, c.req.param('userId'));
  return c.json({ success: true, message: `A password reset link was sent to ${user.email}`, userId: user.id });
});
