// GraphQL over HTTP (Yoga) and over websockets (graphql-ws), with the same context and auth.
import type { IncomingMessage } from 'node:http';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { createGraphQLError, createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { RequestContext } from './context.js';
import { asAppError, toGraphQLError } from './errors.js';
import { readSessionToken } from './http/cookies.js';
import { schema } from './schema/index.js';
import type { ServiceDeps } from './services/deps.js';
import { resolveCredential } from './services/credentials.js';

export type ServerContext = { ctx: RequestContext };
export type Yoga = YogaServerInstance<ServerContext, RequestContext>;

/** Header a browser client must send on GraphQL GET requests (POST with JSON passes as is). */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

const isGraphQLError = (e: unknown) => (e as { name?: string } | null)?.name === 'GraphQLError';

export function createGraphQLServer(deps: ServiceDeps): Yoga {
  return createYoga<ServerContext, RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    context: ({ ctx }) => ctx,
    graphiql: deps.config.env !== 'production' ? { subscriptionsProtocol: 'WS' } : false,
    logging: {
      debug: (...a) => deps.logger.debug(a.map(String).join(' ')),
      info: (...a) => deps.logger.info(a.map(String).join(' ')),
      warn: (...a) => deps.logger.warn(a.map(String).join(' ')),
      error: (...a) => deps.logger.error(a.map(String).join(' ')),
    },
    maskedErrors: {
      maskError(error) {
        // Duck-typed: graphql ships CJS and ESM builds, so instanceof GraphQLError is unreliable.
        const original = (error as { originalError?: unknown }).originalError ?? error;
        const known = asAppError(original);
        if (known) return toGraphQLError(known);
        if (isGraphQLError(original)) return original as Error;
        deps.logger.error({ err: original }, 'unexpected GraphQL error');
        return createGraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      },
    },
    plugins: [useCSRFPrevention({ requestHeaders: [CSRF_HEADER] })],
  });
}

/** graphql-ws on the same port; the upgrade request's session cookie authenticates the socket. */
export function attachWebsocketGraphQL(deps: ServiceDeps, yoga: Yoga, wss: WebSocketServer) {
  return useServer(
    {
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onSubscribe: async (wsCtx, _id, params) => {
        const req = wsCtx.extra.request as IncomingMessage;
        const ctx = await wsRequestContext(deps, req, wsCtx.connectionParams);
        const { schema: s, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ctx,
          req,
          socket: wsCtx.extra.socket,
          params,
        });
        const args = {
          schema: s,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args;
      },
    },
    wss,
  );
}

/** The socket's credential: a bearer token in the connection params or headers (CLI), else the cookie. */
async function wsRequestContext(deps: ServiceDeps, req: IncomingMessage, params: Record<string, unknown> | undefined): Promise<RequestContext> {
  const fromParams = typeof params?.authorization === 'string' ? params.authorization : undefined;
  const credential = await resolveCredential(deps, {
    authorization: fromParams ?? req.headers.authorization,
    sessionToken: readSessionToken(req.headers.cookie),
  });
  return {
    deps,
    ...credential,
    meta: { ip: req.socket.remoteAddress ?? 'unknown', userAgent: req.headers['user-agent'], secure: false },
    setCookie: () => {},
  };
}
