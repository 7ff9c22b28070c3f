// REST: CRM token and connection (spec section 7) and each CRM's OAuth flow (/api/auth/<crm>/...).
import { Hono } from 'hono';
import { asAppError } from '../errors.js';
import { requireUser } from '../http/guards.js';
import { readJson } from '../http/json.js';
import type { AppEnv } from '../http/request-context.js';
import { completeOAuth, connectionStatus, disconnect, hasToken, OAUTH_MESSAGES, savePrivateAppToken, startOAuth } from '../services/crm.js';
import { contactImportRoutes } from './contact-imports.js';
import { crmConnectionJson } from './presenters.js';

export const crmRoutes = new Hono<AppEnv>();

crmRoutes.route('/imports', contactImportRoutes);

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
  const status = await savePrivateAppToken(ctx.deps, user, { token: body.token, instanceUrl: body.instanceUrl, region: body.region });
  return c.json({ success: true, message: 'CRM Token saved', ...crmConnectionJson(status) });
});

/**
 * One CRM's OAuth routes, mounted at /api/auth/<crm> for every registered CRM (the spec's
 * /api/auth/hubspot/authorize is HubSpot's); the callback path is the CRM's redirect URI.
 */
export function crmAuthRoutes(crmType: string) {
  const routes = new Hono<AppEnv>();

  routes.get('/authorize', async (c) => {
    const ctx = c.var.ctx;
    if (!ctx.user || !ctx.session) return c.redirect('/auth', 302);
    try {
      return c.redirect(await startOAuth(ctx.deps, ctx.user, ctx.session.id, { region: c.req.query('region') }), 302);
    } catch (err) {
      const known = asAppError(err);
      if (!known) throw err;
      return c.redirect(`/?oauth=error&message=${encodeURIComponent(known.message)}`, 302);
    }
  });

  routes.get('/callback', async (c) => {
    const ctx = c.var.ctx;
    try {
      await completeOAuth(
        ctx.deps,
        {
          code: c.req.query('code'),
          state: c.req.query('state'),
          error: c.req.query('error'), // (its error_description is the provider's text: never shown)
          callback: c.req.query(),
        },
        ctx.session ? { id: ctx.session.id, userId: ctx.session.userId } : null,
        crmType,
      );
      return c.redirect('/?oauth=success', 302);
    } catch (err) {
      const known = asAppError(err);
      if (!known) {
        ctx.deps.logger.error({ err }, 'OAuth callback failed');
      }
      // Only our own fixed texts go into the URL (never a provider's or a connector's words).
      const fixed: readonly string[] = Object.values(OAUTH_MESSAGES);
      const message = known && fixed.includes(known.message) ? known.message : OAUTH_MESSAGES.failed;
      return c.redirect(`/?oauth=error&message=${encodeURIComponent(message)}`, 302);
    }
  });

  // The spec's DELETE /api/auth/hubspot/disconnect: ends the user's connection, whichever it is.
  routes.delete('/disconnect', async (c) => {
    const ctx = c.var.ctx;
    await disconnect(ctx.deps, requireUser(ctx));
    return c.json({ success: true, message: 'Disconnected', connected: false });
  });
  return routes;
}

