// /graphql over HTTP, served from the node request straight into Yoga rather than through Hono.
// Every signed-in screen reads through here, and Hono's Request and Response built on top of Yoga's
// own cost about a fifth of such a request (issue 16's profile). The rules are the app's: the
// body read only up to GRAPHQL_BODY_LIMIT_BYTES (413 before reading more), the credential resolved
// once per request, the security headers, one log line, the REST error shape when the context cannot
// be built (database unreachable: 503).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Yoga } from '../graphql.js';
import type { Logger } from '../logger.js';
import type { ServiceDeps } from '../services/deps.js';
import { asAppError, toGraphQLError } from '../errors.js';
import { readBodyWithin } from './body-limit.js';
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
  opts: { logger: Logger; headers: { api: HeaderList; graphiql: HeaderList }; maxBodyBytes: number },
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const started = performance.now();
    res.once('finish', () => opts.logger.info({ method: req.method, path: GRAPHQL_PATH, status: res.statusCode, ms: Math.round(performance.now() - started) }, 'request'));
    // GraphiQL (a development page) has its own, looser policy; everything else the API's.
    const graphiql = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
    for (const [name, value] of graphiql ? opts.headers.graphiql : opts.headers.api) res.setHeader(name, value);
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
      let body: Buffer;
      try {
        body = await readBodyWithin(req, opts.maxBodyBytes);
      } catch (err) {
        const known = asAppError(err);
        if (known?.code !== 'PAYLOAD_TOO_LARGE') {
          res.destroy(); // the client went away mid-body: nobody to answer
          return;
        }
        // The rest of the body is never read: this connection cannot carry another request.
        const { message, extensions } = toGraphQLError(known).toJSON();
        const json = JSON.stringify({ errors: [{ message, extensions: { code: extensions?.code } }] });
        res.writeHead(413, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json), connection: 'close' }).end(json);
        return;
      }
      // Yoga reads a body a server framework has already read from `req.body`. The bytes themselves
      // (a Uint8Array) become the Request's body as they are, with no stream in between; an empty body
      // as an async iterable (whatwg-node ignores an empty Buffer). Content type and CSRF rules apply
      // as to the stream. The size limit was applied while reading (Yoga's own is off, graphql.ts).
      (req as IncomingMessage & { body?: unknown }).body = body.length > 0 ? body : { bytes: 0, async *[Symbol.asyncIterator]() {} };
    }
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
