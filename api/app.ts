// The HTTP application: GraphQL at /graphql (+ graphql-ws on the same port), REST compatibility
// routes under /api, health at /healthz. buildApp() does nothing until start() is called.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { WebSocketServer } from 'ws';
import type { Config } from './config.js';
import { resolveCrmEndpoints } from './crm/endpoints.js';
import type { HubSpotSandbox } from './crm/hubspot-sandbox/index.js';
import { finishBackground } from './services/query-results.js';
import { registeredProviders } from './crm/registry.js';
import type { MountedSandbox } from './crm/provider.js';
import { openDatabase, type Database } from './db/database.js';
import { createEvents, type AppEvents } from './events/pubsub.js';
import { allowWebsocketOrigin, attachWebsocketGraphQL, createGraphQLServer } from './graphql.js';
import { restBodyLimit } from './http/body-limit.js';
import { sameOriginGuard } from './http/csrf.js';
import { adminGuard } from './http/guards.js';
import { errorResponse } from './http/error-response.js';
import { graphqlEndpoint, isGraphQLRequest } from './http/graphql-endpoint.js';
import { securityHeaderLists, securityHeaders } from './http/security-headers.js';
import { webAppRoutes } from './http/web-app.js';
import { createMailer } from './services/mailer.js';
import { outboxRoutes } from './rest/outbox.js';
import { buildRequestContext, type AppEnv } from './http/request-context.js';
import { createLogger, type Logger } from './logger.js';
import { adminUserRoutes } from './rest/users.js';
import { pricingTierRoutes } from './rest/pricing-tiers.js';
import { authRoutes } from './rest/auth.js';
import { crmAuthRoutes, crmRoutes } from './rest/crm.js';
import { customerRoutes, queryRoutes } from './rest/queries.js';
import { adminSmartSegmentRoutes, smartSegmentRoutes } from './rest/smart-segments.js';
import { segmentRoutes } from './rest/segments.js';
import { usageRoutes, usageStatsRoutes } from './rest/usage.js';
import { paddleRoutes } from './rest/billing.js';
import { adminMaintenanceRoutes } from './rest/maintenance.js';
import type { ServiceDeps } from './services/deps.js';
import { createReadCache, followInvalidations } from './services/read-cache.js';
import { createSharedSearchLimiters } from './crm/hubspot/rate-limiter.js';
import { seed, type CreatedAccount } from '../prisma/seed/seed.js';
import { createJobQueue, type ClosableJobQueue } from '../jobs/queue.js';
import { startWorker, type Worker } from '../jobs/worker.js';

export interface AppOptions {
  logger?: Logger;
  now?: () => Date;
  /** Use an already-open database instead of opening one from config. */
  database?: Database;
  /** Called with the accounts the seed created (default: printed to stdout once). */
  onSeeded?: (accounts: CreatedAccount[]) => void;
}

export interface App {
  start(port?: number): Promise<{ url: string; port: number }>;
  stop(): Promise<void>;
  readonly url: string;
  readonly deps: ServiceDeps;
  readonly database: Database;
  /** The in-process HubSpot sandbox (embedded CRM), when no real HubSpot URL is configured. */
  readonly sandbox: HubSpotSandbox | undefined;
  /** Every CRM sandbox mounted in this process, by CRM. */
  readonly sandboxes: ReadonlyMap<string, MountedSandbox>;
  /** HTTP requests being handled right now (a graceful stop waits for them). */
  readonly inflightCount: number;
  /** The REST route table (method and path of every /api route), for the authorization matrix. */
  readonly restRoutes: { method: string; path: string }[];
}

export function buildApp(config: Config, opts: AppOptions = {}): App {
  const logger = opts.logger ?? createLogger(config.logLevel);
  let database: Database | undefined = opts.database;
  let deps: ServiceDeps | undefined;
  let events: AppEvents | undefined;
  let sandboxes = new Map<string, MountedSandbox>();
  let worker: Worker | undefined;
  let jobQueue: ClosableJobQueue | undefined;
  let server: Server | undefined;
  let wss: WebSocketServer | undefined;
  let url = '';
  let restRoutes: { method: string; path: string }[] = [];
  const inflight = inflightRequests();
  const headerPolicy = { https: Boolean(config.publicUrl?.startsWith('https:')) };

  /** REST, the web app, the sandbox and health in Hono; /graphql over HTTP is served by graphql-endpoint.ts. */
  function createHttpApp(d: ServiceDeps) {
    const app = new Hono<AppEnv>();

    app.use('*', async (c, next) => {
      const started = performance.now();
      await next();
      logger.info(
        { method: c.req.method, path: loggablePath(c.req.path), status: c.res.status, ms: Math.round(performance.now() - started) },
        'request',
      );
    });

    app.use('*', securityHeaders(headerPolicy));
    // Before anything reads a body (or the database): 413 as soon as a body passes its limit.
    app.use('*', restBodyLimit(config.bodyLimits.restBytes));

    app.get('/healthz', async (c) => {
      await d.prisma.$queryRaw`SELECT 1`;
      return c.json({ status: 'ok' });
    });

    // Session + per-request context for API and GraphQL; queued cookies go on the response.
    const withContext = createMiddleware<AppEnv>(async (c, next) => {
      await buildRequestContext(d, c);
      await next();
      const cookies = c.get('cookies');
      if (cookies.length) {
        const res = new Response(c.res.body, c.res);
        for (const cookie of cookies) res.headers.append('set-cookie', cookie);
        c.res = res;
      }
    });
    app.use('/api/*', withContext);
    app.use('/api/admin/*', adminGuard);
    app.use('/api/*', sameOriginGuard({ publicUrl: config.publicUrl, exempt: ['/api/paddle/webhook'] }));

    for (const p of registeredProviders()) {
      const mounted = sandboxes.get(p.crmType);
      if (!mounted) continue;
      // A real CRM's round trip, for benchmarks (SANDBOX_LATENCY_MS; refused in production).
      const latency = config.sandbox.latencyMs;
      if (latency > 0) app.use(`${p.sandboxPath}/*`, async (_c, next) => {
        await new Promise((resolve) => setTimeout(resolve, latency));
        await next();
      });
      app.route(p.sandboxPath, mounted.app);
    }

    app.route('/api/auth', authRoutes);
    app.route('/api/admin/users', adminUserRoutes);
    app.route('/api/usage', usageRoutes);
    app.route('/api/admin/usage-stats', usageStatsRoutes);
    app.route('/api/admin/pricing-tiers', pricingTierRoutes);
    app.route('/api/paddle', paddleRoutes);
    app.route('/api/admin/outbox', outboxRoutes);
    app.route('/api/admin', adminMaintenanceRoutes);
    app.route('/api/crm', crmRoutes);
    for (const p of registeredProviders()) app.route(`/api/auth/${p.crmType}`, crmAuthRoutes(p.crmType));
    app.route('/api/queries', queryRoutes);
    app.route('/api/customers', customerRoutes);
    app.route('/api/smart-segments', smartSegmentRoutes);
    app.route('/api/admin/smart-segments', adminSmartSegmentRoutes);
    app.route('/api/segments', segmentRoutes);
    // (more REST route groups are mounted here, one line each)

    app.all('/api/*', (c) =>
      c.json({ error: 'Not found', message: `No API route for ${c.req.method} ${c.req.path}` }, 404),
    );
    app.route('/', webAppRoutes());

    app.onError((err, c) => {
      const { status, headers, body } = errorResponse(err, logger, c.req.path);
      return c.json(body, status as 400, headers);
    });
    return app;
  }

  return {
    get url() {
      return url;
    },
    get deps() {
      if (!deps) throw new Error('App not started');
      return deps;
    },
    get sandbox() {
      return sandboxes.get('hubspot') as HubSpotSandbox | undefined;
    },
    get sandboxes() {
      return sandboxes;
    },
    get restRoutes() {
      return restRoutes;
    },
    get inflightCount() {
      return inflight.count();
    },
    get database() {
      if (!database) throw new Error('App not started');
      return database;
    },
    async start(port = config.port) {
      database ??= await openDatabase(config);
      if (config.runWorker === false && database.embedded) {
        throw new Error('RUN_WORKER=false needs DATABASE_URL: the embedded database belongs to this process, so its jobs run here');
      }
      // Listen first: the URL (port 0 in tests) is needed to wire the in-process HubSpot sandbox.
      let route: (req: IncomingMessage, res: ServerResponse) => Promise<void> = async (_req, res) => void res.writeHead(503).end('Starting');
      const s = createServer((req, res) => {
        inflight.track(() => route(req, res)).catch((err: unknown) => {
          // Handlers answer their own errors; this is the last guard against a crash of the process.
          logger.error({ err, path: req.url?.split('?')[0] }, 'request failed');
          if (!res.headersSent) res.writeHead(500).end();
          else res.destroy();
        });
      });
      server = await new Promise<Server>((resolve) => s.listen(port, config.host, () => resolve(s)));
      const actualPort = (server.address() as AddressInfo).port;
      url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${actualPort}`;

      const crmEndpoints = resolveCrmEndpoints(config, url);
      sandboxes = new Map();
      for (const p of registeredProviders()) {
        const endpoints = crmEndpoints(p.crmType);
        if (endpoints.sandbox && p.createSandbox) sandboxes.set(p.crmType, p.createSandbox(config, endpoints));
      }
      events = createEvents(config.redisUrl);
      deps = { prisma: database.prisma, bulk: database.bulk, config, logger, now: opts.now ?? (() => new Date()), events, crmEndpoints };
      deps.mailer = createMailer(config, logger);
      deps.appUrl = config.publicUrl ?? url;
      if (config.redisUrl) deps.searchLimiters = createSharedSearchLimiters(config.redisUrl);
      if (config.readCacheTtlMs > 0) {
        deps.cache = createReadCache(config.readCacheTtlMs);
        void followInvalidations(deps);
      }
      // Jobs (generation, imports) go on the queue, set before the first request is served: to the
      // worker in this process, or with RUN_WORKER=false (PostgreSQL only) to the separate workers.
      if (config.runWorker === false) {
        jobQueue = await createJobQueue({ databaseUrl: database.url, mongoUrl: config.agendaMongoUrl, embedded: false, logger });
        deps.jobs = jobQueue;
      }
      if (config.seed.onStart) {
        const created = await seed(database.prisma, config.seed);
        if (created.length) {
          (opts.onSeeded ?? printCredentials)(created);
        }
      }
      // The jobs worker runs in this process unless RUN_WORKER=false (always on the embedded database).
      if (config.runWorker !== false) {
        worker = await startWorker(deps, database);
        deps.jobs = worker.queue;
      }
      const app = createHttpApp(deps);
      const yoga = createGraphQLServer(deps);
      // (a route with its own middleware is listed once per handler: keep one entry)
      const keys = new Set(app.routes.filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL').map((r) => `${r.method} ${r.path}`));
      restRoutes = [...keys].map((k) => ({ method: k.split(' ')[0], path: k.split(' ')[1] }));
      // The node bindings (the request's socket: the client's address) are passed on to the app.
      const rest = getRequestListener((req, env) => app.fetch(req, env));
      const graphql = graphqlEndpoint(deps, yoga, { logger, headers: await securityHeaderLists(headerPolicy), maxBodyBytes: config.bodyLimits.graphqlBytes });
      route = (req, res) => (isGraphQLRequest(req) ? graphql(req, res) : rest(req, res));

      wss = new WebSocketServer({
        server,
        path: '/graphql',
        // Same rule as REST writes: another site's page may not open a socket with the user's cookie.
        verifyClient: ({ req }, done) => (allowWebsocketOrigin(deps!, req) ? done(true) : done(false, 403, 'Forbidden origin')),
      });
      attachWebsocketGraphQL(deps, yoga, wss);
      logger.info({ url, embeddedDatabase: database.embedded, crmSandboxes: [...sandboxes.keys()] }, 'CRM Assistant listening');
      return { url, port: actualPort };
    },
    /**
     * Graceful stop (SIGTERM): stop accepting connections, let in-flight requests and running jobs
     * finish within SHUTDOWN_TIMEOUT_MS, tell websocket clients to reconnect elsewhere (1001), then
     * close the event bus and the database. Only what is still running after the deadline is cut.
     */
    async stop() {
      // close(): no new connections; idle keep-alive sockets close now, busy ones after their response.
      const closed = new Promise<void>((r) => (server ? server.close(() => r()) : r()));
      for (const client of wss?.clients ?? []) client.close(1001, 'Server restarting');
      const deadline = new Promise<void>((r) => setTimeout(r, config.shutdownTimeoutMs).unref());
      await Promise.all([
        worker?.stop({ timeoutMs: config.shutdownTimeoutMs }),
        Promise.race([Promise.all([closed, inflight.drained(config.shutdownTimeoutMs)]), deadline]),
        // questions answered with their first page: the rest of their customers are being stored
        deps && finishBackground(deps, config.shutdownTimeoutMs),
      ]);
      worker = undefined;
      await jobQueue?.close();
      jobQueue = undefined;
      server?.closeAllConnections?.();
      for (const client of wss?.clients ?? []) client.terminate();
      await new Promise<void>((r) => (wss ? wss.close(() => r()) : r()));
      await closed;
      await deps?.searchLimiters?.close();
      deps?.mailer?.close();
      await events?.close();
      if (!opts.database) await database?.close();
      server = undefined;
      wss = undefined;
    },
  };
}

/** Counts requests being handled (until their response is written), so a graceful stop can wait for them. */
function inflightRequests() {
  let active = 0;
  let waiters: (() => void)[] = [];
  return {
    count: () => active,
    async track(fn: () => Promise<void>): Promise<void> {
      active++;
      try {
        return await fn();
      } finally {
        active--;
        if (active === 0) {
          for (const w of waiters) w();
          waiters = [];
        }
      }
    },
    /** Resolves when no request is in flight, or after timeoutMs. */
    drained(timeoutMs: number): Promise<void> {
      if (active === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** Paths are logged without query strings; OAuth token paths (HubSpot's API shape) lose the token. */
export const loggablePath = (path: string) => path.replace(/(\/(?:access|refresh)-tokens\/)[^/]+/, '$1[redacted]');

function printCredentials(accounts: CreatedAccount[]) {
  // Printed once, when the accounts are created; they are not stored anywhere in clear text.
  const lines = accounts.map((a) => `  ${a.role.padEnd(5)}  ${a.email}  password: ${a.password}`);
  process.stdout.write(`\nSeeded accounts (shown only this once):\n${lines.join('\n')}\n\n`);
}
