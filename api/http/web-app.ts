// Serves the built web app (web/dist) on the API's origin: hashed assets cached for a year,
// index.html never cached, and every other non-API GET path answered with index.html so the app's
// router shows the screen (or its 404). Without a build, GET / explains where things are.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Paths that belong to the server, never to the web app's router. */
const SERVER_PATHS = /^\/(api|graphql|healthz|hubspot-sandbox)(\/|$)/;

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CRM Assistant</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#242424}code{background:#f0f0f0;padding:0 .25rem;border-radius:3px}</style></head>
<body><h1>CRM Assistant</h1><p>The API is running. The web app has not been built yet: run <code>npm run build</code> (or <code>npm start</code>, which builds it when needed) and reload.</p>
<ul><li><a href="/graphql">/graphql</a> — the GraphQL API (GraphiQL in development; subscriptions over graphql-ws on the same path)</li>
<li><code>/api/...</code> — the REST compatibility routes (see the README, "Accounts and security" onwards)</li>
<li><a href="/healthz">/healthz</a> — health check</li></ul>
<p>Everything else is described in the project's <code>README.md</code>.</p></body></html>`;

export function webAppRoutes(distDir = WEB_DIST) {
  const app = new Hono();
  const indexFile = path.join(distDir, 'index.html');
  const built = () => existsSync(indexFile);
  // Static files only once there is a build (tests and a fresh clone before `npm run build` have none).
  const whenBuilt = (mw: ReturnType<typeof serveStatic>): ReturnType<typeof serveStatic> => (c, next) => (built() ? mw(c, next) : next());
  app.use(
    '/assets/*',
    whenBuilt(serveStatic({
      root: path.relative(process.cwd(), distDir) || '.',
      onFound: (_p, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    })),
  );
  app.use(
    '*',
    whenBuilt(serveStatic({
      root: path.relative(process.cwd(), distDir) || '.',
      // index.html is answered below, uncached
      rewriteRequestPath: (p) => (p === '/' || p === '/index.html' ? '/__index_is_served_below__' : p),
      onFound: (_p, c) => {
        c.header('Cache-Control', 'public, max-age=3600');
      },
    })),
  );
  app.get('*', (c) => {
    if (SERVER_PATHS.test(c.req.path)) return c.notFound();
    c.header('Cache-Control', 'no-cache');
    if (!built()) return c.html(NOT_BUILT, c.req.path === '/' ? 200 : 404);
    return c.html(readFileSync(indexFile, 'utf8'));
  });
  return app;
}
