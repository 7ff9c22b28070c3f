// Serves the built web app (web/dist) on the API's origin. The build writes a brotli (.br) and a
// gzip (.gz) copy next to every text file (web/vite.config.ts, `precompress`); a request gets the
// copy its Accept-Encoding allows (brotli first), never compressed on the fly. Hashed files under
// /assets are cached for a year as immutable; index.html is revalidated on every load (no-cache), so
// a new deployment is picked up at once; other files (favicon) for an hour. Every other non-API GET
// path is answered with index.html so the app's router shows the screen (or its 404). Without a
// build, GET / explains where things are.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Paths that belong to the server, never to the web app's router. */
const SERVER_PATHS = /^\/(api|graphql|healthz|hubspot-sandbox)(\/|$)/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CRM Assistant</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#242424}code{background:#f0f0f0;padding:0 .25rem;border-radius:3px}</style></head>
<body><h1>CRM Assistant</h1><p>The API is running. The web app has not been built yet: run <code>npm run build</code> (or <code>npm start</code>, which builds it when needed) and reload.</p>
<ul><li><a href="/graphql">/graphql</a> — the GraphQL API (GraphiQL in development; subscriptions over graphql-ws on the same path)</li>
<li><code>/api/...</code> — the REST compatibility routes (see the README, "Accounts and security" onwards)</li>
<li><a href="/healthz">/healthz</a> — health check</li></ul>
<p>Everything else is described in the project's <code>README.md</code>.</p></body></html>`;

type Static = ReturnType<typeof serveStatic>;

/**
 * serveStatic with precompressed copies, adding Cache-Control and, for a file that has compressed
 * copies, Vary: Accept-Encoding (its content differs by that header, whichever copy was sent).
 * (serveStatic's onFound runs after the response is made: headers set there are lost.)
 */
function staticFiles(options: Parameters<typeof serveStatic>[0], cacheControl: string): Static {
  const found = new WeakMap<object, string>(); // the file each request was answered with
  const mw = serveStatic({ ...options, precompressed: true, onFound: (p, c) => void found.set(c, p) });
  return async (c, next) => {
    const res = await mw(c, next);
    const file = found.get(c);
    if (res instanceof Response && file) {
      res.headers.set('Cache-Control', cacheControl);
      const original = file.replace(/\.(br|gz|zst)$/, '');
      if (file !== original || existsSync(`${original}.br`) || existsSync(`${original}.gz`)) res.headers.set('Vary', 'Accept-Encoding');
    }
    return res;
  };
}

export function webAppRoutes(distDir = WEB_DIST) {
  const app = new Hono();
  const indexFile = path.join(distDir, 'index.html');
  const built = () => existsSync(indexFile);
  const root = path.relative(process.cwd(), distDir) || '.';
  // Static files only once there is a build (tests and a fresh clone before `npm run build` have none).
  const whenBuilt = (mw: Static): Static => (c, next) => (built() ? mw(c, next) : next());
  // The compressed copies themselves are never addressed directly.
  app.get('*', (c, next) => (/\.(br|gz)$/.test(c.req.path) ? c.notFound() : next()));
  app.use('/assets/*', whenBuilt(staticFiles({ root }, IMMUTABLE)));
  app.use(
    '*',
    whenBuilt(staticFiles({
      root,
      // index.html is answered below, for every path of the app's router
      rewriteRequestPath: (p) => (p === '/' || p === '/index.html' ? '/__index_is_served_below__' : p),
    }, 'public, max-age=3600')),
  );
  const index = staticFiles({ path: indexFile }, 'no-cache');
  app.get('*', async (c, next) => {
    // A hashed file that is not there (an older deployment's) is a 404, not the app's page.
    if (SERVER_PATHS.test(c.req.path) || c.req.path.startsWith('/assets/')) return c.notFound();
    if (!built()) {
      c.header('Cache-Control', 'no-cache');
      return c.html(NOT_BUILT, c.req.path === '/' ? 200 : 404);
    }
    return index(c, next);
  });
  return app;
}
