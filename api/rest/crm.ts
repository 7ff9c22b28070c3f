// REST: CRM token and connection (spec section 7) and the HubSpot OAuth flow.
import { Hono } from 'hono';
import { asAppError } from '../errors.js';
import { requireUser } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { completeOAuth, connectionStatus, disconnect, hasToken, savePrivateAppToken, startOAuth } from '../services/crm.js';
import { crmConnectionJson } from './presenters.js';

export const crmRoutes = new Hono<AppEnv>();

crmRoutes.get('/token', async (c) => {
  const ctx = c.var.ctx;
  return c.json({ hasToken: await hasToken(ctx.deps, requireUser(ctx)) });
});

crmRoutes.get('/connection', async (c) => {
  const ctx = c.var.ctx;
  return c.json(crmConnectionJson(await connectionStatus(ctx.deps, requireUser(ctx))));
});

crmRoutes.post('/token', async (c) => {
  const ctx = c.var.ctx;
  const user = requireUser(ctx);
  const body = await readJson(c);
  const status = await savePrivateAppToken(ctx.deps, user, body.token);
  return c.json({ success: true, message: 'CRM Token saved', ...crmConnectionJson(status) });
});

/** Mounted at /api/auth/hubspot. */
export const hubspotAuthRoutes = new Hono<AppEnv>();

hubspotAuthRoutes.get('/authorize', async (c) => {
  const ctx = c.var.ctx;
  if (!ctx.user || !ctx.session) return c.redirect('/auth', 302);
  try {
    return c.redirect(await startOAuth(ctx.deps, ctx.user, ctx.session.id), 302);
  } catch (err) {
    const known = asAppError(err);
    if (!known) throw err;
    return c.redirect(`/?oauth=error&message=${encodeURIComponent(known.message)}`, 302);
  }
});

hubspotAuthRoutes.get('/callback', async (c) => {
  const ctx = c.var.ctx;
  try {
    await completeOAuth(
      ctx.deps,
      {
        code: c.req.query('code'),
        state: c.req.query('state'),
        error: c.req.query('error'),
        errorDescription: c.req.query('error_description'),
      },
      ctx.session ? { id: ctx.session.id, userId: ctx.session.userId } : null,
    );
    return c.redirect('/?oauth=success', 302);
  } catch (err) {
    const known = asAppError(err);
    if (!known) {
      ctx.deps.logger.error({ err }, 'OAuth callback failed');
    }
    const message = known?.message ?? 'OAuth flow failed';
    return c.redirect(`/?oauth=error&message=${encodeURIComponent(message)}`, 302);
  }
});

hubspotAuthRoutes.delete('/disconnect', async (c) => {
  const ctx = c.var.ctx;
  await disconnect(ctx.deps, requireUser(ctx));
  return c.json({ success: true, message: 'Disconnected', connected: false });
});

