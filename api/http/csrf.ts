// CSRF protection for cookie-authenticated REST writes: a state-changing request must come from our
// own origin. Browsers send Origin (or Sec-Fetch-Site) on such requests; non-browser clients (CLI,
// curl) send neither and are not exposed to CSRF. GraphQL uses Yoga's CSRF-prevention plugin.
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function sameOriginGuard(opts: { publicUrl?: string; exempt?: string[] }): MiddlewareHandler {
  const allowedExtra = opts.publicUrl ? new URL(opts.publicUrl).origin : undefined;
  return async (c, next) => {
    if (SAFE.has(c.req.method) || opts.exempt?.includes(c.req.path)) return next();
    const origin = c.req.header('origin');
    const own = new URL(c.req.url).origin;
    if (origin !== undefined) {
      if (origin !== own && origin !== allowedExtra) throw forbidden();
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
