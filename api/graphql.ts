// GraphQL over HTTP (Yoga) and over websockets (graphql-ws), with the same context and auth.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { print, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createGraphQLError, createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { WebSocket, WebSocketServer } from 'ws';
import { CREDENTIAL_TOPIC } from './events/pubsub.js';
import { useServer } from 'graphql-ws/use/ws';
import type { RequestContext } from './context.js';
import { asAppError, isRefusalCode, toGraphQLError } from './errors.js';
import { armorPlugins, useInputGuard, usePageCostLimit } from './graphql-limits.js';
import { isAllowedOrigin } from './http/csrf.js';
import { createRequestContext, presentedByNode } from './http/request-context.js';
import { schema } from './schema/index.js';
import type { ServiceDeps } from './services/deps.js';

/** What the HTTP endpoint hands Yoga: the request's context and the Set-Cookie headers its resolvers queued. */
export type ServerContext = { ctx: RequestContext; cookies?: string[] };
export type Yoga = YogaServerInstance<ServerContext, RequestContext>;

/** Header a browser client must send on GraphQL GET requests (POST with JSON passes as is). */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

const isGraphQLError = (e: unknown) => (e as { name?: string } | null)?.name === 'GraphQLError';

export function createGraphQLServer(deps: ServiceDeps): Yoga {
  return createYoga<ServerContext, RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    context: ({ ctx }) => ctx,
    // GraphiQL (development only) is rendered from its npm package: it works offline.
    graphiql: deps.config.env !== 'production' ? { subscriptionsProtocol: 'WS' } : false,
    renderGraphiQL,
    // Only the app's own origin (and PUBLIC_URL) gets CORS headers; no other site may read responses.
    cors: (request) => {
      const origin = request.headers.get('origin');
      if (!origin || !isAllowedOrigin(origin, new URL(request.url).origin, { publicUrl: deps.config.publicUrl })) return false;
      return { origin, credentials: true, methods: ['GET', 'POST'] };
    },
    // Yoga's own log lines may carry request parameters (operation text, variables: passwords,
    // tokens): only their leading text is kept. GraphQL errors are logged by useOperationErrorLog.
    logging: {
      debug: (...a) => deps.logger.debug(...safeLogArgs(a)),
      info: (...a) => deps.logger.info(...safeLogArgs(a)),
      warn: (...a) => deps.logger.warn(...safeLogArgs(a)),
      // An expected refusal (a domain error with its code, e.g. a banned user's sign-in) is not a
      // server error: it is logged at info, so the error log holds only what needs fixing.
      error: (...a) => {
        // Yoga logs the error it masked: a GraphQLError around our domain error, or one that
        // carries a refusal's code itself (scope-auth's UNAUTHENTICATED / FORBIDDEN / ACCOUNT_SUSPENDED).
        const code = errorCode(a[0]);
        if (isRefusalCode(code)) deps.logger.info({ err: { code } }, 'graphql refusal');
        else deps.logger.error(...safeLogArgs(a));
      },
    },
    maskedErrors: {
      maskError(error) {
        // Duck-typed: graphql ships CJS and ESM builds, so instanceof GraphQLError is unreliable.
        const original = (error as { originalError?: unknown }).originalError ?? error;
        const known = asAppError(original);
        if (known) return toGraphQLError(known);
        if (isGraphQLError(original)) return original as Error;
        // Name, message and stack only: a GraphQLError's source (the operation text) stays out.
        const err = original as Error;
        deps.logger.error({ err: { type: err?.name, message: err?.message, stack: err?.stack } }, 'unexpected GraphQL error');
        return createGraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      },
    },
    // One operation per request (no batching); armor and page-cost limits before any resolver.
    batching: false,
    // The body is read and limited (GRAPHQL_BODY_LIMIT_BYTES) by the endpoint before Yoga sees it
    // (http/graphql-endpoint.ts); Yoga's second limit would pipe every body through a stream again.
    maxRequestBodySize: false,
    plugins: [
      useQueuedCookies(),
      useCSRFPrevention({ requestHeaders: [CSRF_HEADER] }),
      useOperationErrorLog(deps.logger),
      ...armorPlugins(deps.config.env === 'production'),
      usePageCostLimit(),
      useInputGuard(),
      ...(deps.config.env === 'production' ? [useDisableIntrospection()] : []),
    ],
  });
}

/** The cookies resolvers queued (sign-in, sign-out) go on the response. */
function useQueuedCookies(): Plugin<object, ServerContext> {
  return {
    onResponse({ response, serverContext }) {
      for (const cookie of serverContext?.cookies ?? []) response.headers.append('set-cookie', cookie);
    },
  };
}

/** A Yoga log call reduced to its leading text, or an error's type, code and message (never its source). */
function safeLogArgs(args: unknown[]): [Record<string, unknown>, string] {
  const first = args[0];
  if (typeof first === 'string') return [{}, first];
  if (first && typeof first === 'object' && 'message' in first) {
    const e = first as { name?: string; message?: string; extensions?: { code?: unknown } };
    // Quoted parts of a message may be a variable's value (a password): they are blanked.
    const message = String(e.message ?? '').replace(/"[^"]*"/g, '"…"').slice(0, 200);
    return [{ err: { type: e.name, code: e.extensions?.code, message } }, 'graphql-yoga error'];
  }
  return [{}, 'graphql-yoga'];
}

/**
 * One log line per failed operation: its name, the error codes and a hash of the document — never
 * the operation text or its variables, which may hold passwords and tokens.
 */
function useOperationErrorLog(logger: ServiceDeps['logger']): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          const errors = 'errors' in result ? result.errors : undefined;
          if (!errors?.length) return;
          logger.info(
            {
              operationName: args.operationName ?? operationNameOf(args.document),
              codes: [...new Set(errors.map(errorCode))],
              documentHash: createHash('sha256').update(print(args.document)).digest('hex').slice(0, 16),
            },
            'graphql operation failed',
          );
        },
      };
    },
  };
}

/**
 * The code a client is given for an error (before masking: a resolver's domain error is still
 * wrapped): its own code, its domain error's, else INTERNAL_SERVER_ERROR as masking will say.
 */
function errorCode(error: unknown): string {
  const own = (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  if (own) return String(own);
  const original = (error as { originalError?: unknown } | null)?.originalError;
  const known = asAppError(original ?? error);
  if (known) return known.code;
  const inner = (original as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  return inner ? String(inner) : 'INTERNAL_SERVER_ERROR';
}

const operationNameOf = (doc: DocumentNode) => doc.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')?.name?.value ?? null;

/**
 * The websocket upgrade's origin check (as for REST writes): a browser page on another origin may not
 * open a socket with the user's cookie. Clients without an Origin header (the CLI) are not browsers.
 */
export function allowWebsocketOrigin(deps: ServiceDeps, req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  const host = req.headers.host;
  // The scheme seen here may be a proxy's; the host is what identifies the app.
  return Boolean(host) && ['http', 'https'].some((scheme) => isAllowedOrigin(origin, `${scheme}://${host}`, { publicUrl: deps.config.publicUrl }));
}

/** Close code graphql-ws clients treat as "unauthorized" (the web app and the CLI stop retrying). */
export const WS_UNAUTHORIZED = 4401;

/**
 * graphql-ws on the same port; the upgrade request's session cookie (or a Bearer token in the
 * connection params) authenticates the socket. When that credential ends (logout, revoked token,
 * password change, ban), the socket is closed with 4401 at once, so no event is delivered after.
 */
export function attachWebsocketGraphQL(deps: ServiceDeps, yoga: Yoga, wss: WebSocketServer) {
  const credentials = new Map<WebSocket, RequestContext>();
  void closeEndedCredentials(deps, credentials);
  return useServer(
    {
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onConnect: async (wsCtx) => {
        const socket = wsCtx.extra.socket as WebSocket;
        credentials.set(socket, await wsRequestContext(deps, wsCtx.extra.request as IncomingMessage, wsCtx.connectionParams));
        socket.once('close', () => credentials.delete(socket));
        return true;
      },
      onSubscribe: async (wsCtx, _id, params) => {
        const req = wsCtx.extra.request as IncomingMessage;
        // The credential is checked again for every subscription: it may have ended since connecting.
        const ctx = await wsRequestContext(deps, req, wsCtx.connectionParams);
        if (!ctx.user && credentials.get(wsCtx.extra.socket as WebSocket)?.user) {
          (wsCtx.extra.socket as WebSocket).close(WS_UNAUTHORIZED, 'Unauthorized');
          return [createGraphQLError('Your session has ended', { extensions: { code: 'UNAUTHENTICATED' } })];
        }
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

/** Closes the sockets whose credential has ended, on this API process (events cross processes). */
async function closeEndedCredentials(deps: ServiceDeps, credentials: Map<WebSocket, RequestContext>) {
  for await (const ended of deps.events.pubsub.subscribe('credentialEnded', CREDENTIAL_TOPIC)) {
    for (const [socket, ctx] of credentials) {
      if (!ctx.user || ctx.user.id !== ended.userId) continue;
      const matches =
        ended.all ||
        (ended.sessionId !== undefined && ctx.session?.id === ended.sessionId) ||
        (ended.accessTokenId !== undefined && ctx.accessToken?.id === ended.accessTokenId) ||
        (ended.exceptSessionId !== undefined && ctx.session !== null && ctx.session.id !== ended.exceptSessionId);
      if (matches) socket.close(WS_UNAUTHORIZED, 'Unauthorized');
    }
  }
}

/** The socket's credential: a bearer token in the connection params or headers (CLI), else the cookie. */
function wsRequestContext(deps: ServiceDeps, req: IncomingMessage, params: Record<string, unknown> | undefined): Promise<RequestContext> {
  const fromParams = typeof params?.authorization === 'string' ? params.authorization : undefined;
  const presented = presentedByNode(req);
  return createRequestContext(deps, { ...presented, authorization: fromParams ?? presented.authorization });
}
