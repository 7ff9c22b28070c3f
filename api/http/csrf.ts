// Which origins may act with the user's cookie: the app's own origin (and PUBLIC_URL). One rule for
// cookie-authenticated REST writes, the graphql-ws upgrade and CORS on /graphql. Browsers send Origin
// (or Sec-Fetch-Site) on such requests; non-browser clients (CLI, curl) send neither and are not
// exposed to CSRF. GraphQL POSTs are also covered by Yoga's CSRF-prevention plugin.
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginPolicy {
  publicUrl?: string;
}

/** Whether `origin` may use the app's cookies: its own origin (from the request) or PUBLIC_URL. */
export function isAllowedOrigin(origin: string, ownOrigin: string, policy: OriginPolicy): boolean {
  if (origin === ownOrigin) return true;
  return Boolean(policy.publicUrl && origin === new URL(policy.publicUrl).origin);
}

export function sameOriginGuard(opts: OriginPolicy & { exempt?: string[] }): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE.has(c.req.method) || opts.exempt?.includes(c.req.path)) return next();
    const origin = c.req.header('origin');
    const own = new URL(c.req.url).origin;
    if (origin !== undefined) {
      if (!isAllowedOrigin(origin, own, opts)) throw forbidden();
    } else {
      const site = c.req.header('sec-fetch-site');
      if (site !== undefined && site !== 'same-origin' && site !== 'none') throw forbidden();
    }
    return next();
  };
}

const forbidden = () =>
  new AppError('FORBIDDEN', 'Cross-site request blocked: this request must come from the CRM Assistant app', {
    title: 'Forbidden',
  });
