// REST compatibility routes for accounts (spec section 7).
import { Hono } from 'hono';
import { clearSessionCookie, sessionCookie } from '../http/cookies.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { authStatus, login, logout, register } from '../services/auth.js';
import { requestPasswordReset, resetPassword } from '../services/password-reset.js';

export const authRoutes = new Hono<AppEnv>();

authRoutes.get('/status', (c) => c.json(authStatus(c.var.ctx.user)));

authRoutes.post('/register', async (c) => {
  const ctx = c.var.ctx;
  const result = await register(ctx.deps, await readJson(c), ctx.meta);
  ctx.setCookie(sessionCookie(result.token, result.expiresAt, ctx.meta.secure));
  return c.json({ success: true, ...authStatus(result.user) }, 201);
});

authRoutes.post('/login', async (c) => {
  const ctx = c.var.ctx;
  const result = await login(ctx.deps, await readJson(c), ctx.meta);
  ctx.setCookie(sessionCookie(result.token, result.expiresAt, ctx.meta.secure));
  return c.json({ success: true, ...authStatus(result.user) });
});

authRoutes.post('/logout', async (c) => {
  const ctx = c.var.ctx;
  await logout(ctx.deps, { userId: ctx.user?.id, sessionId: ctx.session?.id, accessTokenId: ctx.accessToken?.id });
  ctx.setCookie(clearSessionCookie(ctx.meta.secure));
  return c.json({ success: true, authenticated: false });
});

/** "Forgot password?": 202 with the same message for every address (services/password-reset.ts). */
authRoutes.post('/forgot-password', async (c) => {
  const ctx = c.var.ctx;
  return c.json({ success: true, ...(await requestPasswordReset(ctx.deps, await readJson(c), ctx.meta)) }, 202);
});

authRoutes.post('/reset-password', async (c) => {
  const user = await resetPassword(c.var.ctx.deps, await readJson(c));
  return c.json({ success: true, email: user.email });
});
