// /graphql over HTTP, served from the node request straight into Yoga rather than through Hono.
// Every signed-in screen reads through here, and Hono's Request and Response built on top of Yoga's
// own cost about a fifth of such a request (issue 16's profile). The rules are the app's: the
// credential resolved once per request, the security headers, one log line, the REST error shape
// when the context cannot be built (database unreachable: 503).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Yoga } from '../graphql.js';
import type { Logger } from '../logger.js';
import type { ServiceDeps } from '../services/deps.js';
import { errorResponse } from './error-response.js';
import { createRequestContext, presentedByNode } from './request-context.js';
import type { HeaderList } from './security-headers.js';

export const GRAPHQL_PATH = '/graphql';

/** Whether a node request is for the GraphQL endpoint (any method: Yoga answers CORS preflights and 405s). */
export const isGraphQLRequest = (req: IncomingMessage) => {
  const url = req.url ?? '';
  return url === GRAPHQL_PATH || url.startsWith(`${GRAPHQL_PATH}?`);
};

export function graphqlEndpoint(
  deps: ServiceDeps,
  yoga: Yoga,
  opts: { logger: Logger; headers: { api: HeaderList; graphiql: HeaderList } },
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const started = performance.now();
    res.once('finish', () => opts.logger.info({ method: req.method, path: GRAPHQL_PATH, status: res.statusCode, ms: Math.round(performance.now() - started) }, 'request'));
    // GraphiQL (a development page) has its own, looser policy; everything else the API's.
    const graphiql = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
    for (const [name, value] of graphiql ? opts.headers.graphiql : opts.headers.api) res.setHeader(name, value);
    const cookies: string[] = [];
    let ctx;
    try {
      ctx = await createRequestContext(deps, presentedByNode(req), (h) => cookies.push(h));
    } catch (err) {
      const { status, headers, body } = errorResponse(err, opts.logger, GRAPHQL_PATH);
      req.resume(); // the body is not read: drain it so the connection can be reused
      res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    await yoga.handle(req, res, { ctx, cookies });
  };
}
