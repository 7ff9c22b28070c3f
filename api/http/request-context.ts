// Builds the RequestContext (session user, client meta, cookie sink) from an HTTP request.
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { RequestContext } from '../context.js';
import type { ServiceDeps } from '../services/deps.js';
import { resolveCredential } from '../services/credentials.js';
import { readSessionToken } from './cookies.js';

export type AppEnv = { Variables: { ctx: RequestContext; cookies: string[] } };

function clientIp(c: Context<AppEnv>): string {
  // Only the peer's address: getConnInfo() also reads its port and family, which this hot path
  // (every request) does not need. In-process requests (tests) have no socket.
  return (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';
}

export async function buildRequestContext(deps: ServiceDeps, c: Context<AppEnv>): Promise<RequestContext> {
  const credential = await resolveCredential(deps, {
    authorization: c.req.header('authorization'),
    sessionToken: readSessionToken(c.req.header('cookie')),
  });
  const cookies: string[] = [];
  const ctx: RequestContext = {
    deps,
    ...credential,
    meta: {
      ip: clientIp(c),
      userAgent: c.req.header('user-agent'),
      secure: c.req.url.startsWith('https:') || Boolean(deps.config.publicUrl?.startsWith('https:')),
    },
    setCookie: (h) => cookies.push(h),
  };
  // Cookies queued by handlers are attached to whatever response goes out (see app.ts).
  c.set('ctx', ctx);
  c.set('cookies', cookies);
  return ctx;
}
