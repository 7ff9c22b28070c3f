// Builds the RequestContext (session user, client meta, cookie sink) from an HTTP request.
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { RequestContext } from '../context.js';
import type { ServiceDeps } from '../services/deps.js';
import { resolveCredential } from '../services/credentials.js';
import { readSessionToken } from './cookies.js';

export type AppEnv = { Variables: { ctx: RequestContext; cookies: string[] } };

function clientIp(c: Context<AppEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // in-process requests (tests) have no socket
  }
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
      secure: new URL(c.req.url).protocol === 'https:' || Boolean(deps.config.publicUrl?.startsWith('https:')),
    },
    setCookie: (h) => cookies.push(h),
  };
  // Cookies queued by handlers are attached to whatever response goes out (see app.ts).
  c.set('ctx', ctx);
  c.set('cookies', cookies);
  return ctx;
}
