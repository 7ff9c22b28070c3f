// Security headers on every response (hono/secure-headers): a Content-Security-Policy the web app
// lives with — its own scripts and styles (Fluent UI injects styles at run time), the Paddle CDN and
// checkout frames, websockets to itself — no framing by other sites, nosniff, a strict referrer
// policy, and HSTS when served over https. GraphiQL (development only) is one inline page: its CSP
// is relaxed for that page alone.
import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

const PADDLE_SCRIPTS = ['https://cdn.paddle.com', 'https://sandbox-cdn.paddle.com'];
const PADDLE_FRAMES = ['https://buy.paddle.com', 'https://sandbox-buy.paddle.com'];

export function securityHeaders(opts: { https: boolean }): MiddlewareHandler {
  const common = {
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: opts.https ? 'max-age=31536000; includeSubDomains' : false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin-allow-popups',
    xXssProtection: false,
  } as const;
  const app = secureHeaders({
    ...common,
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...PADDLE_SCRIPTS],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'https://*.paddle.com'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", 'ws:', 'wss:', ...PADDLE_SCRIPTS, 'https://*.paddle.com'],
      frameSrc: PADDLE_FRAMES,
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
    },
  });
  const graphiql = secureHeaders({
    ...common,
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-inline'", "'unsafe-eval'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", 'ws:', 'wss:'],
      workerSrc: ["'self'", 'blob:'],
      frameAncestors: ["'none'"],
    },
  });
  return (c, next) => (c.req.method === 'GET' && c.req.path === '/graphql' && (c.req.header('accept') ?? '').includes('text/html') ? graphiql(c, next) : app(c, next));
}

export type HeaderList = [name: string, value: string][];

/**
 * The headers the middleware above sets, as fixed lists for a handler outside Hono (graphql-endpoint.ts):
 * read once by running the middleware on a probe request, so the policy is written in one place.
 */
export async function securityHeaderLists(opts: { https: boolean }): Promise<{ api: HeaderList; graphiql: HeaderList }> {
  const probe = new Hono();
  probe.use('*', securityHeaders(opts));
  probe.all('*', (c) => c.body(null, 204));
  const read = async (init: RequestInit) => [...(await probe.request('/graphql', init)).headers.entries()] as HeaderList;
  return { api: await read({ method: 'POST' }), graphiql: await read({ method: 'GET', headers: { accept: 'text/html' } }) };
}
